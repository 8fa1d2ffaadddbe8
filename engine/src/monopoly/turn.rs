//! The turn on a scratch state: rolling, moving, resolving squares (rents included) and cards,
//! jail, and passing the dice on. Every step emits events that the scratch folds at once, so the next step sees
//! the state the log will produce. Below them, the turn's actions as `decide` hands them over
//! (rolling, buying or declining, leaving jail, a card's choice, ending the turn, claiming a
//! rent): each one's checks, then its events.

use super::config::UtilityRentDice;
use super::data::{board, Card, Deck, DeedKind, Effect, SquareKind};
use super::dice;
use super::errors::*;
use super::event::{EndReason, Event, JailExit};
use super::rules;
use super::state::{PaymentReason, State, Step, Turn};
use super::Scratch;
use crate::chance::Chance;
use crate::{Outcome, RuleError, Seat};

/// How the token arrived, as a rent needs it: card G05's doubling of a Bahnhof's rent, and the
/// dice of the move (`None` after a card's move) for a Werk's rent roll (MO-RENT-7).
#[derive(Debug, Clone, Copy)]
struct Arrival {
    multiplier: i64,
    move_dice: Option<[u8; 2]>,
}

/// How the resolution of a square ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Landed {
    /// Everything is resolved (payments may have become debts).
    Settled,
    /// The player must decide first (buy or decline, pay or draw).
    Waiting,
    /// The player went to jail and the turn is over (MO-TURN-6).
    Jailed,
}

/// Rent for landing on `square` owned by `owner` (MO-RENT-4..7). `dice_total` matters for a
/// Werk only; `multiplier` is card G05's doubling of a Bahnhof's rent. A mortgaged property
/// yields nothing (MO-RENT-3).
pub fn rent(state: &State, square: u8, owner: Seat, dice_total: i64, multiplier: i64) -> i64 {
    let b = board();
    let Some(d) = b.deed_at(square) else {
        return 0;
    };
    let deed = &state.deeds[d];
    if deed.mortgaged {
        return 0;
    }
    match &b.deed(d).kind {
        DeedKind::Street { group, rents, .. } => {
            if deed.level > 0 {
                rents[usize::from(deed.level)]
            } else if state.owns_group(owner, *group) && !rules::group_mortgaged(state, *group) {
                2 * rents[0]
            } else {
                rents[0]
            }
        }
        DeedKind::Railway { rents } => {
            let count = state.same_kind_count(owner, square).clamp(1, rents.len());
            rents[count - 1] * multiplier
        }
        DeedKind::Utility { multipliers } => {
            let count = state
                .same_kind_count(owner, square)
                .clamp(1, multipliers.len());
            multipliers[count - 1] * dice_total
        }
    }
}

impl Scratch {
    /// MO-TURN-1, MO-TURN-4, MO-TURN-5, MO-JAIL-2 c: the `roll` action of the player on turn.
    pub fn roll(&mut self, seat: Seat, chance: &mut dyn Chance) {
        let first_roll = self.state.turn.is_some_and(|t| !t.rolled);
        if first_roll {
            // MO-RENT-2: the next player's first roll closes every earlier claim window.
            let lapsed: Vec<u32> = self.state.rents.iter().map(|r| r.rent).collect();
            for rent in lapsed {
                self.emit(Event::RentLapsed { rent });
            }
        }
        let dice = dice::roll(chance);
        let doubles = dice[0] == dice[1];
        let in_jail = self.state.player(seat).in_jail;
        self.emit(Event::DiceRolled { seat, dice });
        if in_jail {
            self.jail_attempt(seat, dice, chance);
            return;
        }
        let limit = board().constants.doubles_to_jail;
        if doubles && self.state.turn.is_some_and(|t| t.doubles >= limit) {
            // MO-TURN-5: the third doubles go straight to jail; the token does not move.
            self.send_to_jail(seat);
            return;
        }
        self.advance(seat, dice[0] + dice[1]);
        let landed = self.land(seat, 1, Some(dice), chance);
        self.finish_move(seat, landed);
    }

