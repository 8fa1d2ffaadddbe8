//! Phase end, loans after a payday, game end (spec §5, §7, §8, decisions P*, L3–L5).

use super::support::*;
use crate::tycoon::errors::*;
use crate::tycoon::state::{LoanCard, Plane, Stage};
use crate::tycoon::{Action, Event, LoanDecision, LoanKind, Tycoon};
use crate::{Game, Seat};

fn repay(loan: LoanKind) -> Action {
    Action::SettleLoan {
        loan,
        decision: LoanDecision::Repay,
    }
}

fn extend(loan: LoanKind) -> Action {
    Action::SettleLoan {
        loan,
        decision: LoanDecision::Extend,
    }
}

fn card(loan: LoanKind, extended: bool) -> LoanCard {
    LoanCard { loan, extended }
}

/// Seat `seat` builds its last hotel in Cairo this turn.
fn build_last_hotel(state: &mut crate::tycoon::State, seat: u8) -> Vec<Event> {
    state.players[usize::from(seat)].hotels_in_supply = 1;
    state.players[usize::from(seat)].hotels_in_reserve = 17 - 6 * (3 - state.phase);
    give_turn(state, seat);
    place_plane(state, seat, "cairo", Some(0));
    let mut events = accepted(state, seat, Action::BuildHotel);
    events.extend(accepted(state, seat, Action::EndTurn));
    events
}

fn paydays(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::PaydayHeld { .. }))
        .count()
}

#[test]
fn ty_phase_1_p1_building_the_last_hotel_of_the_supply_triggers_the_phase_end() {
    let mut state = new_game(3);
    let events = build_last_hotel(&mut state, 1);
    assert!(events.contains(&Event::PhaseEndTriggered { seat: Seat(1) }));
    assert_eq!(state.phase_end_triggered_by, Some(Seat(1)));
    assert_eq!(state.players[1].hotels_in_supply, 0);
    // A hotel that is not the last of the supply triggers nothing.
    let mut state = new_game(3);
    place_plane(&mut state, 0, "cairo", Some(0));
    let mut events = accepted(&mut state, 0, Action::BuildHotel);
    events.extend(accepted(&mut state, 0, Action::EndTurn));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::PhaseEndTriggered { .. })));
    assert_eq!(state.phase_end_triggered_by, None);
}

#[test]
fn ty_phase_2_ty_ex_6_the_round_is_played_out_to_the_seat_before_seat_0() {
    let mut state = new_game(3);
    let events = build_last_hotel(&mut state, 1);
    assert_eq!(paydays(&events), 0);
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(2)]);
    let events = accepted(
        &mut state,
        2,
        Action::TakeLoan {
            loan: LoanKind::Loan10,
        },
    );
    assert_eq!(
        paydays(&events),
        1,
        "payday right after the last seat's turn"
    );
    // Seat 2 holds a loan: settlement before seat 0 plays again.
    assert_eq!(state.stage, Stage::LoanSettlement);
    accepted(&mut state, 2, extend(LoanKind::Loan10));
    assert_eq!(state.phase, 2);
    assert_eq!(
        Tycoon::active_seats(&state),
        vec![Seat(0)],
        "seat 0 opens phase 2; the trigger player had no further turn"
    );
}

#[test]
fn ty_ex_6_if_the_last_seat_triggers_payday_follows_at_once() {
    let mut state = new_game(3);
    let events = build_last_hotel(&mut state, 2);
    assert_eq!(paydays(&events), 1);
    assert_eq!(state.phase, 2);
    assert_eq!(
        Tycoon::active_seats(&state),
        vec![Seat(0)],
        "TY-PHASE-5: seat 0 starts the next phase"
    );
}

