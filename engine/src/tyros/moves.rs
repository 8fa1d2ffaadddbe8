//! The checks behind moving ships (action A, TR-ACT-A) and the explorer's voyage (TR-AK-6,
//! TR-AK-7): the cheapest affordable path to a destination and what it costs, tolls, tributes
//! and favourable wind included. Shared by `decide` and `legal.rs`, so the two always agree;
//! the path search itself is in `paths.rs`.

use super::cards::{Cards, Empire};
use super::data::{board, Cell};
use super::errors as e;
use super::paths::{self, Candidate, Layers, VoyageCost};
use super::rules::{due, fresh_turn_of, ordered, own_ship_at, unaffordable, variant_off};
use super::state::{CardStatus, Due, DueReason, Need, ShipId, State};
use crate::{RuleError, Seat};

/// A checked move or voyage: the path, what it costs, and the galley fight it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovePlan {
    pub from: Cell,
    pub path: Vec<Cell>,
    pub dues: Vec<Due>,
    pub fight_with: Option<ShipId>,
}

impl MovePlan {
    /// Cards the whole move costs.
    pub fn total(&self) -> u8 {
        self.dues.iter().map(|d| d.count).sum()
    }
}

/// The rival galley a galley arriving in `to` must fight (TR-GAL-5); never in Tyros.
fn fight_at(state: &State, seat: Seat, ship: ShipId, to: Cell) -> Option<ShipId> {
    if !state.config.galleys || !state.ship(ship).galley || to.is_tyros() {
        return None;
    }
    state
        .ships_at(to)
        .find(|&id| state.ship(id).owner != seat && state.ship(id).galley)
}

/// A galley entering a pirate field with Galleys + Pirates sinks it and pays no toll
/// (TR-COMB-2).
fn galley_sinks_pirate(state: &State, ship: ShipId, to: Cell) -> bool {
    state.config.combined() && state.ship(ship).galley && state.field(to).pirate.is_some()
}

/// What a move along one path costs (TR-ACT-A, TR-PIR-7, TR-PIR-8, TR-AK-4, TR-COMB-2): cards
/// of the destination's colour, toll cards, and tribute cards for a rival city's owner.
#[derive(Debug, Clone, Copy)]
struct MoveCost {
    colour: Empire,
    cards: u8,
    tolls: u8,
    tribute: Option<(Seat, u8)>,
}

impl MoveCost {
    /// A move of `len` cells crossing `crossed` pirate fields.
    fn new(
        state: &State,
        seat: Seat,
        ship: ShipId,
        to: Cell,
        len: u8,
        crossed: u8,
        wind: bool,
    ) -> Self {
        MoveCost::toward(state, seat, ship, to).along(len, crossed, wind)
    }

    /// What any move of `ship` to `to` costs before its length and the pirate fields it
    /// crosses are known: the colour, the entry toll and the tribute. A path search prices
    /// many walks to one destination; this part is the same for all of them.
    fn toward(state: &State, seat: Seat, ship: ShipId, to: Cell) -> Self {
        let b = board();
        let field = state.field(to);
        let tolls = if field.pirate.is_some() && !galley_sinks_pirate(state, ship, to) {
            b.variants.pirates.toll_enter
        } else {
            0
        };
        MoveCost {
            colour: field
                .empire
                .expect("checked: the destination belongs to an empire"),
            cards: 0,
            tolls,
            tribute: field
                .city
                .filter(|&owner| owner != seat && field.pirate.is_none())
                .map(|owner| (owner, b.constants.tribute_cards)),
        }
    }

    /// This cost (from [`MoveCost::toward`]) for a move of `len` cells crossing `crossed`
    /// pirate fields.
    fn along(self, len: u8, crossed: u8, wind: bool) -> Self {
        let b = board();
        let cells = if wind { len / 2 } else { len };
        MoveCost {
            cards: cells * b.constants.move_cost_per_field,
            tolls: crossed * b.variants.pirates.toll_pass_through + self.tolls,
            ..self
        }
    }

