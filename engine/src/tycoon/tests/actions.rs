//! Setup and the turn: tickets, flights, landing fields, building, red spaces, renovation,
//! factories and loans (spec §1, §3, §4 and decisions T*, B*, L1, L2, O*).

use super::support::*;
use crate::tycoon::data::{board, Deck, LoanKind, Route};
use crate::tycoon::errors::*;
use crate::tycoon::state::{Plane, Stage};
use crate::tycoon::{Action, Config, Event, StepMode, Tycoon};
use crate::{Game, Seat};

fn fly(t: &str, to: &str) -> Action {
    Action::Fly {
        ticket: ticket(t),
        to: city(to),
    }
}

fn buy(t: &str) -> Action {
    Action::BuyTicket { ticket: ticket(t) }
}

// ---- Components and setup -------------------------------------------------------------------

#[test]
fn ty_comp_1_two_to_four_players_and_o1_no_special_two_player_rules() {
    // The seat range is the game's own (from the data file), checked by the adapter.
    assert_eq!(Tycoon::seat_range(), 2..=4);
    let hosted = crate::registry::find("tycoon").unwrap();
    for n in [0, 1, 5] {
        let err = hosted.setup(&serde_json::json!({}), n, &mut rng(0));
        assert!(
            matches!(err, Err(crate::GameError::InvalidConfig(_))),
            "{n} players"
        );
    }
    for n in 2..=4 {
        let state = new_game(n);
        assert_eq!(state.players.len(), n);
    }
}

#[test]
fn ty_setup_1_ty_comp_2_ty_comp_3_ty_comp_5_each_player_gets_15m_6_hotels_5_factories_and_a_plane_at_home(
) {
    let state = new_game(4);
    for p in &state.players {
        assert_eq!(p.cash, 15);
        assert_eq!((p.hotels_in_supply, p.hotels_in_reserve), (6, 12));
        assert_eq!(p.factories_left, 5);
        assert_eq!(p.plane, Plane::Home, "TY-SETUP-2");
        assert!(p.tickets.is_empty() && p.loans.is_empty());
    }
}

#[test]
fn ty_setup_2_every_plane_starts_at_its_owners_home_bank() {
    for players in 2..=4 {
        let mut state = new_game(players);
        for seat in state.seats() {
            assert_eq!(state.player(seat).plane, Plane::Home, "{seat}");
        }
        let view = serde_json::to_value(Tycoon::view(&state, crate::Viewer::Spectator)).unwrap();
        for p in view["players"].as_array().unwrap() {
            assert_eq!(p["plane"], serde_json::json!({ "at": "home" }));
        }
        // From the bank a two-step ticket flies only direct, as from nowhere on the board.
        give_ticket(&mut state, 0, "S09");
        let targets: Vec<Action> = Tycoon::legal_actions(&state, Seat(0))
            .into_iter()
            .filter(|a| matches!(a, Action::Fly { .. }))
            .collect();
        assert_eq!(targets, vec![fly("S09", "cairo")]);
    }
}

#[test]
fn ty_setup_3_ty_comp_6_decks_shuffled_separately_with_2_scheduled_and_6_charter_face_up() {
    let state = new_game(3);
    assert_eq!(state.deck(Deck::Scheduled).display.len(), 2);
    assert_eq!(state.deck(Deck::Charter).display.len(), 6);
    assert_eq!(state.deck(Deck::Scheduled).draw.len(), 16);
    assert_eq!(state.deck(Deck::Charter).draw.len(), 30);
    let other = Tycoon::replay(&Tycoon::setup(&Config::default(), 3, &mut rng(77)).unwrap());
    assert_ne!(
        state.decks, other.decks,
        "different seeds shuffle differently"
    );
}

#[test]
fn ty_setup_4_ty_comp_7_all_loan_cards_start_in_the_bank() {
    assert_eq!(new_game(2).loan_cards_left, [14, 10]);
}

#[test]
fn ty_setup_5_o3_seat_0_starts_and_play_goes_clockwise() {
    let mut state = new_game(3);
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(0)]);
    accepted(
        &mut state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(1)]);
    refused(
        &state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
        "not_your_turn",
    );
}

#[test]
fn ty_comp_8_o2_the_bank_never_runs_out_of_money() {
    let mut state = new_game(2);
    state.players[0].cash = 1_000_000;
    give_turn(&mut state, 0);
    accepted(
        &mut state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan16,
        },
    );
    assert_eq!(state.players[0].cash, 1_000_016);
}

// ---- The turn ---------------------------------------------------------------------------------

#[test]
fn ty_turn_1_exactly_one_main_action_then_the_turn_must_be_ended() {
    let mut state = new_game(2);
    place_plane(&mut state, 0, "cairo", Some(0));
    accepted(&mut state, 0, Action::BuildHotel);
    refused(&state, 0, Action::BuildHotel, MAIN_ACTION_TAKEN);
    refused(&state, 0, Action::BuildFactory, MAIN_ACTION_TAKEN);
    refused(
        &state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
        MAIN_ACTION_TAKEN,
    );
    accepted(&mut state, 0, Action::EndTurn);
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(1)]);
}

#[test]
fn ty_turn_1_a_turn_cannot_end_without_a_main_action() {
    let state = new_game(2);
    refused(&state, 0, Action::EndTurn, MAIN_ACTION_REQUIRED);
}

#[test]
fn ty_turn_2_t6_tickets_may_be_bought_before_and_after_the_build_but_flights_only_before() {
    let mut state = new_game(2);
    state.players[0].cash = 40;
    display_ticket(&mut state, "C27");
    display_ticket(&mut state, "C29");
    give_ticket(&mut state, 0, "C22");
    place_plane(&mut state, 0, "cairo", Some(0));
    accepted(&mut state, 0, buy("C27"));
    accepted(&mut state, 0, Action::BuildHotel);
    accepted(&mut state, 0, buy("C29"));
    refused(&state, 0, fly("C22", "mexico_city"), FLIGHT_AFTER_BUILD);
    accepted(&mut state, 0, Action::EndTurn);
}

#[test]
fn ty_turn_3_t11_a_loan_turn_allows_nothing_else() {
    let mut state = new_game(2);
    display_ticket(&mut state, "C27");
    accepted(&mut state, 0, buy("C27"));
    give_ticket(&mut state, 0, "S09");
    // Bought a ticket and can still fly: no loan this turn.
    refused(
        &state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
        LOAN_TURN_NOT_PURE,
    );
    // And a loan ends the turn at once, so nothing can be bought in a loan turn.
    let mut fresh = new_game(2);
    let events = accepted(
        &mut fresh,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::TurnStarted { seat: Seat(1) })));
}

#[test]
fn ty_turn_4_t7_the_display_is_refilled_at_the_end_of_the_turn_only() {
    let mut state = new_game(2);
    let bought = state.deck(Deck::Charter).display[0];
    accepted(&mut state, 0, Action::BuyTicket { ticket: bought });
    assert_eq!(
        state.deck(Deck::Charter).display.len(),
        5,
        "no refill mid-turn"
    );
    give_ticket(&mut state, 0, "S09");
    accepted(&mut state, 0, fly("S09", "cairo"));
    accepted(&mut state, 0, Action::BuildHotel);
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::TicketsRevealed {
            deck: Deck::Charter,
            ..
        }
    )));
    assert_eq!(state.deck(Deck::Charter).display.len(), 6);
}

