//! Payday: distribution, majority, factories (spec §6, decisions S1–S7).

use super::support::*;
use crate::tycoon::data::board;
use crate::tycoon::payday::{incomes, majority_ranking, payout};
use crate::tycoon::state::{Plane, State};
use crate::tycoon::{Action, Event, TieBreak};
use crate::Seat;

#[test]
fn ty_pay_1_income_is_distribution_plus_majority_plus_factories() {
    let mut state = new_game(2);
    build_track(&mut state, "cairo", &[0]);
    build_track(&mut state, "tokyo", &[0, 1]);
    state.city_mut(city("tokyo")).factories.push(Seat(1));
    let inc = incomes(&state);
    let tokyo = board().city(city("tokyo")).track[2];
    let cairo = board().city(city("cairo")).track[1];
    assert_eq!(inc[0].distribution, board().distribution[2]);
    assert_eq!(inc[0].majority, tokyo[0] + cairo[0]);
    assert_eq!(inc[1].majority, tokyo[1]);
    assert_eq!(inc[1].factories, tokyo[0], "Tokyo is the longest chain");
    assert_eq!(
        inc[1].total,
        inc[1].distribution + inc[1].majority + inc[1].factories
    );
}

#[test]
fn ty_dist_1_s1_distribution_counts_cities_with_hotels_on_the_track_only() {
    let mut state = new_game(2);
    build_track(&mut state, "cairo", &[0]);
    build_track(&mut state, "tokyo", &[0]);
    state.city_mut(city("sydney")).factories.push(Seat(0));
    state.city_mut(city("monaco")).closed.push(Seat(0));
    assert_eq!(incomes(&state)[0].distribution, 2);
}

#[test]
fn ty_maj_1_s4_the_payout_is_on_the_space_after_the_chain_and_space_12_when_full() {
    let mut state = new_game(2);
    state.players[1].hotels_in_supply = 12;
    build_track(&mut state, "new_york", &[1; 5]);
    assert_eq!(payout(&state, city("new_york")), [20, 10]);
    build_track(&mut state, "cairo", &[1; 6]);
    build_track(&mut state, "cairo", &[0; 6]);
    assert_eq!(
        payout(&state, city("cairo")),
        board().city(city("cairo")).track[12]
    );
    assert_eq!(payout(&state, city("sydney")), [0, 0], "no hotels: space 0");
}

/// S2 option `earliest_on_track` (rules version 1's default): a tie goes to the lowest hotel
/// still on the track; a closed hotel gives no seniority.
#[test]
fn s2_option_earliest_on_track_ranks_a_tie_by_the_lowest_hotel_still_on_the_track() {
    let mut state = new_game(3);
    build_track(&mut state, "cairo", &[2, 1, 0, 1, 0, 2]);
    // Everyone has 2; seat 2 holds space 0.
    assert_eq!(
        majority_ranking(state.city(city("cairo")), 3, TieBreak::EarliestOnTrack),
        vec![Seat(2), Seat(1), Seat(0)]
    );
    // Close seat 2's first hotel: its earliest on the track is now space 5.
    state.city_mut(city("cairo")).track[0] = None;
    state.city_mut(city("cairo")).closed.push(Seat(2));
    assert_eq!(
        majority_ranking(state.city(city("cairo")), 3, TieBreak::EarliestOnTrack),
        vec![Seat(1), Seat(0), Seat(2)]
    );
}

#[test]
fn ty_maj_3_s3_only_ranks_1_and_2_are_paid_and_a_lone_player_gets_only_the_first() {
    let mut state = new_game(3);
    build_track(&mut state, "monaco", &[0, 0]);
    let [first, _] = payout(&state, city("monaco"));
    let inc = incomes(&state);
    assert_eq!(inc[0].majority, first);
    assert_eq!(inc[1].majority + inc[2].majority, 0);
    build_track(&mut state, "monaco", &[1, 2]);
    let [first, second] = payout(&state, city("monaco"));
    let inc = incomes(&state);
    assert_eq!(
        (inc[0].majority, inc[1].majority, inc[2].majority),
        (first, second, 0)
    );
}

#[test]
fn ty_facpay_1_s5_factories_pay_the_second_number_or_the_first_in_the_longest_chains() {
    let mut state = new_game(2);
    state.players[1].hotels_in_supply = 12;
    build_track(&mut state, "monaco", &[1, 1, 1]);
    build_track(&mut state, "tokyo", &[1, 1, 1]);
    build_track(&mut state, "cairo", &[1]);
    for c in ["monaco", "tokyo", "cairo"] {
        state.city_mut(city(c)).factories.push(Seat(0));
    }
    let monaco = payout(&state, city("monaco"));
    let tokyo = payout(&state, city("tokyo"));
    let cairo = payout(&state, city("cairo"));
    assert_eq!(
        incomes(&state)[0].factories,
        monaco[0] + tokyo[0] + cairo[1]
    );
}

