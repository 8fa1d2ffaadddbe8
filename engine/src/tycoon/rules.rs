//! The checks behind every action, shared by `decide` (which reports why) and `legal_actions`
//! (which only asks whether), so the two cannot drift apart.
//!
//! Checks return a small `Copy` [`Refusal`] rather than a [`RuleError`]: `legal_actions` runs
//! hundreds of failing checks per call and must not format a message for each of them.

use super::config::StepMode;
use super::data::{board, City, LoanKind, Route, Ticket, CITY_COUNT};
use super::errors::*;
use super::state::{Plane, State, Turn};
use crate::RuleError;
use std::sync::OnceLock;

/// Why a check failed, with just enough context to write the message later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    NotInCity,
    Stopover(City),
    MainActionTaken,
    NoHotelsInSupply,
    CityFull(City),
    NoClosedHotel(City),
    NoFactoriesLeft,
    FactoryFieldsFull(City),
    CannotAfford {
        rule: &'static str,
        what: &'static str,
        price: i32,
        cash: i32,
    },
    TicketNotDisplayed(Ticket),
    TicketNotInHand(Ticket),
    FlightAfterBuild,
    DirectFlightRequired,
    AlreadyThere(City),
    Unreachable(Ticket, City),
    LoanTurnNotPure,
}

impl From<Refusal> for RuleError {
    fn from(refusal: Refusal) -> RuleError {
        use Refusal::*;
        match refusal {
            NotInCity => RuleError::new(
                NOT_IN_CITY,
                "TY-LAND-1",
                "building needs the plane on a landing field of a city, not at the home bank",
            ),
            Stopover(city) => RuleError::new(
                LANDING_FIELDS_FULL,
                "TY-FLY-6",
                format!("both landing fields of {city} are taken: the plane may only stop over and fly on"),
            ),
            MainActionTaken => RuleError::new(
                MAIN_ACTION_TAKEN,
                "TY-TURN-1",
                "the main action of this turn has already been taken",
            ),
            NoHotelsInSupply => RuleError::new(
                NO_HOTELS_IN_SUPPLY,
                "TY-HOTEL-1",
                "no hotel is left in front of the player this phase",
            ),
            CityFull(city) => RuleError::new(CITY_FULL, "TY-HOTEL-4", format!("the hotel track of {city} is full")),
            NoClosedHotel(city) => RuleError::new(
                NO_CLOSED_HOTEL,
                "TY-RENO-1",
                format!("the player has no closed hotel in {city}"),
            ),
            NoFactoriesLeft => RuleError::new(
                NO_FACTORIES_LEFT,
                "TY-COMP-4",
                "all five factories of the player are built",
            ),
            FactoryFieldsFull(city) => RuleError::new(
                FACTORY_FIELDS_FULL,
                "TY-FAC-3",
                format!("{city} already has two factories"),
            ),
            CannotAfford { rule, what, price, cash } => insufficient_cash(rule, what, price, cash),
            TicketNotDisplayed(ticket) => RuleError::new(
                TICKET_NOT_DISPLAYED,
                "TY-TIX-1",
                format!("ticket {ticket} is not face up in the display"),
            ),
            TicketNotInHand(ticket) => RuleError::new(
                TICKET_NOT_IN_HAND,
                "TY-FLY-1",
                format!("ticket {ticket} is not in the player's hand"),
            ),
            FlightAfterBuild => RuleError::new(
                FLIGHT_AFTER_BUILD,
                "TY-TURN-2",
                "flights happen only before the build",
            ),
            DirectFlightRequired => RuleError::new(
                DIRECT_FLIGHT_REQUIRED,
                "TY-FLY-5",
                "from the home bank only a scheduled ticket to its named city may be used",
            ),
            AlreadyThere(city) => RuleError::new(
                UNREACHABLE_CITY,
                "TY-LAND-3",
                format!("the plane is already in {city}"),
            ),
            Unreachable(ticket, to) => RuleError::new(
                UNREACHABLE_CITY,
                "TY-FLY-3",
                format!("ticket {ticket} cannot fly from here to {to}"),
            ),
            LoanTurnNotPure => RuleError::new(
                LOAN_TURN_NOT_PURE,
                "TY-TURN-3",
                "a loan turn allows nothing else: after buying or flying, the player must build (T11, T12)",
            ),
        }
    }
}