    fn total(&self) -> u8 {
        self.cards + self.tolls + self.tribute.map_or(0, |(_, n)| n)
    }

    /// The same answer as [`payment::affordable`] on [`MoveCost::dues`], without building them.
    fn affordable(&self, config: &super::config::Config, hand: &Cards) -> bool {
        let own = hand.get(self.colour.card());
        let jokers = if config.jokers_wild { hand.joker } else { 0 };
        u32::from(self.cards) <= u32::from(own) + u32::from(jokers)
            && u32::from(self.total()) <= hand.total()
    }

    fn dues(&self, seat: Seat) -> Vec<Due> {
        let mut dues = vec![
            due(
                seat,
                Need::Colour {
                    colour: self.colour,
                },
                self.cards,
                None,
                DueReason::Move,
            ),
            due(seat, Need::Any, self.tolls, None, DueReason::Toll),
        ];
        if let Some((owner, n)) = self.tribute {
            dues.push(due(seat, Need::Any, n, Some(owner), DueReason::Tribute));
        }
        ordered(dues)
    }
}

/// Whether `seat` may move `ship` half price now (TR-AK-4).
fn check_wind(state: &State, seat: Seat) -> Result<(), RuleError> {
    if !state.config.action_cards {
        return Err(variant_off::<RuleError>("TR-AK-4", "action_cards"));
    }
    if state.player(seat).action_cards.favourable_wind != CardStatus::Laid {
        return Err(RuleError::new(
            e::NO_WIND,
            "TR-AK-4",
            "no \"Günstiger Wind\" is laid out for you this round",
        ));
    }
    Ok(())
}

/// The public checks of a move's destination (TR-ACT-A).
fn check_destination(state: &State, from: Cell, to: Cell) -> Result<(), RuleError> {
    if to.is_tyros() || to == from || state.field(to).empire.is_none() {
        return Err(RuleError::new(
            e::INVALID_DESTINATION,
            "TR-ACT-A",
            format!("{to} is no empire field to move to"),
        ));
    }
    if state.ship_count(to) >= usize::from(board().constants.ship_limit_per_field) {
        return Err(RuleError::new(
            e::DESTINATION_FULL,
            "TR-ACT-A",
            format!("{to} already holds 2 ships"),
        ));
    }
    Ok(())
}

/// The cheapest affordable move of `ship` to `to` along a searched path (TR-D-6). The best
/// walk is always a simple path (see `paths`); the check below only guards that argument.
pub fn best_move(
    state: &State,
    seat: Seat,
    ship: ShipId,
    layers: &Layers,
    to: Cell,
    wind: bool,
) -> Option<MovePlan> {
    let (from, path, cost) = cheapest_move(state, seat, ship, layers, to, wind)?;
    Some(MovePlan {
        from,
        path,
        dues: cost.dues(seat),
        fight_with: fight_at(state, seat, ship, to),
    })
}

/// How far a hand's cards could carry a move into each colour: a move pays its cells in the
/// destination's colour, jokers filling in ([`MoveCost::affordable`]). A bound for listing,
/// which skips destinations no route to could be paid for before searching one.
#[derive(Debug, Clone, Copy)]
pub struct MoveReach {
    /// Cards that may pay a move's cells, by empire colour.
    colour_cards: [u32; 4],
    per_field: u32,
}

impl MoveReach {
    pub fn of(state: &State, seat: Seat) -> MoveReach {
        let hand = &state.player(seat).cards;
        let jokers = if state.config.jokers_wild {
            u32::from(hand.joker)
        } else {
            0
        };
        MoveReach {
            colour_cards: Empire::ALL.map(|e| u32::from(hand.get(e.card())) + jokers),
            per_field: u32::from(board().constants.move_cost_per_field),
        }
    }

