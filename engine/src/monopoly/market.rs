//! Auctions (MO-AUC-*), the building shortage (MO-BUILD-8), debts and bankruptcy (§13) on a
//! scratch state.

use super::data::board;
use super::event::{EndReason, Event, SquareLevel};
use super::rules;
use super::state::PaymentReason;
use super::state::{Building, Lot, State};
use super::Scratch;
use crate::chance::Chance;
use crate::{Outcome, Seat};

impl Scratch {
    /// Opens the auction of a property nobody bought, or of the next square of a bankrupt's
    /// estate; every solvent player may bid (MO-AUC-2).
    pub fn start_property_auction(&mut self, square: u8, resumes_turn: bool) {
        let bidders = self.state.solvent().collect();
        self.emit(Event::AuctionStarted {
            lot: Lot::Property { square },
            bidders,
            min_bid: board().constants.auction_min_bid,
            resumes_turn,
        });
    }

    /// MO-AUC-5: the auction closes when everyone but the high bidder has passed.
    pub fn close_auction_if_done(&mut self) {
        let Some(auction) = self.state.auction.clone() else {
            return;
        };
        let done = match auction.high {
            Some(high) => auction.bidders == [high.seat],
            None => auction.bidders.is_empty(),
        };
        if !done {
            return;
        }
        match auction.high {
            Some(high) => {
                self.emit(Event::AuctionWon {
                    seat: high.seat,
                    amount: high.amount,
                    lot: auction.lot,
                });
                if let Lot::Building { building } = auction.lot {
                    self.place_won_unit(high.seat, building, high.amount);
                }
            }
            None => self.emit(Event::AuctionUnsold { lot: auction.lot }),
        }
        self.after_auction(auction.lot, auction.resumes_turn);
    }

    /// What follows an auction: the next unit of a shortage, the next square of an estate, or
    /// the rest of the lander's turn.
    fn after_auction(&mut self, lot: Lot, resumes_turn: bool) {
        if matches!(lot, Lot::Building { .. }) {
            self.next_unit_auction();
        } else if let Some(&square) = self.state.bank_sales.first() {
            self.start_property_auction(square, false);
        } else if resumes_turn {
            if let Some(seat) = self.state.turn_seat() {
                self.finish_move(seat, super::turn::Landed::Settled);
            }
        }
    }

    /// The won unit goes on the winner's next requested street, for the bid (MO-BUILD-8).
    fn place_won_unit(&mut self, seat: Seat, building: Building, price: i64) {
        let Some(shortage) = &self.state.shortage else {
            return;
        };
        let Some(request) = shortage
            .requests
            .iter()
            .find(|r| r.seat == seat && usize::from(r.placed) < r.squares.len())
        else {
            return;
        };
        let square = request.squares[usize::from(request.placed)];
        let level = self.state.deed(square).map_or(0, |d| d.level) + 1;
        debug_assert_eq!(rules::unit_kind(level - 1), building);
        self.emit(Event::BuildingBought {
            seat,
            square,
            level,
            price,
        });
    }

    /// MO-BUILD-8 step 3 or 4, once every other builder has declared.
    pub fn resolve_shortage(&mut self) {
        let Some(shortage) = self.state.shortage.clone() else {
            return;
        };
        let demand: usize = shortage.requests.iter().map(|r| r.squares.len()).sum();
        if demand <= usize::from(shortage.stock) {
            // Everyone gets what they asked for at list price, the requester first, then in
            // seat order from the requester's left.
            let requester = shortage.requests[0].seat;
            let n = self.state.players.len();
            let mut requests = shortage.requests.clone();
            requests.sort_by_key(|r| (r.seat.index() + n - requester.index()) % n);
            for r in requests {
                for &square in &r.squares {
                    let d = board().deed_at(square).expect("requests name streets");
                    let level = self.state.deeds[d].level + 1;
                    let price = board().deed(d).house_cost().unwrap_or(0);
                    self.emit(Event::BuildingBought {
                        seat: r.seat,
                        square,
                        level,
                        price,
                    });
                }
            }
            self.emit(Event::ShortageEnded);
        } else {
            self.next_unit_auction();
        }
    }

