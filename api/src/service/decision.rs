//! The engine's verdicts as the store appends them: setup and actions become the same
//! [`Decision`] (events, snapshot, status), written by the same append path.

use db::store::{BotTurn, Decision};
use db::{JsonText, NewEvent, SeatRow};
use engine::{DynState, Seat};
use serde_json::Value;

use super::caller::wire_seat;

/// The status of a game in `state`: finished once it has an outcome.
pub fn status_of(state: &dyn DynState) -> db::GameStatus {
    if state.outcome().is_some() {
        db::GameStatus::Finished
    } else {
        db::GameStatus::Active
    }
}

/// The seats `state` waits for, as stored beside it (none once the game is over).
pub fn active_seats(state: &dyn DynState) -> Vec<i32> {
    if state.outcome().is_some() {
        return Vec::new();
    }
    state.active_seats().into_iter().map(wire_seat).collect()
}

/// The setup `events` that led to `state` (no seat caused them), at a table of `bots`.
pub fn setup(state: &dyn DynState, events: Vec<Value>, bots: &Bots) -> Decision {
    Decision {
        events: events.into_iter().map(NewEvent::system).collect(),
        snapshot: JsonText::new(state.snapshot()),
        status: status_of(state),
        active_seats: active_seats(state),
        bot_turn: bots.turn_after(state),
    }
}

/// The `events` that `seat`'s `action` caused, leading to `state`, at a table of `bots`.
pub fn action(
    state: &dyn DynState,
    seat: Seat,
    action: &Value,
    events: Vec<Value>,
    bots: &Bots,
) -> Decision {
    Decision {
        events: events
            .into_iter()
            .map(|e| NewEvent::by_seat(wire_seat(seat), action.clone(), e))
            .collect(),
        snapshot: JsonText::new(state.snapshot()),
        status: status_of(state),
        active_seats: active_seats(state),
        bot_turn: bots.turn_after(state),
    }
}

/// The bot seats of a game and the pause before each bot move: what every decision needs to
/// arm (or clear) the game's bot turn in the same write.
#[derive(Debug, Clone, Default)]
pub struct Bots {
    seats: Vec<Seat>,
    delay_ms: i32,
}

impl Bots {
    /// The bots among `seats`, moving after `delay_ms`.
    pub fn at(seats: &[SeatRow], delay_ms: u32) -> Bots {
        let bots = seats
            .iter()
            .filter(|s| s.is_bot())
            .filter_map(|s| u8::try_from(s.seat).ok().map(Seat))
            .collect();
        Bots::in_seats(bots, delay_ms)
    }

    /// The bots in `seats` (a create request's bot seats, before any row exists), moving after
    /// `delay_ms`.
    pub fn in_seats(seats: Vec<Seat>, delay_ms: u32) -> Bots {
        Bots {
            seats,
            delay_ms: i32::try_from(delay_ms).unwrap_or(i32::MAX),
        }
    }

    /// `None` for a game without bots (nothing to write); otherwise the lowest bot seat that
    /// the game waits for in `state`, if any. One bot turn per game at a time: when several
    /// bot seats are active, the next is armed after this one's move.
    pub fn turn_after(&self, state: &dyn DynState) -> Option<BotTurn> {
        if self.seats.is_empty() {
            return None;
        }
        let seat = if state.outcome().is_some() {
            None
        } else {
            let mut active = state.active_seats();
            active.sort();
            active.into_iter().find(|s| self.seats.contains(s))
        };
        Some(BotTurn {
            seat: seat.map(wire_seat),
            delay_ms: self.delay_ms,
        })
    }
}
