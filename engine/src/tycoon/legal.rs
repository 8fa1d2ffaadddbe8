//! Who may act and what they may do: the seats the game waits for and every action a seat may
//! take now. Each action is listed when the same check `decide` runs ([`super::rules`]) lets
//! it through, so the list and `decide` cannot drift apart.

use super::action::{Action, LoanDecision};
use super::data::{board, Deck, LoanKind};
use super::rules;
use super::state::{Stage, State, Turn};
use crate::Seat;

/// The seat whose turn it is, or during loan settlement the seat that decides on a card now
/// (TY-AFTER-1).
pub fn active_seats(state: &State) -> Vec<Seat> {
    match &state.stage {
        Stage::Turn(turn) => vec![turn.seat],
        Stage::LoanSettlement => state.loan_settlement_seat().into_iter().collect(),
        Stage::Setup | Stage::Finished => Vec::new(),
    }
}

/// Every action `seat` may take now: nothing outside its turn or its loan decision.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    let mut actions = Vec::new();
    match &state.stage {
        Stage::Setup | Stage::Finished => {}
        Stage::LoanSettlement => {
            if state.loan_settlement_seat() == Some(seat) {
                settlements(state, seat, &mut actions);
            }
        }
        Stage::Turn(turn) if turn.seat == seat => turn_actions(state, turn, &mut actions),
        Stage::Turn(_) => {}
    }
    actions
}

/// TY-AFTER-1: repay an unextended loan card the seat can afford, or extend it.
fn settlements(state: &State, seat: Seat, actions: &mut Vec<Action>) {
    let player = state.player(seat);
    for loan in LoanKind::ALL {
        if player.loans.iter().any(|c| c.loan == loan && !c.extended) {
            if player.cash >= loan.terms().repay {
                actions.push(Action::SettleLoan {
                    loan,
                    decision: LoanDecision::Repay,
                });
            }
            actions.push(Action::SettleLoan {
                loan,
                decision: LoanDecision::Extend,
            });
        }
    }
}

/// Buying tickets any time in the turn; then ending the turn once the main action is taken, or
/// else the main action: flying, building, or a loan turn (a loan card, or a pass when none is
/// left, L2).
fn turn_actions(state: &State, turn: &Turn, actions: &mut Vec<Action>) {
    let player = state.player(turn.seat);
    for deck in Deck::ALL {
        for &ticket in &state.deck(deck).display {
            if board().ticket(ticket).price <= player.cash {
                actions.push(Action::BuyTicket { ticket });
            }
        }
    }
    if turn.main_action_done {
        actions.push(Action::EndTurn);
        return;
    }
    for &ticket in &player.tickets {
        let reachable = rules::destinations(state.config.step_mode, ticket, player.plane);
        for to in board().cities().filter(|to| reachable & (1 << to.0) != 0) {
            actions.push(Action::Fly { ticket, to });
        }
    }
    if rules::check_hotel(state, turn).is_ok() {
        actions.push(Action::BuildHotel);
    }
    if rules::check_renovation(state, turn).is_ok() {
        actions.push(Action::RenovateHotel);
    }
    if rules::check_factory(state, turn).is_ok() {
        actions.push(Action::BuildFactory);
    }
    if rules::check_loan_turn(state, turn).is_ok() {
        let mut any_card = false;
        for loan in LoanKind::ALL {
            if rules::loan_card_available(state, loan) {
                actions.push(Action::TakeLoan { loan });
                any_card = true;
            }
        }
        if !any_card {
            actions.push(Action::Pass);
        }
    }
}
