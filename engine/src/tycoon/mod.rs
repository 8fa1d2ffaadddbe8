//! Tycoon (Wolfgang Kramer and Horst-Rainer Rösner, Jumbo 1998), 2–4 players, after
//! `engine/rules/tycoon.md`. Rule IDs in comments and error messages refer to that spec.

pub mod action;
pub mod config;
pub mod data;
mod decide;
mod determinize;
pub mod errors;
pub mod event;
mod evolve;
mod options;
pub mod payday;
mod rules;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use action::{Action, LoanDecision};
pub use config::{Config, StepMode, TieBreak};
pub use data::{board, City, Deck, LoanKind, Ticket};
pub use event::Event;
pub use rules::destinations;
pub use state::State;
pub use view::View;

use crate::{Game, Outcome, RuleError, Seat, Viewer};
use rand::seq::SliceRandom;
use rand::RngCore;
use state::Stage;
use std::ops::RangeInclusive;

/// The Tycoon rules.
pub struct Tycoon;

impl Game for Tycoon {
    type Config = Config;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    const NAME: &'static str = "tycoon";
    const TITLE: &'static str = "Tycoon (Kramer & Rösner)";
    /// 2: majority ties follow the seeds' wording by default (`tie_break = first_built`).
    const RULES_VERSION: u32 = 2;
    const ERROR_CODES: &'static [&'static str] = errors::ALL;
    const OPTIONS: &'static [crate::options::OptionText] = options::OPTIONS;

    /// 2 to 4 (TY-COMP-1).
    fn seat_range() -> RangeInclusive<usize> {
        let c = &board().constants;
        c.players_min..=c.players_max
    }

    /// Options left out take the defaults of `rules_version` (see [`config`]).
    fn read_config(json: &serde_json::Value, rules_version: u32) -> Result<Config, String> {
        Config::read(json, rules_version).map_err(|e| e.to_string())
    }

    fn setup(
        config: &Config,
        seats: usize,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Event>, RuleError> {
        let mut events = vec![Event::GameStarted {
            players: seats as u8,
            config: config.clone(),
        }];
        for deck in Deck::ALL {
            let mut order: Vec<Ticket> = board().deck(deck).collect();
            order.shuffle(rng);
            let shown: Vec<Ticket> = order
                .iter()
                .rev()
                .take(board().display_size(deck))
                .copied()
                .collect();
            events.push(Event::DeckShuffled {
                deck,
                cards: order.len() as u8,
                order: Some(order),
            });
            events.push(Event::TicketsRevealed {
                deck,
                tickets: shown,
            });
        }
        events.push(Event::TurnStarted { seat: Seat(0) });
        Ok(events)
    }

    fn empty_state() -> State {
        State::empty()
    }

    fn evolve(state: &mut State, event: &Event) {
        evolve::evolve(state, event);
    }

    fn decide(
        state: &State,
        seat: Seat,
        action: &Action,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Event>, RuleError> {
        decide::decide(state, seat, action, rng)
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        let mut actions = Vec::new();
        match &state.stage {
            Stage::Setup | Stage::Finished => {}
            Stage::LoanSettlement => {
                if state.loan_settlement_seat() == Some(seat) {
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
            }
            Stage::Turn(turn) if turn.seat == seat => turn_actions(state, turn, &mut actions),
            Stage::Turn(_) => {}
        }
        actions
    }

    fn active_seats(state: &State) -> Vec<Seat> {
        match &state.stage {
            Stage::Turn(turn) => vec![turn.seat],
            Stage::LoanSettlement => state.loan_settlement_seat().into_iter().collect(),
            Stage::Setup | Stage::Finished => Vec::new(),
        }
    }

    fn seat_count(state: &State) -> usize {
        state.players.len()
    }

    fn view(state: &State, _viewer: Viewer) -> View {
        view::view(state)
    }

    fn redact(event: &Event, _viewer: Viewer) -> Option<Event> {
        match event {
            Event::DeckShuffled { deck, cards, .. } => Some(Event::DeckShuffled {
                deck: *deck,
                cards: *cards,
                order: None,
            }),
            other => Some(other.clone()),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn determinize(state: &State, seat: Seat, rng: &mut dyn RngCore) -> State {
        determinize::determinize(state, seat, rng)
    }
}

fn turn_actions(state: &State, turn: &state::Turn, actions: &mut Vec<Action>) {
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