#[test]
fn ty_phase_3_p2_further_triggers_in_the_round_change_nothing() {
    let mut state = new_game(3);
    build_last_hotel(&mut state, 0);
    let events = build_last_hotel(&mut state, 1);
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::PhaseEndTriggered { .. })));
    assert_eq!(state.phase_end_triggered_by, Some(Seat(0)));
    assert_eq!(paydays(&events), 0, "the round still ends with seat 2");
    assert_eq!(paydays(&build_last_hotel(&mut state, 2)), 1);
    // A factory built with an empty hotel supply, and a renovation, trigger nothing.
    let mut state = new_game(3);
    state.players[0].hotels_in_supply = 0;
    place_plane(&mut state, 0, "cairo", Some(0));
    let mut events = accepted(&mut state, 0, Action::BuildFactory);
    events.extend(accepted(&mut state, 0, Action::EndTurn));
    give_turn(&mut state, 0);
    state.city_mut(city("tokyo")).closed.push(Seat(0));
    state.city_mut(city("tokyo")).chain_length = 1;
    place_plane(&mut state, 0, "tokyo", Some(0));
    events.extend(accepted(&mut state, 0, Action::RenovateHotel));
    events.extend(accepted(&mut state, 0, Action::EndTurn));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::PhaseEndTriggered { .. })));
    assert_eq!(state.phase_end_triggered_by, None);
    assert_eq!(paydays(&events), 0);
}

#[test]
fn ty_phase_4_p4_a_full_round_of_passes_ends_the_phase_at_once() {
    let mut state = new_game(3);
    state.loan_cards_left = [0, 0];
    place_plane(&mut state, 0, "cairo", Some(0));
    state.players[0].cash = 1;
    accepted(&mut state, 0, Action::Pass);
    assert_eq!(
        state.players[0].plane,
        Plane::Home,
        "the pass is at the bank"
    );
    accepted(&mut state, 1, Action::Pass);
    let events = accepted(&mut state, 2, Action::Pass);
    assert_eq!(paydays(&events), 1);
    assert_eq!(state.phase, 2);
    // Nothing was built, so payday paid nothing and no card was taken.
    let cash: Vec<i32> = state.players.iter().map(|p| p.cash).collect();
    assert_eq!(cash, vec![1, 15, 15]);
    assert!(state.players.iter().all(|p| p.loans.is_empty()));
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(0)]);
}

#[test]
fn p4_a_build_between_passes_restarts_the_count() {
    let mut state = new_game(2);
    state.loan_cards_left = [0, 0];
    accepted(&mut state, 0, Action::Pass);
    place_plane(&mut state, 1, "cairo", Some(0));
    accepted(&mut state, 1, Action::BuildHotel);
    accepted(&mut state, 1, Action::EndTurn);
    let events = accepted(&mut state, 0, Action::Pass);
    assert_eq!(paydays(&events), 0);
    assert_eq!(state.consecutive_passes, 1);
}

#[test]
fn ty_phase_5_ty_after_4_after_paydays_1_and_2_everyone_gets_6_more_hotels() {
    let mut state = new_game(2);
    state.players[0].hotels_in_supply = 3;
    let events = build_last_hotel(&mut state, 1);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::PhaseStarted {
            phase: 2,
            hotels_per_player: 6,
            ..
        }
    )));
    assert_eq!(state.players[0].hotels_in_supply, 9, "leftovers carry over");
    assert_eq!(state.players[0].hotels_in_reserve, 6);
    assert_eq!(state.players[0].factories_left, 5, "no new factories");
    assert_eq!(state.phase, 2);
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(0)], "seat 0 starts");
}

#[test]
fn ty_after_1_l3_each_unextended_card_is_repaid_or_extended_from_seat_0() {
    let mut state = new_game(2);
    state.players[0].loans = vec![card(LoanKind::Loan10, false), card(LoanKind::Loan16, false)];
    state.players[1].loans = vec![card(LoanKind::Loan10, false)];
    state.players[0].cash = 30;
    let events = build_last_hotel(&mut state, 1);
    assert!(events.contains(&Event::LoanSettlementStarted));
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(0)]);
    refused(&state, 1, extend(LoanKind::Loan10), "not_your_turn");
    refused(&state, 0, Action::EndTurn, LOAN_SETTLEMENT_PENDING);
    let cash = state.players[0].cash;
    let left = state.loan_cards_left;
    accepted(&mut state, 0, repay(LoanKind::Loan10));
    assert_eq!(state.players[0].cash, cash - 12);
    assert_eq!(
        state.loan_cards_left,
        [left[0] + 1, left[1]],
        "the repaid card is returned"
    );
    accepted(&mut state, 0, extend(LoanKind::Loan16));
    assert_eq!(state.players[0].loans, vec![card(LoanKind::Loan16, true)]);
    assert_eq!(
        state.players[0].cash,
        cash - 12,
        "extending costs nothing now"
    );
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(1)]);
    refused(&state, 1, repay(LoanKind::Loan16), NO_SUCH_LOAN);
    let events = accepted(&mut state, 1, extend(LoanKind::Loan10));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::PhaseStarted { phase: 2, .. })));
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(0)]);
}

