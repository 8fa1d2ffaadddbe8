//! Deciding what players do with their deeds between them: trade offers made, answered and
//! executed (MO-TRADE-1..4), mortgages taken and lifted (MO-MORT-1, MO-MORT-3), and the lapse
//! of open offers whose deeds an action changed (MO-TRADE-4, `trade_offers = as_made`).
//!
//! `trade.rs` holds the trade checks that `decide` and the listing share; this file holds what
//! only `decide` needs, the events, kept apart so that the checks the listing imports stay free
//! of the scratch state. Making, rejecting or withdrawing an offer and mortgaging or lifting a
//! deed set off no follow-up rule, so they are decided without the scratch copy of the state
//! every other action works on: most of what random and search playouts do is making and
//! answering offers, mortgaging and lifting.

use super::action::Action;
use super::config::TradeOffers;
use super::errors::*;
use super::event::Event;
use super::rules;
use super::state::{Bundle, PaymentReason, State, TradeOffer};
use super::trade;
use super::Scratch;
use crate::{RuleError, Seat};

/// The one event of making an offer (`action` is an [`Action::OfferTrade`]), numbered next.
/// It changes no deed, so no offer lapses by it (MO-TRADE-4).
pub(super) fn make_offer(state: &State, seat: Seat, action: &Action) -> Result<Event, RuleError> {
    let Action::OfferTrade {
        to,
        give_cash,
        give_properties,
        give_cards,
        get_cash,
        get_properties,
        get_cards,
        lift,
    } = action
    else {
        unreachable!("decide hands over only offers to make")
    };
    let offer = TradeOffer {
        offer: state.next_offer,
        from: seat,
        to: *to,
        give: Bundle {
            cash: *give_cash,
            properties: give_properties.clone(),
            cards: give_cards.clone(),
        },
        get: Bundle {
            cash: *get_cash,
            properties: get_properties.clone(),
            cards: get_cards.clone(),
        },
        lift: lift.clone(),
    };
    trade::check_offer::<RuleError>(state, &offer)?;
    Ok(Event::TradeOffered { offer })
}

/// The addressee turns an open offer down.
pub(super) fn reject_offer(state: &State, seat: Seat, offer: u32) -> Result<Event, RuleError> {
    offer_for(state, offer, |o| o.to == seat)?;
    Ok(Event::TradeRejected { offer })
}

/// The proposer takes an open offer back.
pub(super) fn withdraw_offer(state: &State, seat: Seat, offer: u32) -> Result<Event, RuleError> {
    offer_for(state, offer, |o| o.from == seat)?;
    Ok(Event::TradeWithdrawn { offer })
}

/// The addressee accepts an open offer, lifting the mortgages received that `lift` names; each
/// side settles the mortgages it receives (MO-TRADE-3).
pub(super) fn accept_offer(
    state: &State,
    seat: Seat,
    offer: u32,
    lift: &[u8],
) -> Result<Scratch, RuleError> {
    let o = offer_for(state, offer, |o| o.to == seat)?;
    let [from_costs, to_costs] = trade::check_accept::<RuleError>(state, o, lift)?;
    let mut s = Scratch::new(state);
    s.emit(Event::TradeExecuted { offer: o.clone() });
    settle_mortgages(&mut s, o.from, &o.get.properties, &o.lift, from_costs);
    settle_mortgages(&mut s, o.to, &o.give.properties, lift, to_costs);
    Ok(s)
}

fn offer_for(
    state: &State,
    offer: u32,
    party: impl Fn(&TradeOffer) -> bool,
) -> Result<&TradeOffer, RuleError> {
    let Some(o) = state.offers.iter().find(|o| o.offer == offer) else {
        return Err(refuse(
            NO_SUCH_OFFER,
            "MO-TRADE-4",
            format!("no open offer {offer}"),
        ));
    };
    if !party(o) {
        return Err(refuse(
            NOT_OFFER_PARTY,
            "MO-TRADE-4",
            "this seat cannot answer that offer this way",
        ));
    }
    Ok(o)
}

/// MO-TRADE-3: each mortgaged property received is lifted or pays interest, at once.
fn settle_mortgages(s: &mut Scratch, seat: Seat, received: &[u8], lift: &[u8], total: i64) {
    let mut interest = 0;
    for &square in received {
        if !s.state.deed(square).is_some_and(|d| d.mortgaged) {
            continue;
        }
        if lift.contains(&square) {
            let amount = rules::lift_price(&s.state, square);
            s.emit(Event::MortgageLifted {
                seat,
                square,
                amount,
            });
        } else {
            interest += rules::interest_on(&s.state, square);
        }
    }
    debug_assert!(interest <= total);
    if interest > 0 {
        s.emit(Event::Paid {
            from: Some(seat),
            to: None,
            amount: interest,
            reason: PaymentReason::Interest,
        });
    }
}

/// The events of mortgaging one deed (MO-MORT-1), with the offers it lapses.
pub(super) fn mortgage(state: &State, seat: Seat, square: u8) -> Result<Vec<Event>, RuleError> {
    let amount = rules::check_mortgage::<RuleError>(state, seat, square)?;
    let event = Event::Mortgaged {
        seat,
        square,
        amount,
    };
    Ok(with_lapses(state, event, square))
}

/// The events of lifting the mortgage on one deed (MO-MORT-3), with the offers it lapses.
pub(super) fn lift_mortgage(
    state: &State,
    seat: Seat,
    square: u8,
) -> Result<Vec<Event>, RuleError> {
    let amount = rules::check_lift::<RuleError>(state, seat, square)?;
    let event = Event::MortgageLifted {
        seat,
        square,
        amount,
    };
    Ok(with_lapses(state, event, square))
}

/// `event`, which changed the one deed on `square`, then under `trade_offers = as_made` the
/// lapse of every open offer naming that deed (MO-TRADE-4; no other offer lapses).
fn with_lapses(state: &State, event: Event, square: u8) -> Vec<Event> {
    let mut events = vec![event];
    if state.config.trade_offers == TradeOffers::AsMade {
        let names = |o: &TradeOffer| {
            o.give.properties.contains(&square) || o.get.properties.contains(&square)
        };
        events.extend(
            state
                .offers
                .iter()
                .filter(|o| names(o))
                .map(|o| Event::TradeLapsed {
                    offer: o.offer,
                    square,
                }),
        );
    }
    events
}

/// MO-TRADE-4 (`trade_offers = as_made`, rules version 2): an offer stands on the deeds as they
/// were when it was made. Every open offer naming a deed that this action mortgaged, lifted,
/// built on or gave another owner lapses, once the action's own events are folded.
pub(super) fn lapse_changed_offers(before: &State, s: &mut Scratch) {
    if before.offers.is_empty() || s.state.outcome.is_some() {
        return;
    }
    let lapsed: Vec<(u32, u8)> = s
        .state
        .offers
        .iter()
        .filter_map(|o| {
            o.give
                .properties
                .iter()
                .chain(&o.get.properties)
                .copied()
                .find(|&square| before.deed(square) != s.state.deed(square))
                .map(|square| (o.offer, square))
        })
        .collect();
    for (offer, square) in lapsed {
        s.emit(Event::TradeLapsed { offer, square });
    }
}