#[test]
fn ty_turn_5_a_plane_on_a_landing_field_may_stay_and_build_again_next_turn() {
    let mut state = new_game(2);
    place_plane(&mut state, 0, "cairo", Some(1));
    accepted(&mut state, 0, Action::BuildHotel);
    accepted(&mut state, 0, Action::EndTurn);
    accepted(
        &mut state,
        1,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    let events = accepted(&mut state, 0, Action::BuildHotel);
    assert!(
        matches!(
            events[0],
            Event::HotelBuilt {
                space: 1,
                cost: 3,
                ..
            }
        ),
        "{events:?}"
    );
}

// ---- Loans ------------------------------------------------------------------------------------

#[test]
fn ty_loan_1_l1_a_plane_in_a_city_returns_home_free_for_a_loan() {
    let mut state = new_game(2);
    place_plane(&mut state, 0, "tokyo", Some(0));
    accepted(
        &mut state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan16,
        },
    );
    assert_eq!(state.players[0].plane, Plane::Home);
    assert_eq!(state.players[0].cash, 31);
}

#[test]
fn ty_loan_2_one_card_per_turn_laid_face_up() {
    let mut state = new_game(2);
    accepted(
        &mut state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    assert_eq!(state.players[0].loans.len(), 1);
    assert_eq!(state.players[0].loans[0].loan, LoanKind::Loan10);
    assert!(!state.players[0].loans[0].extended);
    assert_eq!(state.loan_cards_left, [13, 10]);
    assert_eq!(
        state.players[0].cash,
        15 + 10,
        "he receives the card's amount"
    );
    assert_eq!(state.players[1].cash, 15);
    refused(
        &state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
        "not_your_turn",
    );
}

#[test]
fn ty_loan_3_a_loan_is_allowed_from_the_first_turn() {
    let state = new_game(4);
    let legal = Tycoon::legal_actions(&state, Seat(0));
    assert!(legal.contains(&Action::TakeLoan {
        loan: LoanKind::Loan10
    }));
    assert!(legal.contains(&Action::TakeLoan {
        loan: LoanKind::Loan16
    }));
}

#[test]
fn ty_loan_4_t4_after_a_loan_the_plane_leaves_home_only_by_a_direct_scheduled_flight() {
    let mut state = new_game(2);
    give_ticket(&mut state, 0, "S09");
    give_ticket(&mut state, 0, "C27");
    refused(&state, 0, fly("C27", "cairo"), DIRECT_FLIGHT_REQUIRED);
    refused(&state, 0, fly("S09", "tokyo"), DIRECT_FLIGHT_REQUIRED);
    accepted(&mut state, 0, fly("S09", "cairo"));
    // TY-FLY-5: once in a city, any ticket.
    accepted(&mut state, 0, fly("C27", "hongkong"));
}

/// TY-LOAN-5, B9: a player who cannot pay for any build must borrow: the loans are all he is
/// offered, and the builds and ending the turn are refused.
#[test]
fn ty_loan_5_b9_a_player_who_cannot_build_must_borrow() {
    let mut state = new_game(2);
    state.players[0].cash = 0;
    place_plane(&mut state, 0, "cairo", Some(0));
    let loans = LoanKind::ALL.map(|loan| Action::TakeLoan { loan }).to_vec();
    assert_eq!(Tycoon::legal_actions(&state, Seat(0)), loans);
    refused(&state, 0, Action::BuildHotel, INSUFFICIENT_CASH);
    refused(&state, 0, Action::BuildFactory, INSUFFICIENT_CASH);
    refused(&state, 0, Action::EndTurn, MAIN_ACTION_REQUIRED);
}

#[test]
fn l2_when_a_kind_runs_out_the_other_is_offered_and_without_cards_the_loan_is_a_pass() {
    let mut state = new_game(2);
    state.loan_cards_left = [0, 1];
    refused(
        &state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
        NO_LOAN_CARDS,
    );
    refused(&state, 0, Action::Pass, LOAN_CARDS_REMAIN);
    accepted(
        &mut state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan16,
        },
    );
    place_plane(&mut state, 1, "cairo", Some(0));
    let events = accepted(&mut state, 1, Action::Pass);
    assert!(matches!(events[0], Event::Passed { seat: Seat(1) }));
    assert_eq!(
        state.players[1].plane,
        Plane::Home,
        "a pass takes the plane home"
    );
}

