//! The checks behind building, selling, mortgaging and lifting, and bankruptcy, shared by
//! `decide` (which says why) and `legal.rs` (which only asks whether), so the two cannot drift
//! apart; the trade checks are in [`super::trade`].

use super::data::{board, DeedKind};
use super::errors::*;
use super::event::SquareLevel;
use super::state::{houses_at, Building, State, HOTEL};
use crate::Seat;

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

/// Whether [`check_build`] takes one unit on deed `d` from `seat`, stock included: the same
/// rules on the group's few levels, without the plan or the board's levels that a request of
/// several units needs (listing asks this of every street of every seat at every step).
pub fn builds_one(state: &State, seat: Seat, d: usize) -> bool {
    let b = board();
    let answer = (|| {
        let DeedKind::Street {
            group, house_cost, ..
        } = b.deed(d).kind
        else {
            return false;
        };
        let deed = &state.deeds[d];
        if deed.owner != Some(seat)
            || !state.owns_group(seat, group)
            || group_mortgaged(state, group)
            || deed.level >= HOTEL
        {
            return false;
        }
        let raised = |g: usize| state.deeds[g].level + u8::from(g == d);
        if !even_levels(b.groups[group].deeds.iter().map(|&g| raised(g))) {
            return false;
        }
        let stock = if deed.level + 1 == HOTEL {
            state.bank_hotels
        } else {
            state.bank_houses
        };
        stock > 0 && house_cost <= state.player(seat).cash
    })();
    debug_assert_eq!(
        answer,
        check_build::<Refused>(state, seat, &[b.deed(d).square], false).is_ok(),
        "builds_one must answer as check_build"
    );
    answer
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
        .filter(move |&&d| builds_one(state, seat, d))
        .map(move |&d| (b.deed(d).square, unit_kind(state.deeds[d].level)))
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

/// Whether [`check_sell`] takes selling one building on deed `d` from `seat`: the same rules
/// without the levels it works out (a hotel can always be sold, MO-SELL-3, MO-SELL-4).
pub fn sells_one(state: &State, seat: Seat, d: usize) -> bool {
    let b = board();
    let deed = &state.deeds[d];
    let answer = match b.deed(d).group() {
        Some(group) if deed.owner == Some(seat) && deed.level > 0 => {
            deed.level >= HOTEL || {
                let lowered = |g: usize| state.deeds[g].level - u8::from(g == d);
                even_levels(b.groups[group].deeds.iter().map(|&g| lowered(g)))
            }
        }
        _ => false,
    };
    debug_assert_eq!(
        answer,
        check_sell::<Refused>(state, seat, b.deed(d).square).is_ok(),
        "sells_one must answer as check_sell"
    );
    answer
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
