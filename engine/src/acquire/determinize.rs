//! What a seat cannot see in Acquire: the other players' tiles and the face-down pile
//! (AQ-COMP-5, AQ-INFO-2). The board, removed and bank tiles, every hand's size and, even with
//! `hidden_holdings`, cash and shares are kept: hidden holdings only hide them from views, and a
//! player may still have counted them from the public log (AQ-INFO-3).
//!
//! The unseen tiles are dealt uniformly. The public log says a little more than the sample
//! uses: a turn-end sweep (AQ-DEAD-1) showed that the sweeping hand held no permanently dead
//! tile at that moment, and a skipped placement (AQ-PLACE-4) that the hand held no playable
//! tile. The state alone cannot tell which dead tiles arrived after a sweep, so the sample
//! ignores that evidence; it never uses anything the seat could not know.

use super::state::State;
use crate::Seat;
use rand::seq::SliceRandom;
use rand::RngCore;

/// `state` with the other hands and the pile dealt anew from the tiles `seat` cannot see,
/// keeping every hand's size and the pile's size (see [`crate::Game::determinize`]).
pub fn determinize(state: &State, seat: Seat, rng: &mut dyn RngCore) -> State {
    let mut sample = state.clone();
    let mut unseen = std::mem::take(&mut sample.bag);
    for (i, player) in sample.players.iter().enumerate() {
        if i != seat.index() {
            unseen.extend_from_slice(&player.hand);
        }
    }
    // The true deal must not leak into the sample: start from a canonical order.
    unseen.sort_unstable();
    unseen.shuffle(rng);
    for (i, player) in sample.players.iter_mut().enumerate() {
        if i != seat.index() {
            let size = player.hand.len();
            player.hand = unseen.split_off(unseen.len() - size);
        }
    }
    sample.bag = unseen;
    sample
}