#[test]
fn l2_option_unlimited_loans_never_runs_out() {
    let mut state = new_game_with(
        2,
        Config {
            unlimited_loans: true,
            ..Config::default()
        },
    );
    state.loan_cards_left = [0, 0];
    accepted(
        &mut state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
}

// ---- Flying -----------------------------------------------------------------------------------

#[test]
fn ty_fly_1_a_flight_uses_the_ticket_which_goes_to_its_discard_pile() {
    let mut state = new_game(2);
    give_ticket(&mut state, 0, "S09");
    accepted(&mut state, 0, fly("S09", "cairo"));
    assert!(state.players[0].tickets.is_empty());
    assert_eq!(state.deck(Deck::Scheduled).discard, vec![ticket("S09")]);
    refused(&state, 0, fly("S09", "tokyo"), TICKET_NOT_IN_HAND);
}

#[test]
fn ty_fly_2_a_scheduled_ticket_flies_direct_from_any_city_or_the_bank() {
    let mut state = new_game(2);
    give_ticket(&mut state, 0, "S01");
    place_plane(&mut state, 0, "sydney", Some(0));
    accepted(&mut state, 0, fly("S01", "new_york"));
    assert_eq!(state.players[0].plane, plane_at("new_york", Some(0)));
}

#[test]
fn ty_fly_3_t1_step_mode_goes_exactly_n_steps_from_a_city() {
    let mut state = new_game(2);
    give_ticket(&mut state, 0, "S17"); // Sydney, 1 step
    place_plane(&mut state, 0, "cairo", Some(0));
    for to in ["monaco", "mexico_city", "hongkong", "cape_town"] {
        assert!(
            Tycoon::legal_actions(&state, Seat(0)).contains(&fly("S17", to)),
            "{to}"
        );
    }
    refused(&state, 0, fly("S17", "new_york"), UNREACHABLE_CITY);
    refused(&state, 0, fly("S17", "cairo"), UNREACHABLE_CITY);
    // A step-mode flight lands on the city one step away and spends the ticket.
    let mut by_steps = state.clone();
    let events = accepted(&mut by_steps, 0, fly("S17", "monaco"));
    assert!(
        matches!(
            events[0],
            Event::Flew {
                from: Some(_),
                field: Some(0),
                ..
            }
        ),
        "{events:?}"
    );
    assert_eq!(by_steps.players[0].plane, plane_at("monaco", Some(0)));
    assert!(by_steps.players[0].tickets.is_empty());
    assert_eq!(
        by_steps.deck(Deck::Scheduled).discard.last(),
        Some(&ticket("S17"))
    );
    accepted(&mut state, 0, fly("S17", "sydney"));
}

#[test]
fn t2_step_mode_counts_steps_only_from_a_city_never_from_the_bank() {
    // S09: Cairo, 2 boxes. From Hongkong it also reaches the cities exactly two steps away.
    let mut state = new_game(2);
    give_ticket(&mut state, 0, "S09");
    refused(&state, 0, fly("S09", "mexico_city"), DIRECT_FLIGHT_REQUIRED);
    refused(&state, 0, fly("S09", "monaco"), DIRECT_FLIGHT_REQUIRED);
    for mode in [StepMode::Exact, StepMode::UpTo] {
        state.config.step_mode = mode;
        let from_the_bank: Vec<Action> = Tycoon::legal_actions(&state, Seat(0))
            .into_iter()
            .filter(|a| matches!(a, Action::Fly { .. }))
            .collect();
        assert_eq!(from_the_bank, vec![fly("S09", "cairo")], "{mode:?}");
    }
    state.config.step_mode = StepMode::Exact;
    place_plane(&mut state, 0, "hongkong", Some(0));
    accepted(&mut state, 0, fly("S09", "mexico_city"));
}

#[test]
fn ty_fly_4_a_charter_ticket_flies_only_between_its_two_cities_either_way() {
    let mut state = new_game(2);
    give_ticket(&mut state, 0, "C25"); // Mexico City - Cape Town
    place_plane(&mut state, 0, "cairo", Some(0));
    refused(&state, 0, fly("C25", "cape_town"), UNREACHABLE_CITY);
    refused(&state, 0, fly("C25", "sydney"), UNREACHABLE_CITY);
    place_plane(&mut state, 0, "cape_town", Some(0));
    refused(&state, 0, fly("C25", "cairo"), UNREACHABLE_CITY);
    let mut back = state.clone();
    accepted(&mut state, 0, fly("C25", "mexico_city"));
    assert_eq!(state.players[0].plane, plane_at("mexico_city", Some(0)));
    assert!(state.players[0].tickets.is_empty());
    assert_eq!(
        state.deck(Deck::Charter).discard.last(),
        Some(&ticket("C25"))
    );
    // The other way round.
    place_plane(&mut back, 0, "mexico_city", Some(0));
    accepted(&mut back, 0, fly("C25", "cape_town"));
    assert_eq!(back.players[0].plane, plane_at("cape_town", Some(0)));
}

/// TY-FLY-5, T5: the first flight from the bank takes a scheduled ticket to the city named on
/// it (a charter ticket or a step-mode flight is refused and not listed); the later flights of
/// the same turn take any ticket: a charter ticket, then a scheduled one by steps.
#[test]
fn ty_fly_5_t5_several_flights_in_one_turn() {
    let mut state = new_game(2);
    give_ticket(&mut state, 0, "S13"); // Rio
    give_ticket(&mut state, 0, "C34"); // Rio - Cape Town
    give_ticket(&mut state, 0, "S17"); // Sydney, 1 step
    refused(&state, 0, fly("C34", "cape_town"), DIRECT_FLIGHT_REQUIRED);
    refused(
        &state,
        0,
        fly("C34", "rio_de_janeiro"),
        DIRECT_FLIGHT_REQUIRED,
    );
    refused(&state, 0, fly("S17", "cairo"), DIRECT_FLIGHT_REQUIRED);
    let events = accepted(&mut state, 0, fly("S13", "rio_de_janeiro"));
    assert!(
        matches!(events[0], Event::Flew { from: None, .. }),
        "{events:?}"
    );
    assert_eq!(state.players[0].plane, plane_at("rio_de_janeiro", Some(0)));
    accepted(&mut state, 0, fly("C34", "cape_town"));
    assert_eq!(state.players[0].plane, plane_at("cape_town", Some(0)));
    accepted(&mut state, 0, fly("S17", "cairo"));
    assert_eq!(state.players[0].plane, plane_at("cairo", Some(0)));
    assert!(state.players[0].tickets.is_empty(), "each flight used one");
    accepted(&mut state, 0, Action::BuildHotel);
}

#[test]
fn ty_fly_6_t3_a_city_with_both_fields_taken_is_only_a_stopover() {
    let mut state = new_game(3);
    place_plane(&mut state, 1, "cairo", Some(0));
    place_plane(&mut state, 2, "cairo", Some(1));
    give_ticket(&mut state, 0, "S09");
    give_ticket(&mut state, 0, "C29");
    accepted(&mut state, 0, fly("S09", "cairo"));
    assert_eq!(state.players[0].plane, plane_at("cairo", None));
    refused(&state, 0, Action::BuildHotel, LANDING_FIELDS_FULL);
    refused(&state, 0, Action::BuildFactory, LANDING_FIELDS_FULL);
    refused(&state, 0, Action::EndTurn, MAIN_ACTION_REQUIRED);
    // The two planes on the fields keep them.
    assert_eq!(state.players[1].plane, plane_at("cairo", Some(0)));
    assert_eq!(state.players[2].plane, plane_at("cairo", Some(1)));
    accepted(&mut state, 0, fly("C29", "cape_town"));
    assert_eq!(state.players[0].plane, plane_at("cape_town", Some(0)));
    accepted(&mut state, 0, Action::BuildHotel);
}

#[test]
fn ty_fly_7_t12_a_stranded_plane_flies_home_free_and_the_turn_becomes_a_loan_turn() {
    let mut state = new_game(3);
    place_plane(&mut state, 1, "cairo", Some(0));
    place_plane(&mut state, 2, "cairo", Some(1));
    give_ticket(&mut state, 0, "S09");
    accepted(&mut state, 0, fly("S09", "cairo"));
    let legal = Tycoon::legal_actions(&state, Seat(0));
    assert!(
        legal.contains(&Action::TakeLoan {
            loan: LoanKind::Loan10
        }),
        "{legal:?}"
    );
    accepted(
        &mut state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    assert_eq!(state.players[0].plane, Plane::Home);
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(1)]);
    // The flight home is free and takes no ticket: he holds only the loan's 10 more.
    assert_eq!(state.players[0].cash, 15 + 10);
    assert!(state.players[0].tickets.is_empty());
    assert_eq!(state.deck(Deck::Scheduled).discard, vec![ticket("S09")]);
}

#[test]
fn ty_fly_7_there_is_no_flight_home_without_a_loan() {
    let mut state = new_game(2);
    place_plane(&mut state, 0, "cairo", Some(0));
    let legal = Tycoon::legal_actions(&state, Seat(0));
    assert!(
        !legal.iter().any(|a| matches!(a, Action::Fly { .. })),
        "no ticket, no flight: {legal:?}"
    );
}

