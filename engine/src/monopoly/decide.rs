//! Deciding an action: who may act now (MO-D-2), every check, then the events it causes,
//! dice and card draws included. Follow-up rules run on a scratch copy of the state that folds
//! each event as it is emitted (see `turn.rs` and `market.rs`).

use super::action::Action;
use super::data::{board, Card, Deck};
use super::dice;
use super::errors::*;
use super::event::{Event, JailExit, SeatRoll};
use super::market::other_builders;
use super::rules;
use super::state::PaymentReason;
use super::state::{Building, Bundle, State, Step, TradeOffer};
use super::trade;
use super::{Config, InheritedInterest, Scratch, TradeOffers};
use crate::chance::{shuffle, Chance};
use crate::{RuleError, Seat};

/// The setup events: start money, the two shuffles, the starting roll with re-rolls of the
/// tied highest (MO-SETUP-1..4, MO-D-1), the first turn.
pub fn setup(
    config: &Config,
    seats: usize,
    chance: &mut dyn Chance,
) -> Result<Vec<Event>, RuleError> {
    config.validate(seats)?;
    let mut events = vec![Event::GameStarted {
        players: seats as u8,
        config: config.clone(),
    }];
    for deck in Deck::ALL {
        let mut order: Vec<Card> = board().deck_cards(deck).collect();
        shuffle(chance, &mut order);
        events.push(Event::DeckShuffled {
            deck,
            cards: order.len() as u8,
            order: Some(order),
        });
    }
    let mut contenders: Vec<Seat> = (0..seats as u8).map(Seat).collect();
    while contenders.len() > 1 {
        let rolls: Vec<SeatRoll> = contenders
            .iter()
            .map(|&seat| SeatRoll {
                seat,
                dice: dice::roll(chance),
            })
            .collect();
        let total = |r: &SeatRoll| r.dice[0] + r.dice[1];
        let best = rolls.iter().map(total).max().unwrap_or(0);
        contenders = rolls
            .iter()
            .filter(|r| total(r) == best)
            .map(|r| r.seat)
            .collect();
        events.push(Event::StartingRolled { rolls });
    }
    events.push(Event::TurnStarted {
        seat: contenders[0],
    });
    Ok(events)
}

