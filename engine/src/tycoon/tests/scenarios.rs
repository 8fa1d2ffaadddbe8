//! The spec's worked examples TY-EX-1..9, which restate the seeds' own examples and
//! illustrations (DE §Linienflüge, Abb. 2, Abb. 3, §Darlehen, §Verbreitung, §Fabriken).

use super::support::*;
use crate::tycoon::data::board;
use crate::tycoon::payday::{incomes, payout};
use crate::tycoon::state::{LoanCard, Plane, State};
use crate::tycoon::{Action, Config, Event, LoanDecision, LoanKind, StepMode, Tycoon};
use crate::{Game, Seat};
use std::collections::BTreeSet;

const R: u8 = 0;
const B: u8 = 1;
const Y: u8 = 2;

fn flight_targets(state: &State, seat: u8) -> BTreeSet<String> {
    Tycoon::legal_actions(state, Seat(seat))
        .into_iter()
        .filter_map(|a| match a {
            Action::Fly { to, .. } => Some(board().city(to).id.clone()),
            _ => None,
        })
        .collect()
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| s.to_string()).collect()
}

#[test]
fn ty_ex_1_hongkong_two_step_ticket() {
    let mut state = new_game(2);
    display_ticket(&mut state, "S09");
    place_plane(&mut state, 0, "hongkong", Some(0));
    let events = accepted(
        &mut state,
        0,
        Action::BuyTicket {
            ticket: ticket("S09"),
        },
    );
    assert!(matches!(events[0], Event::TicketBought { price: 5, .. }));
    // Direct: Cairo. Exactly two steps: Mexico City, Monaco, Cape Town.
    assert_eq!(
        flight_targets(&state, 0),
        set(&["cairo", "mexico_city", "monaco", "cape_town"])
    );

    let mut up_to = state.clone();
    up_to.config = Config {
        step_mode: StepMode::UpTo,
        ..Config::default()
    };
    assert_eq!(
        flight_targets(&up_to, 0),
        set(&[
            "cairo",
            "mexico_city",
            "monaco",
            "cape_town",
            "tokyo",
            "sydney"
        ])
    );

    state.players[0].plane = Plane::Home;
    assert_eq!(
        flight_targets(&state, 0),
        set(&["cairo"]),
        "T2: from the bank only direct"
    );
}

/// Seat `seat` builds a hotel in New York from landing field 1 (the other planes stay home).
fn build_in_new_york(state: &mut State, seat: u8) -> Vec<Event> {
    for p in &mut state.players {
        p.plane = Plane::Home;
    }
    state.players[usize::from(seat)].cash += 100;
    place_plane(state, seat, "new_york", Some(0));
    give_turn(state, seat);
    accepted(state, seat, Action::BuildHotel)
}

fn majority(state: &State) -> Vec<i32> {
    incomes(state).iter().map(|i| i.majority).collect()
}

fn illustration_2() -> State {
    let mut state = new_game(3);
    for seat in [R, B, Y, B, Y] {
        build_in_new_york(&mut state, seat);
    }
    state
}

#[test]
fn ty_ex_2_illustration_2_blue_20_yellow_10_red_nothing() {
    let state = illustration_2();
    assert_eq!(payout(&state, city("new_york")), [20, 10]);
    assert_eq!(state.city(city("new_york")).chain_length, 5);
    assert_eq!(majority(&state), vec![0, 20, 10]);
}

#[test]
fn ty_ex_2_variant_red_building_next_becomes_first() {
    let mut state = illustration_2();
    let events = build_in_new_york(&mut state, R);
    assert_eq!(events.len(), 1, "space 5 is not red: nothing closes");
    assert_eq!(payout(&state, city("new_york")), [24, 12]);
    assert_eq!(majority(&state), vec![24, 12, 0]);
}

fn illustration_3() -> State {
    let mut state = illustration_2();
    build_in_new_york(&mut state, R); // space 5
    build_in_new_york(&mut state, R); // space 6
    let events = build_in_new_york(&mut state, Y); // space 7, red
    assert_eq!(
        events[1],
        Event::HotelClosed {
            city: city("new_york"),
            space: 0,
            owner: Seat(R)
        }
    );
    place_plane(&mut state, R, "new_york", Some(0));
    give_turn(&mut state, R);
    let events = accepted(&mut state, R, Action::RenovateHotel);
    assert_eq!(
        events,
        vec![Event::HotelRenovated {
            seat: Seat(R),
            city: city("new_york"),
            space: 8
        }]
    );
    let events = build_in_new_york(&mut state, Y); // space 9, red
    assert_eq!(
        events[1],
        Event::HotelClosed {
            city: city("new_york"),
            space: 1,
            owner: Seat(B)
        }
    );
    for (seat, cost) in [(B, 8), (R, 10)] {
        place_plane(&mut state, seat, "new_york", Some(0));
        give_turn(&mut state, seat);
        let events = accepted(&mut state, seat, Action::BuildFactory);
        assert!(matches!(events[0], Event::FactoryBuilt { cost: c, .. } if c == cost));
    }
    state
}