/// T12 (amended): a player who bought tickets without flying, cannot build where the plane
/// stands (here the bank) and holds no ticket that can fly from there, may still end the turn
/// as a loan turn; the ticket stays bought.
#[test]
fn t12_bought_a_ticket_but_can_neither_fly_nor_build_the_turn_becomes_a_loan_turn() {
    let mut state = new_game(2);
    display_ticket(&mut state, "C01");
    accepted(&mut state, 0, buy("C01"));
    // At the bank with only a charter ticket: no flight, no build; the loan stays open.
    let legal = Tycoon::legal_actions(&state, Seat(0));
    assert!(
        !legal.iter().any(|a| matches!(a, Action::Fly { .. })),
        "{legal:?}"
    );
    accepted(
        &mut state,
        0,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    assert_eq!(state.players[0].tickets, vec![ticket("C01")]);
    assert_eq!(state.players[0].loans.len(), 1);
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(1)]);
}

/// TY-FLY-8: the planes and routes drawn on the board mean nothing; only tickets move planes.
/// Without a ticket no flight is offered from any city, and a charter ticket flies between its
/// two cities however far apart they lie on the grid.
#[test]
fn ty_fly_8_routes_drawn_on_the_board_mean_nothing_only_tickets_matter() {
    let b = board();
    let mut state = new_game(2);
    for city in b.cities() {
        state.players[0].plane = Plane::City {
            city,
            field: Some(0),
        };
        let legal = Tycoon::legal_actions(&state, Seat(0));
        assert!(
            !legal.iter().any(|a| matches!(a, Action::Fly { .. })),
            "{legal:?}"
        );
    }
    let (charter, [from, to]) = b
        .deck(Deck::Charter)
        .find_map(|t| match b.ticket(t).route {
            Route::Charter { ends } if b.distance(ends[0], ends[1]) > 1 => Some((t, ends)),
            _ => None,
        })
        .expect("a charter between two cities that are not neighbours on the grid");
    state.players[0].plane = Plane::City {
        city: from,
        field: Some(0),
    };
    give_ticket(&mut state, 0, &charter.to_string());
    let flights: Vec<Action> = Tycoon::legal_actions(&state, Seat(0))
        .into_iter()
        .filter(|a| matches!(a, Action::Fly { .. }))
        .collect();
    assert_eq!(
        flights,
        vec![Action::Fly {
            ticket: charter,
            to
        }]
    );
}

// ---- Tickets ----------------------------------------------------------------------------------

#[test]
fn ty_tix_1_buy_any_number_of_face_up_tickets_at_their_price() {
    let mut state = new_game(2);
    state.players[0].cash = 100;
    let shown: Vec<_> = Deck::ALL
        .iter()
        .flat_map(|d| state.deck(*d).display.clone())
        .collect();
    let price: i32 = shown.iter().map(|t| board().ticket(*t).price).sum();
    for t in &shown {
        accepted(&mut state, 0, Action::BuyTicket { ticket: *t });
    }
    assert_eq!(state.players[0].cash, 100 - price);
    assert_eq!(state.players[0].tickets, shown);
    let hidden = state.deck(Deck::Charter).draw[0];
    refused(
        &state,
        0,
        Action::BuyTicket { ticket: hidden },
        TICKET_NOT_DISPLAYED,
    );
}

/// TY-TIX-2: tickets are bought only in a build turn, never in a loan turn. After a purchase
/// the loan is refused while the player can still fly or build, and a loan ends the turn at
/// once, so nothing can be bought after it.
#[test]
fn ty_tix_2_no_ticket_is_bought_in_a_loan_turn() {
    let loan = Action::TakeLoan {
        loan: LoanKind::Loan10,
    };
    let mut state = new_game(2);
    display_ticket(&mut state, "S09");
    accepted(&mut state, 0, buy("S09")); // it flies to Cairo, where he can build
    refused(&state, 0, loan, LOAN_TURN_NOT_PURE);

    let mut state = new_game(2);
    display_ticket(&mut state, "C27");
    let events = accepted(&mut state, 0, loan);
    assert!(events.contains(&Event::TurnEnded { seat: Seat(0) }));
    let legal = Tycoon::legal_actions(&state, Seat(0));
    assert!(legal.is_empty(), "{legal:?}");
    refused(&state, 0, buy("C27"), "not_your_turn");
}

#[test]
fn ty_tix_3_b8_tickets_need_cash_on_hand() {
    let mut state = new_game(2);
    state.players[0].cash = 3;
    display_ticket(&mut state, "S09");
    refused(&state, 0, buy("S09"), INSUFFICIENT_CASH);
}

#[test]
fn ty_tix_4_an_empty_deck_is_replaced_by_its_shuffled_discards() {
    let mut state = new_game(2);
    let pile = state.deck_mut(Deck::Scheduled);
    let drawn: Vec<_> = pile.draw.drain(..).collect();
    pile.discard.extend(drawn);
    pile.display.pop();
    place_plane(&mut state, 0, "cairo", Some(0));
    accepted(&mut state, 0, Action::BuildHotel);
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::DeckShuffled {
            deck: Deck::Scheduled,
            cards: 16,
            ..
        }
    )));
    assert_eq!(state.deck(Deck::Scheduled).display.len(), 2);
    assert_eq!(state.deck(Deck::Scheduled).draw.len(), 15);
    assert!(state.deck(Deck::Scheduled).discard.is_empty());
}

/// TY-TIX-4, T7: a bought ticket leaves a gap in the display until the end of the turn; then
/// the display is refilled to 2 scheduled + 6 charter from the top of each draw pile.
#[test]
fn ty_tix_4_t7_the_display_is_refilled_from_the_top_at_the_end_of_the_turn() {
    let mut state = new_game(2);
    let charter = state.deck(Deck::Charter).display[0];
    let scheduled = state.deck(Deck::Scheduled).display[0];
    let top_charter = *state.deck(Deck::Charter).draw.last().unwrap();
    let top_scheduled = *state.deck(Deck::Scheduled).draw.last().unwrap();
    let charters_left = state.deck(Deck::Charter).draw.len();
    state.players[0].cash = 30;
    accepted(&mut state, 0, Action::BuyTicket { ticket: charter });
    accepted(&mut state, 0, Action::BuyTicket { ticket: scheduled });
    place_plane(&mut state, 0, "cairo", Some(0));
    accepted(&mut state, 0, Action::BuildHotel);
    assert_eq!(state.deck(Deck::Charter).display.len(), 5, "no refill yet");
    assert_eq!(state.deck(Deck::Scheduled).display.len(), 1);
    accepted(&mut state, 0, Action::EndTurn);
    assert_eq!(state.deck(Deck::Charter).display.len(), 6);
    assert_eq!(state.deck(Deck::Scheduled).display.len(), 2);
    assert!(state.deck(Deck::Charter).display.contains(&top_charter));
    assert!(state.deck(Deck::Scheduled).display.contains(&top_scheduled));
    assert_eq!(state.deck(Deck::Charter).draw.len(), charters_left - 1);
    assert!(!state.deck(Deck::Charter).display.contains(&charter));
}

#[test]
fn ty_tix_4_t7_with_both_piles_empty_the_display_stays_short() {
    let mut state = new_game(2);
    let pile = state.deck_mut(Deck::Scheduled);
    let drawn: Vec<_> = pile.draw.drain(..).collect();
    state.players[1].tickets.extend(drawn);
    let t = state.deck(Deck::Scheduled).display[0];
    state.players[0].cash = 10;
    accepted(&mut state, 0, Action::BuyTicket { ticket: t });
    place_plane(&mut state, 0, "cairo", Some(0));
    accepted(&mut state, 0, Action::BuildHotel);
    accepted(&mut state, 0, Action::EndTurn);
    assert_eq!(state.deck(Deck::Scheduled).display.len(), 1);
}