    /// MO-JAIL-2 c: doubles free the player (no extra roll, MO-D-9); the third failed attempt
    /// pays the fine and moves (MO-JAIL-4 when the fine cannot be paid).
    fn jail_attempt(&mut self, seat: Seat, dice: [u8; 2], chance: &mut dyn Chance) {
        if dice[0] == dice[1] {
            self.emit(Event::LeftJail {
                seat,
                how: JailExit::Doubles,
            });
            self.move_out_of_jail(seat, dice, chance);
            return;
        }
        let attempt = self.state.player(seat).jail_attempts + 1;
        self.emit(Event::JailAttemptFailed { seat, attempt });
        if attempt < board().constants.max_jail_attempts {
            self.end_turn(seat);
            return;
        }
        let fine = board().constants.jail_fine;
        if self.state.player(seat).cash >= fine {
            self.emit(Event::Paid {
                from: Some(seat),
                to: None,
                amount: fine,
                reason: PaymentReason::JailFine,
            });
            self.emit(Event::LeftJail {
                seat,
                how: JailExit::ThirdAttempt,
            });
            self.move_out_of_jail(seat, dice, chance);
        } else {
            self.emit(Event::DebtOpened {
                debtor: seat,
                creditor: None,
                amount: fine,
                reason: PaymentReason::JailFine,
                then_move: Some(dice),
            });
        }
    }

    /// The move by the roll that ended a jail stay; never another roll (MO-D-9).
    pub fn move_out_of_jail(&mut self, seat: Seat, dice: [u8; 2], chance: &mut dyn Chance) {
        self.advance(seat, dice[0] + dice[1]);
        let landed = self.land(seat, 1, Some(dice), chance);
        self.finish_move(seat, landed);
    }

    /// Closes a resolved move: the player rolls again after doubles, or may end the turn.
    pub fn finish_move(&mut self, seat: Seat, landed: Landed) {
        if landed == Landed::Settled {
            let roll_again = self.state.turn.is_some_and(|t| t.seat == seat && t.again);
            self.emit(Event::MoveFinished { seat, roll_again });
        }
    }

    /// Forward by `steps` squares, salary when LOS is passed or reached (MO-TURN-3).
    fn advance(&mut self, seat: Seat, steps: u8) {
        let from = self.state.player(seat).position;
        self.move_forward_to(seat, (from + steps) % super::data::SQUARES as u8);
    }

    fn move_forward_to(&mut self, seat: Seat, to: u8) {
        let from = self.state.player(seat).position;
        self.emit(Event::Moved {
            seat,
            from,
            to,
            backward: false,
        });
        if to < from {
            self.emit(Event::SalaryPaid {
                seat,
                amount: board().constants.salary,
            });
        }
    }

    /// Backward, never a salary (MO-CARD-3).
    fn move_back_to(&mut self, seat: Seat, to: u8) {
        let from = self.state.player(seat).position;
        self.emit(Event::Moved {
            seat,
            from,
            to,
            backward: true,
        });
    }

    /// MO-JAIL-1: to square 10 without salary; the turn ends at once (MO-TURN-6).
    pub fn send_to_jail(&mut self, seat: Seat) -> Landed {
        self.emit(Event::SentToJail { seat });
        self.end_turn(seat);
        Landed::Jailed
    }

