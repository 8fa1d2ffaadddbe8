//! The checks behind every action, shared by `decide` (which reports why) and `legal_actions`
//! (which only asks whether), so the two cannot drift apart.

use super::data::{board, City, Route, Ticket};
use super::errors::*;
use super::state::{Plane, State, Turn};
use super::StepMode;
use crate::{RuleError, Seat};

/// A build action's target: the city and, for hotels, the landing field the plane holds.
pub struct Site {
    pub city: City,
    pub field: u8,
}

/// The plane must hold a landing field in a city to build there (TY-LAND-1, TY-FLY-6).
pub fn building_site(state: &State, seat: Seat) -> Result<Site, RuleError> {
    match state.player(seat).plane {
        Plane::Home => Err(RuleError::new(
            NOT_IN_CITY,
            "TY-LAND-1",
            "building needs the plane on a landing field of a city, not at the home bank",
        )),
        Plane::City { field: None, city } => Err(RuleError::new(
            LANDING_FIELDS_FULL,
            "TY-FLY-6",
            format!(
                "both landing fields of {city} are taken: the plane may only stop over and fly on"
            ),
        )),
        Plane::City {
            city,
            field: Some(field),
        } => Ok(Site { city, field }),
    }
}

fn main_action_open(turn: &Turn) -> Result<(), RuleError> {
    if turn.main_action_done {
        return Err(RuleError::new(
            MAIN_ACTION_TAKEN,
            "TY-TURN-1",
            "the main action of this turn has already been taken",
        ));
    }
    Ok(())
}

fn track_open(state: &State, city: City) -> Result<u8, RuleError> {
    let space = state.city(city).chain_length;
    if space >= board().unbuildable_space {
        return Err(RuleError::new(
            CITY_FULL,
            "TY-HOTEL-4",
            format!("the hotel track of {city} is full"),
        ));
    }
    Ok(space)
}

/// A hotel build: the space it goes to and its cost (TY-HOTEL-1..4).
pub fn check_hotel(state: &State, turn: &Turn) -> Result<(City, u8, i32), RuleError> {
    main_action_open(turn)?;
    let site = building_site(state, turn.seat)?;
    let player = state.player(turn.seat);
    if player.hotels_in_supply == 0 {
        return Err(RuleError::new(
            NO_HOTELS_IN_SUPPLY,
            "TY-HOTEL-1",
            "no hotel is left in front of the player this phase",
        ));
    }
    let space = track_open(state, site.city)?;
    let cost = board().city(site.city).landing_costs[usize::from(site.field)];
    if player.cash < cost {
        return Err(insufficient_cash(
            "TY-HOTEL-2",
            "this hotel",
            cost,
            player.cash,
        ));
    }
    Ok((site.city, space, cost))
}

/// A renovation: the space the hotel goes to (TY-RENO-1, TY-RENO-4).
pub fn check_renovation(state: &State, turn: &Turn) -> Result<(City, u8), RuleError> {
    main_action_open(turn)?;
    let site = building_site(state, turn.seat)?;
    if !state.city(site.city).closed.contains(&turn.seat) {
        return Err(RuleError::new(
            NO_CLOSED_HOTEL,
            "TY-RENO-1",
            format!("the player has no closed hotel in {}", site.city),
        ));
    }
    let space = track_open(state, site.city)?;
    Ok((site.city, space))
}

/// A factory build: the factory field and its cost (TY-FAC-1..3).
pub fn check_factory(state: &State, turn: &Turn) -> Result<(City, u8, i32), RuleError> {
    main_action_open(turn)?;
    let site = building_site(state, turn.seat)?;
    let player = state.player(turn.seat);
    if player.factories_left == 0 {
        return Err(RuleError::new(
            NO_FACTORIES_LEFT,
            "TY-COMP-4",
            "all five factories of the player are built",
        ));
    }
    let built = state.city(site.city).factories.len();
    if built >= board().constants.factory_fields_per_city {
        return Err(RuleError::new(
            FACTORY_FIELDS_FULL,
            "TY-FAC-3",
            format!("{} already has two factories", site.city),
        ));
    }
    let cost = board().city(site.city).factory_costs[built];
    if player.cash < cost {
        return Err(insufficient_cash(
            "TY-FAC-2",
            "this factory",
            cost,
            player.cash,
        ));
    }
    Ok((site.city, built as u8, cost))
}

/// Whether any build action is possible where the plane stands.
pub fn can_build_here(state: &State, turn: &Turn) -> bool {
    check_hotel(state, turn).is_ok()
        || check_renovation(state, turn).is_ok()
        || check_factory(state, turn).is_ok()
}

