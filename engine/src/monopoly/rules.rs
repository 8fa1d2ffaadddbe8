//! Pure questions about a state: rents, what may be built, sold, mortgaged or traded, and what a
//! player's estate is worth. `decide` and `legal_actions` both ask here, so they agree.

use super::config::TradeOffers;
use super::data::{board, DeedKind};
use super::errors::*;
use super::event::SquareLevel;
use super::state::{houses_at, Building, State, TradeOffer, HOTEL};
use crate::Seat;

/// Rent for landing on `square` owned by `owner` (MO-RENT-4..7). `dice_total` matters for a
/// Werk only; `multiplier` is card G05's doubling of a Bahnhof's rent. A mortgaged property
/// yields nothing (MO-RENT-3).
pub fn rent(state: &State, square: u8, owner: Seat, dice_total: i64, multiplier: i64) -> i64 {
    let b = board();
    let Some(d) = b.deed_at(square) else {
        return 0;
    };
    let deed = &state.deeds[d];
    if deed.mortgaged {
        return 0;
    }
    match &b.deed(d).kind {
        DeedKind::Street { group, rents, .. } => {
            if deed.level > 0 {
                rents[usize::from(deed.level)]
            } else if state.owns_group(owner, *group) && !group_mortgaged(state, *group) {
                2 * rents[0]
            } else {
                rents[0]
            }
        }
        DeedKind::Railway { rents } => {
            let count = state.same_kind_count(owner, square).clamp(1, rents.len());
            rents[count - 1] * multiplier
        }
        DeedKind::Utility { multipliers } => {
            let count = state
                .same_kind_count(owner, square)
                .clamp(1, multipliers.len());
            multipliers[count - 1] * dice_total
        }
    }
}

/// Whether any street of `group` is mortgaged (MO-BUILD-2, MO-RENT-4).
pub fn group_mortgaged(state: &State, group: usize) -> bool {
    board().groups[group]
        .deeds
        .iter()
        .any(|&d| state.deeds[d].mortgaged)
}

/// Whether any street of `group` carries a building (MO-MORT-1, MO-TRADE-1).
pub fn group_built(state: &State, group: usize) -> bool {
    board().groups[group]
        .deeds
        .iter()
        .any(|&d| state.deeds[d].level > 0)
}

fn even(levels: &[u8]) -> bool {
    even_levels(levels.iter().copied())
}

/// Whether the levels differ by at most 1 (MO-BUILD-4, MO-SELL-2).
fn even_levels(levels: impl Iterator<Item = u8>) -> bool {
    let (min, max) = levels.fold((u8::MAX, 0), |(min, max), l| (min.min(l), max.max(l)));
    max <= min.saturating_add(1)
}

/// The kind of unit that raises a street from `level`.
pub fn unit_kind(level: u8) -> Building {
    if level + 1 == HOTEL {
        Building::Hotel
    } else {
        Building::House
    }
}

/// A checked build request: each unit's street, new level and list price.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildPlan {
    pub units: Vec<(u8, u8, i64)>,
    pub houses: u8,
    pub hotels: u8,
    pub cost: i64,
}

