//! Tycoon: money decides (TY-END-3), and money comes from paydays, so a position is worth its
//! net worth plus what the board would pay for the paydays still to come, plus a little for
//! tickets in hand and for a plane standing where a good hotel can be built.

use crate::evaluate::BotGame;
use engine::tycoon::data::{board, City};
use engine::tycoon::payday::{incomes, majority_ranking};
use engine::tycoon::state::{Plane, Stage, State};
use engine::tycoon::{Action, Tycoon};
use engine::{Game, Seat};

/// How much of today's income each remaining payday is expected to repeat: boards change, and
/// majorities are lost as often as won.
const INCOME_PERSISTS: f64 = 0.8;
/// What a ticket in hand is worth against its price: it saves a purchase later, if it is used.
const TICKET_VALUE: f64 = 0.8;
/// What standing on a landing field is worth against the gain of building there next.
const PROSPECT_VALUE: f64 = 0.5;

impl BotGame for Tycoon {
    const LEAD: f64 = 10.0;

    fn estimate(state: &State, scores: &mut Vec<f64>) {
        scores.clear();
        if let Some(outcome) = Tycoon::outcome(state) {
            scores.extend(outcome.scores.iter().map(|&s| s as f64));
            return;
        }
        let paydays = paydays_left(state) as f64;
        let income = incomes(state);
        for seat in state.seats() {
            let player = state.player(seat);
            let tickets: i32 = player
                .tickets
                .iter()
                .map(|&t| board().ticket(t).price)
                .sum();
            scores.push(
                f64::from(state.net_worth(seat))
                    + paydays * INCOME_PERSISTS * f64::from(income[seat.index()].total)
                    + TICKET_VALUE * f64::from(tickets)
                    + PROSPECT_VALUE * prospect(state, seat, paydays),
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

/// The value of building one more hotel where the seat's plane stands: the extra income over
/// the remaining paydays less the cost; 0 when it cannot build there or it would not pay.
fn prospect(state: &State, seat: Seat, paydays: f64) -> f64 {
    let player = state.player(seat);
    let Plane::City {
        city,
        field: Some(field),
    } = player.plane
    else {
        return 0.0;
    };
    let cost = board().city(city).landing_costs[usize::from(field)];
    let space = state.city(city).chain_length;
    if player.hotels_in_supply == 0 || space >= board().unbuildable_space || player.cash < cost {
        return 0.0;
    }
    let gain = paydays * INCOME_PERSISTS * f64::from(hotel_gain(state, seat, city, space));
    (gain - f64::from(cost)).max(0.0)
}

/// How much more `seat` would earn at a payday with one more hotel on `space` of `city`: its
/// majority payout there and its distribution (TY-MAJ-*, TY-DIST-1; red spaces close the
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
    let majority = |c: &engine::tycoon::state::CityState| -> i32 {
        let ranking = majority_ranking(c, players, state.config.tie_break);
        let payout = board().city(city).track[usize::from(c.chain_length)];
        ranking
            .iter()
            .take(2)
            .position(|&s| s == seat)
            .map_or(0, |rank| payout[rank])
    };
    let present = before.track.contains(&Some(seat));
    let distribution = if present {
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
