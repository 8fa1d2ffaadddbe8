//! The checks behind playing action cards (TR-AK-*): when a card may be played, breaking a
//! blockade and sinking a pirate ship. Shared by `decide` and `legal.rs`, so the two always
//! agree.

use super::data::{board, Cell, RoundsTo};
use super::errors as e;
use super::rules::{fresh_turn_of, own_ship_at, variant_off};
use super::state::{ActionCard, CardStatus, ShipId, State};
use crate::refusal::Refusal;
use crate::{RuleError, Seat};

/// The window and availability of an action card (TR-AK-2, TR-AK-3).
///
/// # Errors
/// The first rule playing it breaks.
pub fn check_action_card<E: Refusal>(state: &State, seat: Seat, card: ActionCard) -> Result<(), E> {
    fresh_turn_of::<E>(state, seat)?;
    let rule = "TR-AK-2";
    if !state.config.action_cards {
        return Err(variant_off::<E>(rule, "action_cards"));
    }
    if state.player(seat).action_cards.get(card) != CardStatus::Available {
        return Err(E::refuse(|| {
            RuleError::new(
                e::ACTION_CARD_UNAVAILABLE,
                rule,
                "each action card is played once",
            )
        }));
    }
    let data = board().action_card(card.data_id());
    let from = match card {
        ActionCard::Explorer => state.config.explorer_from_round,
        _ => data.rounds_from,
    };
    let in_window =
        state.round >= from && (data.rounds_to == RoundsTo::End || !state.someone_without_tiles());
    if !in_window {
        return Err(E::refuse(|| {
            RuleError::new(
                e::OUTSIDE_CARD_WINDOW,
                "TR-AK-3",
                format!(
                    "this card is played from round {from}{}",
                    if data.rounds_to == RoundsTo::End {
                        "".to_string()
                    } else {
                        " while every player still holds a landscape tile".to_string()
                    }
                ),
            )
        }));
    }
    Ok(())
}

/// "Blockadebrecher" (TR-AK-5): `ship` is a rival ship sharing a cell with an own ship, `to`
/// an adjacent empire field with room.
///
/// # Errors
/// The first rule the relocation breaks.
pub fn check_blockade<E: Refusal>(
    state: &State,
    seat: Seat,
    ship: ShipId,
    to: Cell,
) -> Result<Cell, E> {
    check_action_card::<E>(state, seat, ActionCard::BlockadeBreaker)?;
    let bad = |why: &dyn Fn() -> String| {
        Err(E::refuse(|| {
            RuleError::new(e::INVALID_RELOCATION, "TR-AK-5", why())
        }))
    };
    if ship.index() >= state.ships.len() {
        return bad(&|| format!("there is no ship {}", ship.0));
    }
    let target = state.ship(ship);
    let Some(from) = target.at.filter(|_| target.owner != seat) else {
        return bad(&|| format!("ship {} is no rival ship on the board", ship.0));
    };
    if !state.ships_at(from).any(|id| state.ship(id).owner == seat) {
        return bad(&|| format!("you have no ship in {from}"));
    }
    if !state.map().adjacent(from, to)
        || to.is_tyros()
        || state.field(to).empire.is_none()
        || state.ship_count(to) >= usize::from(board().constants.ship_limit_per_field)
    {
        return bad(&|| format!("{to} is no adjacent empire field with room for a ship"));
    }
    Ok(from)
}

/// A galley sinking a rival normal ship (TR-GAL-4): both have shared the field since before
/// this turn began.
///
/// # Errors
/// The first rule the sinking breaks.
pub fn check_sink<E: Refusal>(
    state: &State,
    seat: Seat,
    galley: ShipId,
    target: ShipId,
) -> Result<(), E> {
    fresh_turn_of::<E>(state, seat)?;
    if !state.config.galleys {
        return Err(variant_off::<E>("TR-GAL-4", "galleys"));
    }
    let at = own_ship_at::<E>(state, seat, galley, "TR-GAL-4")?;
    let bad = |why: &dyn Fn() -> String| {
        Err(E::refuse(|| {
            RuleError::new(e::CANNOT_SINK, "TR-GAL-4", why())
        }))
    };
    if !state.ship(galley).galley {
        return bad(&|| format!("ship {} is no galley", galley.0));
    }
    if target.index() >= state.ships.len() {
        return bad(&|| format!("there is no ship {}", target.0));
    }
    let t = state.ship(target);
    if t.owner == seat || t.galley || t.at != Some(at) || at.is_tyros() {
        return bad(&|| {
            format!(
                "ship {} is no rival normal ship in your galley's field",
                target.0
            )
        });
    }
    let now = state.turn_number;
    if state.ship(galley).arrived >= now || t.arrived >= now {
        return bad(&|| "the ships must have shared the field since before this turn".into());
    }
    Ok(())
}