    /// The next unit under the hammer among those who still want one, or the end.
    fn next_unit_auction(&mut self) {
        let Some(shortage) = &self.state.shortage else {
            return;
        };
        let mut bidders: Vec<Seat> = shortage
            .requests
            .iter()
            .filter(|r| usize::from(r.placed) < r.squares.len())
            .map(|r| r.seat)
            .collect();
        bidders.sort();
        if shortage.units_left == 0 || bidders.is_empty() {
            self.emit(Event::ShortageEnded);
            return;
        }
        self.emit(Event::AuctionStarted {
            lot: Lot::Building {
                building: shortage.building,
            },
            bidders,
            min_bid: self.state.config.building_auction_min_bid,
            resumes_turn: false,
        });
    }

    /// Pays every line of `seat`'s debt, then the move a jail fine held up (MO-JAIL-4).
    pub fn pay_debt(&mut self, seat: Seat, chance: &mut dyn Chance) {
        let Some(debt) = self.state.debt_of(seat).cloned() else {
            return;
        };
        for line in &debt.lines {
            self.emit(Event::Paid {
                from: Some(seat),
                to: line.creditor,
                amount: line.amount,
                reason: line.reason,
            });
        }
        self.emit(Event::DebtPaid { debtor: seat });
        if let Some(dice) = debt.then_move {
            self.emit(Event::LeftJail {
                seat,
                how: super::event::JailExit::ThirdAttempt,
            });
            self.move_out_of_jail(seat, dice, chance);
        }
    }

    /// MO-DEBT-2, MO-BANKR-1..5: liquidation, the cash to the creditors, the estate to the one
    /// creditor player or to the bank's auctions, and the game goes on without `seat`.
    pub fn go_bankrupt(&mut self, seat: Seat) {
        let b = board();
        self.emit(Event::BankruptcyDeclared { seat });
        // MO-BANKR-1: every building to the bank at half price, every property mortgaged.
        let mut levels = Vec::new();
        let mut proceeds = 0;
        for square in self.state.owned(seat).collect::<Vec<_>>() {
            let d = b.deed_at(square).expect("owned squares have deeds");
            let level = self.state.deeds[d].level;
            if level > 0 {
                levels.push(SquareLevel { square, level: 0 });
                proceeds += rules::half(b.deed(d).house_cost().unwrap_or(0)) * i64::from(level);
            }
        }
        if !levels.is_empty() {
            self.emit(Event::BuildingsSold {
                seat,
                levels,
                amount: proceeds,
            });
        }
        for square in self.state.owned(seat).collect::<Vec<_>>() {
            let d = b.deed_at(square).expect("owned squares have deeds");
            if !self.state.deeds[d].mortgaged {
                self.emit(Event::Mortgaged {
                    seat,
                    square,
                    amount: b.deed(d).mortgage,
                });
            }
        }
        // MO-BANKR-5: rents lapse both ways, offers are withdrawn.
        let lapsed: Vec<u32> = self
            .state
            .rents
            .iter()
            .filter(|r| r.payer == seat || r.owner == seat)
            .map(|r| r.rent)
            .collect();
        for rent in lapsed {
            self.emit(Event::RentLapsed { rent });
        }
        let withdrawn: Vec<u32> = self
            .state
            .offers
            .iter()
            .filter(|o| o.from == seat || o.to == seat)
            .map(|o| o.offer)
            .collect();
        for offer in withdrawn {
            self.emit(Event::TradeWithdrawn { offer });
        }
        let creditor = self.pay_creditors(seat);
        let squares: Vec<u8> = self.state.owned(seat).collect();
        let cards = self.state.player(seat).jail_cards.clone();
        match creditor {
            Some(heir) => {
                // MO-BANKR-2: mortgaged deeds and jail cards to the one creditor player.
                for &square in &squares {
                    self.emit(Event::PropertyTransferred {
                        square,
                        from: seat,
                        to: Some(heir),
                    });
                }
                for card in cards {
                    self.emit(Event::JailCardTransferred {
                        card,
                        from: seat,
                        to: heir,
                    });
                }
            }
            None => {
                // MO-BANKR-3, MO-BANKR-4: back to the bank for auction; cards under their decks.
                for &square in &squares {
                    self.emit(Event::PropertyTransferred {
                        square,
                        from: seat,
                        to: None,
                    });
                }
                for card in cards {
                    self.emit(Event::JailCardReturned { seat, card });
                }
                if !squares.is_empty() {
                    self.emit(Event::BankSalesQueued {
                        squares: squares.clone(),
                    });
                }
            }
        }
        self.emit(Event::PlayerBankrupt { seat });
        let solvent: Vec<Seat> = self.state.solvent().collect();
        if solvent.len() <= 1 {
            let scores = self
                .state
                .seats()
                .map(|s| self.state.net_worth(s))
                .collect();
            self.emit(Event::GameEnded {
                outcome: Outcome {
                    winners: solvent,
                    scores,
                },
                reason: EndReason::LastSolvent,
            });
            return;
        }
        if let (Some(heir), false) = (creditor, squares.is_empty()) {
            self.emit(Event::InheritanceOffered {
                creditor: heir,
                squares,
            });
        }
        if self.state.turn_seat() == Some(seat) {
            self.end_turn(seat);
        }
        if self.state.outcome.is_none() && self.state.auction.is_none() {
            if let Some(&square) = self.state.bank_sales.first() {
                self.start_property_auction(square, false);
            }
        }
    }