pub fn decide(
    state: &State,
    seat: Seat,
    action: &Action,
    chance: &mut dyn Chance,
) -> Result<Vec<Event>, RuleError> {
    if state.outcome.is_some() || state.turn.is_none() {
        return Err(RuleError::game_over());
    }
    if seat.index() >= state.players.len() {
        return Err(RuleError::not_your_turn(seat));
    }
    if state.player(seat).bankrupt {
        return Err(refuse(
            BANKRUPT,
            "MO-DEBT-2",
            format!("{seat} is bankrupt and out of the game"),
        ));
    }
    gate(state, seat, action)?;
    if let Some(event) = offer_event(state, seat, action)? {
        return Ok(vec![event]);
    }
    if let Some(events) = mortgage_events(state, seat, action)? {
        return Ok(events);
    }
    let mut s = Scratch::new(state);
    match action {
        Action::Roll => {
            own_step(state, seat, "MO-TURN-1")?;
            s.roll(seat, chance);
        }
        Action::BuyProperty => {
            let square = purchase(state, seat)?;
            let price = board()
                .deed(board().deed_at(square).expect("a property"))
                .price;
            let cash = state.player(seat).cash;
            if price > cash {
                return Err(insufficient_cash("MO-BUY-1", "this property", price, cash));
            }
            s.emit(Event::PropertyBought {
                seat,
                square,
                price,
            });
            s.finish_move(seat, super::turn::Landed::Settled);
        }
        Action::DeclineProperty => {
            let square = purchase(state, seat)?;
            s.emit(Event::PurchaseDeclined { seat, square });
            s.start_property_auction(square, true);
        }
        Action::PayJailFine => {
            jail_exit(state, seat)?;
            let fine = board().constants.jail_fine;
            let cash = state.player(seat).cash;
            if fine > cash {
                return Err(insufficient_cash("MO-JAIL-2", "the jail fine", fine, cash));
            }
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
        }
        Action::UseJailCard { card } => {
            jail_exit(state, seat)?;
            if !state.player(seat).jail_cards.contains(card) {
                return Err(refuse(
                    NO_SUCH_CARD,
                    "MO-JAIL-2",
                    format!("{seat} holds no card {card}"),
                ));
            }
            s.emit(Event::JailCardReturned { seat, card: *card });
            s.emit(Event::LeftJail {
                seat,
                how: JailExit::Card,
            });
        }
        Action::PayCardFine | Action::DrawCard => {
            let Some(Step::PayOrDraw { amount, deck }) = on_turn(state, seat).map(|t| t.step)
            else {
                return Err(refuse(
                    NO_CARD_CHOICE,
                    "MO-CARD-4",
                    "no card asks for a choice now",
                ));
            };
            if *action == Action::PayCardFine {
                s.pay(seat, None, amount, PaymentReason::Card);
                s.finish_move(seat, super::turn::Landed::Settled);
            } else {
                let landed = s.draw(seat, deck, chance);
                s.finish_move(seat, landed);
            }
        }
        Action::EndTurn => {
            let Some(turn) = on_turn(state, seat) else {
                return Err(RuleError::not_your_turn(seat));
            };
            match turn.step {
                Step::Done => s.end_turn(seat),
                Step::Roll => {
                    return Err(refuse(
                        TURN_NOT_FINISHED,
                        "MO-TURN-7",
                        "the player still owes a roll",
                    ))
                }
                _ => {
                    return Err(refuse(
                        DECISION_PENDING,
                        "MO-TURN-7",
                        "the move is not resolved yet",
                    ))
                }
            }
        }
        Action::ClaimRent { rent } => {
            let Some(pending) = state.rents.iter().find(|r| r.rent == *rent) else {
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
            s.collect_rent(*rent);
        }
        Action::Build { squares } => build(&mut s, seat, squares)?,
        Action::SellBuilding { square } => {
            let (levels, amount) = rules::check_sell::<RuleError>(state, seat, *square)?;
            s.emit(Event::BuildingsSold {
                seat,
                levels,
                amount,
            });
        }
        Action::Mortgage { .. } | Action::LiftMortgage { .. } => {
            unreachable!("decided by mortgage_events")
        }
        Action::AcceptTrade { offer, lift } => {
            let o = offer_for(state, *offer, |o| o.to == seat)?;
            let [from_costs, to_costs] = trade::check_accept::<RuleError>(state, o, lift)?;
            s.emit(Event::TradeExecuted { offer: o.clone() });
            settle_mortgages(&mut s, o.from, &o.get.properties, &o.lift, from_costs);
            settle_mortgages(&mut s, o.to, &o.give.properties, lift, to_costs);
        }
        Action::OfferTrade { .. } | Action::RejectTrade { .. } | Action::WithdrawTrade { .. } => {
            unreachable!("decided by offer_event")
        }
        Action::Bid { amount } => {
            let floor = bid_floor(state, seat)?;
            if *amount < floor {
                return Err(refuse(
                    BID_TOO_LOW,
                    "MO-AUC-5",
                    format!("the next bid is at least M {floor}"),
                ));
            }
            let cash = state.player(seat).cash;
            if *amount > cash {
                return Err(insufficient_cash("MO-AUC-3", "this bid", *amount, cash));
            }
            s.emit(Event::BidPlaced {
                seat,
                amount: *amount,
            });
            s.close_auction_if_done();
        }
        Action::PassAuction => {
            bid_floor(state, seat)?;
            s.emit(Event::AuctionPassed { seat });
            s.close_auction_if_done();
        }
        Action::DeclareDemand { squares } => {
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
            s.emit(Event::DemandDeclared {
                seat,
                squares: squares.clone(),
            });
            if s.state
                .shortage
                .as_ref()
                .is_some_and(|sh| sh.waiting.is_empty())
            {
                s.resolve_shortage();
            }
        }
        Action::PayDebt => {
            let total = own_debt(state, seat)?;
            let cash = state.player(seat).cash;
            if total > cash {
                return Err(insufficient_cash("MO-DEBT-1", "the debt", total, cash));
            }
            s.pay_debt(seat, chance);
        }
        Action::DeclareBankruptcy => {
            let total = own_debt(state, seat)?;
            let worth = rules::liquidation_value(state, seat);
            if worth >= total {
                return Err(refuse(
                    BANKRUPTCY_NOT_ALLOWED,
                    "MO-DEBT-1",
                    format!("selling and mortgaging everything would raise M {worth}, enough for the debt of M {total}"),
                ));
            }
            s.go_bankrupt(seat);
        }
        Action::SettleInheritance { lift } => {
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
        }
    }
    if state.config.trade_offers == TradeOffers::AsMade {
        lapse_changed_offers(state, &mut s);
    }
    Ok(s.events)
}

/// The one event of making, rejecting or withdrawing an offer, or `None` for any other action.
/// These change no deed (so no offer lapses by them, MO-TRADE-4) and set off no follow-up rule,
/// so they are decided without the scratch copy of the state every other action works on: most
/// of what random and search playouts do is making and answering offers.
fn offer_event(state: &State, seat: Seat, action: &Action) -> Result<Option<Event>, RuleError> {
    Ok(Some(match action {
        Action::OfferTrade {
            to,
            give_cash,
            give_properties,
            give_cards,
            get_cash,
            get_properties,
            get_cards,
            lift,
        } => {
            let offer = TradeOffer {
                offer: state.next_offer,
                from: seat,
                to: *to,
                give: Bundle {
                    cash: *give_cash,
                    properties: give_properties.clone(),
                    cards: give_cards.clone(),
                },
                get: Bundle {
                    cash: *get_cash,
                    properties: get_properties.clone(),
                    cards: get_cards.clone(),
                },
                lift: lift.clone(),
            };
            trade::check_offer::<RuleError>(state, &offer)?;
            Event::TradeOffered { offer }
        }
        Action::RejectTrade { offer } => {
            offer_for(state, *offer, |o| o.to == seat)?;
            Event::TradeRejected { offer: *offer }
        }
        Action::WithdrawTrade { offer } => {
            offer_for(state, *offer, |o| o.from == seat)?;
            Event::TradeWithdrawn { offer: *offer }
        }
        _ => return Ok(None),
    }))
}

/// The events of mortgaging or lifting one deed (MO-MORT-1, MO-MORT-3), or `None` for any other
/// action: its one event, then under `trade_offers = as_made` the lapse of every open offer
/// naming the deed (MO-TRADE-4; the one deed that changes, so no other offer lapses). They set
/// off no follow-up rule, so like offers they are decided without the scratch copy of the
/// state (random playouts mortgage and lift often).
fn mortgage_events(
    state: &State,
    seat: Seat,
    action: &Action,
) -> Result<Option<Vec<Event>>, RuleError> {
    let (event, square) = match *action {
        Action::Mortgage { square } => {
            let amount = rules::check_mortgage::<RuleError>(state, seat, square)?;
            let event = Event::Mortgaged {
                seat,
                square,
                amount,
            };
            (event, square)
        }
        Action::LiftMortgage { square } => {
            let amount = rules::check_lift::<RuleError>(state, seat, square)?;
            let event = Event::MortgageLifted {
                seat,
                square,
                amount,
            };
            (event, square)
        }
        _ => return Ok(None),
    };
    let mut events = vec![event];
    if state.config.trade_offers == TradeOffers::AsMade {
        let names = |o: &TradeOffer| {
            o.give.properties.contains(&square) || o.get.properties.contains(&square)
        };
        events.extend(
            state
                .offers
                .iter()
                .filter(|o| names(o))
                .map(|o| Event::TradeLapsed {
                    offer: o.offer,
                    square,
                }),
        );
    }
    Ok(Some(events))
}

/// MO-TRADE-4 (`trade_offers = as_made`, rules version 2): an offer stands on the deeds as they
/// were when it was made. Every open offer naming a deed that this action mortgaged, lifted,
/// built on or gave another owner lapses, once the action's own events are folded.
fn lapse_changed_offers(before: &State, s: &mut Scratch) {
    if before.offers.is_empty() || s.state.outcome.is_some() {
        return;
    }
    let lapsed: Vec<(u32, u8)> = s
        .state
        .offers
        .iter()
        .filter_map(|o| {
            o.give
                .properties
                .iter()
                .chain(&o.get.properties)
                .copied()
                .find(|&square| before.deed(square) != s.state.deed(square))
                .map(|square| (o.offer, square))
        })
        .collect();
    for (offer, square) in lapsed {
        s.emit(Event::TradeLapsed { offer, square });
    }
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

type Turn = super::state::Turn;

/// MO-D-2: an auction, a shortage window or an inheritance decision admits only its own
/// actions; while a player raises funds, only that player's money-raising actions, offers to
/// or from that player, and rent claims.
fn gate(state: &State, seat: Seat, action: &Action) -> Result<(), RuleError> {
    use Action as A;
    if state.auction.is_some() {
        if !matches!(action, A::Bid { .. } | A::PassAuction) {
            return Err(refuse(
                AUCTION_RUNNING,
                "MO-D-2",
                "during an auction only bids and passes are taken",
            ));
        }
        return Ok(());
    }
    if state.shortage.is_some() {
        if !matches!(action, A::DeclareDemand { .. }) {
            return Err(refuse(
                SHORTAGE_WINDOW_OPEN,
                "MO-D-2",
                "while the building shortage window is open only declarations are taken",
            ));
        }
        return Ok(());
    }
    if state.inheritance.is_some() {
        if !matches!(action, A::SettleInheritance { .. }) {
            return Err(refuse(
                INHERITANCE_PENDING,
                "MO-D-2",
                "the creditor of the bankrupt decides on the mortgages first",
            ));
        }
        return Ok(());
    }
    let Some(debtor) = state.raising_funds() else {
        return Ok(());
    };
    let involves_debtor = |offer: &u32| {
        state
            .offers
            .iter()
            .any(|o| o.offer == *offer && (o.from == debtor || o.to == debtor))
    };
    let allowed = match action {
        A::ClaimRent { .. } => true,
        A::SellBuilding { .. } | A::Mortgage { .. } | A::PayDebt | A::DeclareBankruptcy => {
            seat == debtor
        }
        A::OfferTrade { to, .. } => seat == debtor || *to == debtor,
        A::AcceptTrade { offer, .. } | A::RejectTrade { offer } | A::WithdrawTrade { offer } => {
            involves_debtor(offer)
        }
        _ => false,
    };
    if allowed {
        Ok(())
    } else {
        Err(refuse(
            DEBT_PENDING,
            "MO-D-2",
            format!("{debtor} is raising funds: only that player's money-raising actions, trades with that player and rent claims are taken"),
        ))
    }
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

fn offer_for(
    state: &State,
    offer: u32,
    party: impl Fn(&TradeOffer) -> bool,
) -> Result<&TradeOffer, RuleError> {
    let Some(o) = state.offers.iter().find(|o| o.offer == offer) else {
        return Err(refuse(
            NO_SUCH_OFFER,
            "MO-TRADE-4",
            format!("no open offer {offer}"),
        ));
    };
    if !party(o) {
        return Err(refuse(
            NOT_OFFER_PARTY,
            "MO-TRADE-4",
            "this seat cannot answer that offer this way",
        ));
    }
    Ok(o)
}

/// MO-TRADE-3: each mortgaged property received is lifted or pays interest, at once.
fn settle_mortgages(s: &mut Scratch, seat: Seat, received: &[u8], lift: &[u8], total: i64) {
    let mut interest = 0;
    for &square in received {
        if !s.state.deed(square).is_some_and(|d| d.mortgaged) {
            continue;
        }
        if lift.contains(&square) {
            let amount = rules::lift_price(&s.state, square);
            s.emit(Event::MortgageLifted {
                seat,
                square,
                amount,
            });
        } else {
            interest += rules::interest_on(&s.state, square);
        }
    }
    debug_assert!(interest <= total);
    if interest > 0 {
        s.emit(Event::Paid {
            from: Some(seat),
            to: None,
            amount: interest,
            reason: PaymentReason::Interest,
        });
    }
}

fn kind_count(plan: &rules::BuildPlan, building: Building) -> usize {
    usize::from(match building {
        Building::House => plan.houses,
        Building::Hotel => plan.hotels,
    })
}

/// MO-BUILD-1..8: a build request, or the shortage window it opens.
fn build(s: &mut Scratch, seat: Seat, squares: &[u8]) -> Result<(), RuleError> {
    let state = &s.state;
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
        s.emit(Event::ShortageOpened {
            building,
            stock,
            requester: seat,
            squares: squares.to_vec(),
            waiting,
        });
        return Ok(());
    }
    let plan = rules::check_build::<RuleError>(&s.state, seat, squares, false)?;
    for (square, level, price) in plan.units {
        s.emit(Event::BuildingBought {
            seat,
            square,
            level,
            price,
        });
    }
    Ok(())
}