/// TY-TIX-5, T8: ticket hands are public (every viewer sees them), have no limit, and are kept
/// across phases.
#[test]
fn ty_tix_5_t8_ticket_hands_are_public_unlimited_and_kept() {
    let mut state = new_game(2);
    for id in [
        "S01", "S02", "S03", "S04", "S05", "S06", "S07", "S08", "S09", "S10",
    ] {
        give_ticket(&mut state, 1, id);
    }
    // An eleventh ticket is bought like the first.
    let eleventh = state.deck(Deck::Charter).display[0];
    give_turn(&mut state, 1);
    accepted(&mut state, 1, Action::BuyTicket { ticket: eleventh });
    assert_eq!(state.players[1].tickets.len(), 11);
    give_turn(&mut state, 0);
    let hand = state.players[1].tickets.clone();
    for viewer in [crate::Viewer::Spectator, crate::Viewer::Seat(Seat(0))] {
        let view = serde_json::to_value(Tycoon::view(&state, viewer)).unwrap();
        assert_eq!(view["players"][1]["tickets"], serde_json::json!(hand));
    }
    // Seat 0 builds his last hotel; seat 1 borrows, payday 1 follows, he extends the card and
    // phase 2 begins: the hand is as it was.
    state.players[0].hotels_in_supply = 1;
    place_plane(&mut state, 0, "cairo", Some(0));
    accepted(&mut state, 0, Action::BuildHotel);
    accepted(&mut state, 0, Action::EndTurn);
    accepted(
        &mut state,
        1,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    accepted(
        &mut state,
        1,
        Action::SettleLoan {
            loan: LoanKind::Loan10,
            decision: crate::tycoon::LoanDecision::Extend,
        },
    );
    assert_eq!(state.phase, 2);
    assert_eq!(state.players[1].tickets, hand);
}

// ---- Landing fields ---------------------------------------------------------------------------

#[test]
fn ty_land_1_building_needs_a_landing_field_not_the_bank() {
    let state = new_game(2);
    refused(&state, 0, Action::BuildHotel, NOT_IN_CITY);
    refused(&state, 0, Action::RenovateHotel, NOT_IN_CITY);
    refused(&state, 0, Action::BuildFactory, NOT_IN_CITY);
    // A stopover holds no landing field: no renovation there either.
    let mut state = new_game(3);
    place_plane(&mut state, 0, "cairo", None);
    place_plane(&mut state, 1, "cairo", Some(0));
    place_plane(&mut state, 2, "cairo", Some(1));
    build_track(&mut state, "cairo", &[1]);
    state.city_mut(city("cairo")).closed.push(Seat(0));
    refused(&state, 0, Action::RenovateHotel, LANDING_FIELDS_FULL);
}

#[test]
fn ty_land_2_t9_arrivals_take_field_1_then_field_2() {
    let mut state = new_game(3);
    place_plane(&mut state, 1, "cairo", Some(0));
    give_ticket(&mut state, 0, "S09");
    let events = accepted(&mut state, 0, fly("S09", "cairo"));
    assert!(matches!(events[0], Event::Flew { field: Some(1), .. }));
    assert_eq!(state.players[0].plane, plane_at("cairo", Some(1)));
    assert_eq!(state.players[1].plane, plane_at("cairo", Some(0)));
    // The first arrival in an empty city takes field 1 (index 0); with both taken, none.
    let mut state = new_game(3);
    give_ticket(&mut state, 0, "S09");
    let events = accepted(&mut state, 0, fly("S09", "cairo"));
    assert!(matches!(events[0], Event::Flew { field: Some(0), .. }));
    let mut state = new_game(3);
    place_plane(&mut state, 1, "cairo", Some(0));
    place_plane(&mut state, 2, "cairo", Some(1));
    give_ticket(&mut state, 0, "S09");
    let events = accepted(&mut state, 0, fly("S09", "cairo"));
    assert!(matches!(events[0], Event::Flew { field: None, .. }));
    // A plane on a stopover holds no field: an arrival still takes field 1.
    let mut state = new_game(3);
    place_plane(&mut state, 1, "cairo", None);
    give_ticket(&mut state, 0, "S09");
    let events = accepted(&mut state, 0, fly("S09", "cairo"));
    assert!(matches!(events[0], Event::Flew { field: Some(0), .. }));
}

#[test]
fn ty_land_3_a_plane_that_stays_keeps_its_field_and_cannot_move_to_the_cheaper_one() {
    let mut state = new_game(2);
    place_plane(&mut state, 0, "cairo", Some(1));
    give_ticket(&mut state, 0, "S09");
    refused(&state, 0, fly("S09", "cairo"), UNREACHABLE_CITY);
    let events = accepted(&mut state, 0, Action::BuildHotel);
    assert!(
        matches!(events[0], Event::HotelBuilt { cost: 3, .. }),
        "field 2 price"
    );
    assert_eq!(state.players[0].cash, 15 - 3);
    assert_eq!(state.players[0].plane, plane_at("cairo", Some(1)));
    // Next turn, field 1 still free, he stays on field 2 and pays its price again.
    accepted(&mut state, 0, Action::EndTurn);
    accepted(
        &mut state,
        1,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    let events = accepted(&mut state, 0, Action::BuildHotel);
    assert!(
        matches!(events[0], Event::HotelBuilt { cost: 3, .. }),
        "{events:?}"
    );
    assert_eq!(state.players[0].plane, plane_at("cairo", Some(1)));
}

#[test]
fn ty_land_4_leaving_frees_the_field_and_a_return_takes_a_field_anew() {
    let mut state = new_game(3);
    place_plane(&mut state, 0, "cairo", Some(0));
    place_plane(&mut state, 1, "cairo", Some(1));
    give_ticket(&mut state, 1, "C27");
    give_ticket(&mut state, 1, "S09");
    give_turn(&mut state, 1);
    state.players[0].plane = Plane::Home; // seat 0 left Cairo
    accepted(&mut state, 1, fly("C27", "hongkong"));
    assert_eq!(state.players[1].plane, plane_at("hongkong", Some(0)));
    let events = accepted(&mut state, 1, fly("S09", "cairo"));
    assert!(
        matches!(events[0], Event::Flew { field: Some(0), .. }),
        "{events:?}"
    );
    // He builds at field 1's price now.
    let events = accepted(&mut state, 1, Action::BuildHotel);
    assert!(
        matches!(events[0], Event::HotelBuilt { cost: 2, .. }),
        "{events:?}"
    );
    // Leaving frees the field at once: a plane arriving after he left takes it.
    let mut state = new_game(3);
    place_plane(&mut state, 0, "cairo", Some(0));
    place_plane(&mut state, 1, "cairo", Some(1));
    give_ticket(&mut state, 1, "C27");
    give_ticket(&mut state, 2, "S09");
    give_turn(&mut state, 1);
    accepted(&mut state, 1, fly("C27", "hongkong"));
    accepted(&mut state, 1, Action::BuildHotel);
    accepted(&mut state, 1, Action::EndTurn);
    let events = accepted(&mut state, 2, fly("S09", "cairo"));
    assert!(
        matches!(events[0], Event::Flew { field: Some(1), .. }),
        "{events:?}"
    );
}

#[test]
fn ty_land_5_t10_planes_keep_their_fields_across_a_payday() {
    let mut state = new_game(2);
    place_plane(&mut state, 0, "cairo", Some(1));
    place_plane(&mut state, 1, "tokyo", Some(0));
    state.players[0].hotels_in_supply = 1;
    accepted(&mut state, 0, Action::BuildHotel);
    accepted(&mut state, 0, Action::EndTurn);
    let events = accepted(&mut state, 1, Action::BuildFactory);
    assert!(!events.iter().any(|e| matches!(e, Event::PaydayHeld { .. })));
    let events = accepted(&mut state, 1, Action::EndTurn);
    assert!(events.iter().any(|e| matches!(e, Event::PaydayHeld { .. })));
    assert_eq!(state.players[0].plane, plane_at("cairo", Some(1)));
    assert_eq!(state.players[1].plane, plane_at("tokyo", Some(0)));
}

// ---- Hotels, red spaces, renovation, factories -------------------------------------------------

#[test]
fn ty_hotel_1_a_hotel_needs_one_in_supply_and_the_cash() {
    let mut state = new_game(2);
    place_plane(&mut state, 0, "new_york", Some(0));
    state.players[0].cash = 3;
    refused(&state, 0, Action::BuildHotel, INSUFFICIENT_CASH);
    state.players[0].cash = 30;
    state.players[0].hotels_in_supply = 0;
    refused(&state, 0, Action::BuildHotel, NO_HOTELS_IN_SUPPLY);
    // Cash equal to the cost is enough: the hotel leaves the supply and the cash goes to 0.
    state.players[0].cash = 4;
    state.players[0].hotels_in_supply = 6;
    accepted(&mut state, 0, Action::BuildHotel);
    assert_eq!(state.players[0].cash, 0);
    assert_eq!(state.players[0].hotels_in_supply, 5);
    assert_eq!(state.city(city("new_york")).track[0], Some(Seat(0)));
}

#[test]
fn ty_hotel_2_b2_the_hotel_costs_the_number_on_ones_own_landing_field() {
    let mut state = new_game(2);
    place_plane(&mut state, 0, "new_york", Some(0));
    let events = accepted(&mut state, 0, Action::BuildHotel);
    assert!(matches!(events[0], Event::HotelBuilt { cost: 4, .. }));
    assert_eq!(state.players[0].cash, 11);
    let mut state = new_game(2);
    place_plane(&mut state, 0, "new_york", Some(1));
    let events = accepted(&mut state, 0, Action::BuildHotel);
    assert!(matches!(events[0], Event::HotelBuilt { cost: 5, .. }));
    assert_eq!(state.players[0].cash, 10);
    assert_eq!(state.players[1].cash, 15, "the cost goes to the bank");
}

#[test]
fn ty_hotel_3_b1_b4_hotels_go_on_space_0_then_always_the_next_space() {
    let mut state = new_game(2);
    build_track(&mut state, "monaco", &[1, 1, 1]);
    state.city_mut(city("monaco")).track[1] = None; // an emptied space is never reused
    place_plane(&mut state, 0, "monaco", Some(0));
    let events = accepted(&mut state, 0, Action::BuildHotel);
    assert!(matches!(events[0], Event::HotelBuilt { space: 3, .. }));
    let monaco = state.city(city("monaco"));
    assert_eq!(monaco.track[3], Some(Seat(0)), "whoever builds it");
    assert_eq!(monaco.track[1], None);
    assert_eq!(monaco.chain_length, 4);
    // The first hotel of a city goes on space 0.
    let mut state = new_game(2);
    place_plane(&mut state, 1, "tokyo", Some(0));
    give_turn(&mut state, 1);
    let events = accepted(&mut state, 1, Action::BuildHotel);
    assert!(matches!(events[0], Event::HotelBuilt { space: 0, .. }));
    assert_eq!(state.city(city("tokyo")).track[0], Some(Seat(1)));
    assert_eq!(state.city(city("tokyo")).chain_length, 1);
}

/// TY-HOTEL-4: the hotel after space 10 goes on space 11 (red: it closes the hotel on space 2);
/// then the city is full, so space 12 is never built on.
#[test]
fn ty_hotel_4_the_hotel_on_space_11_fills_the_city_and_space_12_stays_empty() {
    let mut state = new_game(2);
    state.players[1].hotels_in_supply = 12;
    build_track(&mut state, "cairo", &[1; 11]);
    place_plane(&mut state, 0, "cairo", Some(0));
    let events = accepted(&mut state, 0, Action::BuildHotel);
    assert!(
        matches!(events[0], Event::HotelBuilt { space: 11, .. }),
        "{events:?}"
    );
    assert_eq!(state.city(city("cairo")).track[11], Some(Seat(0)));
    accepted(&mut state, 0, Action::EndTurn);
    give_turn(&mut state, 0);
    refused(&state, 0, Action::BuildHotel, CITY_FULL);
    assert_eq!(state.city(city("cairo")).track[12], None);
}

#[test]
fn ty_hotel_4_b5_space_12_is_never_built_and_a_full_city_takes_no_hotel_or_renovation() {
    let mut state = new_game(2);
    state.players[1].hotels_in_supply = 12;
    build_track(&mut state, "cairo", &[1; 12]);
    state.city_mut(city("cairo")).closed.push(Seat(0));
    place_plane(&mut state, 0, "cairo", Some(0));
    refused(&state, 0, Action::BuildHotel, CITY_FULL);
    refused(&state, 0, Action::RenovateHotel, CITY_FULL);
    accepted(&mut state, 0, Action::BuildFactory);
}

#[test]
fn ty_hotel_5_one_hotel_per_turn() {
    let mut state = new_game(2);
    place_plane(&mut state, 0, "cairo", Some(0));
    accepted(&mut state, 0, Action::BuildHotel);
    assert!(!Tycoon::legal_actions(&state, Seat(0)).contains(&Action::BuildHotel));
    refused(&state, 0, Action::BuildHotel, MAIN_ACTION_TAKEN);
    assert_eq!(
        state.players[0].hotels_in_supply, 5,
        "one hotel left the supply"
    );
    assert_eq!(state.city(city("cairo")).chain_length, 1);
}

#[test]
fn ty_red_1_b3_building_on_the_kth_red_space_closes_the_hotel_on_space_k_minus_1() {
    let mut state = new_game(3);
    state.players[1].hotels_in_supply = 12;
    build_track(&mut state, "tokyo", &[2, 1, 1, 1, 1, 1, 1]);
    place_plane(&mut state, 0, "tokyo", Some(0));
    let events = accepted(&mut state, 0, Action::BuildHotel);
    assert_eq!(
        events[1],
        Event::HotelClosed {
            city: city("tokyo"),
            space: 0,
            owner: Seat(2)
        }
    );
    assert_eq!(state.city(city("tokyo")).closed, vec![Seat(2)]);
    assert_eq!(state.city(city("tokyo")).track[0], None);
}

/// TY-RED-1: the second red space (9) closes the hotel on space 1, the oldest still on the
/// track once space 0 is empty, whoever owns it (here neither the builder nor the majority).
#[test]
fn ty_red_1_the_second_red_space_closes_the_hotel_on_space_1() {
    let mut state = new_game(3);
    state.players[1].hotels_in_supply = 12;
    build_track(&mut state, "tokyo", &[2, 2, 1, 1, 1, 1, 1, 1, 1]);
    let c = state.city_mut(city("tokyo"));
    c.track[0] = None;
    c.closed.push(Seat(2));
    place_plane(&mut state, 0, "tokyo", Some(0));
    let events = accepted(&mut state, 0, Action::BuildHotel);
    assert!(
        matches!(events[0], Event::HotelBuilt { space: 9, .. }),
        "{events:?}"
    );
    assert_eq!(
        events[1],
        Event::HotelClosed {
            city: city("tokyo"),
            space: 1,
            owner: Seat(2)
        }
    );
    let tokyo = state.city(city("tokyo"));
    assert_eq!(tokyo.closed, vec![Seat(2), Seat(2)]);
    assert_eq!((tokyo.track[0], tokyo.track[1]), (None, None));
    assert_eq!(tokyo.track[2], Some(Seat(1)), "only one hotel closes");
    assert_eq!(tokyo.track[9], Some(Seat(0)));
}

/// TY-RED-2: a hotel closed by a build on a red space counts for nothing at payday (neither
/// for its owner's distribution nor in the majority), and its emptied space stays empty but
/// still counts in the chain: the city pays from the space after the whole chain, its chain
/// is the longest for factories, and the next hotel goes after it.
#[test]
fn ty_red_2_closed_hotels_count_for_nothing_but_their_space_still_counts_in_the_chain() {
    let mut state = new_game(3);
    state.players[1].hotels_in_supply = 20;
    // Seat 2's only hotel stands on Tokyo's space 0; seat 0's build on the first red space
    // (7) closes it. Cairo's chain of 7 is as long as Tokyo's would be without its space 0.
    build_track(&mut state, "tokyo", &[2, 1, 1, 1, 1, 1, 1]);
    build_track(&mut state, "cairo", &[1, 1, 1, 1, 1, 1, 1]);
    state.city_mut(city("tokyo")).factories = vec![Seat(2)];
    state.city_mut(city("cairo")).factories = vec![Seat(2)];
    place_plane(&mut state, 0, "tokyo", Some(0));
    accepted(&mut state, 0, Action::BuildHotel);
    assert_eq!(state.city(city("tokyo")).closed, vec![Seat(2)]);

    let incomes = crate::tycoon::payday::incomes(&state);
    let tokyo = board().city(city("tokyo")).track[8];
    let cairo = board().city(city("cairo")).track[7];
    assert_eq!(incomes[2].majority, 0, "the closed hotel is in no majority");
    assert_eq!(
        incomes[2].distribution,
        board().distribution[0],
        "the closed hotel puts its owner in no city"
    );
    assert_eq!(
        incomes[1].majority,
        tokyo[0] + cairo[0],
        "Tokyo pays from space 8: the emptied space counts"
    );
    assert_eq!(incomes[0].majority, tokyo[1], "seat 0 is second in Tokyo");
    assert_eq!(
        incomes[2].factories,
        tokyo[0] + cairo[1],
        "Tokyo's chain of 8 is the only longest"
    );

    // The space stays empty: the next hotel in Tokyo goes onto space 8.
    give_turn(&mut state, 1);
    place_plane(&mut state, 1, "tokyo", Some(1));
    let events = accepted(&mut state, 1, Action::BuildHotel);
    assert!(
        matches!(events[0], Event::HotelBuilt { space: 8, .. }),
        "{events:?}"
    );
    assert_eq!(state.city(city("tokyo")).track[0], None);
}

#[test]
fn ty_red_3_red_spaces_come_from_the_data_file() {
    assert_eq!(board().red_spaces, vec![7, 9, 11]);
    assert_eq!(board().red_rank(9), Some(1));
    assert_eq!(board().red_rank(8), None);
}

#[test]
fn ty_reno_1_b6_an_owner_renovates_a_closed_hotel_free_onto_the_next_space() {
    let mut state = new_game(2);
    build_track(&mut state, "cairo", &[0, 1]);
    let c = state.city_mut(city("cairo"));
    c.track[0] = None;
    c.closed.push(Seat(0));
    place_plane(&mut state, 1, "cairo", Some(0));
    give_turn(&mut state, 1);
    refused(&state, 1, Action::RenovateHotel, NO_CLOSED_HOTEL);
    place_plane(&mut state, 0, "cairo", Some(1));
    give_turn(&mut state, 0);
    let supply = state.players[0].hotels_in_supply;
    let events = accepted(&mut state, 0, Action::RenovateHotel);
    assert_eq!(
        events,
        vec![Event::HotelRenovated {
            seat: Seat(0),
            city: city("cairo"),
            space: 2
        }]
    );
    assert_eq!(state.players[0].cash, 15, "free");
    assert_eq!(
        state.players[0].hotels_in_supply, supply,
        "TY-RENO-3: not from the supply"
    );
    assert!(state.city(city("cairo")).closed.is_empty());
}

#[test]
fn ty_reno_2_renovation_is_the_whole_main_action() {
    let mut state = new_game(2);
    state.city_mut(city("cairo")).closed.push(Seat(0));
    place_plane(&mut state, 0, "cairo", Some(0));
    accepted(&mut state, 0, Action::RenovateHotel);
    refused(&state, 0, Action::BuildHotel, MAIN_ACTION_TAKEN);
    refused(&state, 0, Action::BuildFactory, MAIN_ACTION_TAKEN);
}

#[test]
fn ty_reno_3_p2_renovating_ones_last_missing_hotel_never_triggers_the_phase_end() {
    let mut state = new_game(2);
    state.players[0].hotels_in_supply = 0;
    state.players[0].hotels_in_reserve = 17;
    state.city_mut(city("cairo")).closed.push(Seat(0));
    place_plane(&mut state, 0, "cairo", Some(0));
    let events = accepted(&mut state, 0, Action::RenovateHotel);
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::PhaseEndTriggered { .. })));
    assert_eq!(state.phase_end_triggered_by, None);
}

