//! Deciding an action: who may act now (MO-D-2), then the action handed to the file of its
//! family, which checks it and emits the events it causes, dice and card draws included: the
//! turn to `turn.rs`, buildings, auctions, debts and the bankrupt's estate to `market.rs`,
//! trades and mortgages to `deals.rs`. Follow-up rules run on a scratch copy of the state that
//! folds each event as it is emitted (see `turn.rs` and `market.rs`).

use super::action::Action;
use super::data::{board, Card, Deck};
use super::dice;
use super::errors::*;
use super::event::{Event, SeatRoll};
use super::state::State;
use super::{deals, market, turn};
use super::{Config, TradeOffers};
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

/// The events `action` of `seat` causes, or why the rules refuse it.
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
    let mut s = match action {
        // Offers and mortgages: their events alone, without the scratch copy (see `deals.rs`).
        Action::OfferTrade { .. } => return Ok(vec![deals::make_offer(state, seat, action)?]),
        &Action::RejectTrade { offer } => {
            return Ok(vec![deals::reject_offer(state, seat, offer)?])
        }
        &Action::WithdrawTrade { offer } => {
            return Ok(vec![deals::withdraw_offer(state, seat, offer)?])
        }
        &Action::Mortgage { square } => return deals::mortgage(state, seat, square),
        &Action::LiftMortgage { square } => return deals::lift_mortgage(state, seat, square),
        // The turn: the roll, the square landed on, jail, the turn's end, and rents.
        Action::Roll => turn::roll(state, seat, chance)?,
        Action::BuyProperty => turn::buy_property(state, seat)?,
        Action::DeclineProperty => turn::decline_property(state, seat)?,
        Action::PayJailFine => turn::pay_jail_fine(state, seat)?,
        &Action::UseJailCard { card } => turn::use_jail_card(state, seat, card)?,
        Action::PayCardFine => turn::pay_card_fine(state, seat)?,
        Action::DrawCard => turn::draw_card(state, seat, chance)?,
        Action::EndTurn => turn::end_turn(state, seat)?,
        &Action::ClaimRent { rent } => turn::claim_rent(state, seat, rent)?,
        // Buildings and the shortage they may open, auctions, debts and bankruptcy.
        Action::Build { squares } => market::build(state, seat, squares)?,
        &Action::SellBuilding { square } => market::sell_building(state, seat, square)?,
        Action::DeclareDemand { squares } => market::declare_demand(state, seat, squares)?,
        &Action::Bid { amount } => market::bid(state, seat, amount)?,
        Action::PassAuction => market::pass_auction(state, seat)?,
        Action::PayDebt => market::pay_debt(state, seat, chance)?,
        Action::DeclareBankruptcy => market::declare_bankruptcy(state, seat)?,
        Action::SettleInheritance { lift } => market::settle_inheritance(state, seat, lift)?,
        // A trade executed, with the mortgages it hands over (see `deals.rs`).
        Action::AcceptTrade { offer, lift } => deals::accept_offer(state, seat, *offer, lift)?,
    };
    if state.config.trade_offers == TradeOffers::AsMade {
        deals::lapse_changed_offers(state, &mut s);
    }
    Ok(s.events)
}

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
