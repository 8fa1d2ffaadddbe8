//! The `random` level: a uniformly random move among what the seat may do.

use crate::candidates::own_actions;
use crate::info::InfoSet;
use engine::Game;
use rand::seq::IndexedRandom;
use rand::RngCore;

/// A uniformly random move of the seat (templates filled in at random), or `None` when it
/// may not act.
pub fn choose<G: Game>(info: &InfoSet<G>, rng: &mut dyn RngCore) -> Option<G::Action> {
    let sample = info.sample(rng);
    own_actions::<G>(&sample, info.seat(), 1, rng)
        .choose(rng)
        .cloned()
}
