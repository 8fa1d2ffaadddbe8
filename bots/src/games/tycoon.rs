//! Tycoon: money decides (TY-END-3), and money comes from paydays. A position is worth its net
//! worth, plus what the board would pay at the paydays still to come, plus part of the best
//! build the seat's plane can reach with the tickets in hand: that last term is what makes a
//! ticket worth buying and a flight worth taking one move at a time.

use crate::evaluate::BotGame;
use engine::tycoon::data::{board, City};
use engine::tycoon::payday::{incomes, majority_ranking, payout};
use engine::tycoon::state::{CityState, Plane, Stage, State};
use engine::tycoon::{destinations, Action, Tycoon};
use engine::{Game, Seat};

/// How much of today's income each remaining payday is expected to repeat: boards change, and
/// majorities are lost as often as won.
const INCOME_PERSISTS: f64 = 0.8;
/// What the best reachable build is worth before it is made: it may be taken by someone else.
const PROSPECT_VALUE: f64 = 0.5;
/// What a ticket in hand is worth against its price besides the builds it reaches: a little,
/// so that flights without a purpose are not free.
const TICKET_VALUE: f64 = 0.25;

impl BotGame for Tycoon {
    const LEAD: f64 = 10.0;
    type Memory = ();
    /// A turn is a short chain of moves (ticket, flight, build) whose value shows only at its
    /// end; simulated players that wander mid-chain make every such move look worse than a
    /// loan, which ends the turn at once, and a search with the builder policy alone took
    /// loans turn after turn and lost to `greedy` (about 45 %). Half the simulated moves
    /// played as `greedy` would make the search win nearly every game against it.
    const GREEDY_PLAYOUT: f64 = 0.5;

    fn estimate(state: &State, scores: &mut Vec<f64>) {
        scores.clear();
        if let Some(outcome) = Tycoon::outcome(state) {
            scores.extend(outcome.scores.iter().map(|&s| s as f64));
            return;
        }
        let paydays = f64::from(paydays_left(state)) * INCOME_PERSISTS;
        let income = incomes(state);
        for seat in state.seats() {
            let tickets: i32 = state
                .player(seat)
                .tickets
                .iter()
                .map(|&t| board().ticket(t).price)
                .sum();
            scores.push(
                f64::from(state.net_worth(seat))
                    + paydays * f64::from(income[seat.index()].total)
                    + PROSPECT_VALUE * prospect(state, seat, paydays)
                    + TICKET_VALUE * f64::from(tickets),
            );
        }
    }

    /// Simulated players build whenever they can, fly towards it and borrow only when stuck:
    /// the engine's "builder" playout policy, which reaches phase ends like real games do.
    fn playout_weight(_state: &State, action: &Action) -> u32 {
        match action {
            Action::BuildHotel | Action::RenovateHotel => 60,
            Action::BuildFactory => 15,
            Action::Fly { .. } => 8,
            Action::BuyTicket { .. } => 2,
            _ => 1,
        }
    }
}

/// Paydays still to come: the current phase's unless it has been paid (loan settlement).
fn paydays_left(state: &State) -> u8 {
    let phases = board().constants.phases;
    match state.stage {
        Stage::Setup | Stage::Turn(_) => phases + 1 - state.phase,
        Stage::LoanSettlement => phases - state.phase,
        Stage::Finished => 0,
    }
}

/// The net gain of the best build `seat` could make where its plane stands or one flight away
/// with a ticket in hand: extra income times `paydays` less the cost, 0 when none pays.
fn prospect(state: &State, seat: Seat, paydays: f64) -> f64 {
    if paydays == 0.0 {
        return 0.0;
    }
    let player = state.player(seat);
    let mut reachable = 0u16;
    for &ticket in &player.tickets {
        reachable |= destinations(state.config.step_mode, ticket, player.plane);
    }
    let mut best = 0.0f64;
    if let Plane::City {
        city,
        field: Some(field),
    } = player.plane
    {
        best = best.max(build_value(state, seat, city, field, paydays));
        reachable &= !(1 << city.0);
    }
    for city in board().cities().filter(|c| reachable & (1 << c.0) != 0) {
        if let Some(field) = state.free_landing_field(city, seat) {
            best = best.max(build_value(state, seat, city, field, paydays));
        }
    }
    best
}

/// The best of a hotel, a renovation or a factory in `city` for a plane on landing `field`.
fn build_value(state: &State, seat: Seat, city: City, field: u8, paydays: f64) -> f64 {
    let player = state.player(seat);
    let c = state.city(city);
    let data = board().city(city);
    let open_space = c.chain_length < board().unbuildable_space;
    let mut best = 0.0f64;
    let hotel_gain = || paydays * f64::from(hotel_gain(state, seat, city, c.chain_length));
    let hotel_cost = data.landing_costs[usize::from(field)];
    if open_space && player.hotels_in_supply > 0 && player.cash >= hotel_cost {
        best = best.max(hotel_gain() - f64::from(hotel_cost));
    }
    if open_space && c.closed.contains(&seat) {
        best = best.max(hotel_gain());
    }
    if let Some(&factory_cost) = data.factory_costs.get(c.factories.len()) {
        if player.factories_left > 0 && player.cash >= factory_cost {
            best = best
                .max(paydays * f64::from(factory_income(state, city)) - f64::from(factory_cost));
        }
    }
    best
}

/// What one factory in `city` pays at a payday now (TY-FACPAY-1).
fn factory_income(state: &State, city: City) -> i32 {
    let longest = state
        .cities
        .iter()
        .map(|c| c.chain_length)
        .max()
        .unwrap_or(0);
    let [first, second] = payout(state, city);
    if state.city(city).chain_length == longest {
        first
    } else {
        second
    }
}

/// How much more `seat` would earn at a payday with one more hotel on `space` of `city`: its
/// majority payout there and its distribution (TY-MAJ-*, TY-DIST-1; a red space closes the
/// oldest hotel, TY-RED-1). Factories and other cities are taken as they are.
fn hotel_gain(state: &State, seat: Seat, city: City, space: u8) -> i32 {
    let before = state.city(city);
    let mut after = before.clone();
    after.track[usize::from(space)] = Some(seat);
    after.chain_length = space + 1;
    if let Some(rank) = board().red_rank(space) {
        after.track[rank] = None;
    }
    let players = state.players.len();
    let majority = |c: &CityState| -> i32 {
        let ranking = majority_ranking(c, players, state.config.tie_break);
        let payout = board().city(city).track[usize::from(c.chain_length)];
        ranking
            .iter()
            .take(2)
            .position(|&s| s == seat)
            .map_or(0, |rank| payout[rank])
    };
    let distribution = if before.track.contains(&Some(seat)) {
        0
    } else {
        let cities = state
            .cities
            .iter()
            .filter(|c| c.track.contains(&Some(seat)))
            .count();
        let table = &board().distribution;
        table[(cities + 1).min(table.len() - 1)] - table[cities]
    };
    majority(&after) - majority(before) + distribution
}