/// A build action's target: the city and the landing field the plane holds.
pub struct Site {
    pub city: City,
    pub field: u8,
}

/// The plane must hold a landing field in a city to build there (TY-LAND-1, TY-FLY-6).
pub fn building_site(state: &State, turn: &Turn) -> Result<Site, Refusal> {
    if turn.main_action_done {
        return Err(Refusal::MainActionTaken);
    }
    match state.player(turn.seat).plane {
        Plane::Home => Err(Refusal::NotInCity),
        Plane::City { field: None, city } => Err(Refusal::Stopover(city)),
        Plane::City {
            city,
            field: Some(field),
        } => Ok(Site { city, field }),
    }
}

/// The next space of a city's track, unless the city is full (TY-HOTEL-4).
fn next_space(state: &State, city: City) -> Result<u8, Refusal> {
    let space = state.city(city).chain_length;
    if space >= board().unbuildable_space {
        return Err(Refusal::CityFull(city));
    }
    Ok(space)
}

/// A hotel build: the city, the space it goes to and its cost (TY-HOTEL-1..4).
pub fn check_hotel(state: &State, turn: &Turn) -> Result<(City, u8, i32), Refusal> {
    let site = building_site(state, turn)?;
    let player = state.player(turn.seat);
    if player.hotels_in_supply == 0 {
        return Err(Refusal::NoHotelsInSupply);
    }
    let space = next_space(state, site.city)?;
    let price = board().city(site.city).landing_costs[usize::from(site.field)];
    if player.cash < price {
        return Err(Refusal::CannotAfford {
            rule: "TY-HOTEL-2",
            what: "this hotel",
            price,
            cash: player.cash,
        });
    }
    Ok((site.city, space, price))
}

/// A renovation: the city and the space the hotel goes to (TY-RENO-1, TY-RENO-4).
pub fn check_renovation(state: &State, turn: &Turn) -> Result<(City, u8), Refusal> {
    let site = building_site(state, turn)?;
    if !state.city(site.city).closed.contains(&turn.seat) {
        return Err(Refusal::NoClosedHotel(site.city));
    }
    Ok((site.city, next_space(state, site.city)?))
}

/// A factory build: the city, the factory field and its cost (TY-FAC-1..3).
pub fn check_factory(state: &State, turn: &Turn) -> Result<(City, u8, i32), Refusal> {
    let site = building_site(state, turn)?;
    let player = state.player(turn.seat);
    if player.factories_left == 0 {
        return Err(Refusal::NoFactoriesLeft);
    }
    let built = state.city(site.city).factories.len();
    if built >= board().constants.factory_fields_per_city {
        return Err(Refusal::FactoryFieldsFull(site.city));
    }
    let price = board().city(site.city).factory_costs[built];
    if player.cash < price {
        return Err(Refusal::CannotAfford {
            rule: "TY-FAC-2",
            what: "this factory",
            price,
            cash: player.cash,
        });
    }
    Ok((site.city, built as u8, price))
}

/// Whether any build action is possible where the plane stands.
pub fn can_build_here(state: &State, turn: &Turn) -> bool {
    check_hotel(state, turn).is_ok()
        || check_renovation(state, turn).is_ok()
        || check_factory(state, turn).is_ok()
}

/// A purchase from the display: its price (TY-TIX-1, TY-TIX-3).
pub fn check_purchase(state: &State, turn: &Turn, ticket: Ticket) -> Result<i32, Refusal> {
    let card = board().ticket(ticket);
    if !state.deck(card.deck).display.contains(&ticket) {
        return Err(Refusal::TicketNotDisplayed(ticket));
    }
    let cash = state.player(turn.seat).cash;
    if cash < card.price {
        return Err(Refusal::CannotAfford {
            rule: "TY-TIX-3",
            what: "this ticket",
            price: card.price,
            cash,
        });
    }
    Ok(card.price)
}

/// Whether `ticket` can carry a plane standing at `from` to `to` (TY-FLY-2..5, T1, T2).
pub fn route_allows(mode: StepMode, ticket: Ticket, from: Plane, to: City) -> Result<(), Refusal> {
    if destinations(mode, ticket, from) & (1 << to.0) != 0 {
        return Ok(());
    }
    Err(match from {
        Plane::Home => Refusal::DirectFlightRequired,
        Plane::City { city, .. } if city == to => Refusal::AlreadyThere(to),
        Plane::City { .. } => Refusal::Unreachable(ticket, to),
    })
}

