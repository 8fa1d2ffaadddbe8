//! The checks behind every action, shared by `decide` and `legal_actions` so the two always
//! agree. Each check returns what the action will cost (its dues) or the rule it breaks.
//!
//! Checks that depend only on public facts come first; checks on the asking seat's own hand
//! come last, so no refusal ever depends on what the seat cannot see (TR-D-20).

use super::cards::{Cards, Empire};
use super::config::TyrosShipyard;
use super::data::{board, Cell, RoundsTo};
use super::errors as e;
use super::event::Event;
use super::paths::{self, Candidate, Layers, VoyageCost};
use super::payment;
use super::state::{
    ActionCard, CardStatus, Due, DueReason, Need, Offer, Phase, ShipId, State, Turn,
};
use crate::refusal::Refusal;
use crate::{RuleError, Seat};

/// Whose decision the game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Awaiting {
    Nobody,
    /// The first due's payer.
    Payment(Seat),
    /// A galley fight side laying cards.
    FightCards(Seat),
    /// The fight's winner choosing which group to discard.
    FightChoice(Seat),
    /// The recipient of a trade offer.
    Offer(Seat),
    /// The seat placing a tile in Phase 2.
    Placement(Seat),
    /// The seat whose action-phase turn it is.
    Turn(Seat),
    /// Every seat with a keep choice pending.
    Keep,
}

pub fn awaiting(state: &State) -> Awaiting {
    if state.outcome.is_some() {
        return Awaiting::Nobody;
    }
    if let Some(due) = state.dues.first() {
        return Awaiting::Payment(due.payer);
    }
    if let Some(f) = &state.fight {
        let owner = |id: ShipId| state.ship(id).owner;
        if f.attacker_cards.is_none() {
            return Awaiting::FightCards(owner(f.attacker));
        }
        if f.defender_cards.is_none() {
            return Awaiting::FightCards(owner(f.defender));
        }
        if let Some(winner) = f.winner.filter(|_| !f.choices.is_empty()) {
            return Awaiting::FightChoice(winner);
        }
    }
    if let Some(offer) = &state.offer {
        return Awaiting::Offer(offer.to);
    }
    match &state.phase {
        Phase::Expansion { step, .. } => Awaiting::Placement(expansion_seat(state, *step)),
        Phase::Actions { turn, .. } => Awaiting::Turn(turn.seat),
        Phase::RoundEnd => Awaiting::Keep,
        Phase::Setup | Phase::Pirates | Phase::Finished => Awaiting::Nobody,
    }
}

/// The seat of Phase 2's `step`-th placement: laps in seat order from the start player
/// (TR-P2-5, TR-RND-2).
pub fn expansion_seat(state: &State, step: u8) -> Seat {
    let n = state.players.len();
    Seat(((state.start_player.index() + usize::from(step) % n) % n) as u8)
}

/// Whether `seat` still has to choose the cards it keeps (TR-EOR-1).
pub fn keep_pending(state: &State, seat: Seat) -> bool {
    matches!(state.phase, Phase::RoundEnd)
        && state.keep[seat.index()].is_none()
        && state.player(seat).cards.total() > u32::from(state.config.cards_kept)
}

/// `seat`'s action-phase turn, with nothing else pending.
///
/// # Errors
/// `tyros.wrong_phase`, `not_your_turn` or `tyros.decision_pending`.
pub fn turn_of<E: Refusal>(state: &State, seat: Seat) -> Result<Turn, E> {
    let Some(turn) = state.turn() else {
        return Err(E::refuse(|| {
            RuleError::new(
                e::WRONG_PHASE,
                "TR-ACT-0",
                "actions are taken in the action phase",
            )
        }));
    };
    if turn.seat != seat {
        return Err(E::refuse(|| RuleError::not_your_turn(seat)));
    }
    if !matches!(awaiting(state), Awaiting::Turn(_)) {
        return Err(E::refuse(|| {
            RuleError::new(
                e::DECISION_PENDING,
                "TR-ACT-0",
                "a payment, fight or trade offer must be settled first",
            )
        }));
    }
    Ok(*turn)
}

