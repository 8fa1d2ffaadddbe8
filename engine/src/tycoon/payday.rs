//! Payday incomes, computed from the board alone (TY-PAY-1, TY-DIST-1, TY-MAJ-*, TY-FACPAY-*).

use super::config::TieBreak;
use super::data::{board, City, CITY_COUNT};
use super::state::{CityState, Income, State};
use crate::Seat;

/// First and second payout of a city now: the values on the space after the chain (TY-MAJ-1,
/// S4). A full city (space 11 used) pays space 12; a city without hotels pays space 0, i.e. 0.
pub fn payout(state: &State, city: City) -> [i32; 2] {
    let space = state.city(city).chain_length;
    board().city(city).track[usize::from(space)]
}

/// The seats with hotels on the track, best first: most hotels, then the tie-break of the
/// config (TY-MAJ-2, S2): by default whoever built a hotel in the city first, even one since
/// closed; with `earliest_on_track` whoever's earliest hotel still on the track stands lower.
pub fn majority_ranking(city: &CityState, players: usize, tie_break: TieBreak) -> Vec<Seat> {
    let mut count = [0u8; 8];
    let mut earliest = [u8::MAX; 8];
    for (space, owner) in city.track.iter().enumerate() {
        if let Some(seat) = owner {
            let i = seat.index();
            count[i] += 1;
            earliest[i] = earliest[i].min(space as u8);
        }
    }
    let mut ranked: Vec<Seat> = (0..players as u8)
        .map(Seat)
        .filter(|s| count[s.index()] > 0)
        .collect();
    let seniority = |s: &Seat| match tie_break {
        TieBreak::EarliestOnTrack => earliest[s.index()],
        TieBreak::FirstBuilt => city
            .first_built
            .iter()
            .position(|f| f == s)
            .map_or(u8::MAX, |i| i as u8),
    };
    ranked.sort_by_key(|s| (std::cmp::Reverse(count[s.index()]), seniority(s)));
    ranked
}

/// Every player's income at a payday.
pub fn incomes(state: &State) -> Vec<Income> {
    let n = state.players.len();
    let mut incomes: Vec<Income> = state
        .seats()
        .map(|seat| Income {
            seat,
            distribution: 0,
            majority: 0,
            factories: 0,
            total: 0,
        })
        .collect();
    let longest = state
        .cities
        .iter()
        .map(|c| c.chain_length)
        .max()
        .unwrap_or(0);
    let mut presence = [0usize; 8];
    for city in board().cities() {
        let c = state.city(city);
        let [first, second] = payout(state, city);
        let ranking = majority_ranking(c, n, state.config.tie_break);
        for seat in &ranking {
            presence[seat.index()] += 1;
        }
        // TY-MAJ-3: rank 1 gets the first number, rank 2 the second, nobody else anything.
        for (rank, seat) in ranking.iter().take(2).enumerate() {
            incomes[seat.index()].majority += if rank == 0 { first } else { second };
        }
        // TY-FACPAY-1: the second number, or the first in the longest chain (ties included).
        let per_factory = if c.chain_length == longest {
            first
        } else {
            second
        };
        for seat in &c.factories {
            incomes[seat.index()].factories += per_factory;
        }
    }
    for income in &mut incomes {
        let cities = presence[income.seat.index()].min(CITY_COUNT);
        income.distribution = board().distribution[cities];
        income.total = income.distribution + income.majority + income.factories;
    }
    incomes
}
