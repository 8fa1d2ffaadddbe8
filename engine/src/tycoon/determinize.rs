//! What a seat cannot see in Tycoon: only the order of the two face-down draw piles. Hands,
//! displays, discards, cash, loans and the board are public (TY-TIX-5, TY-AFTER-3), and every
//! pile's contents follow from them, so a seat's sample keeps all of that and reshuffles the
//! piles.

use super::state::State;
use crate::Seat;
use rand::seq::SliceRandom;
use rand::RngCore;

/// `state` with each draw pile in a fresh random order (see [`crate::Game::determinize`]).
pub fn determinize(state: &State, _seat: Seat, rng: &mut dyn RngCore) -> State {
    let mut sample = state.clone();
    for deck in &mut sample.decks {
        // The true order must not leak into the sample: start from a canonical one.
        deck.draw.sort_unstable();
        deck.draw.shuffle(rng);
    }
    sample
}