/// Checks a build request of `seat`: one unit per listed square, in order (MO-BUILD-1..7).
/// With `ignore_stock` the bank's stock is not checked (a shortage decides who gets it).
///
/// # Errors
/// The first broken rule.
pub fn check_build<E: Refusal>(
    state: &State,
    seat: Seat,
    squares: &[u8],
    ignore_stock: bool,
) -> Result<BuildPlan, E> {
    let b = board();
    if squares.is_empty() {
        return Err(refusal(EMPTY_REQUEST, "MO-BUILD-4", || {
            "a build request names at least one street".into()
        }));
    }
    // Levels as the request raises them, by deed (a square holds at most one deed).
    let mut levels = [0u8; super::data::SQUARES];
    for (level, deed) in levels.iter_mut().zip(&state.deeds) {
        *level = deed.level;
    }
    let (mut houses, mut hotels) = (state.bank_houses, state.bank_hotels);
    let mut plan = BuildPlan {
        units: Vec::with_capacity(squares.len()),
        houses: 0,
        hotels: 0,
        cost: 0,
    };
    for &square in squares {
        let Some(d) = b.deed_at(square) else {
            return Err(refusal(NOT_A_STREET, "MO-BUILD-1", || {
                format!("square {square} is not a street")
            }));
        };
        let DeedKind::Street {
            group, house_cost, ..
        } = b.deed(d).kind
        else {
            return Err(refusal(NOT_A_STREET, "MO-BUILD-1", || {
                format!("{} is not a street", b.deed(d).name)
            }));
        };
        if state.deeds[d].owner != Some(seat) {
            return Err(refusal(NOT_OWNER, "MO-BUILD-1", || {
                format!("{} is not yours", b.deed(d).name)
            }));
        }
        if !state.owns_group(seat, group) {
            return Err(refusal(GROUP_INCOMPLETE, "MO-BUILD-1", || {
                "houses go only on a colour group owned completely".into()
            }));
        }
        if group_mortgaged(state, group) {
            return Err(refusal(GROUP_MORTGAGED, "MO-BUILD-2", || {
                "no building while a street of the group is mortgaged".into()
            }));
        }
        let level = levels[d];
        if level >= HOTEL {
            return Err(refusal(STREET_FULL, "MO-BUILD-6", || {
                format!("{} has a hotel; nothing may be added", b.deed(d).name)
            }));
        }
        levels[d] = level + 1;
        let group_levels = b.groups[group].deeds.iter().map(|&g| levels[g]);
        if !even_levels(group_levels) {
            return Err(refusal(UNEVEN, "MO-BUILD-4", || {
                "build evenly: levels in a group may differ by at most 1 after each unit".into()
            }));
        }
        if level + 1 == HOTEL {
            if !ignore_stock && hotels == 0 {
                return Err(refusal(BANK_OUT_OF_BUILDINGS, "MO-BUILD-7", || {
                    "the bank has no hotel left".into()
                }));
            }
            hotels = hotels.saturating_sub(1);
            houses += 4;
            plan.hotels += 1;
        } else {
            if !ignore_stock && houses == 0 {
                return Err(refusal(BANK_OUT_OF_BUILDINGS, "MO-BUILD-7", || {
                    "the bank has no house left".into()
                }));
            }
            houses = houses.saturating_sub(1);
            plan.houses += 1;
        }
        plan.units.push((square, level + 1, house_cost));
        plan.cost += house_cost;
    }
    let cash = state.player(seat).cash;
    if plan.cost > cash {
        return Err(insufficient_cash::<E>(
            "MO-BUILD-3",
            "these buildings",
            plan.cost,
            cash,
        ));
    }
    Ok(plan)
}

/// Streets where `seat` may put one unit now, stock and cash included, with the unit's kind.
pub fn single_builds(state: &State, seat: Seat) -> impl Iterator<Item = (u8, Building)> + '_ {
    let groups = (0..board().groups.len()).filter(move |&g| state.owns_group(seat, g));
    single_builds_in(state, seat, groups)
}

/// [`single_builds`] on the streets of `whole_groups`, the groups `seat` owns whole (found by
/// the caller, who may know them already).
pub fn single_builds_in<'s>(
    state: &'s State,
    seat: Seat,
    whole_groups: impl Iterator<Item = usize> + 's,
) -> impl Iterator<Item = (u8, Building)> + 's {
    let b = board();
    whole_groups
        .flat_map(|g| b.groups[g].deeds.iter())
        .filter_map(move |&d| {
            let square = b.deed(d).square;
            check_build::<Refused>(state, seat, &[square], false)
                .ok()
                .map(|_| (square, unit_kind(state.deeds[d].level)))
        })
}