    /// Resolve the square the token stands on (§4). `multiplier` doubles a Bahnhof's rent
    /// after card G05; `move_dice` are the dice of the move that brought the token here (`None`
    /// after a card's move), a Werk's rent roll with `utility_rent_dice = move` (MO-RENT-7).
    pub fn land(
        &mut self,
        seat: Seat,
        multiplier: i64,
        move_dice: Option<[u8; 2]>,
        chance: &mut dyn Chance,
    ) -> Landed {
        let square = self.state.player(seat).position;
        match board().squares[usize::from(square)] {
            SquareKind::Go | SquareKind::Jail | SquareKind::FreeParking => Landed::Settled,
            SquareKind::GoToJail => self.send_to_jail(seat),
            SquareKind::Tax { amount } => {
                self.pay(seat, None, amount, PaymentReason::Tax);
                Landed::Settled
            }
            SquareKind::Card(deck) => self.draw(seat, deck, chance),
            SquareKind::Property { deed } => {
                let d = self.state.deeds[deed];
                match d.owner {
                    None => {
                        self.emit(Event::PurchaseOffered { seat, square });
                        Landed::Waiting
                    }
                    Some(owner) if owner == seat || d.mortgaged => Landed::Settled,
                    Some(owner) => {
                        let arrival = Arrival {
                            multiplier,
                            move_dice,
                        };
                        self.owe_rent(seat, owner, square, arrival, chance);
                        Landed::Settled
                    }
                }
            }
        }
    }

    /// MO-RENT-1, MO-RENT-2: rent fixed at landing, pending until claimed (or paid at once
    /// with `auto_collect_rent`). A Werk's rent is the rent roll of MO-RENT-7: dice thrown for
    /// it (`utility_rent_dice = roll`, the seed's wording), or the move's dice (`move`; rolled
    /// when the token came by card).
    fn owe_rent(
        &mut self,
        payer: Seat,
        owner: Seat,
        square: u8,
        arrival: Arrival,
        chance: &mut dyn Chance,
    ) {
        let b = board();
        let is_utility = b
            .deed_at(square)
            .is_some_and(|d| matches!(b.deed(d).kind, super::data::DeedKind::Utility { .. }));
        let dice =
            is_utility.then(
                || match (self.state.config.utility_rent_dice, arrival.move_dice) {
                    (UtilityRentDice::Move, Some(dice)) => dice,
                    _ => dice::roll(chance),
                },
            );
        let total = dice.map_or(0, |d| i64::from(d[0] + d[1]));
        let amount = rent(&self.state, square, owner, total, arrival.multiplier);
        let rent = self.state.next_rent;
        self.emit(Event::RentOwed {
            rent,
            payer,
            owner,
            square,
            amount,
            dice,
        });
        if self.state.config.auto_collect_rent {
            self.collect_rent(rent);
        }
    }

    /// The owner's claim: the payer pays, or owes (MO-RENT-8).
    pub fn collect_rent(&mut self, rent: u32) {
        let Some(r) = self.state.rents.iter().find(|r| r.rent == rent).copied() else {
            return;
        };
        self.emit(Event::RentClaimed { rent });
        self.pay(r.payer, Some(r.owner), r.amount, PaymentReason::Rent);
    }

