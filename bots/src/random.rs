//! The `random` level: a uniformly random move among what the seat's manners allow, the offer
//! they would make included.

use crate::evaluate::BotGame;
use crate::info::InfoSet;
use rand::seq::IndexedRandom;
use rand::RngCore;

/// A uniformly random move of the seat among its bot moves (templates filled in at random) and
/// its reflex (an offer worth making, see [`BotGame::reflex`]), or `None` when it has nothing
/// to do.
pub fn choose<G: BotGame>(info: &InfoSet<G>, rng: &mut dyn RngCore) -> Option<G::Action> {
    let sample = info.sample(rng);
    let mut moves = Vec::new();
    G::bot_moves(&sample, info.seat(), info.memory(), 1, rng, &mut moves);
    if let Some(reflex) = G::reflex(&sample, info.seat(), info.memory(), rng) {
        if !moves.contains(&reflex) {
            moves.push(reflex);
        }
    }
    moves.choose(rng).cloned()
}
