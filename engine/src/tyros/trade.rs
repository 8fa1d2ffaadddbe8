//! The checks behind trading: with the bank (action D, TR-ACT-D, once a round under TR-K1 a)
//! and with another player (action E, TR-ACT-E, attached to the turn's action under TR-K1 b).
//! Shared by `decide` and the listing, so the two always agree.

use super::cards::Cards;
use super::data::board;
use super::errors as e;
use super::event::Event;
use super::rules::{check_in_hand, fresh_turn_of, turn_of};
use super::state::{Offer, State};
use crate::refusal::Refusal;
use crate::{RuleError, Seat};

/// Action D, either form: the once-per-round limit of TR-K1 a.
///
/// # Errors
/// `tyros.bank_trade_used`, and the turn checks.
pub fn check_bank<E: Refusal>(state: &State, seat: Seat) -> Result<(), E> {
    fresh_turn_of::<E>(state, seat)?;
    if state.config.bank_trade_once_per_round && state.player(seat).bank_trades > 0 {
        return Err(E::refuse(|| {
            RuleError::new(
                e::BANK_TRADE_USED,
                "TR-K1",
                "you already traded with the bank this round (bank_trade_once_per_round)",
            )
        }));
    }
    Ok(())
}

/// Action D (1): 1–3 cards (TR-ACT-D).
///
/// # Errors
/// The first rule the trade breaks.
pub fn check_bank_swap(state: &State, seat: Seat, cards: &Cards) -> Result<(), RuleError> {
    check_bank::<RuleError>(state, seat)?;
    let max = board().constants.bank_trade.swap_max;
    if !(1..=u32::from(max)).contains(&cards.total()) {
        return Err(RuleError::new(
            e::BAD_CARD_COUNT,
            "TR-ACT-D",
            format!("a bank swap discards 1 to {max} cards"),
        ));
    }
    check_in_hand(state, seat, cards, "TR-ACT-D")
}

/// Action D (2): exactly 3 cards (TR-ACT-D).
///
/// # Errors
/// The first rule the trade breaks.
pub fn check_bank_pick(state: &State, seat: Seat, cards: &Cards) -> Result<(), RuleError> {
    check_bank::<RuleError>(state, seat)?;
    let cost = board().constants.bank_trade.pick_cost;
    if cards.total() != u32::from(cost) {
        return Err(RuleError::new(
            e::BAD_CARD_COUNT,
            "TR-ACT-D",
            format!("taking a chosen colour costs exactly {cost} cards"),
        ));
    }
    check_in_hand(state, seat, cards, "TR-ACT-D")
}

/// Whether `seat` may offer a trade now (TR-ACT-E, TR-K1 b), before looking at the offer.
///
/// # Errors
/// The turn checks, `tyros.action_already_taken` or `tyros.trade_used`.
pub fn check_may_offer<E: Refusal>(state: &State, seat: Seat) -> Result<(), E> {
    let turn = turn_of::<E>(state, seat)?;
    if state.config.player_trade_free {
        if turn.traded {
            return Err(E::refuse(|| {
                RuleError::new(
                    e::TRADE_USED,
                    "TR-K1",
                    "you already traded this turn (player_trade_free)",
                )
            }));
        }
    } else if turn.acted {
        return Err(E::refuse(|| {
            RuleError::new(
                e::ACTION_ALREADY_TAKEN,
                "TR-ACT-E",
                "a trade with a player is this turn's action",
            )
        }));
    }
    Ok(())
}

/// TR-K1 b: with `player_trade_free` a trade is attached to the turn's action, and a pass turn
/// has none. So an offer before the action is taken only when its proposer, on turn, would
/// still have an action to take after the trade; otherwise it could only pass after trading.
/// Judged when the offer is made, on the proposer's own hand and the offer's terms (nothing
/// changes until the answer, and the addressee must not learn the proposer's hand from it).
///
/// Whether a seat has an action is the listing's answer (`legal::has_action`); it comes in as
/// `has_action` because the listing itself is built on the checks of this file.
///
/// # Errors
/// `tyros.trade_leaves_no_action`.
pub fn check_free_trade<E: Refusal>(
    state: &State,
    offer: &Offer,
    has_action: fn(&State, Seat) -> bool,
) -> Result<(), E> {
    let before_action = state
        .turn()
        .is_some_and(|t| t.seat == offer.from && !t.acted);
    if !state.config.player_trade_free || !before_action {
        return Ok(());
    }
    let mut after = state.clone();
    super::evolve::evolve(
        &mut after,
        &Event::TradeAccepted {
            from: offer.from,
            to: offer.to,
            give: offer.give,
            get: offer.get,
        },
    );
    if has_action(&after, offer.from) {
        return Ok(());
    }
    Err(E::refuse(|| {
        RuleError::new(
            e::TRADE_LEAVES_NO_ACTION,
            "TR-K1",
            format!(
                "after this trade {} could take no action, only pass, and a pass turn has no \
                 free trade (player_trade_free)",
                offer.from
            ),
        )
    }))
}

/// Action E: an offer (TR-ACT-E); `has_action` as for [`check_free_trade`].
///
/// # Errors
/// The first rule the offer breaks.
pub fn check_offer(
    state: &State,
    seat: Seat,
    to: Seat,
    give: &Cards,
    get: &Cards,
    has_action: fn(&State, Seat) -> bool,
) -> Result<(), RuleError> {
    check_may_offer::<RuleError>(state, seat)?;
    let bad = |why: String| Err(RuleError::new(e::INVALID_OFFER, "TR-ACT-E", why));
    if to == seat || to.index() >= state.players.len() {
        return bad(format!("{to} is no other player"));
    }
    if give.is_empty() && get.is_empty() {
        return bad("a trade exchanges at least one card".into());
    }
    check_in_hand(state, seat, give, "TR-ACT-E")?;
    check_free_trade::<RuleError>(
        state,
        &Offer {
            from: seat,
            to,
            give: *give,
            get: *get,
        },
        has_action,
    )
}
