//! The checks behind trades (MO-TRADE-1..4): what may be given, an offer as made, and its
//! acceptance, as it is or lifting the mortgages received. Shared by `decide` (which says why)
//! and the listing (which only asks whether), so the two cannot drift apart.

use super::config::TradeOffers;
use super::data::board;
use super::errors::*;
use super::holdings::{DeedSet, Holdings};
use super::rules;
use super::state::{Bundle, State, TradeOffer};
use crate::Seat;

fn distinct<T: PartialEq>(items: &[T]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, x)| !items[..i].contains(x))
}

/// [`distinct`] for squares, in one pass (offers are checked at every listing).
fn distinct_squares(squares: &[u8]) -> bool {
    let mut seen = [0u64; 4];
    squares.iter().all(|&s| {
        let (word, bit) = (usize::from(s / 64), 1 << (s % 64));
        let new = seen[word] & bit == 0;
        seen[word] |= bit;
        new
    })
}

/// Checks that `giver` may hand over these properties and cards now (MO-TRADE-1, MO-TRADE-2).
fn check_items<E: Refusal>(
    state: &State,
    giver: Seat,
    properties: &[u8],
    cards: &[super::data::Card],
) -> Result<(), E> {
    if !distinct_squares(properties) || !distinct(cards) {
        return Err(refusal(BAD_TRADE_ITEM, "MO-TRADE-2", || {
            "a property or card is listed twice".into()
        }));
    }
    let b = board();
    for &square in properties {
        let Some(d) = b.deed_at(square) else {
            return Err(refusal(BAD_TRADE_ITEM, "MO-TRADE-1", || {
                format!("square {square} has no title deed")
            }));
        };
        if state.deeds[d].owner != Some(giver) {
            return Err(refusal(BAD_TRADE_ITEM, "MO-TRADE-1", || {
                format!("{} does not belong to {giver}", b.deed(d).name)
            }));
        }
        if b.deed(d)
            .group()
            .is_some_and(|g| rules::group_built(state, g))
        {
            return Err(refusal(GROUP_HAS_BUILDINGS, "MO-TRADE-1", || {
                "a street changes owner only when its group carries no building".into()
            }));
        }
    }
    let held = &state.player(giver).jail_cards;
    if let Some(card) = cards.iter().find(|c| !held.contains(c)) {
        return Err(refusal(BAD_TRADE_ITEM, "MO-TRADE-2", || {
            format!("{giver} does not hold card {card}")
        }));
    }
    Ok(())
}

/// Checks the lift choices for mortgaged properties received (MO-TRADE-3) and returns what
/// they cost: MV + 10 % for each lifted, 10 % for each kept mortgaged.
fn mortgage_costs<E: Refusal>(state: &State, received: &[u8], lift: &[u8]) -> Result<i64, E> {
    if !distinct_squares(lift) {
        return Err(refusal(BAD_LIFT_CHOICE, "MO-TRADE-3", || {
            "a property is listed twice to lift".into()
        }));
    }
    for square in lift {
        let mortgaged = state.deed(*square).is_some_and(|d| d.mortgaged);
        if !received.contains(square) || !mortgaged {
            return Err(refusal(BAD_LIFT_CHOICE, "MO-TRADE-3", || {
                format!("square {square} is not a mortgaged property received in this trade")
            }));
        }
    }
    let b = board();
    let mut costs = 0;
    for &square in received {
        let Some(d) = b.deed_at(square) else { continue };
        if state.deeds[d].mortgaged {
            let mv = b.deed(d).mortgage;
            // Lifting costs MV + 10 % (as `lift_price`), keeping it the 10 % (`interest_on`).
            costs += state.config.interest(mv) + if lift.contains(&square) { mv } else { 0 };
        }
    }
    Ok(costs)
}

