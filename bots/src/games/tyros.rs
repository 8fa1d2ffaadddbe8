//! Tyros: points decide (TR-SCORE), counted from the board as it stands, so a position is
//! worth the points it would score if the game ended now, plus a little for the trade cards in
//! hand, which are what moves ships and founds cities.

use crate::evaluate::BotGame;
use engine::tyros::state::State;
use engine::tyros::{score_sheets, Action, Tyros};
use engine::Game;

/// Points a trade card in hand is worth: roughly what one card adds to a move or a city.
const CARD_VALUE: f64 = 0.3;

impl BotGame for Tyros {
    const LEAD: f64 = 6.0;
    type Memory = ();

    fn estimate(state: &State, scores: &mut Vec<f64>) {
        scores.clear();
        if let Some(outcome) = Tyros::outcome(state) {
            scores.extend(outcome.scores.iter().map(|&s| s as f64));
            return;
        }
        for sheet in score_sheets(state) {
            let cards = state.player(sheet.seat).cards.total();
            scores.push(f64::from(sheet.total) + CARD_VALUE * f64::from(cards));
        }
    }

    /// Simulated players build, found and move more often than they trade or pass.
    fn playout_weight(_state: &State, action: &Action) -> u32 {
        match action {
            Action::FoundCity { .. } | Action::BuildShip { .. } => 8,
            Action::PlaceTile { .. } | Action::Move { .. } => 5,
            Action::OfferTrade { .. } | Action::WithdrawTrade | Action::Pass => 1,
            Action::BankSwap { .. } | Action::BankPick { .. } => 2,
            _ => 3,
        }
    }
}
