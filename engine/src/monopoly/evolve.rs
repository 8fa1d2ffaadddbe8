//! Folding one event into the state: no checks, no choices, no chance. `decide` has already
//! validated everything, so each arm only records what the event says.

use super::data::{board, Effect};
use super::event::Event;
use super::state::{
    houses_at, Auction, BuildRequest, Debt, DebtLine, Deed, Lot, PendingRent, Player, Shortage,
    State, Step, Turn, HOTEL,
};
use std::sync::Arc;

pub fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::GameStarted { players, config } => {
            let c = &board().constants;
            state.config = config.clone();
            state.players = (0..*players)
                .map(|_| Player {
                    cash: config.start_money,
                    position: 0,
                    in_jail: false,
                    jail_attempts: 0,
                    jail_cards: Vec::new(),
                    bankrupt: false,
                })
                .collect();
            state.deeds = vec![Deed::default(); board().deeds.len()];
            state.bank_houses = c.houses;
            state.bank_hotels = c.hotels;
        }
        Event::DeckShuffled { deck, order, .. } => {
            state.decks[deck.index()] = order.clone().unwrap_or_default();
            state.undrawn[deck.index()] = state.decks[deck.index()].len() as u8;
        }
        Event::StartingRolled { .. } => {}
        Event::TurnStarted { seat } => {
            if state.turn.is_none() {
                state.first_seat = *seat;
            }
            state.turn = Some(Turn {
                seat: *seat,
                doubles: 0,
                rolled: false,
                again: false,
                step: Step::Roll,
            });
        }
        Event::DiceRolled { seat, dice } => {
            let doubles = dice[0] == dice[1];
            let in_jail = state.player(*seat).in_jail;
            if let Some(turn) = &mut state.turn {
                turn.rolled = true;
                turn.again = doubles && !in_jail;
                if doubles && !in_jail {
                    turn.doubles += 1;
                }
                turn.step = Step::Moving;
            }
        }
        Event::Moved { seat, to, .. } => state.player_mut(*seat).position = *to,
        Event::SalaryPaid { seat, amount } => state.player_mut(*seat).cash += amount,
        Event::SentToJail { seat } => {
            let p = state.player_mut(*seat);
            p.position = board().constants.jail_square;
            p.in_jail = true;
            p.jail_attempts = 0;
            if let Some(turn) = &mut state.turn {
                turn.again = false;
                turn.step = Step::Done;
            }
        }
        Event::JailAttemptFailed { seat, attempt } => {
            state.player_mut(*seat).jail_attempts = *attempt;
        }
        Event::LeftJail { seat, .. } => {
            let p = state.player_mut(*seat);
            p.in_jail = false;
            p.jail_attempts = 0;
        }
        Event::PurchaseOffered { square, .. } => set_step(state, Step::Buy { square: *square }),
        Event::PropertyBought {
            seat,
            square,
            price,
        } => {
            state.player_mut(*seat).cash -= price;
            if let Some(deed) = state.deed_mut(*square) {
                deed.owner = Some(*seat);
            }
            set_step(state, Step::Moving);
        }
        Event::PurchaseDeclined { .. } => set_step(state, Step::Moving),
        Event::RentOwed {
            rent,
            payer,
            owner,
            square,
            amount,
            ..
        } => {
            state.rents.push(PendingRent {
                rent: *rent,
                payer: *payer,
                owner: *owner,
                square: *square,
                amount: *amount,
            });
            state.next_rent = rent + 1;
        }
        Event::RentClaimed { rent } | Event::RentLapsed { rent } => {
            state.rents.retain(|r| r.rent != *rent);
        }
        Event::Paid {
            from, to, amount, ..
        } => {
            if let Some(from) = from {
                state.player_mut(*from).cash -= amount;
            }
            if let Some(to) = to {
                state.player_mut(*to).cash += amount;
            }
        }
        Event::DebtOpened {
            debtor,
            creditor,
            amount,
            reason,
            then_move,
        } => {
            let line = DebtLine {
                creditor: *creditor,
                amount: *amount,
                reason: *reason,
            };
            match state.debts.iter_mut().find(|d| d.debtor == *debtor) {
                Some(debt) => {
                    debt.lines.push(line);
                    debt.then_move = debt.then_move.or(*then_move);
                }
                None => state.debts.push(Debt {
                    debtor: *debtor,
                    lines: vec![line],
                    then_move: *then_move,
                }),
            }
        }
        Event::DebtPaid { debtor } => state.debts.retain(|d| d.debtor != *debtor),
        Event::CardDrawn { seat, deck, card } => {
            let pile = &mut state.decks[deck.index()];
            if let Some(i) = pile.iter().position(|c| c == card) {
                pile.remove(i);
            }
            let undrawn = &mut state.undrawn[deck.index()];
            *undrawn = undrawn.saturating_sub(1);
            if board().card(*card).effect == Effect::GetOutOfJailFree {
                state.player_mut(*seat).jail_cards.push(*card);
            } else {
                state.decks[deck.index()].push(*card);
            }
        }
        Event::CardChoiceOffered { amount, deck, .. } => set_step(
            state,
            Step::PayOrDraw {
                amount: *amount,
                deck: *deck,
            },
        ),
        Event::JailCardReturned { seat, card } => {
            state.player_mut(*seat).jail_cards.retain(|c| c != card);
            let deck = board().card(*card).deck;
            state.decks[deck.index()].push(*card);
        }
        Event::MoveFinished { roll_again, .. } => {
            set_step(state, if *roll_again { Step::Roll } else { Step::Done })
        }
        Event::TurnEnded { .. } => {}
        Event::RoundCompleted { rounds } => state.rounds_completed = *rounds,
        Event::BuildingBought {
            seat,
            square,
            level,
            price,
        } => {
            state.player_mut(*seat).cash -= price;
            if *level == HOTEL {
                state.bank_hotels -= 1;
                state.bank_houses += 4;
            } else {
                state.bank_houses -= 1;
            }
            if let Some(deed) = state.deed_mut(*square) {
                deed.level = *level;
            }
            if let Some(shortage) = &mut state.shortage {
                if let Some(r) = shortage
                    .requests
                    .iter_mut()
                    .find(|r| r.seat == *seat && usize::from(r.placed) < r.squares.len())
                {
                    r.placed += 1;
                }
            }
        }
        Event::BuildingsSold {
            seat,
            levels,
            amount,
        } => {
            state.player_mut(*seat).cash += amount;
            // A hotel broken down may take houses from the bank while others return some:
            // only the net change is applied (MO-SELL-4).
            let mut houses = i32::from(state.bank_houses);
            for change in levels {
                let Some(deed) = state.deed_mut(change.square) else {
                    continue;
                };
                let (old, new) = (deed.level, change.level);
                deed.level = new;
                if old == HOTEL && new != HOTEL {
                    state.bank_hotels += 1;
                }
                houses += i32::from(houses_at(old)) - i32::from(houses_at(new));
            }
            state.bank_houses = u8::try_from(houses).unwrap_or(0);
        }
        Event::Mortgaged {
            seat,
            square,
            amount,
        } => {
            state.player_mut(*seat).cash += amount;
            if let Some(deed) = state.deed_mut(*square) {
                deed.mortgaged = true;
            }
        }
        Event::MortgageLifted {
            seat,
            square,
            amount,
        } => {
            state.player_mut(*seat).cash -= amount;
            if let Some(deed) = state.deed_mut(*square) {
                deed.mortgaged = false;
            }
        }
        Event::AuctionStarted {
            lot,
            bidders,
            min_bid,
            resumes_turn,
        } => {
            if let Lot::Property { square } = lot {
                state.bank_sales.retain(|s| s != square);
            }
            state.auction = Some(Auction {
                lot: *lot,
                bidders: bidders.clone(),
                high: None,
                min_bid: *min_bid,
                resumes_turn: *resumes_turn,
            });
            if let (Some(shortage), Lot::Building { .. }) = (&mut state.shortage, lot) {
                shortage.units_left -= 1;
            }
        }
        Event::BidPlaced { seat, amount } => {
            if let Some(a) = &mut state.auction {
                a.high = Some(super::state::Bid {
                    seat: *seat,
                    amount: *amount,
                });
            }
        }
        Event::AuctionPassed { seat } => {
            if let Some(a) = &mut state.auction {
                a.bidders.retain(|s| s != seat);
            }
        }
        Event::AuctionWon { seat, amount, lot } => {
            if let Lot::Property { square } = lot {
                state.player_mut(*seat).cash -= amount;
                if let Some(deed) = state.deed_mut(*square) {
                    deed.owner = Some(*seat);
                    deed.mortgaged = false;
                }
            }
            state.auction = None;
        }
        Event::AuctionUnsold { .. } => state.auction = None,
        Event::BankSalesQueued { squares } => state.bank_sales.extend(squares),
        Event::ShortageOpened {
            building,
            stock,
            requester,
            squares,
            waiting,
        } => {
            state.shortage = Some(Shortage {
                building: *building,
                stock: *stock,
                requests: vec![BuildRequest {
                    seat: *requester,
                    squares: squares.clone(),
                    placed: 0,
                }],
                waiting: waiting.clone(),
                units_left: *stock,
            });
        }
        Event::DemandDeclared { seat, squares } => {
            if let Some(shortage) = &mut state.shortage {
                shortage.waiting.retain(|s| s != seat);
                if !squares.is_empty() {
                    shortage.requests.push(BuildRequest {
                        seat: *seat,
                        squares: squares.clone(),
                        placed: 0,
                    });
                }
            }
        }
        Event::ShortageEnded => state.shortage = None,
        Event::TradeOffered { offer } => {
            state.offers.push(Arc::new(offer.clone()));
            state.next_offer = offer.offer + 1;
        }
        Event::TradeRejected { offer }
        | Event::TradeWithdrawn { offer }
        | Event::TradeLapsed { offer, .. } => {
            state.offers.retain(|o| o.offer != *offer);
        }
        Event::TradeExecuted { offer } => {
            state.offers.retain(|o| o.offer != offer.offer);
            let (from, to) = (offer.from, offer.to);
            let net = offer.get.cash - offer.give.cash;
            state.player_mut(from).cash += net;
            state.player_mut(to).cash -= net;
            for &square in &offer.give.properties {
                if let Some(deed) = state.deed_mut(square) {
                    deed.owner = Some(to);
                }
            }
            for &square in &offer.get.properties {
                if let Some(deed) = state.deed_mut(square) {
                    deed.owner = Some(from);
                }
            }
            for card in &offer.give.cards {
                state.player_mut(from).jail_cards.retain(|c| c != card);
                state.player_mut(to).jail_cards.push(*card);
            }
            for card in &offer.get.cards {
                state.player_mut(to).jail_cards.retain(|c| c != card);
                state.player_mut(from).jail_cards.push(*card);
            }
        }
        Event::BankruptcyDeclared { .. } => {}
        Event::PropertyTransferred { square, to, .. } => {
            if let Some(deed) = state.deed_mut(*square) {
                deed.owner = *to;
                if to.is_none() {
                    deed.mortgaged = false;
                }
            }
        }
        Event::JailCardTransferred { card, from, to } => {
            state.player_mut(*from).jail_cards.retain(|c| c != card);
            state.player_mut(*to).jail_cards.push(*card);
        }
        Event::InheritanceOffered { creditor, squares } => {
            state.inheritance = Some(super::state::Inheritance {
                creditor: *creditor,
                squares: squares.clone(),
            });
        }
        Event::InheritanceSettled { .. } => state.inheritance = None,
        Event::PlayerBankrupt { seat } => {
            let p = state.player_mut(*seat);
            p.bankrupt = true;
            p.in_jail = false;
            state.debts.retain(|d| d.debtor != *seat);
            for debt in &mut state.debts {
                debt.lines.retain(|l| l.creditor != Some(*seat));
            }
            state.debts.retain(|d| !d.lines.is_empty());
            state.rents.retain(|r| r.payer != *seat && r.owner != *seat);
            state.offers.retain(|o| o.from != *seat && o.to != *seat);
        }
        Event::GameEnded { outcome, .. } => {
            state.outcome = Some(outcome.clone());
            state.turn = None;
        }
    }
}

fn set_step(state: &mut State, step: Step) {
    if let Some(turn) = &mut state.turn {
        turn.step = step;
    }
}
