//! Auctions (MO-AUC-*), the building shortage (MO-BUILD-8), debts and bankruptcy (§13) on a
//! scratch state. Below them, the actions of this market as `decide` hands them over (building
//! and selling, declaring demand in a shortage, bidding and passing, paying a debt, declaring
//! bankruptcy, settling a bankrupt's estate): each one's checks, then its events.

use super::config::InheritedInterest;
use super::data::board;
use super::errors::*;
use super::event::{EndReason, Event, SquareLevel};
use super::rules;
use super::state::PaymentReason;
use super::state::{Building, Lot, State};
use super::Scratch;
use crate::chance::Chance;
use crate::{Outcome, RuleError, Seat};

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

// The market's actions as `decide` hands them over: each checks the state as it is (a refusal
// copies nothing), then emits its events on a scratch copy, follow-up rules included.

/// MO-BUILD-1..8: a build request, or the shortage window it opens.
pub(super) fn build(state: &State, seat: Seat, squares: &[u8]) -> Result<Scratch, RuleError> {
    let plan = rules::check_build::<RuleError>(state, seat, squares, true)?;
    for (building, stock) in [
        (Building::House, state.bank_houses),
        (Building::Hotel, state.bank_hotels),
    ] {
        let wanted = kind_count(&plan, building);
        if wanted == 0 || wanted < usize::from(stock) {
            continue;
        }
        if stock == 0 {
            return Err(refuse(
                BANK_OUT_OF_BUILDINGS,
                "MO-BUILD-7",
                "the bank has none of these left: wait until buildings are returned",
            ));
        }
        let waiting = other_builders(state, seat, building);
        if waiting.is_empty() {
            continue;
        }
        if wanted != squares.len() {
            return Err(refuse(
                SHORTAGE_REQUEST_MIXED,
                "MO-BUILD-8",
                "in a shortage, ask for houses and hotels in separate requests",
            ));
        }
        let mut s = Scratch::new(state);
        s.emit(Event::ShortageOpened {
            building,
            stock,
            requester: seat,
            squares: squares.to_vec(),
            waiting,
        });
        return Ok(s);
    }
    let plan = rules::check_build::<RuleError>(state, seat, squares, false)?;
    let mut s = Scratch::new(state);
    for (square, level, price) in plan.units {
        s.emit(Event::BuildingBought {
            seat,
            square,
            level,
            price,
        });
    }
    Ok(s)
}

/// MO-SELL-1..4: selling buildings back to the bank (the checks in [`rules::check_sell`]).
pub(super) fn sell_building(state: &State, seat: Seat, square: u8) -> Result<Scratch, RuleError> {
    let (levels, amount) = rules::check_sell::<RuleError>(state, seat, square)?;
    let mut s = Scratch::new(state);
    s.emit(Event::BuildingsSold {
        seat,
        levels,
        amount,
    });
    Ok(s)
}

/// MO-BUILD-8: a seat asked in the shortage window declares what it wants of the kind in
/// shortage (nothing is a declaration too); the last declaration resolves the shortage.
pub(super) fn declare_demand(
    state: &State,
    seat: Seat,
    squares: &[u8],
) -> Result<Scratch, RuleError> {
    let Some(shortage) = &state.shortage else {
        return Err(refuse(
            NOT_DECLARING,
            "MO-BUILD-8",
            "no building shortage is open",
        ));
    };
    if !shortage.waiting.contains(&seat) {
        return Err(refuse(
            NOT_DECLARING,
            "MO-BUILD-8",
            format!("{seat} is not asked to declare"),
        ));
    }
    if !squares.is_empty() {
        let plan = rules::check_build::<RuleError>(state, seat, squares, true)?;
        if kind_count(&plan, shortage.building) != squares.len() {
            return Err(refuse(
                WRONG_BUILDING_KIND,
                "MO-BUILD-8",
                "a declaration asks only for the kind in shortage",
            ));
        }
    }
    let mut s = Scratch::new(state);
    s.emit(Event::DemandDeclared {
        seat,
        squares: squares.to_vec(),
    });
    if s.state
        .shortage
        .as_ref()
        .is_some_and(|sh| sh.waiting.is_empty())
    {
        s.resolve_shortage();
    }
    Ok(s)
}

fn kind_count(plan: &rules::BuildPlan, building: Building) -> usize {
    usize::from(match building {
        Building::House => plan.houses,
        Building::Hotel => plan.hotels,
    })
}

/// MO-AUC-3, MO-AUC-5: a bid above the high bid, covered by cash on hand.
pub(super) fn bid(state: &State, seat: Seat, amount: i64) -> Result<Scratch, RuleError> {
    let floor = bid_floor(state, seat)?;
    if amount < floor {
        return Err(refuse(
            BID_TOO_LOW,
            "MO-AUC-5",
            format!("the next bid is at least M {floor}"),
        ));
    }
    let cash = state.player(seat).cash;
    if amount > cash {
        return Err(insufficient_cash("MO-AUC-3", "this bid", amount, cash));
    }
    let mut s = Scratch::new(state);
    s.emit(Event::BidPlaced { seat, amount });
    s.close_auction_if_done();
    Ok(s)
}

/// MO-AUC-5: a bidder passes and is out of this auction.
pub(super) fn pass_auction(state: &State, seat: Seat) -> Result<Scratch, RuleError> {
    bid_floor(state, seat)?;
    let mut s = Scratch::new(state);
    s.emit(Event::AuctionPassed { seat });
    s.close_auction_if_done();
    Ok(s)
}