#[test]
fn ty_facpay_2_s6_chain_length_counts_emptied_spaces_and_a_city_without_hotels_pays_0() {
    let mut state = new_game(2);
    build_track(&mut state, "cairo", &[1, 1, 1]);
    state.city_mut(city("cairo")).track[0] = None;
    state.city_mut(city("cairo")).track[1] = None;
    assert_eq!(state.city(city("cairo")).chain_length, 3);
    state.city_mut(city("sydney")).factories.push(Seat(0));
    assert_eq!(incomes(&state)[0].factories, 0);
}

#[test]
fn s7_second_numbers_are_half_the_first_rounded_down_in_the_reconstructed_data() {
    for c in &board().cities {
        for [first, second] in c.track {
            assert_eq!(second, first / 2, "{}", c.id);
        }
    }
}

/// `seat` flies to `at` (landing field 1; every other plane at home) and builds a hotel, or
/// renovates his closed one there, and ends the turn: the hotel goes through the real rules,
/// red-space closures included.
fn build_in(state: &mut State, seat: u8, at: &str, action: Action) -> Vec<Event> {
    for p in &mut state.players {
        p.plane = Plane::Home;
    }
    place_plane(state, seat, at, Some(0));
    give_turn(state, seat);
    let mut events = accepted(state, seat, action);
    events.extend(accepted(state, seat, Action::EndTurn));
    events
}

/// TY-MAJ-2, S2 (rules version 2): the tie goes to whoever built a hotel in the city first,
/// counting a hotel that was later closed (DE §Majorität "der in dieser Stadt zuerst ein Hotel
/// gebaut hat"). The default config reads it so.
#[test]
fn ty_maj_2_s2_a_tie_goes_to_who_built_first_in_the_city_even_if_that_hotel_was_closed() {
    let mut state = new_game(2);
    assert_eq!(state.config.tie_break, TieBreak::FirstBuilt, "the default");
    for seat in [0u8, 1, 1, 0] {
        build_in(&mut state, seat, "cairo", Action::BuildHotel);
    }
    let c = state.city_mut(city("cairo"));
    c.track[0] = None;
    c.closed.push(Seat(0));
    build_track(&mut state, "cairo", &[0]);
    // Both hold 2 on the track; seat 0 built first although that hotel is closed.
    let [first, second] = payout(&state, city("cairo"));
    let inc = incomes(&state);
    assert_eq!((inc[0].majority, inc[1].majority), (first, second));
    assert_eq!(
        majority_ranking(state.city(city("cairo")), 2, TieBreak::EarliestOnTrack),
        vec![Seat(1), Seat(0)],
        "the other reading differs here"
    );
}

/// Payday 3 of Cape Town in a real random game (seed 7044) that the two readings of TY-MAJ-2
/// pay differently. Seats 0, 1 and 2 end with 3 hotels each on the full track; seat 1 built
/// the city's first hotel, which a red space closed and he renovated. `first_built`: seat 1
/// first (4), seat 2 second (2); `earliest_on_track`: seat 2 first, seat 1 second.
#[test]
fn ty_maj_2_seed_7044_payday_3_cape_town_pays_seat_1_first_by_first_built() {
    let payday = |tie_break: TieBreak| {
        let mut state = new_game(3);
        state.config.tie_break = tie_break;
        state.phase = 3;
        state.players[1].hotels_in_supply = 3;
        state.players[1].hotels_in_reserve = 15;
        // Space by space; red spaces 7, 9 and 11 close the hotels on spaces 0, 1 and 2.
        let hotels = [1, 2, 0, 2, 1, 0, 2, 0];
        for seat in hotels {
            build_in(&mut state, seat, "cape_town", Action::BuildHotel);
        }
        assert_eq!(state.city(city("cape_town")).closed, vec![Seat(1)]);
        build_in(&mut state, 1, "cape_town", Action::RenovateHotel); // space 8
        build_in(&mut state, 2, "cape_town", Action::BuildHotel); // 9: closes seat 2's on 1
        build_in(&mut state, 0, "cape_town", Action::BuildHotel); // 10
                                                                  // 11, seat 1's last hotel: closes seat 0's on 2 and ends the phase after seat 2.
        build_in(&mut state, 1, "cape_town", Action::BuildHotel);
        let cape_town = state.city(city("cape_town"));
        assert_eq!(cape_town.chain_length, 12);
        for seat in 0..3 {
            let on_track = cape_town.track.iter().filter(|o| **o == Some(Seat(seat)));
            assert_eq!(on_track.count(), 3, "seat {seat}");
        }
        let events = accepted(
            &mut state,
            2,
            Action::TakeLoan {
                loan: crate::tycoon::LoanKind::Loan10,
            },
        );
        let incomes = events
            .iter()
            .find_map(|e| match e {
                Event::PaydayHeld { phase: 3, incomes } => Some(incomes.clone()),
                _ => None,
            })
            .expect("payday 3");
        assert_eq!(payout(&state, city("cape_town")), [4, 2], "space 12");
        incomes.iter().map(|i| i.majority).collect::<Vec<i32>>()
    };
    assert_eq!(payday(TieBreak::FirstBuilt), vec![0, 4, 2]);
    assert_eq!(payday(TieBreak::EarliestOnTrack), vec![0, 2, 4]);
}