#[test]
fn ty_reno_4_renovating_onto_a_red_space_closes_a_hotel_too() {
    let mut state = new_game(2);
    state.players[1].hotels_in_supply = 12;
    build_track(&mut state, "cairo", &[1, 1, 1, 1, 1, 1, 1]);
    state.city_mut(city("cairo")).closed.push(Seat(0));
    place_plane(&mut state, 0, "cairo", Some(0));
    let events = accepted(&mut state, 0, Action::RenovateHotel);
    assert_eq!(
        events[1],
        Event::HotelClosed {
            city: city("cairo"),
            space: 0,
            owner: Seat(1)
        }
    );
    // The renovated hotel stands on space 7; Red's space-0 hotel moved to the city picture.
    let cairo = state.city(city("cairo"));
    assert_eq!(cairo.track[7], Some(Seat(0)));
    assert_eq!(cairo.track[0], None);
    assert_eq!(cairo.closed, vec![Seat(1)]);
    assert_eq!(state.players[0].cash, 15, "still free");
}

#[test]
fn ty_fac_1_a_factory_needs_a_landing_field_a_factory_left_and_the_cash() {
    let mut state = new_game(2);
    place_plane(&mut state, 0, "new_york", Some(0));
    state.players[0].cash = 7;
    refused(&state, 0, Action::BuildFactory, INSUFFICIENT_CASH);
    state.players[0].cash = 30;
    state.players[0].factories_left = 0;
    refused(&state, 0, Action::BuildFactory, NO_FACTORIES_LEFT);
    // Cash equal to the cost is enough; the factory leaves the player's five.
    state.players[0].cash = 8;
    state.players[0].factories_left = 5;
    accepted(&mut state, 0, Action::BuildFactory);
    assert_eq!(state.players[0].cash, 0);
    assert_eq!(state.players[0].factories_left, 4);
    assert_eq!(state.city(city("new_york")).factories, vec![Seat(0)]);
}