/// What selling one building on `square` does (MO-SELL-1..4): the street levels that change
/// and the cash paid, half the price of each level given up.
///
/// A hotel comes down to 4 houses when the bank has them; otherwise the group takes the
/// highest even configuration the bank's houses allow (MO-SELL-4).
///
/// # Errors
/// The first broken rule.
pub fn check_sell<E: Refusal>(
    state: &State,
    seat: Seat,
    square: u8,
) -> Result<(Vec<SquareLevel>, i64), E> {
    let b = board();
    let Some(d) = b.deed_at(square) else {
        return Err(refusal(NOT_A_STREET, "MO-SELL-1", || {
            format!("square {square} is not a street")
        }));
    };
    let DeedKind::Street {
        group, house_cost, ..
    } = b.deed(d).kind
    else {
        return Err(refusal(NOT_A_STREET, "MO-SELL-1", || {
            format!("{} is not a street", b.deed(d).name)
        }));
    };
    if state.deeds[d].owner != Some(seat) {
        return Err(refusal(NOT_OWNER, "MO-SELL-1", || {
            format!("{} is not yours", b.deed(d).name)
        }));
    }
    let streets = &b.groups[group].deeds;
    let current: Vec<u8> = streets.iter().map(|&g| state.deeds[g].level).collect();
    let me = streets
        .iter()
        .position(|&g| g == d)
        .expect("a street is in its group");
    if current[me] == 0 {
        return Err(refusal(NO_BUILDINGS, "MO-SELL-1", || {
            format!("{} has no building", b.deed(d).name)
        }));
    }
    let target = if current[me] < HOTEL {
        let mut next = current.clone();
        next[me] -= 1;
        if !even(&next) {
            return Err(refusal(UNEVEN, "MO-SELL-2", || {
                "sell evenly: levels in a group may differ by at most 1 after each sale".into()
            }));
        }
        next
    } else {
        best_after_hotel_sale(&current, me, state.bank_houses)
    };
    let given_up: i64 = current
        .iter()
        .zip(&target)
        .map(|(c, t)| i64::from(c - t))
        .sum();
    let levels = streets
        .iter()
        .zip(current.iter().zip(&target))
        .filter(|(_, (c, t))| c != t)
        .map(|(&g, (_, &t))| SquareLevel {
            square: b.deed(g).square,
            level: t,
        })
        .collect();
    Ok((levels, half(house_cost) * given_up))
}

/// Half a building's price (MO-COMP-11).
pub fn half(house_cost: i64) -> i64 {
    house_cost * board().constants.building_sell_back_percent / 100
}

/// MO-SELL-4: the group's levels after the hotel on street `me` is sold: every street at most
/// its current level, `me` without its hotel, even, and needing at most `bank_houses` more
/// houses than stand now; the highest total, ties to the last found (higher levels on earlier
/// streets). With 4 houses in the bank this is the plain exchange back to 4 houses (MO-SELL-3).
fn best_after_hotel_sale(current: &[u8], me: usize, bank_houses: u8) -> Vec<u8> {
    let standing: u32 = current.iter().map(|&l| u32::from(houses_at(l))).sum();
    let mut best: Option<(u32, Vec<u8>)> = None;
    let mut levels = vec![0u8; current.len()];
    loop {
        let fits = levels.iter().zip(current).all(|(l, c)| l <= c) && levels[me] < HOTEL;
        if fits && even(&levels) {
            let needed: u32 = levels.iter().map(|&l| u32::from(houses_at(l))).sum();
            if needed <= standing + u32::from(bank_houses) {
                let total: u32 = levels.iter().map(|&l| u32::from(l)).sum();
                if best.as_ref().is_none_or(|(t, _)| total >= *t) {
                    best = Some((total, levels.clone()));
                }
            }
        }
        // Next combination, counting down from the highest levels first.
        let mut i = levels.len();
        loop {
            if i == 0 {
                return best
                    .map(|(_, l)| l)
                    .unwrap_or_else(|| vec![0; current.len()]);
            }
            i -= 1;
            if levels[i] < current[i] {
                levels[i] += 1;
                for l in &mut levels[i + 1..] {
                    *l = 0;
                }
                break;
            }
        }
    }
}

