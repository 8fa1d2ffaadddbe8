//! Helpers to set a table up for a scenario and to run actions through the real rules with
//! scripted dice.

use super::coverage::SPEC;
use crate::monopoly::data::board;
use crate::monopoly::state::{State, Step, Turn};
use crate::monopoly::{Action, Config, Event, Monopoly};
use crate::rule_tests;
use crate::{Game, RuleError, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

pub const A: u8 = 0;
pub const B: u8 = 1;
pub const C: u8 = 2;
pub const D: u8 = 3;

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// An RNG that yields scripted dice: each die takes one 32-bit draw, `face - 1` gives `face`
/// (see `dice.rs`). Running out of script is a test bug and panics.
pub struct Dice(VecDeque<u32>);

impl Dice {
    pub fn new(rolls: &[[u8; 2]]) -> Dice {
        Dice(
            rolls
                .iter()
                .flat_map(|r| r.iter().map(|&face| u32::from(face) - 1))
                .collect(),
        )
    }
}

impl rand::RngCore for Dice {
    fn next_u32(&mut self) -> u32 {
        self.0
            .pop_front()
            .expect("the scenario rolled more dice than scripted")
    }
    fn next_u64(&mut self) -> u64 {
        u64::from(self.next_u32())
    }
    fn fill_bytes(&mut self, _: &mut [u8]) {
        panic!("scenarios draw only dice")
    }
}

/// A freshly set-up game of `players` (real setup, seeded shuffle), seat A on turn with
/// nothing rolled yet.
pub fn new_game(players: usize) -> State {
    new_game_with(players, Config::default())
}

pub fn new_game_with(players: usize, config: Config) -> State {
    let events = Monopoly::setup(&config, players, &mut rng(1)).expect("valid setup");
    let mut state = Monopoly::replay(&events);
    give_turn(&mut state, A);
    state.first_seat = Seat(A);
    state
}

/// Make it `seat`'s turn, nothing rolled.
pub fn give_turn(state: &mut State, seat: u8) {
    state.turn = Some(Turn {
        seat: Seat(seat),
        doubles: 0,
        rolled: false,
        again: false,
        step: Step::Roll,
    });
}

/// Hand deeds to `seat`.
pub fn own(state: &mut State, seat: u8, squares: &[u8]) {
    for &s in squares {
        state.deed_mut(s).expect("a deed").owner = Some(Seat(seat));
    }
}

pub fn mortgage(state: &mut State, square: u8) {
    state.deed_mut(square).expect("a deed").mortgaged = true;
}

/// Put buildings on a street, taking them from the bank's stock (level 5 = hotel).
pub fn set_level(state: &mut State, square: u8, level: u8) {
    let deed = state.deed_mut(square).expect("a deed");
    let old = deed.level;
    deed.level = level;
    let houses = |l: u8| if l == 5 { 0 } else { i32::from(l) };
    let hotels = |l: u8| i32::from(l == 5);
    state.bank_houses = (i32::from(state.bank_houses) + houses(old) - houses(level)) as u8;
    state.bank_hotels = (i32::from(state.bank_hotels) + hotels(old) - hotels(level)) as u8;
}

pub fn place(state: &mut State, seat: u8, square: u8) {
    state.players[usize::from(seat)].position = square;
}

pub fn cash(state: &State, seat: u8) -> i64 {
    state.players[usize::from(seat)].cash
}

pub fn set_cash(state: &mut State, seat: u8, cash: i64) {
    state.players[usize::from(seat)].cash = cash;
}

/// Put `card` on top of its deck.
pub fn stack(state: &mut State, card: &str) {
    let card: crate::monopoly::Card = serde_json::from_value(serde_json::json!(card)).unwrap();
    let deck = board().card(card).deck.index();
    state.decks[deck].retain(|c| *c != card);
    state.decks[deck].insert(0, card);
}

/// Decide with scripted dice and, if accepted, fold: the events, or the error with the state
/// untouched.
pub fn act_with(
    state: &mut State,
    seat: u8,
    action: Action,
    dice: &[[u8; 2]],
) -> Result<Vec<Event>, RuleError> {
    rule_tests::act::<Monopoly>(state, Seat(seat), &action, &mut Dice::new(dice))
}

/// An accepted action without dice.
pub fn ok(state: &mut State, seat: u8, action: Action) -> Vec<Event> {
    act_with(state, seat, action.clone(), &[]).unwrap_or_else(|e| panic!("{action:?} refused: {e}"))
}

/// An accepted roll with these dice (one pair, or more when the turn rolls for a Werk).
pub fn roll(state: &mut State, seat: u8, dice: &[[u8; 2]]) -> Vec<Event> {
    act_with(state, seat, Action::Roll, dice).unwrap_or_else(|e| panic!("roll refused: {e}"))
}

/// Assert an action is refused with `code` by a rule of the spec, and is not listed.
pub fn refused(state: &mut State, seat: u8, action: Action, code: &str) {
    let mut dice = Dice::new(&[[1, 2]; 4]);
    rule_tests::refused::<Monopoly>(state, Seat(seat), &action, code, &SPEC, &mut dice);
}

/// Whether `action` is listed for `seat`.
pub fn listed(state: &State, seat: u8, action: &Action) -> bool {
    Monopoly::legal_actions(state, Seat(seat)).contains(action)
}

/// The pending rent ids owed to `owner`.
pub fn pending_rents(state: &State, owner: u8) -> Vec<u32> {
    state
        .rents
        .iter()
        .filter(|r| r.owner == Seat(owner))
        .map(|r| r.rent)
        .collect()
}

/// Claim the only pending rent of `owner`.
pub fn claim(state: &mut State, owner: u8) -> Vec<Event> {
    let rents = pending_rents(state, owner);
    assert_eq!(
        rents.len(),
        1,
        "one pending rent expected: {:?}",
        state.rents
    );
    ok(state, owner, Action::ClaimRent { rent: rents[0] })
}

/// The amounts of the rents owed in `events`.
pub fn rents_owed(events: &[Event]) -> Vec<i64> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::RentOwed { amount, .. } => Some(*amount),
            _ => None,
        })
        .collect()
}

/// Move `seat`'s token onto `square` by a roll of (1,2) from three squares back (LOS may be
/// passed on the way: +200).
pub fn land_on(state: &mut State, seat: u8, square: u8) -> Vec<Event> {
    place(state, seat, (square + 37) % 40);
    roll(state, seat, &[[1, 2]])
}