/// `seat`'s turn before its one action (TR-ACT-0).
///
/// # Errors
/// As [`turn_of`], and `tyros.action_already_taken`.
pub fn fresh_turn_of<E: Refusal>(state: &State, seat: Seat) -> Result<Turn, E> {
    let turn = turn_of::<E>(state, seat)?;
    if turn.acted {
        return Err(E::refuse(|| {
            RuleError::new(
                e::ACTION_ALREADY_TAKEN,
                "TR-ACT-0",
                "a turn has exactly one action",
            )
        }));
    }
    Ok(turn)
}

fn unaffordable<E: Refusal>(rule: &'static str, what: &str) -> E {
    E::refuse(|| {
        RuleError::new(
            e::CANNOT_AFFORD,
            rule,
            format!("your cards cannot pay all of {what}; nothing is paid in part (TR-D-19)"),
        )
    })
}

/// The cell of `seat`'s own ship `ship` on the board.
///
/// # Errors
/// `tyros.not_your_ship` or `tyros.ship_not_on_board`.
pub fn own_ship_at<E: Refusal>(
    state: &State,
    seat: Seat,
    ship: ShipId,
    rule: &'static str,
) -> Result<Cell, E> {
    if ship.index() >= state.ships.len() || state.ship(ship).owner != seat {
        return Err(E::refuse(|| {
            RuleError::new(
                e::NOT_YOUR_SHIP,
                rule,
                format!("ship {} is not yours", ship.0),
            )
        }));
    }
    state.ship(ship).at.ok_or_else(|| {
        E::refuse(|| {
            RuleError::new(
                e::SHIP_NOT_ON_BOARD,
                rule,
                format!("ship {} is in your supply", ship.0),
            )
        })
    })
}

/// Orders a payer's dues as `payment` expects: colours, then identical cards, then any cards.
fn ordered(mut dues: Vec<Due>) -> Vec<Due> {
    dues.retain(|d| d.count > 0);
    dues.sort_by_key(|d| match d.need {
        Need::Colour { .. } => 0,
        Need::Identical => 1,
        Need::Any => 2,
    });
    dues
}

fn due(payer: Seat, need: Need, count: u8, to: Option<Seat>, reason: DueReason) -> Due {
    Due {
        payer,
        need,
        count,
        to,
        reason,
    }
}

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

