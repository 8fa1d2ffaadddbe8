//! Payday: distribution, majority, factories (spec §6, decisions S1–S7).

use super::support::*;
use crate::tycoon::data::board;
use crate::tycoon::payday::{incomes, majority_ranking, payout};
use crate::tycoon::TieBreak;
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

#[test]
fn ty_maj_2_s2_ties_go_to_the_earliest_hotel_still_on_the_track() {
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

#[test]
fn ty_maj_2_option_first_built_follows_the_seeds_wording_even_after_a_closure() {
    // DE §Majorität: "derjenige ..., der in dieser Stadt zuerst ein Hotel gebaut hat".
    let mut state = new_game(2);
    state.config.tie_break = TieBreak::FirstBuilt;
    for seat in [0u8, 1, 1, 0] {
        place_plane(&mut state, seat, "cairo", Some(0));
        state.players[usize::from(1 - seat)].plane = crate::tycoon::state::Plane::Home;
        give_turn(&mut state, seat);
        accepted(&mut state, seat, crate::tycoon::Action::BuildHotel);
    }
    let c = state.city_mut(city("cairo"));
    c.track[0] = None;
    c.closed.push(Seat(0));
    build_track(&mut state, "cairo", &[0]);
    // Both hold 2 on the track; seat 0 built first although that hotel is closed.
    assert_eq!(
        majority_ranking(state.city(city("cairo")), 2, TieBreak::FirstBuilt),
        vec![Seat(0), Seat(1)]
    );
    assert_eq!(
        majority_ranking(state.city(city("cairo")), 2, TieBreak::EarliestOnTrack),
        vec![Seat(1), Seat(0)]
    );
}
