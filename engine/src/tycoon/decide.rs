//! Deciding an action: every check, then the events it causes, chance included.
//!
//! Actions inside a turn produce their events directly. An action that ends a turn also runs
//! the table's bookkeeping (display refill, phase end, payday, loans, next phase); those
//! follow-up events are computed on a scratch copy of the state that folds each event as it is
//! emitted, so each step sees exactly the state the log will produce.

use super::action::{Action, LoanDecision};
use super::config::Config;
use super::data::{board, Deck, LoanKind, Ticket};
use super::errors::*;
use super::event::Event;
use super::payday;
use super::rules;
use super::state::{Stage, State, Turn};
use crate::chance::{shuffle, Chance};
use crate::{Outcome, RuleError, Seat};

/// The setup events: the table (TY-SETUP-1), both decks shuffled and their displays turned up
/// (TY-SETUP-3), seat 0's first turn (TY-SETUP-5).
pub fn setup(
    config: &Config,
    seats: usize,
    chance: &mut dyn Chance,
) -> Result<Vec<Event>, RuleError> {
    let mut events = vec![Event::GameStarted {
        players: seats as u8,
        config: config.clone(),
    }];
    for deck in Deck::ALL {
        let mut order: Vec<Ticket> = board().deck(deck).collect();
        shuffle(chance, &mut order);
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

pub fn decide(
    state: &State,
    seat: Seat,
    action: &Action,
    chance: &mut dyn Chance,
) -> Result<Vec<Event>, RuleError> {
    match &state.stage {
        Stage::Setup | Stage::Finished => Err(RuleError::game_over()),
        Stage::LoanSettlement => settle(state, seat, action),
        Stage::Turn(turn) if turn.seat != seat => Err(RuleError::not_your_turn(seat)),
        Stage::Turn(turn) => play(state, turn, action, chance),
    }
}

fn play(
    state: &State,
    turn: &Turn,
    action: &Action,
    chance: &mut dyn Chance,
) -> Result<Vec<Event>, RuleError> {
    let seat = turn.seat;
    match *action {
        Action::BuyTicket { ticket } => {
            let price = rules::check_purchase(state, turn, ticket)?;
            Ok(vec![Event::TicketBought {
                seat,
                ticket,
                price,
            }])
        }
        Action::Fly { ticket, to } => {
            rules::check_flight(state, turn, ticket, to)?;
            let from = match state.player(seat).plane {
                super::state::Plane::Home => None,
                super::state::Plane::City { city, .. } => Some(city),
            };
            let field = state.free_landing_field(to, seat);
            Ok(vec![Event::Flew {
                seat,
                ticket,
                from,
                to,
                field,
            }])
        }
        Action::BuildHotel => {
            let (city, space, cost) = rules::check_hotel(state, turn)?;
            let mut events = vec![Event::HotelBuilt {
                seat,
                city,
                space,
                cost,
            }];
            events.extend(red_space_closure(state, city, space));
            let last_hotel = state.player(seat).hotels_in_supply == 1;
            if last_hotel && state.phase_end_triggered_by.is_none() {
                events.push(Event::PhaseEndTriggered { seat });
            }
            Ok(events)
        }
        Action::RenovateHotel => {
            let (city, space) = rules::check_renovation(state, turn)?;
            let mut events = vec![Event::HotelRenovated { seat, city, space }];
            events.extend(red_space_closure(state, city, space));
            Ok(events)
        }
        Action::BuildFactory => {
            let (city, field, cost) = rules::check_factory(state, turn)?;
            Ok(vec![Event::FactoryBuilt {
                seat,
                city,
                field,
                cost,
            }])
        }
        Action::TakeLoan { loan } => {
            rules::check_loan_turn(state, turn)?;
            if !rules::loan_card_available(state, loan) {
                return Err(RuleError::new(
                    NO_LOAN_CARDS,
                    "L2",
                    "no loan card of this kind is left in the bank",
                ));
            }
            let amount = loan.terms().amount;
            Ok(end_turn(
                state,
                Event::LoanTaken { seat, loan, amount },
                chance,
            ))
        }
        Action::Pass => {
            rules::check_loan_turn(state, turn)?;
            if LoanKind::ALL
                .iter()
                .any(|&l| rules::loan_card_available(state, l))
            {
                return Err(RuleError::new(
                    LOAN_CARDS_REMAIN,
                    "L2",
                    "passing replaces the loan action only when no loan card is left",
                ));
            }
            Ok(end_turn(state, Event::Passed { seat }, chance))
        }
        Action::EndTurn => {
            if !turn.main_action_done {
                return Err(RuleError::new(
                    MAIN_ACTION_REQUIRED,
                    "TY-TURN-1",
                    "a turn ends only after its main action: build, renovate, build a factory or take a loan",
                ));
            }
            Ok(end_turn(state, Event::TurnEnded { seat }, chance))
        }
        Action::SettleLoan { .. } => Err(RuleError::new(
            NOT_LOAN_SETTLEMENT,
            "TY-AFTER-1",
            "loans are settled only after payday 1 or 2",
        )),
    }
}

/// Building onto the k-th red space closes the hotel on space k−1 (TY-RED-1, B3).
fn red_space_closure(state: &State, city: super::data::City, space: u8) -> Option<Event> {
    let closes = board().red_rank(space)? as u8;
    let owner = state.city(city).track[usize::from(closes)]?;
    Some(Event::HotelClosed {
        city,
        space: closes,
        owner,
    })
}

fn settle(state: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, RuleError> {
    let Action::SettleLoan { loan, decision } = *action else {
        return Err(RuleError::new(
            LOAN_SETTLEMENT_PENDING,
            "TY-AFTER-1",
            "after the payday every loan card must be repaid or extended before play goes on",
        ));
    };
    if state.loan_settlement_seat() != Some(seat) {
        return Err(RuleError::not_your_turn(seat));
    }
    let player = state.player(seat);
    if !player.loans.iter().any(|c| c.loan == loan && !c.extended) {
        return Err(RuleError::new(
            NO_SUCH_LOAN,
            "TY-AFTER-1",
            "the player holds no unextended card of this kind",
        ));
    }
    let event = match decision {
        LoanDecision::Repay => {
            let amount = loan.terms().repay;
            if player.cash < amount {
                return Err(insufficient_cash(
                    "TY-AFTER-1",
                    "repaying this card",
                    amount,
                    player.cash,
                ));
            }
            Event::LoanRepaid {
                seat,
                loan,
                extended: false,
                amount,
            }
        }
        LoanDecision::Extend => Event::LoanExtended { seat, loan },
    };
    let mut scratch = Scratch::new(state);
    scratch.emit(event);
    if scratch.state.loan_settlement_seat().is_none() {
        scratch.start_next_phase();
    }
    Ok(scratch.events)
}

fn end_turn(state: &State, last: Event, chance: &mut dyn Chance) -> Vec<Event> {
    let mut scratch = Scratch::new(state);
    let seat = match last {
        Event::LoanTaken { seat, .. } | Event::Passed { seat } | Event::TurnEnded { seat } => seat,
        _ => unreachable!("end_turn is called with a turn-ending event"),
    };
    let explicit_end = matches!(last, Event::TurnEnded { .. });
    scratch.emit(last);
    if !explicit_end {
        scratch.emit(Event::TurnEnded { seat });
    }
    scratch.refill_display(chance);
    let s = &scratch.state;
    let n = s.players.len();
    let round_complete = s.phase_end_triggered_by.is_some() && seat.index() == n - 1;
    let stalemate = usize::from(s.consecutive_passes) >= n;
    if round_complete || stalemate {
        scratch.payday();
    } else {
        scratch.emit(Event::TurnStarted { seat: seat.next(n) });
    }
    scratch.events
}

type Scratch = crate::scratch::Scratch<super::Tycoon>;

impl Scratch {
    /// TY-TIX-4: refill to 2 + 6; an empty draw pile is replaced by its shuffled discards.
    fn refill_display(&mut self, chance: &mut dyn Chance) {
        for deck in Deck::ALL {
            let want = board().display_size(deck);
            loop {
                let pile = self.state.deck(deck);
                let missing = want.saturating_sub(pile.display.len());
                if missing == 0 {
                    break;
                }
                if pile.draw.is_empty() {
                    if pile.discard.is_empty() {
                        break; // T7: both empty, the display stays short.
                    }
                    let mut order = pile.discard.clone();
                    shuffle(chance, &mut order);
                    let cards = order.len() as u8;
                    self.emit(Event::DeckShuffled {
                        deck,
                        cards,
                        order: Some(order),
                    });
                    continue;
                }
                let take = missing.min(pile.draw.len());
                let tickets: Vec<_> = pile.draw.iter().rev().take(take).copied().collect();
                self.emit(Event::TicketsRevealed { deck, tickets });
            }
        }
    }

    /// §6 and what follows it: incomes, then loans, then the next phase or the end.
    fn payday(&mut self) {
        let incomes = payday::incomes(&self.state);
        let phase = self.state.phase;
        self.emit(Event::PaydayHeld { phase, incomes });
        let last_phase = phase >= board().constants.phases;
        for seat in self.state.seats().collect::<Vec<_>>() {
            for card in self.state.player(seat).loans.clone() {
                // TY-END-2: after payday 3 every card; before, only the extended ones (TY-AFTER-1).
                if last_phase || card.extended {
                    let amount = card.amount_due();
                    self.emit(Event::LoanRepaid {
                        seat,
                        loan: card.loan,
                        extended: card.extended,
                        amount,
                    });
                }
            }
        }
        if last_phase {
            let outcome = Outcome::highest_wins(
                self.state
                    .players
                    .iter()
                    .map(|p| i64::from(p.cash))
                    .collect(),
            );
            self.emit(Event::GameEnded { outcome });
        } else if self.state.loan_settlement_seat().is_some() {
            self.emit(Event::LoanSettlementStarted);
        } else {
            self.start_next_phase();
        }
    }

    /// TY-AFTER-3..5: the money check, 6 new hotels each, seat 0 starts.
    fn start_next_phase(&mut self) {
        let net_worths = self
            .state
            .seats()
            .map(|s| self.state.net_worth(s))
            .collect();
        self.emit(Event::PhaseStarted {
            phase: self.state.phase + 1,
            hotels_per_player: board().constants.hotels_per_phase,
            net_worths,
        });
        self.emit(Event::TurnStarted { seat: Seat(0) });
    }
}
