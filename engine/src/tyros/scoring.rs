//! Points: control of fields at the end (TR-SCORE), the all-empires bonus, pirate sinking
//! (TR-PIR-6, TR-COMB-3), and the winner with its tie-breaks (TR-SCORE-7).

use super::cards::Empire;
use super::data::{board, Cell};
use super::event::Points;
use super::state::{ScoreSheet, State};
use crate::{Outcome, Seat};

/// Rank of each empire by size, ties sharing the better rank: 1, 1, 3, 4 (TR-SCORE-2).
pub fn empire_ranks(state: &State) -> [usize; 4] {
    let sizes = state.empire_sizes();
    let mut ranks = [1; 4];
    for (i, rank) in ranks.iter_mut().enumerate() {
        *rank = 1 + sizes.iter().filter(|&&s| s > sizes[i]).count();
    }
    ranks
}

/// Who controls an empire field: the city's owner, else the only player with ships there
/// (TR-SCORE-3). The bool says whether by city.
fn controller(state: &State, cell: Cell) -> Option<(Seat, bool)> {
    if let Some(owner) = state.field(cell).city {
        return Some((owner, true));
    }
    sole_ship_owner(state, cell).map(|s| (s, false))
}

fn sole_ship_owner(state: &State, cell: Cell) -> Option<Seat> {
    let mut owners = state.ships_at(cell).map(|id| state.ship(id).owner);
    let first = owners.next()?;
    owners.all(|o| o == first).then_some(first)
}

/// Every player's points as if the game ended now.
pub fn score_sheets(state: &State) -> Vec<ScoreSheet> {
    let config = &state.config;
    let ranks = empire_ranks(state);
    let explorer_points = board()
        .variants
        .action_cards
        .explorer_neutral_ship_control_points;
    let mut sheets: Vec<ScoreSheet> = state
        .seats()
        .map(|seat| ScoreSheet {
            seat,
            city_points: 0,
            ship_points: 0,
            explorer_points: 0,
            bonus: state.player(seat).bonus,
            pirate_points: state.player(seat).pirate_points,
            total: 0,
            cities: state.cities_of(seat).count() as u8,
            ship_controlled_fields: 0,
        })
        .collect();
    for cell in Cell::fields() {
        match state.field(cell).empire {
            Some(empire) => {
                let rank = ranks[empire.index()] - 1;
                match controller(state, cell) {
                    Some((seat, true)) => {
                        sheets[seat.index()].city_points += config.score_city[rank]
                    }
                    Some((seat, false)) => {
                        let sheet = &mut sheets[seat.index()];
                        sheet.ship_points += config.score_ship[rank];
                        sheet.ship_controlled_fields += 1;
                    }
                    None => {}
                }
            }
            None => {
                // TR-AK-8: an explorer ship alone on a neutral field controls it.
                let explorer = state.ships_at(cell).any(|id| state.ship(id).explorer);
                if let Some(seat) = sole_ship_owner(state, cell).filter(|_| explorer) {
                    let sheet = &mut sheets[seat.index()];
                    sheet.explorer_points += explorer_points;
                    sheet.ship_controlled_fields += 1;
                }
            }
        }
    }
    for s in &mut sheets {
        s.total = s.city_points + s.ship_points + s.explorer_points + s.bonus + s.pirate_points;
    }
    sheets
}

/// Most points; ties broken by cities on the board, then ship-controlled fields; otherwise
/// shared (TR-SCORE-7).
pub fn outcome(sheets: &[ScoreSheet]) -> Outcome {
    let key = |s: &ScoreSheet| (s.total, s.cities, s.ship_controlled_fields);
    let best = sheets.iter().map(key).max();
    Outcome {
        winners: sheets
            .iter()
            .filter(|s| Some(key(s)) == best)
            .map(|s| s.seat)
            .collect(),
        scores: sheets.iter().map(|s| i64::from(s.total)).collect(),
    }
}

/// Whether `seat` has a city in every empire (TR-SCORE-5).
pub fn city_in_every_empire(state: &State, seat: Seat) -> bool {
    Empire::ALL.iter().all(|&e| {
        state
            .cities_of(seat)
            .any(|c| state.field(c).empire == Some(e))
    })
}

/// Points for sinking the pirate on `cell` with the ships standing there now (TR-PIR-6, and
/// TR-COMB-3 when galleys sail too).
pub fn sinking_points(state: &State, cell: Cell) -> Vec<Points> {
    let b = board();
    let ships: Vec<_> = state.ships_at(cell).map(|id| *state.ship(id)).collect();
    let pts = |seat: Seat, points: i32| Points { seat, points };
    if !state.config.combined() {
        let p = &b.variants.pirates;
        return match ships[..] {
            [a, b2] if a.owner == b2.owner => vec![pts(a.owner, p.sink_points_same_player)],
            [a, b2] => vec![
                pts(a.owner, p.sink_points_each_different_players),
                pts(b2.owner, p.sink_points_each_different_players),
            ],
            _ => Vec::new(),
        };
    }
    let c = &b.variants.galleys_plus_pirates.sink_points;
    match ships[..] {
        [g] if g.galley => vec![pts(g.owner, c.galley_alone.galley_owner)],
        [a, b2] if a.owner == b2.owner && (a.galley || b2.galley) => {
            vec![pts(a.owner, c.galley_with_own_ship.galley_owner)]
        }
        [a, b2] if a.galley && b2.galley => vec![
            pts(a.owner, c.galley_alone.galley_owner),
            pts(b2.owner, c.galley_alone.galley_owner),
        ],
        [a, b2] if a.galley || b2.galley => {
            let (g, s) = if a.galley { (a, b2) } else { (b2, a) };
            vec![
                pts(g.owner, c.galley_with_other_ship.galley_owner),
                pts(s.owner, c.galley_with_other_ship.ship_owner),
            ]
        }
        [a, b2] if a.owner == b2.owner => {
            vec![pts(a.owner, c.two_normal_ships_same_player.owner)]
        }
        [a, b2] => vec![
            pts(a.owner, c.two_normal_ships_different_players.each),
            pts(b2.owner, c.two_normal_ships_different_players.each),
        ],
        _ => Vec::new(),
    }
}

/// Whether the pirate on `cell` is sunk now: two ships there (TR-PIR-5), or with Galleys +
/// Pirates a galley that just entered (TR-COMB-2).
pub fn pirate_sinks(state: &State, cell: Cell) -> bool {
    state.field(cell).pirate.is_some() && state.ship_count(cell) >= 2
}