/// The lowest bid `seat` may make now (MO-AUC-2, MO-AUC-5).
fn bid_floor(state: &State, seat: Seat) -> Result<i64, RuleError> {
    let Some(auction) = &state.auction else {
        return Err(refuse(NO_AUCTION, "MO-AUC-5", "no auction is running"));
    };
    if !auction.bidders.contains(&seat) {
        return Err(refuse(
            NOT_BIDDER,
            "MO-AUC-5",
            format!("{seat} has passed or may not bid"),
        ));
    }
    match auction.high {
        Some(high) if high.seat == seat => Err(refuse(
            HIGH_BIDDER_WAITS,
            "MO-AUC-5",
            "the high bidder waits until the others bid higher or pass",
        )),
        Some(high) => Ok(high.amount + 1),
        None => Ok(auction.min_bid),
    }
}

/// MO-DEBT-1: the debtor pays the whole debt once the cash covers it.
pub(super) fn pay_debt(
    state: &State,
    seat: Seat,
    chance: &mut dyn Chance,
) -> Result<Scratch, RuleError> {
    let total = own_debt(state, seat)?;
    let cash = state.player(seat).cash;
    if total > cash {
        return Err(insufficient_cash("MO-DEBT-1", "the debt", total, cash));
    }
    let mut s = Scratch::new(state);
    s.pay_debt(seat, chance);
    Ok(s)
}

/// MO-DEBT-1: bankruptcy only when selling and mortgaging everything would not pay the debt.
pub(super) fn declare_bankruptcy(state: &State, seat: Seat) -> Result<Scratch, RuleError> {
    let total = own_debt(state, seat)?;
    let worth = rules::liquidation_value(state, seat);
    if worth >= total {
        return Err(refuse(
            BANKRUPTCY_NOT_ALLOWED,
            "MO-DEBT-1",
            format!("selling and mortgaging everything would raise M {worth}, enough for the debt of M {total}"),
        ));
    }
    let mut s = Scratch::new(state);
    s.go_bankrupt(seat);
    Ok(s)
}

/// The total debt of `seat`, if it is the debtor raising funds.
fn own_debt(state: &State, seat: Seat) -> Result<i64, RuleError> {
    match state.debts.first() {
        Some(debt) if debt.debtor == seat => Ok(debt.total()),
        _ => Err(refuse(
            NO_DEBT,
            "MO-DEBT-1",
            format!("{seat} is not raising funds for a debt"),
        )),
    }
}

/// MO-BANKR-2: the creditor of a bankrupt lifts any of the mortgaged properties received and
/// pays interest on the rest.
pub(super) fn settle_inheritance(
    state: &State,
    seat: Seat,
    lift: &[u8],
) -> Result<Scratch, RuleError> {
    let Some(inheritance) = &state.inheritance else {
        return Err(refuse(
            NO_INHERITANCE,
            "MO-BANKR-2",
            "no bankrupt's estate awaits a decision",
        ));
    };
    if inheritance.creditor != seat {
        return Err(refuse(
            NO_INHERITANCE,
            "MO-BANKR-2",
            format!("the estate goes to {}", inheritance.creditor),
        ));
    }
    let unique = lift.iter().enumerate().all(|(i, s)| !lift[..i].contains(s));
    if !unique || !lift.iter().all(|s| inheritance.squares.contains(s)) {
        return Err(refuse(
            BAD_LIFT_CHOICE,
            "MO-BANKR-2",
            "lift only mortgaged properties received from the bankrupt, each once",
        ));
    }
    let price: i64 = lift.iter().map(|&sq| rules::lift_price(state, sq)).sum();
    let cash = state.player(seat).cash;
    if price > cash {
        return Err(insufficient_cash(
            "MO-BANKR-2",
            "lifting these mortgages",
            price,
            cash,
        ));
    }
    let mut s = Scratch::new(state);
    for &square in lift {
        let amount = rules::lift_price(state, square);
        s.emit(Event::MortgageLifted {
            seat,
            square,
            amount,
        });
    }
    settle_inherited_interest(&mut s, seat, &inheritance.squares, lift);
    s.emit(Event::InheritanceSettled { creditor: seat });
    Ok(s)
}

/// MO-BANKR-2: 10 % interest on each inherited mortgage the creditor keeps. By deed in square
/// order (`inherited_interest = per_deed`, rules version 2): each deed's interest the cash
/// covers is paid at once, each one it does not becomes its own debt to the bank. As one sum
/// (`in_total`, version 1): paid, or one debt of the whole.
fn settle_inherited_interest(s: &mut Scratch, seat: Seat, inherited: &[u8], lift: &[u8]) {
    let mut kept: Vec<u8> = inherited
        .iter()
        .copied()
        .filter(|sq| !lift.contains(sq))
        .collect();
    match s.state.config.inherited_interest {
        InheritedInterest::InTotal => {
            let interest = kept
                .iter()
                .map(|&sq| rules::interest_on(&s.state, sq))
                .sum();
            s.pay(seat, None, interest, PaymentReason::Interest);
        }
        InheritedInterest::PerDeed => {
            kept.sort_unstable();
            for square in kept {
                let amount = rules::interest_on(&s.state, square);
                if amount <= 0 {
                    continue;
                }
                if s.state.player(seat).cash >= amount {
                    s.emit(Event::Paid {
                        from: Some(seat),
                        to: None,
                        amount,
                        reason: PaymentReason::Interest,
                    });
                } else {
                    s.emit(Event::DebtOpened {
                        debtor: seat,
                        creditor: None,
                        amount,
                        reason: PaymentReason::Interest,
                        then_move: None,
                    });
                }
            }
        }
    }
}