#[test]
fn ty_after_1_an_extended_card_must_be_repaid_after_the_next_payday() {
    let mut state = new_game(2);
    state.phase = 2;
    state.players[0].loans = vec![card(LoanKind::Loan16, true)];
    state.players[0].cash = 40;
    let events = build_last_hotel(&mut state, 1);
    assert!(events.contains(&Event::LoanRepaid {
        seat: Seat(0),
        loan: LoanKind::Loan16,
        extended: true,
        amount: 30
    }));
    assert!(state.players[0].loans.is_empty());
    assert_eq!(state.phase, 3);
}

#[test]
fn ty_after_2_l5_a_due_amount_is_paid_even_into_negative_cash() {
    let mut state = new_game(2);
    state.phase = 2;
    state.players[0].loans = vec![card(LoanKind::Loan10, true)];
    state.players[0].cash = 5;
    let events = build_last_hotel(&mut state, 1);
    let income = match events
        .iter()
        .find(|e| matches!(e, Event::PaydayHeld { .. }))
    {
        Some(Event::PaydayHeld { incomes, .. }) => incomes[0].total,
        _ => unreachable!(),
    };
    assert_eq!(state.players[0].cash, 5 + income - 16);
}

/// L3 (amended): a voluntary repayment needs the cash on hand; a player who cannot pay must
/// extend. Only a repayment that is due may take cash below zero (see the L5 tests).
#[test]
fn l3_a_voluntary_repayment_needs_the_cash_on_hand_and_who_cannot_pay_must_extend() {
    let mut state = new_game(3);
    state.players[0].loans = vec![card(LoanKind::Loan16, false)];
    state.players[1].loans = vec![card(LoanKind::Loan10, false)];
    build_last_hotel(&mut state, 2);
    assert_eq!(Tycoon::active_seats(&state), vec![Seat(0)]);
    // One short of the 20 due: repaying is refused and not offered; extending is the way.
    state.players[0].cash = 19;
    refused(&state, 0, repay(LoanKind::Loan16), INSUFFICIENT_CASH);
    assert_eq!(
        Tycoon::legal_actions(&state, Seat(0)),
        vec![extend(LoanKind::Loan16)]
    );
    accepted(&mut state, 0, extend(LoanKind::Loan16));
    // Exactly the 12 due: repaying is allowed and leaves nothing.
    state.players[1].cash = 12;
    accepted(&mut state, 1, repay(LoanKind::Loan10));
    assert_eq!(state.players[1].cash, 0);
}

#[test]
fn ty_after_3_the_money_check_is_cash_minus_the_loans_showing() {
    let mut state = new_game(2);
    state.players[0].loans = vec![card(LoanKind::Loan10, false), card(LoanKind::Loan16, true)];
    assert_eq!(state.net_worth(Seat(0)), 15 - 12 - 30);
}

#[test]
fn ty_after_5_planes_tickets_and_decks_stay_as_they_are_into_the_next_phase() {
    let mut state = new_game(2);
    give_ticket(&mut state, 0, "S01");
    let decks = state.decks.clone();
    build_last_hotel(&mut state, 1);
    assert_eq!(state.players[0].tickets, vec![ticket("S01")]);
    assert_eq!(state.decks, decks);
}

