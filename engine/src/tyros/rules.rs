//! The checks behind every action, shared by `decide` and `legal_actions` so the two always
//! agree. Each check returns what the action will cost (its dues) or the rule it breaks.
//!
//! Checks that depend only on public facts come first; checks on the asking seat's own hand
//! come last, so no refusal ever depends on what the seat cannot see (TR-D-20).
//!
//! Here: whom the game waits for, the turn and ship checks every action starts with, and the
//! dues; each family of actions has its checks in a file of its own (`moves.rs`,
//! `building.rs`, `trade.rs`, `action_cards.rs`).

use super::cards::Cards;
use super::data::Cell;
use super::errors as e;
use super::state::{Due, DueReason, Need, Phase, ShipId, State, Turn};
use crate::refusal::Refusal;
use crate::{RuleError, Seat};

/// Whose decision the game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Awaiting {
    Nobody,
    /// The first due's payer.
    Payment(Seat),
    /// A galley fight side laying cards.
    FightCards(Seat),
    /// The fight's winner choosing which group to discard.
    FightChoice(Seat),
    /// The recipient of a trade offer.
    Offer(Seat),
    /// The seat placing a tile in Phase 2.
    Placement(Seat),
    /// The seat whose action-phase turn it is.
    Turn(Seat),
    /// Every seat with a keep choice pending.
    Keep,
}

pub fn awaiting(state: &State) -> Awaiting {
    if state.outcome.is_some() {
        return Awaiting::Nobody;
    }
    if let Some(due) = state.dues.first() {
        return Awaiting::Payment(due.payer);
    }
    if let Some(f) = &state.fight {
        let owner = |id: ShipId| state.ship(id).owner;
        if f.attacker_cards.is_none() {
            return Awaiting::FightCards(owner(f.attacker));
        }
        if f.defender_cards.is_none() {
            return Awaiting::FightCards(owner(f.defender));
        }
        if let Some(winner) = f.winner.filter(|_| !f.choices.is_empty()) {
            return Awaiting::FightChoice(winner);
        }
    }
    if let Some(offer) = &state.offer {
        return Awaiting::Offer(offer.to);
    }
    match &state.phase {
        Phase::Expansion { step, .. } => Awaiting::Placement(expansion_seat(state, *step)),
        Phase::Actions { turn, .. } => Awaiting::Turn(turn.seat),
        Phase::RoundEnd => Awaiting::Keep,
        Phase::Setup | Phase::Pirates | Phase::Finished => Awaiting::Nobody,
    }
}

/// The seat of Phase 2's `step`-th placement: laps in seat order from the start player
/// (TR-P2-5, TR-RND-2).
pub fn expansion_seat(state: &State, step: u8) -> Seat {
    let n = state.players.len();
    Seat(((state.start_player.index() + usize::from(step) % n) % n) as u8)
}

/// Whether `seat` still has to choose the cards it keeps (TR-EOR-1).
pub fn keep_pending(state: &State, seat: Seat) -> bool {
    matches!(state.phase, Phase::RoundEnd)
        && state.keep[seat.index()].is_none()
        && state.player(seat).cards.total() > u32::from(state.config.cards_kept)
}

/// `seat`'s action-phase turn, with nothing else pending.
///
/// # Errors
/// `tyros.wrong_phase`, `not_your_turn` or `tyros.decision_pending`.
pub fn turn_of<E: Refusal>(state: &State, seat: Seat) -> Result<Turn, E> {
    let Some(turn) = state.turn() else {
        return Err(E::refuse(|| {
            RuleError::new(
                e::WRONG_PHASE,
                "TR-ACT-0",
                "actions are taken in the action phase",
            )
        }));
    };
    if turn.seat != seat {
        return Err(E::refuse(|| RuleError::not_your_turn(seat)));
    }
    if !matches!(awaiting(state), Awaiting::Turn(_)) {
        return Err(E::refuse(|| {
            RuleError::new(
                e::DECISION_PENDING,
                "TR-ACT-0",
                "a payment, fight or trade offer must be settled first",
            )
        }));
    }
    Ok(*turn)
}

/// `seat`'s turn before its one action (TR-ACT-0).
///
/// # Errors
/// As [`turn_of`], and `tyros.action_already_taken`.
pub fn fresh_turn_of<E: Refusal>(state: &State, seat: Seat) -> Result<Turn, E> {
    let turn = turn_of::<E>(state, seat)?;
    if turn.acted {
        return Err(E::refuse(|| {
            RuleError::new(
                e::ACTION_ALREADY_TAKEN,
                "TR-ACT-0",
                "a turn has exactly one action",
            )
        }));
    }
    Ok(turn)
}

pub(super) fn unaffordable<E: Refusal>(rule: &'static str, what: &str) -> E {
    E::refuse(|| {
        RuleError::new(
            e::CANNOT_AFFORD,
            rule,
            format!("your cards cannot pay all of {what}; nothing is paid in part (TR-D-19)"),
        )
    })
}

/// The cell of `seat`'s own ship `ship` on the board.
///
/// # Errors
/// `tyros.not_your_ship` or `tyros.ship_not_on_board`.
pub fn own_ship_at<E: Refusal>(
    state: &State,
    seat: Seat,
    ship: ShipId,
    rule: &'static str,
) -> Result<Cell, E> {
    if ship.index() >= state.ships.len() || state.ship(ship).owner != seat {
        return Err(E::refuse(|| {
            RuleError::new(
                e::NOT_YOUR_SHIP,
                rule,
                format!("ship {} is not yours", ship.0),
            )
        }));
    }
    state.ship(ship).at.ok_or_else(|| {
        E::refuse(|| {
            RuleError::new(
                e::SHIP_NOT_ON_BOARD,
                rule,
                format!("ship {} is in your supply", ship.0),
            )
        })
    })
}

/// Orders a payer's dues as `payment` expects: colours, then identical cards, then any cards.
pub(super) fn ordered(mut dues: Vec<Due>) -> Vec<Due> {
    dues.retain(|d| d.count > 0);
    dues.sort_by_key(|d| match d.need {
        Need::Colour { .. } => 0,
        Need::Identical => 1,
        Need::Any => 2,
    });
    dues
}

pub(super) fn due(payer: Seat, need: Need, count: u8, to: Option<Seat>, reason: DueReason) -> Due {
    Due {
        payer,
        need,
        count,
        to,
        reason,
    }
}

pub(super) fn variant_off<E: Refusal>(rule: &'static str, option: &str) -> E {
    E::refuse(|| {
        RuleError::new(
            e::VARIANT_OFF,
            rule,
            format!("this game is played without `{option}`"),
        )
    })
}

/// Cards a seat gives up must be in its hand.
pub fn check_in_hand(
    state: &State,
    seat: Seat,
    cards: &Cards,
    rule: &'static str,
) -> Result<(), RuleError> {
    if state.player(seat).cards.contains(cards) {
        Ok(())
    } else {
        Err(RuleError::new(
            e::CARDS_NOT_IN_HAND,
            rule,
            format!("you do not hold {cards}"),
        ))
    }
}
