//! The `random` level: a uniformly random move among what the seat's manners allow.

use crate::evaluate::BotGame;
use crate::info::InfoSet;
use rand::seq::IndexedRandom;
use rand::RngCore;

/// A uniformly random move of the seat among its bot moves (templates filled in at random) and
/// the offer its manners would make, or `None` when it has nothing to do.
pub fn choose<G: BotGame>(info: &InfoSet<G>, rng: &mut dyn RngCore) -> Option<G::Action> {
    let sample = info.sample(rng);
    let mut moves = Vec::new();
    G::bot_moves(&sample, info.seat(), info.memory(), 1, rng, &mut moves);
    if info.is_active() {
        moves.extend(G::proposal(&sample, info.seat(), info.memory(), rng));
    }
    moves.choose(rng).cloned()
}