fn variant_off<E: Refusal>(rule: &'static str, option: &str) -> E {
    E::refuse(|| {
        RuleError::new(
            e::VARIANT_OFF,
            rule,
            format!("this game is played without `{option}`"),
        )
    })
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

/// Cards a seat gives up must be in its hand.
pub fn check_in_hand(
    state: &State,
    seat: Seat,
    cards: &Cards,
    rule: &'static str,
) -> Result<(), RuleError> {
    if state.player(seat).cards.contains(cards) {
        Ok(())
    } else {
        Err(RuleError::new(
            e::CARDS_NOT_IN_HAND,
            rule,
            format!("you do not hold {cards}"),
        ))
    }
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
/// # Errors
/// `tyros.trade_leaves_no_action`.
pub fn check_free_trade<E: Refusal>(state: &State, offer: &Offer) -> Result<(), E> {
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
    if super::legal::has_action(&after, offer.from) {
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

/// Action E: an offer (TR-ACT-E).
///
/// # Errors
/// The first rule the offer breaks.
pub fn check_offer(
    state: &State,
    seat: Seat,
    to: Seat,
    give: &Cards,
    get: &Cards,
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
    )
}

/// The window and availability of an action card (TR-AK-2, TR-AK-3).
///
/// # Errors
/// The first rule playing it breaks.
pub fn check_action_card<E: Refusal>(state: &State, seat: Seat, card: ActionCard) -> Result<(), E> {
    fresh_turn_of::<E>(state, seat)?;
    let rule = "TR-AK-2";
    if !state.config.action_cards {
        return Err(variant_off::<E>(rule, "action_cards"));
    }
    if state.player(seat).action_cards.get(card) != CardStatus::Available {
        return Err(E::refuse(|| {
            RuleError::new(
                e::ACTION_CARD_UNAVAILABLE,
                rule,
                "each action card is played once",
            )
        }));
    }
    let data = board().action_card(card.data_id());
    let from = match card {
        ActionCard::Explorer => state.config.explorer_from_round,
        _ => data.rounds_from,
    };
    let in_window =
        state.round >= from && (data.rounds_to == RoundsTo::End || !state.someone_without_tiles());
    if !in_window {
        return Err(E::refuse(|| {
            RuleError::new(
                e::OUTSIDE_CARD_WINDOW,
                "TR-AK-3",
                format!(
                    "this card is played from round {from}{}",
                    if data.rounds_to == RoundsTo::End {
                        "".to_string()
                    } else {
                        " while every player still holds a landscape tile".to_string()
                    }
                ),
            )
        }));
    }
    Ok(())
}

/// "Blockadebrecher" (TR-AK-5): `ship` is a rival ship sharing a cell with an own ship, `to`
/// an adjacent empire field with room.
///
/// # Errors
/// The first rule the relocation breaks.
pub fn check_blockade<E: Refusal>(
    state: &State,
    seat: Seat,
    ship: ShipId,
    to: Cell,
) -> Result<Cell, E> {
    check_action_card::<E>(state, seat, ActionCard::BlockadeBreaker)?;
    let bad = |why: &dyn Fn() -> String| {
        Err(E::refuse(|| {
            RuleError::new(e::INVALID_RELOCATION, "TR-AK-5", why())
        }))
    };
    if ship.index() >= state.ships.len() {
        return bad(&|| format!("there is no ship {}", ship.0));
    }
    let target = state.ship(ship);
    let Some(from) = target.at.filter(|_| target.owner != seat) else {
        return bad(&|| format!("ship {} is no rival ship on the board", ship.0));
    };
    if !state.ships_at(from).any(|id| state.ship(id).owner == seat) {
        return bad(&|| format!("you have no ship in {from}"));
    }
    if !state.map().adjacent(from, to)
        || to.is_tyros()
        || state.field(to).empire.is_none()
        || state.ship_count(to) >= usize::from(board().constants.ship_limit_per_field)
    {
        return bad(&|| format!("{to} is no adjacent empire field with room for a ship"));
    }
    Ok(from)
}

/// A galley sinking a rival normal ship (TR-GAL-4): both have shared the field since before
/// this turn began.
///
/// # Errors
/// The first rule the sinking breaks.
pub fn check_sink<E: Refusal>(
    state: &State,
    seat: Seat,
    galley: ShipId,
    target: ShipId,
) -> Result<(), E> {
    fresh_turn_of::<E>(state, seat)?;
    if !state.config.galleys {
        return Err(variant_off::<E>("TR-GAL-4", "galleys"));
    }
    let at = own_ship_at::<E>(state, seat, galley, "TR-GAL-4")?;
    let bad = |why: &dyn Fn() -> String| {
        Err(E::refuse(|| {
            RuleError::new(e::CANNOT_SINK, "TR-GAL-4", why())
        }))
    };
    if !state.ship(galley).galley {
        return bad(&|| format!("ship {} is no galley", galley.0));
    }
    if target.index() >= state.ships.len() {
        return bad(&|| format!("there is no ship {}", target.0));
    }
    let t = state.ship(target);
    if t.owner == seat || t.galley || t.at != Some(at) || at.is_tyros() {
        return bad(&|| {
            format!(
                "ship {} is no rival normal ship in your galley's field",
                target.0
            )
        });
    }
    let now = state.turn_number;
    if state.ship(galley).arrived >= now || t.arrived >= now {
        return bad(&|| "the ships must have shared the field since before this turn".into());
    }
    Ok(())
}
