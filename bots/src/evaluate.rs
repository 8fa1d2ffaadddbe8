//! The per-game knowledge the bots need besides the rules: how good a position looks for each
//! seat, and which moves simulated players prefer.

use engine::{Game, Seat};

/// A game the bots can play: [`Game`] plus a hand-written evaluation.
pub trait BotGame: Game {
    /// A lead in score units that makes a win likely; utilities (see [`utilities`]) turn a
    /// seat's lead over the best other seat into a value between 0 and 1 on this scale.
    const LEAD: f64;

    /// Each seat's expected final score in the game's score units (money for the economic
    /// games), judged from `state` as it stands, written into `scores` (one per seat).
    /// Called on finished games too, where it should give the final scores.
    fn estimate(state: &Self::State, scores: &mut Vec<f64>);

    /// How much more likely a simulated player is to take `action` than a listed action of
    /// weight 1. Uniformly random players are poor models of people in most games (they
    /// borrow, dither and waste money); a light bias makes simulated games more telling.
    fn playout_weight(_state: &Self::State, _action: &Self::Action) -> u32 {
        1
    }
}

/// Each seat's lead over the best other seat, in score units.
pub fn leads(scores: &[f64], out: &mut Vec<f64>) {
    out.clear();
    for (i, &own) in scores.iter().enumerate() {
        let best_other = scores
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &s)| s)
            .fold(f64::NEG_INFINITY, f64::max);
        out.push(if best_other.is_finite() {
            own - best_other
        } else {
            0.0
        });
    }
}

/// Each seat's value of `state` between 0 and 1: the logistic of its lead over the best other
/// seat on the scale [`BotGame::LEAD`]. Finished games are judged by their final scores, so a
/// win is worth nearly 1 and a clear win a little more than a narrow one.
pub fn utilities<G: BotGame>(
    state: &G::State,
    lead_scale: f64,
    scores: &mut Vec<f64>,
    out: &mut Vec<f64>,
) {
    G::estimate(state, scores);
    leads(scores, out);
    let lead = G::LEAD * lead_scale;
    for value in out.iter_mut() {
        *value = 1.0 / (1.0 + (-*value / lead).exp());
    }
}

/// `seat`'s lead over the best other seat in `state`, in score units.
pub fn lead<G: BotGame>(state: &G::State, seat: Seat) -> f64 {
    let mut scores = Vec::new();
    G::estimate(state, &mut scores);
    let mut out = Vec::new();
    leads(&scores, &mut out);
    out[seat.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lead_is_measured_against_the_best_other_seat() {
        let mut out = Vec::new();
        leads(&[10.0, 4.0, 7.0], &mut out);
        assert_eq!(out, vec![3.0, -6.0, -3.0]);
    }
}
