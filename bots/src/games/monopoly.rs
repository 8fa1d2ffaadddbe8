//! Monopoly: at the round limit net worth decides (MO-END-2), and otherwise the last player
//! standing wins, so a position is worth its net worth now plus a share of the rent its
//! complete groups would earn from the other players in the rounds still to come.

use crate::evaluate::BotGame;
use engine::monopoly::data::{board, DeedKind};
use engine::monopoly::state::State;
use engine::monopoly::{Action, Monopoly};
use engine::Game;

/// The chance that another player lands on a given square in one of his turns, roughly.
const LANDING_CHANCE: f64 = 1.0 / 40.0;
/// Rounds ahead a bot looks when valuing rent: rents compound into bankruptcies quickly.
const HORIZON_ROUNDS: f64 = 10.0;

impl BotGame for Monopoly {
    const LEAD: f64 = 800.0;
    type Memory = ();

    fn estimate(state: &State, scores: &mut Vec<f64>) {
        scores.clear();
        if let Some(outcome) = Monopoly::outcome(state) {
            scores.extend(outcome.scores.iter().map(|&s| s as f64));
            return;
        }
        scores.extend(state.seats().map(|s| state.net_worth(s) as f64));
        let solvent = state.seats().filter(|&s| !state.player(s).bankrupt).count();
        let opponents = solvent.saturating_sub(1) as f64;
        for (data, deed) in board().deeds.iter().zip(&state.deeds) {
            let Some(owner) = deed.owner else { continue };
            if deed.mortgaged || state.player(owner).bankrupt {
                continue;
            }
            // Streets earn by level; stations and works at their base.
            let rent = match &data.kind {
                DeedKind::Street { rents, .. } => rents
                    .get(usize::from(deed.level))
                    .copied()
                    .unwrap_or_default(),
                _ => data.price / 8,
            };
            scores[owner.index()] += rent as f64 * LANDING_CHANCE * opponents * HORIZON_ROUNDS;
        }
    }

    /// Simulated players buy and build more often than they trade or mortgage.
    fn playout_weight(_state: &State, action: &Action) -> u32 {
        match action {
            Action::BuyProperty | Action::ClaimRent { .. } | Action::Build { .. } => 8,
            Action::Roll | Action::EndTurn | Action::PayDebt => 6,
            Action::OfferTrade { .. } | Action::DeclareBankruptcy => 1,
            Action::Mortgage { .. } | Action::SellBuilding { .. } => 2,
            _ => 3,
        }
    }
}
