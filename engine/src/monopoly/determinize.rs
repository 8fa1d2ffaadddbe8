//! What a seat cannot see in Monopoly: only the order of the cards at the top of each deck that
//! nobody has drawn since the shuffle. A drawn card is read out and goes under its deck (or into
//! a hand, and later under its deck) in the open (MO-CARD-1, MO-CARD-2), and the decks are never
//! reshuffled (MO-SETUP-3), so every card below the undrawn ones is in an order everyone knows.
//! Cash, deeds, buildings, positions, rents, offers and jail cards are public.

use super::state::State;
use crate::Seat;
use rand::seq::SliceRandom;
use rand::RngCore;

/// `state` with the undrawn top of each deck dealt anew (see [`crate::Game::determinize`]).
pub fn determinize(state: &State, _seat: Seat, rng: &mut dyn RngCore) -> State {
    let mut sample = state.clone();
    for (deck, &undrawn) in sample.decks.iter_mut().zip(&state.undrawn) {
        let unseen = &mut deck[..usize::from(undrawn)];
        // The true order must not leak into the sample: start from a canonical one.
        unseen.sort_unstable();
        unseen.shuffle(rng);
    }
    sample
}
