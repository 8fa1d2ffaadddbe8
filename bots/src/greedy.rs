//! The `greedy` level: one ply. Each move is tried on a few samples of the unseen and the one
//! whose resulting position the game's evaluation likes best, on average, is taken; what the
//! seat's manners call for at once ([`BotGame::reflex`]) comes first.

use crate::candidates::apply;
use crate::evaluate::{lead, BotGame};
use crate::info::InfoSet;
use rand::RngCore;

/// Samples of the unseen each move is tried on: moves that draw (a tile, a card) are judged by
/// more than one outcome.
const SAMPLES: usize = 4;
/// Random instantiations tried per template.
const PER_TEMPLATE: usize = 8;

/// The move with the best average lead one ply ahead, or `None` when the seat has nothing to
/// do.
pub fn choose<G: BotGame>(info: &InfoSet<G>, rng: &mut dyn RngCore) -> Option<G::Action> {
    let seat = info.seat();
    let samples: Vec<G::State> = (0..SAMPLES).map(|_| info.sample(rng)).collect();
    if let Some(reflex) = G::reflex(&samples[0], seat, info.memory(), rng) {
        return Some(reflex);
    }
    let mut actions = Vec::new();
    G::bot_moves(
        &samples[0],
        seat,
        info.memory(),
        PER_TEMPLATE,
        rng,
        &mut actions,
    );
    best_of::<G>(&samples, seat, actions, rng)
}

/// The one of `actions` of `seat` with the best average lead over `samples` one ply ahead.
pub fn best_of<G: BotGame>(
    samples: &[G::State],
    seat: engine::Seat,
    mut actions: Vec<G::Action>,
    rng: &mut dyn RngCore,
) -> Option<G::Action> {
    if actions.len() <= 1 {
        return actions.pop();
    }
    let mut best: Option<(f64, usize)> = None;
    for (i, action) in actions.iter().enumerate() {
        let total: f64 = samples
            .iter()
            .map(|sample| {
                let mut after = sample.clone();
                apply::<G>(&mut after, seat, action, rng);
                lead::<G>(&after, seat)
            })
            .sum();
        if best.is_none_or(|(value, _)| total > value) {
            best = Some((total, i));
        }
    }
    best.map(|(_, i)| actions.swap_remove(i))
}