    /// The most cells a move into some colour might enter (half price with `wind`): every
    /// affordable move enters at most these.
    pub fn longest(&self, wind: bool) -> u8 {
        let most = self.colour_cards.iter().max().copied().unwrap_or(0);
        let cells = most.checked_div(self.per_field).unwrap_or(u32::MAX);
        let cells = if wind {
            cells.saturating_mul(2).saturating_add(1)
        } else {
            cells
        };
        u8::try_from(cells).unwrap_or(u8::MAX)
    }

    /// Whether a move entering at least `cells` cells to a field of `colour` might be
    /// affordable: when not, no route is (every cost grows with the cells entered).
    pub fn may_reach(&self, colour: Empire, cells: u8, wind: bool) -> bool {
        let cells = if wind { cells / 2 } else { cells };
        u32::from(cells) * self.per_field <= self.colour_cards[colour.index()]
    }
}

/// A listed move's route: the cheapest affordable walk (its path traced by
/// [`Layers::path`] only when the move is built) and the move's total cards.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    pub candidate: Candidate,
    pub total: u8,
}

/// The route of [`best_move`] without the rest of its plan: what `legal_actions` counts and
/// lists for every ship and destination, so it skips tracing the path and building the dues.
pub fn best_move_route(
    state: &State,
    seat: Seat,
    ship: ShipId,
    layers: &Layers,
    to: Cell,
    wind: bool,
) -> Option<Route> {
    let hand = &state.player(seat).cards;
    let toward = MoveCost::toward(state, seat, ship, to);
    let candidate = layers.cheapest(to, |len, tolls| {
        let c = toward.along(len, tolls, wind);
        c.affordable(&state.config, hand).then(|| c.total())
    })?;
    let total = toward.along(candidate.len, candidate.tolls, wind).total();
    Some(Route { candidate, total })
}

/// [`best_move`]'s start, path and cost.
fn cheapest_move(
    state: &State,
    seat: Seat,
    ship: ShipId,
    layers: &Layers,
    to: Cell,
    wind: bool,
) -> Option<(Cell, Vec<Cell>, MoveCost)> {
    let from = state.ship(ship).at?;
    let route = best_move_route(state, seat, ship, layers, to, wind)?;
    let path = layers.path(&route.candidate, to);
    debug_assert!(paths::check_path(state, from, &path).is_ok(), "{path:?}");
    paths::check_path(state, from, &path).ok()?;
    let cost = MoveCost::toward(state, seat, ship, to).along(
        route.candidate.len,
        route.candidate.tolls,
        wind,
    );
    Some((from, path, cost))
}

/// Action A (TR-ACT-A): every check of a move, and its plan.
///
/// # Errors
/// The first rule the move breaks.
pub fn check_move(
    state: &State,
    seat: Seat,
    ship: ShipId,
    to: Cell,
    path: Option<&[Cell]>,
    wind: bool,
) -> Result<MovePlan, RuleError> {
    fresh_turn_of::<RuleError>(state, seat)?;
    let from = own_ship_at::<RuleError>(state, seat, ship, "TR-ACT-A")?;
    if wind {
        check_wind(state, seat)?;
    }
    check_destination(state, from, to)?;
    let plan = match path {
        Some(path) => {
            paths::check_path(state, from, path)?;
            if path.last() != Some(&to) {
                return Err(RuleError::new(
                    e::INVALID_PATH,
                    "TR-D-6",
                    format!("the path must end at {to}"),
                ));
            }
            let crossed = paths::crossed_pirates(state, path);
            let cost = MoveCost::new(state, seat, ship, to, path.len() as u8, crossed, wind);
            if !cost.affordable(&state.config, &state.player(seat).cards) {
                return Err(unaffordable::<RuleError>("TR-ACT-A", "this move"));
            }
            MovePlan {
                from,
                path: path.to_vec(),
                dues: cost.dues(seat),
                fight_with: fight_at(state, seat, ship, to),
            }
        }
        None => {
            let layers = Layers::from(state, from, state.player(seat).cards.total());
            best_move(state, seat, ship, &layers, to, wind).ok_or_else(|| {
                unaffordable::<RuleError>("TR-ACT-A", &format!("any path to {to}"))
            })?
        }
    };
    Ok(plan)
}