/// A purchase from the display (TY-TIX-1, TY-TIX-3).
pub fn check_purchase(state: &State, turn: &Turn, ticket: Ticket) -> Result<i32, RuleError> {
    let card = board().ticket(ticket);
    if !state.deck(card.deck).display.contains(&ticket) {
        return Err(RuleError::new(
            TICKET_NOT_DISPLAYED,
            "TY-TIX-1",
            format!("ticket {ticket} is not face up in the display"),
        ));
    }
    let cash = state.player(turn.seat).cash;
    if cash < card.price {
        return Err(insufficient_cash(
            "TY-TIX-3",
            "this ticket",
            card.price,
            cash,
        ));
    }
    Ok(card.price)
}

/// Whether `ticket` can carry a plane standing at `from` to `to` (TY-FLY-2..5, T1, T2).
pub fn route_allows(
    mode: StepMode,
    ticket: Ticket,
    from: Plane,
    to: City,
) -> Result<(), RuleError> {
    let b = board();
    let unreachable = || {
        RuleError::new(
            UNREACHABLE_CITY,
            "TY-FLY-3",
            format!("ticket {ticket} cannot fly from here to {to}"),
        )
    };
    let here = match from {
        Plane::Home => {
            return match b.ticket(ticket).route {
                Route::Scheduled { dest, .. } if dest == to => Ok(()),
                _ => Err(RuleError::new(
                    DIRECT_FLIGHT_REQUIRED,
                    "TY-FLY-5",
                    "from the home bank only a scheduled ticket to its named city may be used",
                )),
            };
        }
        Plane::City { city, .. } => city,
    };
    if here == to {
        return Err(RuleError::new(
            UNREACHABLE_CITY,
            "TY-LAND-3",
            format!("the plane is already in {to}"),
        ));
    }
    let ok = match b.ticket(ticket).route {
        Route::Scheduled { dest, steps } => {
            let d = b.distance(here, to);
            let by_steps = match mode {
                StepMode::Exact => d <= steps && d % 2 == steps % 2,
                StepMode::UpTo => d <= steps,
            };
            dest == to || by_steps
        }
        Route::Charter { ends } => {
            (ends[0] == here && ends[1] == to) || (ends[1] == here && ends[0] == to)
        }
    };
    if ok {
        Ok(())
    } else {
        Err(unreachable())
    }
}

/// A flight (TY-TURN-2, TY-FLY-1..6).
pub fn check_flight(state: &State, turn: &Turn, ticket: Ticket, to: City) -> Result<(), RuleError> {
    if turn.main_action_done {
        return Err(RuleError::new(
            FLIGHT_AFTER_BUILD,
            "TY-TURN-2",
            "flights happen only before the build",
        ));
    }
    let player = state.player(turn.seat);
    if !player.tickets.contains(&ticket) {
        return Err(RuleError::new(
            TICKET_NOT_IN_HAND,
            "TY-FLY-1",
            format!("ticket {ticket} is not in the player's hand"),
        ));
    }
    route_allows(state.config.step_mode, ticket, player.plane, to)
}

/// Whether any flight is possible now.
pub fn can_fly(state: &State, turn: &Turn) -> bool {
    let player = state.player(turn.seat);
    !turn.main_action_done
        && player.tickets.iter().any(|&t| {
            board()
                .cities()
                .any(|to| route_allows(state.config.step_mode, t, player.plane, to).is_ok())
        })
}

/// Whether the loan action (or the pass that replaces it) is open: in a pure turn (nothing
/// bought or flown: TY-TURN-3, T11) or for a stranded plane (T12).
///
/// Stranded means no build action is possible where the plane stands and either the player has
/// flown this turn, or has bought tickets and cannot fly at all (otherwise a player who bought a
/// charter ticket at the bank would be left without any legal action).
pub fn check_loan_turn(state: &State, turn: &Turn) -> Result<(), RuleError> {
    main_action_open(turn)?;
    let pure = !turn.flown && !turn.purchased;
    if pure {
        return Ok(());
    }
    let stranded = !can_build_here(state, turn) && (turn.flown || !can_fly(state, turn));
    if stranded {
        return Ok(());
    }
    Err(RuleError::new(
        LOAN_TURN_NOT_PURE,
        "TY-TURN-3",
        "a loan turn allows nothing else: after buying or flying, the player must build (T11, T12)",
    ))
}

/// Whether the bank still has a card of this kind (L2).
pub fn loan_card_available(state: &State, loan: super::data::LoanKind) -> bool {
    state.config.unlimited_loans || state.loan_cards_left[loan.index()] > 0
}