#[test]
fn ty_ex_3_illustration_3_yellow_24_red_12_factories_12_or_24() {
    let mut state = illustration_3();
    let ny = state.city(city("new_york"));
    let track: Vec<Option<u8>> = ny.track[..10].iter().map(|o| o.map(|s| s.0)).collect();
    assert_eq!(
        track,
        vec![
            None,
            None,
            Some(Y),
            Some(B),
            Some(Y),
            Some(R),
            Some(R),
            Some(Y),
            Some(R),
            Some(Y)
        ]
    );
    assert_eq!(ny.chain_length, 10);
    assert_eq!(ny.closed, vec![Seat(B)]);
    assert_eq!(payout(&state, city("new_york")), [24, 12]);
    let inc = incomes(&state);
    assert_eq!(
        (
            inc[Y as usize].majority,
            inc[R as usize].majority,
            inc[B as usize].majority
        ),
        (24, 12, 0)
    );
    // New York is the longest chain: factories pay the first number.
    assert_eq!(
        (inc[B as usize].factories, inc[R as usize].factories),
        (24, 24)
    );
    // Distribution: New York counts for all three (Blue keeps space 3).
    assert!(inc
        .iter()
        .all(|i| i.distribution == board().distribution[1]));

    // A longer chain elsewhere (Cairo at 11): New York's factories pay the second number.
    state.players[1].hotels_in_supply = 11;
    build_track(&mut state, "cairo", &[1; 11]);
    let inc = incomes(&state);
    assert_eq!(
        (inc[B as usize].factories, inc[R as usize].factories),
        (12, 12)
    );
}