    /// MO-CARD-1: draw the top card, show it, execute it.
    pub fn draw(&mut self, seat: Seat, deck: Deck, chance: &mut dyn Chance) -> Landed {
        let Some(&card) = self.state.decks[deck.index()].first() else {
            return Landed::Settled;
        };
        self.emit(Event::CardDrawn { seat, deck, card });
        let position = self.state.player(seat).position;
        match board().card(card).effect {
            Effect::AdvanceTo { square } => {
                self.move_forward_to(seat, square);
                self.land(seat, 1, None, chance)
            }
            Effect::AdvanceToNearestRailway { rent_multiplier } => {
                self.move_forward_to(seat, board().next_railway(position));
                self.land(seat, rent_multiplier, None, chance)
            }
            Effect::MoveBack { steps } => {
                let squares = super::data::SQUARES as u8;
                self.move_back_to(seat, (position + squares - steps % squares) % squares);
                self.land(seat, 1, None, chance)
            }
            Effect::MoveBackTo { square } => {
                self.move_back_to(seat, square);
                self.land(seat, 1, None, chance)
            }
            Effect::GoToJail => self.send_to_jail(seat),
            Effect::GetOutOfJailFree => Landed::Settled,
            Effect::ReceiveFromBank { amount } => {
                self.emit(Event::Paid {
                    from: None,
                    to: Some(seat),
                    amount,
                    reason: PaymentReason::Card,
                });
                Landed::Settled
            }
            Effect::PayBank { amount } => {
                self.pay(seat, None, amount, PaymentReason::Card);
                Landed::Settled
            }
            Effect::PayEachPlayer { amount } => {
                // MO-CARD-6: one payment per other player, from the drawer's left.
                for other in self.others_from_left(seat) {
                    self.pay(seat, Some(other), amount, PaymentReason::Card);
                }
                Landed::Settled
            }
            Effect::ReceiveFromEachPlayer { amount } => {
                for other in self.others_from_left(seat) {
                    self.pay(other, Some(seat), amount, PaymentReason::Card);
                }
                Landed::Settled
            }
            Effect::Repairs {
                per_house,
                per_hotel,
            } => {
                // MO-CARD-5: a hotel counts only as a hotel.
                let (mut houses, mut hotels) = (0, 0);
                for square in self.state.owned(seat).collect::<Vec<_>>() {
                    let level = self.state.deed(square).map_or(0, |d| d.level);
                    if level == super::state::HOTEL {
                        hotels += 1;
                    } else {
                        houses += i64::from(level);
                    }
                }
                self.pay(
                    seat,
                    None,
                    houses * per_house + hotels * per_hotel,
                    PaymentReason::Card,
                );
                Landed::Settled
            }
            Effect::PayOrDraw { amount, draw_deck } => {
                self.emit(Event::CardChoiceOffered {
                    seat,
                    amount,
                    deck: draw_deck,
                });
                Landed::Waiting
            }
        }
    }

    /// The other solvent players in seat order, starting left of `seat`.
    fn others_from_left(&self, seat: Seat) -> Vec<Seat> {
        seat.clockwise(self.state.players.len())
            .skip(1)
            .filter(|&s| !self.state.player(s).bankrupt)
            .collect()
    }

    /// A payment of `amount` from `from` to `to` (`None`: the bank). A player who cannot pay
    /// in full, or already owes, owes this too (MO-DEBT-1).
    pub fn pay(&mut self, from: Seat, to: Option<Seat>, amount: i64, reason: PaymentReason) {
        if amount <= 0 {
            return;
        }
        let in_debt = self.state.debt_of(from).is_some();
        if !in_debt && self.state.player(from).cash >= amount {
            self.emit(Event::Paid {
                from: Some(from),
                to,
                amount,
                reason,
            });
        } else {
            self.emit(Event::DebtOpened {
                debtor: from,
                creditor: to,
                amount,
                reason,
                then_move: None,
            });
        }
    }

    /// MO-TURN-7: the dice go to the next solvent player; a full round may end the game
    /// (MO-END-2).
    pub fn end_turn(&mut self, seat: Seat) {
        self.emit(Event::TurnEnded { seat });
        let next = self.state.next_solvent(seat);
        let n = self.state.players.len();
        let first = self.state.first_seat.index();
        let place = |s: Seat| (s.index() + n - first) % n;
        if place(next) <= place(seat) {
            let rounds = self.state.rounds_completed + 1;
            self.emit(Event::RoundCompleted { rounds });
            if self
                .state
                .config
                .round_limit
                .is_some_and(|limit| rounds >= limit)
            {
                let scores = self
                    .state
                    .seats()
                    .map(|s| self.state.net_worth(s))
                    .collect();
                self.emit(Event::GameEnded {
                    outcome: Outcome::highest_wins(scores),
                    reason: EndReason::RoundLimit,
                });
                return;
            }
        }
        self.emit(Event::TurnStarted { seat: next });
    }
}

