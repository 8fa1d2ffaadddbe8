//! Helpers to set a table up for a scenario and to run actions through the real rules.

use crate::tycoon::data::{board, City, Ticket};
use crate::tycoon::state::{Plane, Stage, State, Turn};
use crate::tycoon::{Action, Config, Event, Tycoon};
use crate::{Game, RuleError, Seat};
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

/// Decide and, if accepted, fold: the events, or the error with the state untouched.
pub fn act(state: &mut State, seat: u8, action: Action) -> Result<Vec<Event>, RuleError> {
    let events = Tycoon::decide(state, Seat(seat), &action, &mut rng(2))?;
    for e in &events {
        Tycoon::evolve(state, e);
    }
    Ok(events)
}

/// Assert an action is refused with `code` and a rule ID of the spec, and not listed as legal.
pub fn refused(state: &State, seat: u8, action: Action, code: &str) {
    let err = Tycoon::decide(state, Seat(seat), &action, &mut rng(2))
        .expect_err("the action must be refused");
    assert_eq!(err.code, code, "{err}");
    assert_names_a_rule(&err);
    assert!(
        !Tycoon::legal_actions(state, Seat(seat)).contains(&action),
        "a refused action must not be listed as legal"
    );
}

/// Assert an action is accepted, and listed as legal beforehand.
pub fn accepted(state: &mut State, seat: u8, action: Action) -> Vec<Event> {
    assert!(
        Tycoon::legal_actions(state, Seat(seat)).contains(&action),
        "{action:?} should be listed as legal"
    );
    act(state, seat, action).unwrap_or_else(|e| panic!("{action:?} refused: {e}"))
}

/// The rule a refusal names is a rule ID of the spec (or one of the engine's generic ones).
pub fn assert_names_a_rule(err: &RuleError) {
    let generic = ["TURN", "END", "SETUP"];
    let ids = crate::spec_coverage::rule_ids(super::coverage::SPEC, super::coverage::is_rule_id);
    assert!(
        generic.contains(&err.rule) || ids.iter().any(|id| id == err.rule),
        "{err}: {} is no rule ID of the spec",
        err.rule
    );
}
