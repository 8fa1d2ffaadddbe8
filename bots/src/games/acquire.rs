//! Acquire: the final score is cash plus every share sold at its price plus the bonuses of
//! every active chain (AQ-END-4), so a position is worth that liquidation value now.

use crate::evaluate::BotGame;
use engine::acquire::data::{board, Chain};
use engine::acquire::state::State;
use engine::acquire::{bonus_awards, Acquire, Action};
use engine::Game;

/// The two-player bank's expected phantom holding at the end: the mean column number of a
/// drawn tile, 1 to 12 (AQ-2P-2, AQ-2P-9).
const EXPECTED_BANK_HOLDING: u8 = 6;

impl BotGame for Acquire {
    const LEAD: f64 = 2000.0;
    type Memory = ();

    fn estimate(state: &State, scores: &mut Vec<f64>) {
        scores.clear();
        if let Some(outcome) = Acquire::outcome(state) {
            scores.extend(outcome.scores.iter().map(|&s| s as f64));
            return;
        }
        scores.extend(state.players.iter().map(|p| f64::from(p.cash)));
        for chain in Chain::all().filter(|&c| state.is_active(c)) {
            let Some(prices) = board().prices(chain, state.chain(chain).size) else {
                continue;
            };
            let mut holdings: Vec<_> = state
                .seats()
                .map(|s| (Some(s), state.player(s).shares[chain.index()]))
                .collect();
            if state.two_player() {
                holdings.push((None, EXPECTED_BANK_HOLDING));
            }
            for &(seat, shares) in &holdings {
                if let Some(seat) = seat {
                    scores[seat.index()] += f64::from(i32::from(shares) * prices.price);
                }
            }
            for (seat, _, amount) in bonus_awards(prices, &holdings) {
                if let Some(seat) = seat {
                    scores[seat.index()] += f64::from(amount);
                }
            }
        }
    }

    /// Simulated players rarely announce the end early and buy now and then.
    fn playout_weight(_state: &State, action: &Action) -> u32 {
        match action {
            Action::AnnounceEnd => 1,
            Action::BuyShare { .. } => 2,
            Action::EndTurn => 6,
            _ => 4,
        }
    }
}