// The turn's actions as `decide` hands them over: each checks the state as it is (a refusal
// copies nothing), then emits its events on a scratch copy, follow-up rules included.

/// MO-TURN-1: the roll the player on turn owes.
pub(super) fn roll(
    state: &State,
    seat: Seat,
    chance: &mut dyn Chance,
) -> Result<Scratch, RuleError> {
    own_step(state, seat, "MO-TURN-1")?;
    let mut s = Scratch::new(state);
    s.roll(seat, chance);
    Ok(s)
}

/// MO-BUY-1: buying the property landed on, at its printed price.
pub(super) fn buy_property(state: &State, seat: Seat) -> Result<Scratch, RuleError> {
    let square = purchase(state, seat)?;
    let price = board()
        .deed(board().deed_at(square).expect("a property"))
        .price;
    let cash = state.player(seat).cash;
    if price > cash {
        return Err(insufficient_cash("MO-BUY-1", "this property", price, cash));
    }
    let mut s = Scratch::new(state);
    s.emit(Event::PropertyBought {
        seat,
        square,
        price,
    });
    s.finish_move(seat, Landed::Settled);
    Ok(s)
}

/// MO-BUY-2: declining the property landed on puts it up for auction, after which the turn
/// resumes.
pub(super) fn decline_property(state: &State, seat: Seat) -> Result<Scratch, RuleError> {
    let square = purchase(state, seat)?;
    let mut s = Scratch::new(state);
    s.emit(Event::PurchaseDeclined { seat, square });
    s.start_property_auction(square, true);
    Ok(s)
}

/// MO-JAIL-2 a: paying the fine at the start of a jail turn.
pub(super) fn pay_jail_fine(state: &State, seat: Seat) -> Result<Scratch, RuleError> {
    jail_exit(state, seat)?;
    let fine = board().constants.jail_fine;
    let cash = state.player(seat).cash;
    if fine > cash {
        return Err(insufficient_cash("MO-JAIL-2", "the jail fine", fine, cash));
    }
    let mut s = Scratch::new(state);
    s.emit(Event::Paid {
        from: Some(seat),
        to: None,
        amount: fine,
        reason: PaymentReason::JailFine,
    });
    s.emit(Event::LeftJail {
        seat,
        how: JailExit::Fine,
    });
    Ok(s)
}

/// MO-JAIL-2 b: playing a jail card, which goes back under its deck.
pub(super) fn use_jail_card(state: &State, seat: Seat, card: Card) -> Result<Scratch, RuleError> {
    jail_exit(state, seat)?;
    if !state.player(seat).jail_cards.contains(&card) {
        return Err(refuse(
            NO_SUCH_CARD,
            "MO-JAIL-2",
            format!("{seat} holds no card {card}"),
        ));
    }
    let mut s = Scratch::new(state);
    s.emit(Event::JailCardReturned { seat, card });
    s.emit(Event::LeftJail {
        seat,
        how: JailExit::Card,
    });
    Ok(s)
}

/// Paying the fine a card offers instead of drawing from the other deck (MO-CARD-4).
pub(super) fn pay_card_fine(state: &State, seat: Seat) -> Result<Scratch, RuleError> {
    let (amount, _) = card_choice(state, seat)?;
    let mut s = Scratch::new(state);
    s.pay(seat, None, amount, PaymentReason::Card);
    s.finish_move(seat, Landed::Settled);
    Ok(s)
}

/// Drawing from the deck a card names instead of paying its fine (MO-CARD-4).
pub(super) fn draw_card(
    state: &State,
    seat: Seat,
    chance: &mut dyn Chance,
) -> Result<Scratch, RuleError> {
    let (_, deck) = card_choice(state, seat)?;
    let mut s = Scratch::new(state);
    let landed = s.draw(seat, deck, chance);
    s.finish_move(seat, landed);
    Ok(s)
}