#[test]
fn ty_comp_12_ty_end_1_ty_end_2_p5_payday_3_ends_the_game_and_repays_every_card_at_the_amount_showing(
) {
    let mut state = new_game(2);
    state.phase = 3;
    state.players[0].loans = vec![card(LoanKind::Loan10, false), card(LoanKind::Loan16, true)];
    state.players[1].loans = vec![card(LoanKind::Loan16, false)];
    let events = build_last_hotel(&mut state, 1);
    let repaid: Vec<i32> = events
        .iter()
        .filter_map(|e| match e {
            Event::LoanRepaid { amount, .. } => Some(*amount),
            _ => None,
        })
        .collect();
    assert_eq!(repaid, vec![12, 30, 20]);
    // The repayments come out of each player's cash after payday 3's income; no card is left.
    let incomes = events
        .iter()
        .find_map(|e| match e {
            Event::PaydayHeld { incomes, .. } => Some(incomes.clone()),
            _ => None,
        })
        .expect("payday 3");
    assert_eq!(state.players[0].cash, 15 + incomes[0].total - 12 - 30);
    assert_eq!(state.players[1].cash, 15 - 2 + incomes[1].total - 20);
    assert!(state.players.iter().all(|p| p.loans.is_empty()));
    assert_eq!(state.stage, Stage::Finished);
    assert!(Tycoon::legal_actions(&state, Seat(0)).is_empty());
    assert!(Tycoon::active_seats(&state).is_empty());
}

/// TY-END-3: the most money wins; hotels, factories and tickets are worth nothing.
#[test]
fn ty_end_3_the_most_money_wins_and_possessions_count_for_nothing() {
    let mut state = new_game(3);
    state.phase = 3;
    state.players[0].cash = 50;
    state.players[1].cash = 30;
    for id in ["S01", "S02", "C01", "C02"] {
        give_ticket(&mut state, 1, id);
    }
    let events = build_last_hotel(&mut state, 2);
    let income = events
        .iter()
        .find_map(|e| match e {
            Event::PaydayHeld { incomes, .. } => Some(incomes[2].total),
            _ => None,
        })
        .expect("payday 3");
    let outcome = Tycoon::outcome(&state).expect("the game is over");
    // Seat 2 paid 2 for his hotel in Cairo (field 1) and got its payout; his hotel, like seat
    // 1's tickets, adds nothing more.
    assert_eq!(outcome.scores, vec![50, 30, 15 - 2 + i64::from(income)]);
    assert_eq!(outcome.winners, vec![Seat(0)]);
}

/// TY-END-3, P5: equal most money is a shared win; a lower score is not.
#[test]
fn ty_end_3_equal_cash_is_a_shared_win() {
    let mut state = new_game(3);
    state.phase = 3;
    state.loan_cards_left = [0, 0];
    state.players[0].cash = 20;
    state.players[1].cash = 20;
    state.players[2].cash = 19;
    accepted(&mut state, 0, Action::Pass);
    accepted(&mut state, 1, Action::Pass);
    accepted(&mut state, 2, Action::Pass);
    let outcome = Tycoon::outcome(&state).expect("stalemate in phase 3 ends the game");
    assert_eq!(outcome.scores, vec![20, 20, 19]);
    assert_eq!(outcome.winners, vec![Seat(0), Seat(1)]);
}

#[test]
fn l4_there_is_no_early_repayment_during_play() {
    let mut state = new_game(2);
    state.players[0].loans = vec![card(LoanKind::Loan10, false)];
    refused(&state, 0, repay(LoanKind::Loan10), NOT_LOAN_SETTLEMENT);
}

#[test]
fn p3_between_phases_payday_then_loans_then_money_check_and_new_hotels_then_seat_0() {
    let mut state = new_game(2);
    state.players[0].loans = vec![card(LoanKind::Loan10, true), card(LoanKind::Loan16, false)];
    state.players[0].cash = 50;
    let mut events = build_last_hotel(&mut state, 1);
    events.extend(accepted(&mut state, 0, repay(LoanKind::Loan16)));
    let kinds: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::PaydayHeld { .. } => Some("payday"),
            Event::LoanRepaid { .. } => Some("repaid"),
            Event::LoanSettlementStarted => Some("settlement"),
            Event::PhaseStarted { .. } => Some("phase"),
            Event::TurnStarted { seat: Seat(0) } => Some("seat 0"),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            "payday",
            "repaid",
            "settlement",
            "repaid",
            "phase",
            "seat 0"
        ]
    );
}
