//! Folding one event into the state: no checks, no choices, no chance. `decide` has already
//! validated everything, so each arm only records what the event says.

use super::data::{board, Deck};
use super::event::Event;
use super::state::{LoanCard, Plane, Player, Stage, State, Turn};

pub fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::GameStarted { players, config } => {
            let c = &board().constants;
            state.config = config.clone();
            state.phase = 1;
            state.players = (0..*players)
                .map(|_| Player {
                    cash: c.start_money,
                    hotels_in_supply: c.hotels_per_phase,
                    hotels_in_reserve: c.hotels_per_colour - c.hotels_per_phase,
                    factories_left: c.factories_per_player,
                    plane: Plane::Home,
                    tickets: Vec::new(),
                    loans: Vec::new(),
                })
                .collect();
            state.loan_cards_left = board().loans.each_ref().map(|l| l.cards);
        }
        Event::DeckShuffled { deck, order, .. } => {
            let pile = state.deck_mut(*deck);
            pile.discard.clear();
            pile.draw = order.clone().unwrap_or_default();
        }
        Event::TicketsRevealed { deck, tickets } => {
            let pile = state.deck_mut(*deck);
            for ticket in tickets {
                if let Some(i) = pile.draw.iter().rposition(|t| t == ticket) {
                    pile.draw.remove(i);
                }
                pile.display.push(*ticket);
            }
        }
        Event::TurnStarted { seat } => {
            state.stage = Stage::Turn(Turn {
                seat: *seat,
                flown: false,
                purchased: false,
                main_action_done: false,
            });
        }
        Event::TicketBought {
            seat,
            ticket,
            price,
        } => {
            let deck = board().ticket(*ticket).deck;
            state.deck_mut(deck).display.retain(|t| t != ticket);
            let player = state.player_mut(*seat);
            player.cash -= price;
            player.tickets.push(*ticket);
            if let Stage::Turn(turn) = &mut state.stage {
                turn.purchased = true;
            }
        }
        Event::Flew {
            seat,
            ticket,
            to,
            field,
            ..
        } => {
            let player = state.player_mut(*seat);
            if let Some(i) = player.tickets.iter().position(|t| t == ticket) {
                player.tickets.remove(i);
            }
            player.plane = Plane::City {
                city: *to,
                field: *field,
            };
            let deck: Deck = board().ticket(*ticket).deck;
            state.deck_mut(deck).discard.push(*ticket);
            if let Stage::Turn(turn) = &mut state.stage {
                turn.flown = true;
            }
        }
        Event::HotelBuilt {
            seat,
            city,
            space,
            cost,
        } => {
            let player = state.player_mut(*seat);
            player.cash -= cost;
            player.hotels_in_supply -= 1;
            let first_built = &mut state.city_mut(*city).first_built;
            if !first_built.contains(seat) {
                first_built.push(*seat);
            }
            place_hotel(state, *seat, *city, *space);
        }
        Event::HotelClosed { city, space, owner } => {
            let c = state.city_mut(*city);
            c.track[usize::from(*space)] = None;
            c.closed.push(*owner);
        }
        Event::HotelRenovated { seat, city, space } => {
            let c = state.city_mut(*city);
            if let Some(i) = c.closed.iter().position(|s| s == seat) {
                c.closed.remove(i);
            }
            place_hotel(state, *seat, *city, *space);
        }
        Event::FactoryBuilt {
            seat, city, cost, ..
        } => {
            let player = state.player_mut(*seat);
            player.cash -= cost;
            player.factories_left -= 1;
            state.city_mut(*city).factories.push(*seat);
            finish_main_action(state);
        }
        Event::LoanTaken { seat, loan, amount } => {
            let player = state.player_mut(*seat);
            player.cash += amount;
            player.plane = Plane::Home;
            player.loans.push(LoanCard {
                loan: *loan,
                extended: false,
            });
            let left = &mut state.loan_cards_left[loan.index()];
            *left = left.saturating_sub(1);
            state.consecutive_passes = 0;
        }
        Event::Passed { seat } => {
            state.player_mut(*seat).plane = Plane::Home;
            state.consecutive_passes += 1;
        }
        Event::PhaseEndTriggered { seat } => {
            state.phase_end_triggered_by = Some(*seat);
        }
        Event::TurnEnded { .. } => {}
        Event::PaydayHeld { incomes, .. } => {
            for income in incomes {
                state.player_mut(income.seat).cash += income.total;
            }
            state.last_payday = Some(incomes.clone());
        }
        Event::LoanRepaid {
            seat,
            loan,
            extended,
            amount,
        } => {
            let player = state.player_mut(*seat);
            player.cash -= amount;
            let card = LoanCard {
                loan: *loan,
                extended: *extended,
            };
            if let Some(i) = player.loans.iter().position(|c| *c == card) {
                player.loans.remove(i);
            }
            state.loan_cards_left[loan.index()] += 1;
        }
        Event::LoanExtended { seat, loan } => {
            let player = state.player_mut(*seat);
            if let Some(card) = player
                .loans
                .iter_mut()
                .find(|c| c.loan == *loan && !c.extended)
            {
                card.extended = true;
            }
        }
        Event::LoanSettlementStarted => state.stage = Stage::LoanSettlement,
        Event::PhaseStarted {
            phase,
            hotels_per_player,
            ..
        } => {
            state.phase = *phase;
            for player in &mut state.players {
                let added = (*hotels_per_player).min(player.hotels_in_reserve);
                player.hotels_in_reserve -= added;
                player.hotels_in_supply += added;
            }
            state.phase_end_triggered_by = None;
            state.consecutive_passes = 0;
        }
        Event::GameEnded { outcome } => {
            state.stage = Stage::Finished;
            state.outcome = Some(outcome.clone());
        }
    }
}

fn place_hotel(state: &mut State, seat: crate::Seat, city: super::data::City, space: u8) {
    let c = state.city_mut(city);
    c.track[usize::from(space)] = Some(seat);
    c.chain_length = c.chain_length.max(space + 1);
    finish_main_action(state);
}

fn finish_main_action(state: &mut State) {
    state.consecutive_passes = 0;
    if let Stage::Turn(turn) = &mut state.stage {
        turn.main_action_done = true;
    }
}