/// The dues of an explorer voyage (TR-AK-7).
fn voyage_dues(seat: Seat, cost: &VoyageCost) -> Vec<Due> {
    let mut dues: Vec<Due> = Empire::ALL
        .iter()
        .map(|&colour| {
            due(
                seat,
                Need::Colour { colour },
                cost.colour[colour.index()],
                None,
                DueReason::Voyage,
            )
        })
        .collect();
    dues.push(due(seat, Need::Any, cost.neutral, None, DueReason::Voyage));
    dues.push(due(seat, Need::Any, cost.tolls, None, DueReason::Toll));
    ordered(dues)
}

/// Whether `to` can end an explorer voyage: a neutral field with room (TR-AK-6, TR-AK-7).
pub fn voyage_destination(state: &State, to: Cell) -> bool {
    !to.is_tyros()
        && state.field(to).empire.is_none()
        && state.ship_count(to) < usize::from(board().constants.ship_limit_per_field)
}

/// The explorer voyage's own checks: the variant and a laid-out explorer card.
fn check_explorer_laid(state: &State, seat: Seat) -> Result<(), RuleError> {
    if !state.config.action_cards {
        return Err(variant_off::<RuleError>("TR-AK-6", "action_cards"));
    }
    if state.player(seat).action_cards.explorer != CardStatus::Laid {
        return Err(RuleError::new(
            e::NO_EXPLORER,
            "TR-AK-6",
            "you have no \"Der Entdecker\" laid out",
        ));
    }
    Ok(())
}

/// Every explorer voyage `ship` can make now, cheapest path per destination.
pub fn voyages(state: &State, seat: Seat, ship: ShipId) -> Vec<MovePlan> {
    let Some(from) = state.ship(ship).at else {
        return Vec::new();
    };
    let toll = board().variants.pirates.toll_pass_through;
    paths::cheapest_voyages(state, from, &state.player(seat).cards, toll, |c| {
        voyage_destination(state, c)
    })
    .into_iter()
    .map(|(to, path, cost)| MovePlan {
        from,
        path,
        dues: voyage_dues(seat, &cost),
        fight_with: fight_at(state, seat, ship, to),
    })
    .collect()
}

/// The explorer's voyage (TR-AK-6, TR-AK-7).
///
/// # Errors
/// The first rule the voyage breaks.
pub fn check_voyage(
    state: &State,
    seat: Seat,
    ship: ShipId,
    to: Cell,
    path: Option<&[Cell]>,
) -> Result<MovePlan, RuleError> {
    fresh_turn_of::<RuleError>(state, seat)?;
    check_explorer_laid(state, seat)?;
    let from = own_ship_at::<RuleError>(state, seat, ship, "TR-AK-6")?;
    if !voyage_destination(state, to) {
        return Err(RuleError::new(
            e::INVALID_DESTINATION,
            "TR-AK-6",
            format!("{to} is no neutral field with room for a ship"),
        ));
    }
    match path {
        Some(path) => {
            paths::check_path(state, from, path)?;
            if path.last() != Some(&to) {
                return Err(RuleError::new(
                    e::INVALID_PATH,
                    "TR-D-6",
                    format!("the path must end at {to}"),
                ));
            }
            let toll = board().variants.pirates.toll_pass_through;
            let cost = paths::voyage_cost(state, toll, path);
            if !cost.payable(&state.config, &state.player(seat).cards) {
                return Err(unaffordable::<RuleError>("TR-AK-7", "this voyage"));
            }
            Ok(MovePlan {
                from,
                path: path.to_vec(),
                dues: voyage_dues(seat, &cost),
                fight_with: fight_at(state, seat, ship, to),
            })
        }
        None => voyages(state, seat, ship)
            .into_iter()
            .find(|p| p.path.last() == Some(&to))
            .ok_or_else(|| unaffordable::<RuleError>("TR-AK-7", &format!("any voyage to {to}"))),
    }
}
