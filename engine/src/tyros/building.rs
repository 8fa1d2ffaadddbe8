//! The checks behind founding a city (action B, TR-ACT-B) and building a ship (action C,
//! TR-ACT-C), galleys and pirate ships included. Shared by `decide` and `legal.rs`, so the two
//! always agree.

use super::config::TyrosShipyard;
use super::data::{board, Cell};
use super::errors as e;
use super::payment;
use super::rules::{due, fresh_turn_of, ordered, own_ship_at, unaffordable, variant_off};
use super::state::{Due, DueReason, Need, ShipId, State};
use crate::refusal::Refusal;
use crate::{RuleError, Seat};

/// Action B (TR-ACT-B): the city's dues.
///
/// # Errors
/// The first rule the founding breaks.
pub fn check_city<E: Refusal>(
    state: &State,
    seat: Seat,
    ship: ShipId,
) -> Result<(Cell, Vec<Due>), E> {
    fresh_turn_of::<E>(state, seat)?;
    let at = own_ship_at::<E>(state, seat, ship, "TR-ACT-B")?;
    let rule = "TR-ACT-B";
    let Some(colour) = state.field(at).empire.filter(|_| !at.is_tyros()) else {
        return Err(E::refuse(|| {
            RuleError::new(
                e::NOT_AN_EMPIRE_FIELD,
                rule,
                format!("{at} belongs to no empire"),
            )
        }));
    };
    if state.field(at).city.is_some() {
        return Err(E::refuse(|| {
            RuleError::new(e::CITY_SITE_TAKEN, rule, format!("{at} already has a city"))
        }));
    }
    if state.ships_at(at).any(|id| state.ship(id).owner != seat) {
        return Err(E::refuse(|| {
            RuleError::new(
                e::RIVAL_SHIP_PRESENT,
                rule,
                format!("another player's ship is in {at}"),
            )
        }));
    }
    if state.player(seat).cities_left == 0 {
        return Err(E::refuse(|| {
            RuleError::new(e::NO_CITY_MARKERS, rule, "you have no city marker left")
        }));
    }
    let dues = vec![due(
        seat,
        Need::Colour { colour },
        board().constants.city_cost,
        None,
        DueReason::City,
    )];
    if !payment::affordable(&state.config, &state.player(seat).cards, &dues) {
        return Err(unaffordable::<E>(rule, "a city"));
    }
    Ok((at, dues))
}

/// Action C (TR-ACT-C, TR-GAL-2, TR-PIR-7): the ship's dues and the ship taken from supply.
///
/// # Errors
/// The first rule the build breaks.
pub fn check_build<E: Refusal>(
    state: &State,
    seat: Seat,
    at: Cell,
    galley: bool,
) -> Result<(ShipId, Vec<Due>), E> {
    fresh_turn_of::<E>(state, seat)?;
    let b = board();
    let rule = "TR-ACT-C";
    let Some(ship) = state.ships_in_supply(seat).next() else {
        return Err(E::refuse(|| {
            RuleError::new(
                e::NO_SHIP_IN_SUPPLY,
                rule,
                "you have no ship in your supply",
            )
        }));
    };
    if galley {
        if !state.config.galleys {
            return Err(variant_off::<E>("TR-GAL-2", "galleys"));
        }
        if state.galley_tokens_left(seat) == 0 {
            return Err(E::refuse(|| {
                RuleError::new(
                    e::NO_GALLEY_TOKEN,
                    "TR-GAL-2",
                    "you have no galley token left",
                )
            }));
        }
    }
    let mut dues = Vec::new();
    if at.is_tyros() {
        let allowed = match state.config.tyros_shipyard {
            TyrosShipyard::Always => true,
            TyrosShipyard::Never => false,
            TyrosShipyard::OnlyWhileNoCity => state.cities_of(seat).next().is_none(),
        };
        if !allowed {
            return Err(E::refuse(|| {
                RuleError::new(
                    e::NOT_A_SHIPYARD,
                    rule,
                    "Tyros builds no ship for you now (tyros_shipyard)",
                )
            }));
        }
        dues.push(due(
            seat,
            Need::Any,
            b.constants.tyros_build_cost,
            None,
            DueReason::Build,
        ));
    } else {
        let field = state.field(at);
        let colour = match (field.city, field.empire) {
            (Some(owner), Some(colour)) if owner == seat => colour,
            _ => {
                return Err(E::refuse(|| {
                    RuleError::new(e::NOT_A_SHIPYARD, rule, format!("you have no city in {at}"))
                }))
            }
        };
        if state.ship_count(at) >= usize::from(b.constants.ship_limit_per_field) {
            return Err(E::refuse(|| {
                RuleError::new(
                    e::SHIPYARD_FULL,
                    rule,
                    format!("{at} already holds 2 ships"),
                )
            }));
        }
        dues.push(due(
            seat,
            Need::Colour { colour },
            b.constants.ship_build_cost,
            None,
            DueReason::Build,
        ));
        if field.pirate.is_some() {
            dues.push(due(
                seat,
                Need::Any,
                b.variants.pirates.toll_build,
                None,
                DueReason::Toll,
            ));
        }
    }
    if galley {
        dues.push(due(
            seat,
            Need::Identical,
            b.variants.galleys.upgrade_extra_identical_cards,
            None,
            DueReason::Galley,
        ));
    }
    let dues = ordered(dues);
    if !payment::affordable(&state.config, &state.player(seat).cards, &dues) {
        return Err(unaffordable::<E>(rule, "this ship"));
    }
    Ok((ship, dues))
}