/// Checks a new offer (MO-TRADE-1..4). Cash is checked against what each side holds now;
/// affordability of the whole deal is checked again on acceptance. With `trade_offers =
/// as_made` (rules version 2) an offer moves something and the proposer can pay its own side,
/// MO-TRADE-3 costs included.
///
/// # Errors
/// The first broken rule.
pub fn check_offer<E: Refusal>(state: &State, offer: &TradeOffer) -> Result<(), E> {
    let (from, to) = (offer.from, offer.to);
    if from == to {
        return Err(refusal(TRADE_WITH_SELF, "MO-TRADE-4", || {
            "a trade is between two players".into()
        }));
    }
    if to.index() >= state.players.len() || state.player(to).bankrupt {
        return Err(refusal(NOT_OFFER_PARTY, "MO-TRADE-4", || {
            format!("{to} is not in the game")
        }));
    }
    if state.offers.iter().any(|o| o.from == from && o.to == to) {
        return Err(refusal(OFFER_ALREADY_OPEN, "MO-TRADE-4", || {
            format!("{from} already has an open offer to {to}; withdraw it first")
        }));
    }
    if offer.give.cash < 0 || offer.get.cash < 0 {
        return Err(refusal(NEGATIVE_AMOUNT, "MO-TRADE-2", || {
            "cash in a trade is not negative".into()
        }));
    }
    for (seat, cash) in [(from, offer.give.cash), (to, offer.get.cash)] {
        let held = state.player(seat).cash;
        if cash > held {
            return Err(insufficient_cash::<E>(
                "MO-TRADE-4",
                "the cash in this offer",
                cash,
                held,
            ));
        }
    }
    check_items::<E>(state, from, &offer.give.properties, &offer.give.cards)?;
    check_items::<E>(state, to, &offer.get.properties, &offer.get.cards)?;
    let costs = mortgage_costs::<E>(state, &offer.get.properties, &offer.lift)?;
    if state.config.trade_offers == TradeOffers::AsMade {
        if offer.give.is_empty() && offer.get.is_empty() {
            return Err(refusal(EMPTY_OFFER, "MO-TRADE-2", || {
                "a trade moves something: neither side gives anything here".into()
            }));
        }
        check_proposer_pays::<E>(state, offer, costs)?;
    }
    Ok(())
}

/// Rules version 2 (`trade_offers = as_made`): the proposer can pay its own side, the cash it
/// gives and the MO-TRADE-3 costs of what it receives, from the cash it holds (MO-TRADE-4).
fn check_proposer_pays<E: Refusal>(state: &State, offer: &TradeOffer, costs: i64) -> Result<(), E> {
    let cash = state.player(offer.from).cash;
    let side = offer.give.cash + costs;
    if side > cash {
        return Err(insufficient_cash::<E>(
            "MO-TRADE-4",
            "the proposer's side of this offer (cash and MO-TRADE-3 costs)",
            side,
            cash,
        ));
    }
    Ok(())
}

/// What each side pays the bank for mortgaged properties received, `[proposer, addressee]`,
/// when `offer` is accepted with the addressee's `lift`; checks everything again and that both
/// sides can pay (MO-TRADE-4), the proposer its own side as when it made the offer under
/// `trade_offers = as_made`.
///
/// # Errors
/// The first broken rule.
pub fn check_accept<E: Refusal>(
    state: &State,
    offer: &TradeOffer,
    lift: &[u8],
) -> Result<[i64; 2], E> {
    check_items::<E>(state, offer.from, &offer.give.properties, &offer.give.cards)?;
    check_items::<E>(state, offer.to, &offer.get.properties, &offer.get.cards)?;
    let from_costs = mortgage_costs::<E>(state, &offer.get.properties, &offer.lift)?;
    let to_costs = mortgage_costs::<E>(state, &offer.give.properties, lift)?;
    if state.config.trade_offers == TradeOffers::AsMade {
        check_proposer_pays::<E>(state, offer, from_costs)?;
    }
    let net = offer.get.cash - offer.give.cash;
    let from_after = state.player(offer.from).cash + net - from_costs;
    let to_after = state.player(offer.to).cash - net - to_costs;
    if to_after < 0 {
        return Err(refusal(INSUFFICIENT_CASH, "MO-TRADE-4", || {
            format!(
                "{} cannot pay for this trade (M {} short)",
                offer.to, -to_after
            )
        }));
    }
    if from_after < 0 {
        return Err(refusal(INSUFFICIENT_CASH, "MO-TRADE-4", || {
            format!(
                "{} can no longer pay for this trade (M {} short)",
                offer.from, -from_after
            )
        }));
    }
    Ok([from_costs, to_costs])
}

/// Whether an offer can be accepted now, as it is and with every mortgaged property it gives
/// lifted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Acceptance {
    /// [`acceptable_as_is`].
    pub as_is: bool,
    /// [`acceptable_lifting_all`].
    pub lifting_all: bool,
}

