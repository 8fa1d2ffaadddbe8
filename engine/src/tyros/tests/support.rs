//! Helpers to set a table up for a scenario and to run actions through the real rules.
//!
//! Players are named as in the spec's scenarios: White (seat 0), Red (1), Grey (2), Black (3).

use super::coverage::SPEC;
use crate::rule_tests;
use crate::tyros::cards::{Cards, Empire};
use crate::tyros::data::{Cell, Tile};
use crate::tyros::state::{Due, Field, Phase, Pirate, ShipId, State, Turn};
use crate::tyros::{Action, Config, Event, Tyros};
use crate::{Game, RuleError, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub const W: u8 = 0;
pub const R: u8 = 1;
pub const G: u8 = 2;
pub const B: u8 = 3;

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A freshly set-up game (real setup, seeded shuffles).
pub fn new_game(players: usize, config: Config, seed: u64) -> State {
    let events = Tyros::setup(&config, players, &mut rng(seed)).expect("valid setup");
    Tyros::replay(&events)
}

pub fn cell(id: &str) -> Cell {
    serde_json::from_value(serde_json::json!(id)).expect("known cell")
}

pub fn cells(ids: &[&str]) -> Vec<Cell> {
    ids.iter().map(|id| cell(id)).collect()
}

pub fn cards(json: serde_json::Value) -> Cards {
    serde_json::from_value(json).expect("cards")
}

/// An action-phase table in round 2: every field neutral, no city, no pirate, every ship in
/// its owner's supply, empty hands, the whole deck shuffled in the draw pile, and White's turn
/// just started (turn 5). Tiles are left as the real setup made them.
pub fn table(players: usize, config: Config) -> State {
    let mut state = new_game(players, config, 1);
    let mut deck = state.config.trade_card_split.to_list();
    rand::seq::SliceRandom::shuffle(&mut deck[..], &mut rng(7));
    state.draw_pile = deck;
    state.discard_pile.clear();
    for f in &mut state.fields {
        *f = Field::default();
    }
    for s in &mut state.ships {
        s.at = None;
        s.galley = false;
        s.explorer = false;
        s.arrived = 0;
    }
    for p in &mut state.players {
        p.cards = Cards::NONE;
    }
    state.round = 2;
    state.start_player = Seat(W);
    state.turn_number = 5;
    state.dues.clear();
    state.offer = None;
    state.fight = None;
    state.pending_fight = None;
    give_turn(&mut state, W);
    state
}

/// Make it `seat`'s action-phase turn, started, nothing done yet.
pub fn give_turn(state: &mut State, seat: u8) {
    state.phase = Phase::Actions {
        turn: Turn {
            seat: Seat(seat),
            started: true,
            acted: false,
            traded: false,
        },
        passes: 0,
    };
}

/// Assign fields to an empire.
pub fn empire(state: &mut State, colour: Empire, fields: &[&str]) {
    for id in fields {
        state.field_mut(cell(id)).empire = Some(colour);
    }
}

/// Put one of `seat`'s supply ships on `at` (arrived at the start of the game).
pub fn ship(state: &mut State, seat: u8, at: &str) -> ShipId {
    let id = state
        .ships_in_supply(Seat(seat))
        .next()
        .expect("a ship in supply");
    state.ship_mut(id).at = Some(cell(at));
    id
}

/// Put a war galley of `seat` on `at`.
pub fn galley(state: &mut State, seat: u8, at: &str) -> ShipId {
    let id = ship(state, seat, at);
    state.ship_mut(id).galley = true;
    id
}

pub fn city(state: &mut State, seat: u8, at: &str) {
    state.field_mut(cell(at)).city = Some(Seat(seat));
    state.players[usize::from(seat)].cities_left -= 1;
}

pub fn pirate(state: &mut State, at: &str) {
    let c = cell(at);
    state.field_mut(c).pirate = Some(Pirate {
        sinks_at_turn_start: false,
    });
    state.used_tiles.retain(|t| t.cell() != c);
}

pub fn hand(state: &mut State, seat: u8, json: serde_json::Value) {
    state.players[usize::from(seat)].cards = cards(json);
}

pub fn held(state: &State, seat: u8) -> Cards {
    state.players[usize::from(seat)].cards
}

/// Give `seat` these tiles (taken from wherever they are).
pub fn tiles(state: &mut State, seat: u8, numbers: &[u8]) {
    for &n in numbers {
        let t = Tile(n);
        state.tile_pile.retain(|x| *x != t);
        for p in &mut state.players {
            p.tiles.retain(|x| *x != t);
        }
        state.players[usize::from(seat)].tiles.push(t);
    }
}

/// Decide and, if accepted, fold: the events, or the error with the state untouched.
pub fn act(state: &mut State, seat: u8, action: Action) -> Result<Vec<Event>, RuleError> {
    rule_tests::act::<Tyros>(state, Seat(seat), &action, &mut rng(2))
}

/// Assert an action is refused with `code` by a rule of the spec, and is not listed.
pub fn refused(state: &mut State, seat: u8, action: Action, code: &str) -> RuleError {
    rule_tests::refused::<Tyros>(state, Seat(seat), &action, code, &SPEC, &mut rng(2))
}

/// Assert an action is accepted.
pub fn accepted(state: &mut State, seat: u8, action: Action) -> Vec<Event> {
    act(state, seat, action.clone()).unwrap_or_else(|e| panic!("{action:?} refused: {e}"))
}

/// A move along an explicit path.
pub fn move_by(ship: ShipId, path: &[&str]) -> Action {
    let path = cells(path);
    Action::Move {
        ship,
        to: *path.last().unwrap(),
        path: Some(path),
        wind: false,
        cost: None,
    }
}

/// Pay the first due with `json` cards.
pub fn pay(state: &mut State, seat: u8, json: serde_json::Value) -> Vec<Event> {
    accepted(state, seat, Action::Pay { cards: cards(json) })
}

/// The dues of the first `DuesOwed` event.
pub fn owed(events: &[Event]) -> Vec<Due> {
    events
        .iter()
        .find_map(|e| match e {
            Event::DuesOwed { dues } => Some(dues.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// Every card paid in the events, by reason.
pub fn paid(events: &[Event]) -> Vec<(crate::tyros::state::DueReason, Cards)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::DuePaid { reason, cards, .. } => Some((*reason, *cards)),
            _ => None,
        })
        .collect()
}

pub fn points(state: &State, seat: u8) -> i32 {
    state.players[usize::from(seat)].pirate_points
}

/// `seat` passes.
pub fn pass(state: &mut State, seat: u8) -> Vec<Event> {
    accepted(state, seat, Action::Pass)
}

/// Phase 2's last placement, after which the pirate phase draws `field` from the used pool:
/// the pool holds only `field` and the placed tile, and the first rng seed drawing `field` is
/// used (TR-PIR-3). Returns the events of the placement.
pub fn pirate_phase_on(state: &mut State, field: &str) -> Vec<Event> {
    let target = cell(field);
    let players = state.players.len();
    let laps = state.config.tiles_per_round.for_players(players);
    let step = laps * players as u8 - 1;
    state.phase = Phase::Expansion {
        step,
        placed: true,
        drew: false,
    };
    let seat = crate::tyros::rules::expansion_seat(state, step);
    let tile = Tile::all()
        .find(|t| t.cell() != target && state.placeable(*t))
        .expect("a neutral field next to an empire");
    tiles(state, seat.0, &[tile.0]);
    state.used_tiles = vec![Tile(target.0)];
    let empire = state.adjacent_empires(tile.cell())[0];
    let action = Action::PlaceTile {
        tile,
        empire: Some(empire),
    };
    for seed in 0..100 {
        let events = Tyros::decide(state, seat, &action, &mut rng(seed)).expect("placeable");
        let lands = events
            .iter()
            .any(|e| matches!(e, Event::PirateAppeared { field, .. } if *field == target));
        if lands {
            for e in &events {
                Tyros::evolve(state, e);
            }
            return events;
        }
    }
    panic!("no seed puts the pirate on {field}")
}