#[test]
fn ty_fac_2_first_factory_costs_field_1_second_field_2_whatever_the_landing_field() {
    let mut state = new_game(2);
    state.players[0].cash = 30;
    place_plane(&mut state, 0, "new_york", Some(1));
    let events = accepted(&mut state, 0, Action::BuildFactory);
    assert!(matches!(
        events[0],
        Event::FactoryBuilt {
            field: 0,
            cost: 8,
            ..
        }
    ));
    accepted(&mut state, 0, Action::EndTurn);
    give_turn(&mut state, 0);
    let events = accepted(&mut state, 0, Action::BuildFactory);
    assert!(matches!(
        events[0],
        Event::FactoryBuilt {
            field: 1,
            cost: 10,
            ..
        }
    ));
    assert_eq!(state.players[0].cash, 30 - 8 - 10);
    assert_eq!(state.players[1].cash, 15, "the costs go to the bank");
}

/// TY-FAC-3: at most two factories per city, whoever owns them, and one per turn: with a
/// factory field still free, a second factory in the same turn is refused and not listed.
#[test]
fn ty_fac_3_at_most_two_factories_per_city_and_one_per_turn() {
    let mut state = new_game(2);
    state.players[0].cash = 60;
    state.city_mut(city("cairo")).factories = vec![Seat(1), Seat(1)];
    place_plane(&mut state, 0, "cairo", Some(0));
    refused(&state, 0, Action::BuildFactory, FACTORY_FIELDS_FULL);
    place_plane(&mut state, 0, "new_york", Some(0));
    accepted(&mut state, 0, Action::BuildFactory);
    assert_eq!(state.city(city("new_york")).factories, vec![Seat(0)]);
    refused(&state, 0, Action::BuildFactory, MAIN_ACTION_TAKEN);
    // The next turn, the second field is free to build on.
    accepted(&mut state, 0, Action::EndTurn);
    give_turn(&mut state, 0);
    accepted(&mut state, 0, Action::BuildFactory);
    assert_eq!(
        state.city(city("new_york")).factories,
        vec![Seat(0), Seat(0)]
    );
    refused(&state, 0, Action::BuildFactory, MAIN_ACTION_TAKEN);
}