    /// The bankrupt's cash to the creditors, never more than owed (MO-BANKR-1): all of it to a
    /// single creditor, or shared among creditor players in proportion to their claims,
    /// rounded down, the rest to the bank (MO-BANKR-4). Returns the heir of the estate: the
    /// creditor player when there is exactly one creditor and it is a player.
    fn pay_creditors(&mut self, seat: Seat) -> Option<Seat> {
        let debt = self.state.debt_of(seat).cloned()?;
        let total = debt.total();
        let available = self.state.player(seat).cash.min(total);
        let mut claims: Vec<(Option<Seat>, i64)> = Vec::new();
        for line in &debt.lines {
            match claims.iter_mut().find(|(c, _)| *c == line.creditor) {
                Some((_, owed)) => *owed += line.amount,
                None => claims.push((line.creditor, line.amount)),
            }
        }
        let heir = match claims.as_slice() {
            [(Some(player), _)] => Some(*player),
            _ => None,
        };
        let mut paid = 0;
        for &(creditor, owed) in &claims {
            let Some(player) = creditor else { continue };
            let share = if heir.is_some() {
                available
            } else {
                available * owed / total
            };
            if share > 0 {
                self.emit(Event::Paid {
                    from: Some(seat),
                    to: Some(player),
                    amount: share,
                    reason: PaymentReason::Bankruptcy,
                });
                paid += share;
            }
        }
        if available - paid > 0 {
            self.emit(Event::Paid {
                from: Some(seat),
                to: None,
                amount: available - paid,
                reason: PaymentReason::Bankruptcy,
            });
        }
        heir
    }
}

/// The other solvent players who could build a unit of `building` now (MO-BUILD-8 trigger).
pub fn other_builders(state: &State, requester: Seat, building: Building) -> Vec<Seat> {
    requester
        .clockwise(state.players.len())
        .skip(1)
        .filter(|&s| !state.player(s).bankrupt)
        .filter(|&s| rules::single_builds(state, s).any(|(_, kind)| kind == building))
        .collect()
}