/// Whether [`check_items`] lets `giver` hand over `bundle`, answered from the deeds' holdings:
/// the properties are distinct deeds among those `giver` may trade (its own, in groups without
/// a building), the cards distinct and held.
fn tradeable_items(state: &State, holdings: &Holdings, giver: Seat, bundle: &Bundle) -> bool {
    let b = board();
    let mut deeds = DeedSet::default();
    for &square in &bundle.properties {
        match b.deed_at(square) {
            Some(d) if !deeds.contains(d) => deeds.insert(d),
            _ => return false,
        }
    }
    let held = &state.player(giver).jail_cards;
    let answer = holdings.tradeable(giver).covers(deeds)
        && distinct(&bundle.cards)
        && bundle.cards.iter().all(|c| held.contains(c));
    debug_assert_eq!(
        answer,
        check_items::<Refused>(state, giver, &bundle.properties, &bundle.cards).is_ok(),
        "tradeable_items must answer as check_items"
    );
    answer
}

/// [`acceptable_as_is`] and [`acceptable_lifting_all`] at once: listing asks both of every open
/// offer at every step, and all of [`check_accept`] but the addressee's costs is the same for
/// both, so it is checked once (the items against the deeds' `holdings`).
pub fn acceptance(state: &State, holdings: &Holdings, offer: &TradeOffer) -> Acceptance {
    let refused = Acceptance {
        as_is: false,
        lifting_all: false,
    };
    if !tradeable_items(state, holdings, offer.from, &offer.give)
        || !tradeable_items(state, holdings, offer.to, &offer.get)
    {
        return refused;
    }
    let Ok(from_costs) = mortgage_costs::<Refused>(state, &offer.get.properties, &offer.lift)
    else {
        return refused;
    };
    if state.config.trade_offers == TradeOffers::AsMade
        && check_proposer_pays::<Refused>(state, offer, from_costs).is_err()
    {
        return refused;
    }
    let net = offer.get.cash - offer.give.cash;
    if state.player(offer.from).cash + net - from_costs < 0 {
        return refused;
    }
    // The addressee's MO-TRADE-3 costs: 10 % on each mortgaged property kept, MV + 10 % on
    // each lifted ([`mortgage_costs`]).
    let b = board();
    let (mut interest, mut values, mut mortgaged) = (0, 0, false);
    for &square in &offer.give.properties {
        let Some(d) = b.deed_at(square) else { continue };
        if state.deeds[d].mortgaged {
            let mv = b.deed(d).mortgage;
            (interest, values, mortgaged) =
                (interest + state.config.interest(mv), values + mv, true);
        }
    }
    let to_cash = state.player(offer.to).cash - net;
    let result = Acceptance {
        as_is: to_cash - interest >= 0,
        lifting_all: mortgaged && to_cash - interest - values >= 0,
    };
    debug_assert_eq!(
        result,
        Acceptance {
            as_is: acceptable_as_is(state, offer),
            lifting_all: acceptable_lifting_all(state, offer),
        },
        "the shared checks must answer as check_accept"
    );
    result
}

/// Whether `offer` can be accepted now with no mortgage lifted.
pub fn acceptable_as_is(state: &State, offer: &TradeOffer) -> bool {
    check_accept::<Refused>(state, offer, &[]).is_ok()
}

/// Whether `offer` has mortgaged properties for its addressee and can be accepted now with
/// every one of them lifted.
pub fn acceptable_lifting_all(state: &State, offer: &TradeOffer) -> bool {
    let mortgaged = |s: &u8| state.deed(*s).is_some_and(|d| d.mortgaged);
    // Most offers give no mortgaged deed: asked for every offer's template count, so answered
    // without gathering them.
    offer.give.properties.iter().any(mortgaged)
        && check_accept::<Refused>(state, offer, &mortgaged_given(state, offer)).is_ok()
}

/// The mortgaged properties `offer` gives its addressee: those it may choose to lift.
pub fn mortgaged_given(state: &State, offer: &TradeOffer) -> Vec<u8> {
    offer
        .give
        .properties
        .iter()
        .copied()
        .filter(|&s| state.deed(s).is_some_and(|d| d.mortgaged))
        .collect()
}