/// The cities `ticket` reaches from `from`, as a bit set over [`City`] indices.
///
/// Looked up in a table built once from `reaches`: `legal_actions` asks this for every ticket
/// in hand, and hands grow long.
pub fn destinations(mode: StepMode, ticket: Ticket, from: Plane) -> u16 {
    /// Index 0..9 = standing in that city, 9 = at the home bank.
    type Table = Vec<[[u16; CITY_COUNT + 1]; 2]>;
    static TABLE: OnceLock<Table> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let b = board();
        (0..b.tickets.len() as u8)
            .map(|t| {
                [StepMode::Exact, StepMode::UpTo].map(|mode| {
                    std::array::from_fn(|from| {
                        let from = if from == CITY_COUNT {
                            None
                        } else {
                            Some(City(from as u8))
                        };
                        b.cities()
                            .filter(|&to| reaches(mode, Ticket(t), from, to))
                            .fold(0u16, |mask, to| mask | 1 << to.0)
                    })
                })
            })
            .collect()
    });
    let mode = match mode {
        StepMode::Exact => 0,
        StepMode::UpTo => 1,
    };
    let from = match from {
        Plane::Home => CITY_COUNT,
        Plane::City { city, .. } => usize::from(city.0),
    };
    table[usize::from(ticket.0)][mode][from]
}

/// The flight rules themselves: from the bank only direct on a scheduled ticket (TY-FLY-5, T2);
/// from a city never to the same city, a scheduled ticket direct or by exactly N steps (N
/// steps or fewer with `up_to`, TY-FLY-3, T1), a charter ticket between its two cities
/// (TY-FLY-4).
fn reaches(mode: StepMode, ticket: Ticket, from: Option<City>, to: City) -> bool {
    let b = board();
    let route = b.ticket(ticket).route;
    let Some(here) = from else {
        return matches!(route, Route::Scheduled { dest, .. } if dest == to);
    };
    if here == to {
        return false;
    }
    match route {
        Route::Scheduled { dest, steps } => {
            let d = b.distance(here, to);
            let by_steps = match mode {
                StepMode::Exact => d <= steps && d % 2 == steps % 2,
                StepMode::UpTo => d <= steps,
            };
            dest == to || by_steps
        }
        Route::Charter { ends } => ends == [here, to] || ends == [to, here],
    }
}

/// A flight (TY-TURN-2, TY-FLY-1..6).
pub fn check_flight(state: &State, turn: &Turn, ticket: Ticket, to: City) -> Result<(), Refusal> {
    if turn.main_action_done {
        return Err(Refusal::FlightAfterBuild);
    }
    let player = state.player(turn.seat);
    if !player.tickets.contains(&ticket) {
        return Err(Refusal::TicketNotInHand(ticket));
    }
    route_allows(state.config.step_mode, ticket, player.plane, to)
}

/// Whether any flight is possible now.
pub fn can_fly(state: &State, turn: &Turn) -> bool {
    let player = state.player(turn.seat);
    !turn.main_action_done
        && player
            .tickets
            .iter()
            .any(|&t| destinations(state.config.step_mode, t, player.plane) != 0)
}

/// Whether the loan action (or the pass that replaces it) is open: in a pure turn (nothing
/// bought or flown: TY-TURN-3, T11) or for a stranded plane (T12).
///
/// Stranded means no build action is possible where the plane stands and either the player has
/// flown this turn, or has bought tickets and cannot fly at all (otherwise a player who bought a
/// charter ticket at the bank would be left without any legal action).
pub fn check_loan_turn(state: &State, turn: &Turn) -> Result<(), Refusal> {
    if turn.main_action_done {
        return Err(Refusal::MainActionTaken);
    }
    let pure = !turn.flown && !turn.purchased;
    if pure || (!can_build_here(state, turn) && (turn.flown || !can_fly(state, turn))) {
        return Ok(());
    }
    Err(Refusal::LoanTurnNotPure)
}

/// Whether the bank still has a card of this kind (L2).
pub fn loan_card_available(state: &State, loan: LoanKind) -> bool {
    state.config.unlimited_loans || state.loan_cards_left[loan.index()] > 0
}