/// MO-TURN-7: the turn ends once its move is resolved and no roll is owed.
pub(super) fn end_turn(state: &State, seat: Seat) -> Result<Scratch, RuleError> {
    let Some(turn) = on_turn(state, seat) else {
        return Err(RuleError::not_your_turn(seat));
    };
    match turn.step {
        Step::Done => {
            let mut s = Scratch::new(state);
            s.end_turn(seat);
            Ok(s)
        }
        Step::Roll => Err(refuse(
            TURN_NOT_FINISHED,
            "MO-TURN-7",
            "the player still owes a roll",
        )),
        _ => Err(refuse(
            DECISION_PENDING,
            "MO-TURN-7",
            "the move is not resolved yet",
        )),
    }
}

/// MO-RENT-2: the owner demands a rent that is waiting for a claim.
pub(super) fn claim_rent(state: &State, seat: Seat, rent: u32) -> Result<Scratch, RuleError> {
    let Some(pending) = state.rents.iter().find(|r| r.rent == rent) else {
        return Err(refuse(
            NO_SUCH_RENT,
            "MO-RENT-2",
            format!("no rent {rent} is waiting for a claim: it was claimed, or it lapsed"),
        ));
    };
    if pending.owner != seat {
        return Err(refuse(
            NOT_RENT_OWNER,
            "MO-RENT-2",
            "only the owner may demand the rent",
        ));
    }
    let mut s = Scratch::new(state);
    s.collect_rent(rent);
    Ok(s)
}

/// The turn, if `seat` is on it.
fn on_turn(state: &State, seat: Seat) -> Option<Turn> {
    state.turn.filter(|t| t.seat == seat)
}

/// The player on turn owes a roll now.
fn own_step(state: &State, seat: Seat, rule: &'static str) -> Result<(), RuleError> {
    let Some(turn) = on_turn(state, seat) else {
        return Err(RuleError::not_your_turn(seat));
    };
    match turn.step {
        Step::Roll => Ok(()),
        Step::Buy { .. } | Step::PayOrDraw { .. } | Step::Moving => Err(refuse(
            DECISION_PENDING,
            "MO-D-19",
            "decide on the square landed on before rolling again",
        )),
        Step::Done => Err(refuse(ROLL_NOT_OWED, rule, "no roll is owed: end the turn")),
    }
}

/// The square the player on turn may buy now.
fn purchase(state: &State, seat: Seat) -> Result<u8, RuleError> {
    match on_turn(state, seat).map(|t| t.step) {
        Some(Step::Buy { square }) => Ok(square),
        _ => Err(refuse(
            NO_PURCHASE_OFFERED,
            "MO-BUY-1",
            "no property is offered to this seat now",
        )),
    }
}

/// MO-JAIL-2 a/b, MO-JAIL-3: before rolling, at the start of one's own jail turn.
fn jail_exit(state: &State, seat: Seat) -> Result<(), RuleError> {
    let Some(turn) = on_turn(state, seat) else {
        return Err(RuleError::not_your_turn(seat));
    };
    if !state.player(seat).in_jail {
        return Err(refuse(
            NOT_IN_JAIL,
            "MO-JAIL-2",
            format!("{seat} is not in jail"),
        ));
    }
    if turn.rolled || turn.step != Step::Roll {
        return Err(refuse(
            JAIL_EXIT_AFTER_ROLL,
            "MO-JAIL-3",
            "the fine or a card is used at the start of the turn, before rolling",
        ));
    }
    Ok(())
}

/// The fine and the deck of the card that asks the player on turn to pay or draw now
/// (MO-CARD-4).
fn card_choice(state: &State, seat: Seat) -> Result<(i64, Deck), RuleError> {
    let Some(Step::PayOrDraw { amount, deck }) = on_turn(state, seat).map(|t| t.step) else {
        return Err(refuse(
            NO_CARD_CHOICE,
            "MO-CARD-4",
            "no card asks for a choice now",
        ));
    };
    Ok((amount, deck))
}
