//! Tyros: points decide (TR-SCORE), counted from the board as it stands, so a position is
//! worth the points it would score if the game ended now, plus a little for the trade cards in
//! hand, which are what moves ships and founds cities.
//!
//! Manners (see `docs/bots.md`): a bot trades with the bank at most [`BANK_TRADES_PER_ROUND`]
//! times a round, whatever the variant allows, so an action phase of bots ends (the phase ends
//! only when every player passes in a row, and nothing else limits bank swaps: TR-ACT-0,
//! TR-ACT-D); it makes no trade offers and never withdraws one; an offer made to it is
//! answered at once, accepted when it does not lower the bot's lead.

use crate::candidates::{apply, own_actions};
use crate::evaluate::{lead, BotGame};
use engine::tyros::state::State;
use engine::tyros::{score_sheets, Action, Tyros};
use engine::{Game, Seat};
use rand::RngCore;

/// Points a trade card in hand is worth: roughly what one card adds to a move or a city.
const CARD_VALUE: f64 = 0.3;
/// Bank trades a bot makes in one round at most.
pub const BANK_TRADES_PER_ROUND: u8 = 1;

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

    fn bot_moves(
        state: &State,
        seat: Seat,
        _memory: &(),
        per_template: usize,
        rng: &mut dyn RngCore,
        out: &mut Vec<Action>,
    ) {
        *out = own_actions::<Tyros>(state, seat, per_template, rng);
        let bank_done = state.player(seat).bank_trades >= BANK_TRADES_PER_ROUND;
        out.retain(|action| match action {
            Action::OfferTrade { .. } | Action::WithdrawTrade => false,
            Action::BankSwap { .. } | Action::BankPick { .. } => !bank_done,
            _ => true,
        });
    }

    /// An offer made to the bot is answered at once by its trade rule.
    fn reflex(state: &State, seat: Seat, _memory: &(), rng: &mut dyn RngCore) -> Option<Action> {
        state.offer.filter(|o| o.to == seat)?;
        let legal = Tyros::legal_actions(state, seat);
        if !legal.contains(&Action::RejectTrade) {
            return None;
        }
        let keeps_lead = legal.contains(&Action::AcceptTrade) && {
            let mut after = state.clone();
            apply::<Tyros>(&mut after, seat, &Action::AcceptTrade, rng);
            lead::<Tyros>(&after, seat) >= lead::<Tyros>(state, seat)
        };
        Some(if keeps_lead {
            Action::AcceptTrade
        } else {
            Action::RejectTrade
        })
    }

    /// Simulated players build, found and move more often than they trade or pass.
    fn playout_weight(_state: &State, action: &Action) -> u32 {
        match action {
            Action::FoundCity { .. } | Action::BuildShip { .. } => 8,
            Action::PlaceTile { .. } | Action::Move { .. } => 5,
            Action::Pass => 1,
            Action::BankSwap { .. } | Action::BankPick { .. } => 2,
            _ => 3,
        }
    }
}