#[test]
fn ty_fac_4_b7_one_player_may_own_both_factories_even_without_hotels() {
    let mut state = new_game(2);
    state.city_mut(city("rio_de_janeiro")).factories = vec![Seat(0)];
    place_plane(&mut state, 0, "rio_de_janeiro", Some(0));
    accepted(&mut state, 0, Action::BuildFactory);
    assert_eq!(
        state.city(city("rio_de_janeiro")).factories,
        vec![Seat(0), Seat(0)]
    );
    // Rio has no hotel; the second field's price (6) was paid.
    assert_eq!(state.city(city("rio_de_janeiro")).chain_length, 0);
    assert_eq!(state.players[0].cash, 15 - 6);
}

#[test]
fn ty_comp_10_each_city_has_2_landing_fields_2_factory_fields_and_a_track() {
    let b = board();
    assert_eq!(b.constants.landing_fields_per_city, 2);
    assert_eq!(b.constants.factory_fields_per_city, 2);
    for c in &b.cities {
        assert!(c.landing_costs[0] < c.landing_costs[1], "{}", c.id);
        assert!(c.factory_costs[0] < c.factory_costs[1], "{}", c.id);
    }
}

/// TY-COMP-4: five factories per player for the whole game: the seed's 5 in the data file, 5 for
/// each player at the start, and none handed out again when a new phase begins.
#[test]
fn ty_comp_4_five_factories_per_player_for_the_whole_game() {
    assert_eq!(board().constants.factories_per_player, 5);
    let mut state = new_game(2);
    assert!(state.players.iter().all(|p| p.factories_left == 5));
    // Seat 0 builds his last hotel, seat 1 a factory: payday 1, then phase 2.
    state.players[0].hotels_in_supply = 1;
    place_plane(&mut state, 0, "cairo", Some(0));
    accepted(&mut state, 0, Action::BuildHotel);
    accepted(&mut state, 0, Action::EndTurn);
    place_plane(&mut state, 1, "tokyo", Some(0));
    accepted(&mut state, 1, Action::BuildFactory);
    let events = accepted(&mut state, 1, Action::EndTurn);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::PhaseStarted { phase: 2, .. })));
    let left: Vec<u8> = state.players.iter().map(|p| p.factories_left).collect();
    assert_eq!(left, vec![5, 4]);
}

#[test]
fn b8_negative_cash_allows_only_borrowing_renovating_or_passing() {
    let mut state = new_game(2);
    state.players[0].cash = -5;
    state.city_mut(city("cairo")).closed.push(Seat(0));
    place_plane(&mut state, 0, "cairo", Some(0));
    let legal = Tycoon::legal_actions(&state, Seat(0));
    assert!(legal.contains(&Action::RenovateHotel));
    assert!(
        legal
            .iter()
            .all(|a| matches!(a, Action::RenovateHotel | Action::TakeLoan { .. })),
        "{legal:?}"
    );
}

#[test]
fn wrong_stage_actions_are_refused() {
    let mut state = new_game(2);
    let settle = Action::SettleLoan {
        loan: LoanKind::Loan10,
        decision: crate::tycoon::LoanDecision::Repay,
    };
    refused(&state, 0, settle, NOT_LOAN_SETTLEMENT);
    state.stage = Stage::Finished;
    refused(&state, 0, Action::EndTurn, "game_over");
}

#[test]
fn up_to_step_mode_also_reaches_shorter_distances() {
    let mut state = new_game_with(
        2,
        Config {
            step_mode: StepMode::UpTo,
            ..Config::default()
        },
    );
    give_ticket(&mut state, 0, "S09");
    place_plane(&mut state, 0, "hongkong", Some(0));
    accepted(&mut state, 0, fly("S09", "tokyo"));
}