/// Checks mortgaging `square` (MO-MORT-1); returns the mortgage value paid.
///
/// # Errors
/// The first broken rule.
pub fn check_mortgage<E: Refusal>(state: &State, seat: Seat, square: u8) -> Result<i64, E> {
    let (d, data) = owned_deed::<E>(state, seat, square, "MO-MORT-1")?;
    if state.deeds[d].mortgaged {
        return Err(refusal(ALREADY_MORTGAGED, "MO-MORT-1", || {
            format!("{} is already mortgaged", data.name)
        }));
    }
    if let Some(group) = data.group() {
        if group_built(state, group) {
            return Err(refusal(GROUP_HAS_BUILDINGS, "MO-MORT-1", || {
                "sell every building of the group before mortgaging one of its streets".into()
            }));
        }
    }
    Ok(data.mortgage)
}

/// The price of lifting the mortgage on `square`: MV + 10 % (MO-MORT-3, MO-D-12).
pub fn lift_price(state: &State, square: u8) -> i64 {
    let b = board();
    let mv = b.deed_at(square).map_or(0, |d| b.deed(d).mortgage);
    mv + state.config.interest(mv)
}

/// 10 % interest on the mortgage value of `square` (MO-TRADE-3 b, MO-BANKR-2).
pub fn interest_on(state: &State, square: u8) -> i64 {
    let b = board();
    state
        .config
        .interest(b.deed_at(square).map_or(0, |d| b.deed(d).mortgage))
}

/// Checks lifting the mortgage on `square` (MO-MORT-3); returns its price.
///
/// # Errors
/// The first broken rule.
pub fn check_lift<E: Refusal>(state: &State, seat: Seat, square: u8) -> Result<i64, E> {
    let (d, data) = owned_deed::<E>(state, seat, square, "MO-MORT-3")?;
    if !state.deeds[d].mortgaged {
        return Err(refusal(NOT_MORTGAGED, "MO-MORT-3", || {
            format!("{} is not mortgaged", data.name)
        }));
    }
    let price = lift_price(state, square);
    let cash = state.player(seat).cash;
    if price > cash {
        return Err(insufficient_cash::<E>(
            "MO-MORT-3",
            "lifting this mortgage",
            price,
            cash,
        ));
    }
    Ok(price)
}

fn owned_deed<E: Refusal>(
    state: &State,
    seat: Seat,
    square: u8,
    rule: &'static str,
) -> Result<(usize, &'static super::data::DeedData), E> {
    let b = board();
    let Some(d) = b.deed_at(square) else {
        return Err(refusal(NOT_OWNER, rule, || {
            format!("square {square} has no title deed")
        }));
    };
    if state.deeds[d].owner != Some(seat) {
        return Err(refusal(NOT_OWNER, rule, || {
            format!("{} is not yours", b.deed(d).name)
        }));
    }
    Ok((d, b.deed(d)))
}

/// What `seat` could raise by selling every building and mortgaging every property, plus its
/// cash: bankruptcy is allowed only below the debt (MO-DEBT-1, MO-D-13).
pub fn liquidation_value(state: &State, seat: Seat) -> i64 {
    let b = board();
    let mut value = state.player(seat).cash;
    for (data, deed) in b.deeds.iter().zip(&state.deeds) {
        if deed.owner != Some(seat) {
            continue;
        }
        if let Some(h) = data.house_cost() {
            value += half(h) * i64::from(deed.level);
        }
        if !deed.mortgaged {
            value += data.mortgage;
        }
    }
    value
}

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
        if b.deed(d).group().is_some_and(|g| group_built(state, g)) {
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
                "MO-TRADE-2",
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

/// [`acceptable_as_is`] and [`acceptable_lifting_all`] at once: listing asks both of every open
/// offer at every step, and all of [`check_accept`] but the addressee's costs is the same for
/// both, so it is checked once.
pub fn acceptance(state: &State, offer: &TradeOffer) -> Acceptance {
    let refused = Acceptance {
        as_is: false,
        lifting_all: false,
    };
    let items = |seat, bundle: &super::state::Bundle| {
        check_items::<Refused>(state, seat, &bundle.properties, &bundle.cards).is_ok()
    };
    if !items(offer.from, &offer.give) || !items(offer.to, &offer.get) {
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
