//! Helpers to set a table up for a scenario and to run actions through the real rules.

use super::coverage::SPEC;
use crate::acquire::data::{board, Chain, Tile};
use crate::acquire::state::{Cell, ChainState, Stage, State, Step, Turn};
use crate::acquire::{Acquire, Action, Config, Event, Payout};
use crate::rule_tests;
use crate::{Game, RuleError, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A freshly set-up game (real setup, seeded shuffle).
pub fn new_game(players: usize) -> State {
    new_game_with(players, Config::default(), 1)
}

pub fn new_game_with(players: usize, config: Config, seed: u64) -> State {
    let events = Acquire::setup(&config, players, &mut rng(seed)).expect("valid setup");
    Acquire::replay(&events)
}

pub fn tile(id: &str) -> Tile {
    id.parse().expect("known tile")
}

pub fn tiles(ids: &[&str]) -> Vec<Tile> {
    ids.iter().map(|id| tile(id)).collect()
}

pub fn chain(id: &str) -> Chain {
    serde_json::from_value(serde_json::json!(id)).expect("known chain")
}

/// An empty table: every tile in the pile (1A on top ... in a fixed order), empty hands,
/// start cash, all shares in the bank, and seat 0 about to place.
pub fn table(players: usize) -> State {
    table_with(players, Config::default())
}

pub fn table_with(players: usize, config: Config) -> State {
    let mut state = new_game_with(players, config, 1);
    let b = board();
    state.cells = vec![Cell::Empty; b.tile_count];
    state.chains = [ChainState {
        size: 0,
        bank_shares: b.constants.shares_per_chain,
    }; crate::acquire::data::CHAIN_COUNT];
    state.bag = Tile::all().rev().collect();
    for p in &mut state.players {
        p.hand.clear();
        p.cash = b.constants.start_cash;
        p.shares = [0; crate::acquire::data::CHAIN_COUNT];
    }
    state.removed.clear();
    state.bank_tiles.clear();
    state.merger = None;
    state.idle_turns = 0;
    give_turn(&mut state, 0);
    state
}

/// Make it `seat`'s turn with nothing done yet.
pub fn give_turn(state: &mut State, seat: u8) {
    state.stage = Stage::Turn(Turn {
        seat: Seat(seat),
        step: Step::Place,
        placed: false,
        bought: 0,
        announced: false,
        drew: false,
    });
}

/// Put the turn into the buying step (placement done).
pub fn to_buy_step(state: &mut State) {
    if let Stage::Turn(turn) = &mut state.stage {
        turn.step = Step::Buy;
        turn.placed = true;
    }
}

fn take(state: &mut State, t: Tile) {
    state.bag.retain(|x| *x != t);
    for p in &mut state.players {
        p.hand.retain(|x| *x != t);
    }
}

/// Lay unincorporated tiles on the board.
pub fn put(state: &mut State, ids: &[&str]) {
    for t in tiles(ids) {
        take(state, t);
        state.cells[t.index()] = Cell::Unincorporated;
    }
}

/// Lay a chain on the board.
pub fn put_chain(state: &mut State, id: &str, ids: &[&str]) {
    put_chain_tiles(state, chain(id), &tiles(ids));
}

pub fn put_chain_tiles(state: &mut State, c: Chain, ts: &[Tile]) {
    for &t in ts {
        take(state, t);
        state.cells[t.index()] = Cell::Chain(c);
        state.chains[c.index()].size += 1;
    }
}

/// Every chain on the board, two tiles each, in columns 1-2, 4-5, 7-8, 10-11 of rows A (the
/// first four) and C (the other three): none safe, none touching, no eighth one can be founded.
pub fn put_seven_chains(state: &mut State) {
    for (i, c) in Chain::all().enumerate() {
        let col = 1 + 3 * (i as u8 % 4);
        let letter = if i < 4 { 'A' } else { 'C' };
        put_chain_tiles(state, c, &row(letter, col, col + 1));
    }
}

/// Tiles of one row letter from column `from` to `to` inclusive.
pub fn row(letter: char, from: u8, to: u8) -> Vec<Tile> {
    (from..=to).map(|c| tile(&format!("{c}{letter}"))).collect()
}

pub fn give_tiles(state: &mut State, seat: u8, ids: &[&str]) {
    for t in tiles(ids) {
        take(state, t);
        state.players[usize::from(seat)].hand.push(t);
    }
}

/// Move a tile to the top of the pile.
pub fn bag_top(state: &mut State, id: &str) {
    let t = tile(id);
    take(state, t);
    state.bag.push(t);
}

/// Give shares from the bank.
pub fn give_shares(state: &mut State, seat: u8, id: &str, n: u8) {
    let c = chain(id);
    state.chains[c.index()].bank_shares -= n;
    state.players[usize::from(seat)].shares[c.index()] += n;
}

/// Decide and, if accepted, fold: the events, or the error with the state untouched.
pub fn act(state: &mut State, seat: u8, action: Action) -> Result<Vec<Event>, RuleError> {
    rule_tests::act::<Acquire>(state, Seat(seat), &action, &mut rng(2))
}

/// Assert an action is refused with `code` and a rule ID of the spec, and not listed as legal.
pub fn refused(state: &State, seat: u8, action: Action, code: &str) {
    rule_tests::refused::<Acquire>(state, Seat(seat), &action, code, &SPEC, &mut rng(2));
}

/// Assert an action is accepted, and listed as legal beforehand.
pub fn accepted(state: &mut State, seat: u8, action: Action) -> Vec<Event> {
    rule_tests::accepted::<Acquire>(state, Seat(seat), &action, &mut rng(2))
}

pub fn place(id: &str) -> Action {
    Action::PlaceTile {
        tile: tile(id),
        chain: None,
    }
}

pub fn found(id: &str, name: &str) -> Action {
    Action::PlaceTile {
        tile: tile(id),
        chain: Some(chain(name)),
    }
}

pub fn cash(state: &State, seat: u8) -> i32 {
    state.players[usize::from(seat)].cash
}

pub fn shares(state: &State, seat: u8, id: &str) -> u8 {
    state.players[usize::from(seat)].shares[chain(id).index()]
}

/// The bonuses paid to each seat for chain `id` in `events`, as (seat, amount).
pub fn payouts(events: &[Event], id: &str) -> Vec<(u8, i32)> {
    events
        .iter()
        .find_map(|e| match e {
            Event::BonusesPaid {
                chain: c, payouts, ..
            } if *c == chain(id) => Some(
                payouts
                    .iter()
                    .map(|p: &Payout| (p.seat.0, p.amount))
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no bonuses for {id} in {events:?}"))
}

/// The step of the turn in progress.
pub fn step(state: &State) -> Step {
    state.turn().unwrap().step
}

/// Defunct `id` of `size` tiles on row A, survivor Continental (bigger) on row C, tile 1B.
pub fn two_chain_merger(players: usize, id: &str, size: u8, holdings: &[(u8, u8)]) -> State {
    let mut state = table(players);
    put_chain_tiles(&mut state, chain(id), &row('A', 1, size));
    put_chain_tiles(&mut state, chain("continental"), &row('C', 1, size + 1));
    for &(seat, n) in holdings {
        give_shares(&mut state, seat, id, n);
    }
    give_tiles(&mut state, 0, &["1B"]);
    state
}

/// Continental 12 on row A, Imperial 11 on row C, Airport 3 at 6D-8D... as each test needs.
pub fn safe_table() -> State {
    let mut state = table(3);
    put_chain_tiles(&mut state, chain("continental"), &row('A', 1, 12));
    put_chain_tiles(&mut state, chain("imperial"), &row('C', 1, 11));
    state
}

/// Luxor 7 (row E 1-5 with 1D, 2D), Airport 5 (row E 7-11), Festival 3 (6F-6H); tile 6E.
pub fn three_chain_table(config: Config) -> State {
    let mut state = table_with(3, config);
    put_chain(
        &mut state,
        "luxor",
        &["1E", "2E", "3E", "4E", "5E", "1D", "2D"],
    );
    put_chain(&mut state, "airport", &["7E", "8E", "9E", "10E", "11E"]);
    put_chain(&mut state, "festival", &["6F", "6G", "6H"]);
    give_shares(&mut state, 0, "festival", 3);
    give_shares(&mut state, 1, "festival", 1);
    give_shares(&mut state, 1, "airport", 4);
    give_shares(&mut state, 2, "airport", 4);
    give_tiles(&mut state, 0, &["6E"]);
    state
}
