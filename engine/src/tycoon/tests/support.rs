//! Helpers to set a table up for a scenario and to run actions through the real rules.

use super::coverage::SPEC;
use crate::rule_tests;
use crate::tycoon::data::{board, City, Ticket};
use crate::tycoon::state::{Plane, Stage, State, Turn};
use crate::tycoon::{Action, Config, Event, Tycoon};
use crate::{Game, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A freshly set-up game (real setup, seeded shuffle).
pub fn new_game(players: usize) -> State {
    new_game_with(players, Config::default())
}

pub fn new_game_with(players: usize, config: Config) -> State {
    let events = Tycoon::setup(&config, players, &mut rng(1)).expect("valid setup");
    Tycoon::replay(&events)
}

pub fn city(id: &str) -> City {
    serde_json::from_value(serde_json::json!(id)).expect("known city")
}

pub fn ticket(id: &str) -> Ticket {
    serde_json::from_value(serde_json::json!(id)).expect("known ticket")
}

/// Make it `seat`'s turn with nothing done yet.
pub fn give_turn(state: &mut State, seat: u8) {
    state.stage = Stage::Turn(Turn {
        seat: Seat(seat),
        flown: false,
        purchased: false,
        main_action_done: false,
    });
}

/// Put a plane on a landing field (`None`: stopover).
pub fn place_plane(state: &mut State, seat: u8, at: &str, field: Option<u8>) {
    state.players[usize::from(seat)].plane = Plane::City {
        city: city(at),
        field,
    };
}

/// Put a ticket into a hand, taking it from wherever it lies so the 54 cards stay conserved.
pub fn give_ticket(state: &mut State, seat: u8, id: &str) {
    let t = ticket(id);
    take_ticket_from_everywhere(state, t);
    state.players[usize::from(seat)].tickets.push(t);
}

/// Put a ticket face up in the display.
pub fn display_ticket(state: &mut State, id: &str) {
    let t = ticket(id);
    take_ticket_from_everywhere(state, t);
    let deck = board().ticket(t).deck;
    state.deck_mut(deck).display.push(t);
}

fn take_ticket_from_everywhere(state: &mut State, t: Ticket) {
    for d in &mut state.decks {
        d.draw.retain(|x| *x != t);
        d.display.retain(|x| *x != t);
        d.discard.retain(|x| *x != t);
    }
    for p in &mut state.players {
        p.tickets.retain(|x| *x != t);
    }
}

/// Stand hotels on a city's track as if built in this order from space 0 (supply taken).
pub fn build_track(state: &mut State, at: &str, owners: &[u8]) {
    let c = city(at);
    for &owner in owners {
        let space = state.city(c).chain_length;
        state.city_mut(c).track[usize::from(space)] = Some(Seat(owner));
        state.city_mut(c).chain_length = space + 1;
        state.players[usize::from(owner)].hotels_in_supply -= 1;
    }
}

/// Assert an action is refused with `code` and a rule ID of the spec, and not listed as legal.
pub fn refused(state: &State, seat: u8, action: Action, code: &str) {
    rule_tests::refused::<Tycoon>(state, Seat(seat), &action, code, &SPEC, &mut rng(2));
}

/// Assert an action is accepted, and listed as legal beforehand.
pub fn accepted(state: &mut State, seat: u8, action: Action) -> Vec<Event> {
    rule_tests::accepted::<Tycoon>(state, Seat(seat), &action, &mut rng(2))
}