#[test]
fn ty_ex_4_loans_10_then_12_or_16_and_16_then_20_or_30() {
    let mut state = new_game(2);
    accepted(
        &mut state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    assert_eq!(state.players[0].cash, 25);
    let ten = LoanCard {
        loan: LoanKind::Loan10,
        extended: false,
    };
    let sixteen = LoanCard {
        loan: LoanKind::Loan16,
        extended: false,
    };
    assert_eq!(ten.amount_due(), 12);
    assert_eq!(
        LoanCard {
            extended: true,
            ..ten
        }
        .amount_due(),
        16
    );
    assert_eq!(sixteen.amount_due(), 20);
    assert_eq!(
        LoanCard {
            extended: true,
            ..sixteen
        }
        .amount_due(),
        30
    );

    // Extended after payday 1, repaid at 16 after payday 2.
    state.players[0].loans = vec![ten];
    state.players[1].hotels_in_supply = 1;
    place_plane(&mut state, 1, "cairo", Some(0));
    give_turn(&mut state, 1);
    accepted(&mut state, 1, Action::BuildHotel);
    accepted(&mut state, 1, Action::EndTurn);
    accepted(
        &mut state,
        0,
        Action::SettleLoan {
            loan: LoanKind::Loan10,
            decision: LoanDecision::Extend,
        },
    );
    assert_eq!(state.phase, 2);
    let cash = state.players[0].cash;
    state.players[1].hotels_in_supply = 1;
    give_turn(&mut state, 1);
    accepted(&mut state, 1, Action::BuildHotel);
    let events = accepted(&mut state, 1, Action::EndTurn);
    assert!(events.contains(&Event::LoanRepaid {
        seat: Seat(0),
        loan: LoanKind::Loan10,
        extended: true,
        amount: 16
    }));
    let payday = match events
        .iter()
        .find(|e| matches!(e, Event::PaydayHeld { .. }))
    {
        Some(Event::PaydayHeld { incomes, .. }) => incomes[0].total,
        _ => unreachable!(),
    };
    assert_eq!(state.players[0].cash, cash + payday - 16);
}

#[test]
fn ty_ex_4_l5_cash_5_with_an_extended_10_card_due_ends_at_minus_11() {
    let mut state = new_game(2);
    state.phase = 2;
    state.players[0].cash = 5;
    state.players[0].loans = vec![LoanCard {
        loan: LoanKind::Loan10,
        extended: true,
    }];
    state.loan_cards_left = [0, 0];
    accepted(&mut state, 0, Action::Pass);
    accepted(&mut state, 1, Action::Pass); // stalemate payday; seat 0 earns nothing
    assert_eq!(state.players[0].cash, -11);
    assert!(state.players[0].loans.is_empty(), "the card is returned");
}

#[test]
fn ty_ex_5_distribution_3_cities_pay_5_and_closed_hotels_or_factories_add_nothing() {
    let mut state = new_game(2);
    for c in ["cairo", "tokyo", "sydney"] {
        build_track(&mut state, c, &[0]);
    }
    assert_eq!(incomes(&state)[0].distribution, 5);
    state.city_mut(city("monaco")).closed.push(Seat(0));
    state
        .city_mut(city("rio_de_janeiro"))
        .factories
        .push(Seat(0));
    assert_eq!(incomes(&state)[0].distribution, 5);
    let mut two = new_game(2);
    build_track(&mut two, "cairo", &[0]);
    build_track(&mut two, "tokyo", &[0]);
    assert_eq!(incomes(&two)[0].distribution, 2);
    let mut nine = new_game(2);
    nine.players[0].hotels_in_supply = 9;
    for c in board()
        .cities
        .iter()
        .map(|c| c.id.clone())
        .collect::<Vec<_>>()
    {
        build_track(&mut nine, &c, &[0]);
    }
    assert_eq!(incomes(&nine)[0].distribution, 40);
}

#[test]
fn ty_ex_7_landing_fields_in_cairo() {
    let mut state = new_game(3);
    for (seat, field) in [(0u8, Some(0u8)), (1, Some(1)), (2, None)] {
        give_ticket(
            &mut state,
            seat,
            if seat == 0 {
                "S09"
            } else if seat == 1 {
                "S10"
            } else {
                "C27"
            },
        );
        give_turn(&mut state, seat);
        if seat == 2 {
            place_plane(&mut state, 2, "hongkong", Some(0));
        }
        let to = "cairo";
        let t = state.players[usize::from(seat)].tickets[0];
        let events = accepted(
            &mut state,
            seat,
            Action::Fly {
                ticket: t,
                to: city(to),
            },
        );
        assert!(
            matches!(events[0], Event::Flew { field: f, .. } if f == field),
            "{events:?}"
        );
    }
    // C can only stop over: no build, so T12 lets him go home with a loan.
    assert!(
        Tycoon::legal_actions(&state, Seat(2)).contains(&Action::TakeLoan {
            loan: LoanKind::Loan10
        })
    );
    accepted(
        &mut state,
        2,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    // A leaves; B stays and still pays 3.
    state.players[0].plane = Plane::Home;
    give_turn(&mut state, 1);
    let events = accepted(&mut state, 1, Action::BuildHotel);
    assert!(matches!(events[0], Event::HotelBuilt { cost: 3, .. }));
    // C arriving later takes field 1.
    give_ticket(&mut state, 2, "S09");
    give_turn(&mut state, 2);
    let events = accepted(
        &mut state,
        2,
        Action::Fly {
            ticket: ticket("S09"),
            to: city("cairo"),
        },
    );
    assert!(matches!(events[0], Event::Flew { field: Some(0), .. }));
}

#[test]
fn ty_ex_8_renovation_onto_a_red_space_closes_the_next_hotel_without_a_phase_end() {
    let mut state = new_game(2);
    state.players[1].hotels_in_supply = 12;
    build_track(&mut state, "new_york", &[0, 1, 1, 1, 1, 1, 1]);
    // Space 7 (red) closed X's hotel on space 0.
    build_track(&mut state, "new_york", &[1]);
    let ny = state.city_mut(city("new_york"));
    ny.track[0] = None;
    ny.closed.push(Seat(0));
    build_track(&mut state, "new_york", &[1]); // space 8
    state.players[0].hotels_in_supply = 0;
    state.players[0].hotels_in_reserve = 17;
    place_plane(&mut state, 0, "new_york", Some(0));
    let events = accepted(&mut state, 0, Action::RenovateHotel);
    assert_eq!(
        events,
        vec![
            Event::HotelRenovated {
                seat: Seat(0),
                city: city("new_york"),
                space: 9
            },
            Event::HotelClosed {
                city: city("new_york"),
                space: 1,
                owner: Seat(1)
            },
        ]
    );
    assert_eq!(state.players[0].hotels_in_supply, 0);
    assert_eq!(state.phase_end_triggered_by, None);
}

#[test]
fn ty_ex_9_a_longest_chain_tie_pays_first_numbers_in_every_tied_city() {
    let mut state = new_game(2);
    state.players[1].hotels_in_supply = 30;
    build_track(&mut state, "new_york", &[1; 10]);
    build_track(&mut state, "cairo", &[1; 10]);
    build_track(&mut state, "tokyo", &[1; 9]);
    state.city_mut(city("new_york")).factories.push(Seat(0));
    state.city_mut(city("cairo")).factories.push(Seat(0));
    state.city_mut(city("tokyo")).factories.push(Seat(0));
    let tokyo_second = payout(&state, city("tokyo"))[1];
    assert_eq!(incomes(&state)[0].factories, 24 + 12 + tokyo_second);
}
