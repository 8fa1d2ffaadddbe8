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
    let snapshot = state.snapshot();
    Decision {
        events: events.into_iter().map(NewEvent::system).collect(),
        bot_turn: bots.turn_after(state, &snapshot),
        snapshot: JsonText::new(snapshot),
        status: status_of(state),
        active_seats: active_seats(state),
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
    let snapshot = state.snapshot();
    Decision {
        events: events
            .into_iter()
            .map(|e| NewEvent::by_seat(wire_seat(seat), action.clone(), e))
            .collect(),
        bot_turn: bots.turn_after(state, &snapshot),
        snapshot: JsonText::new(snapshot),
        status: status_of(state),
        active_seats: active_seats(state),
    }
}

/// The bot seats of a game and the pause before each bot move: what every decision needs to
/// arm (or clear) the game's bot turn in the same write.
#[derive(Debug, Clone, Default)]
pub struct Bots {
    seats: Vec<Seat>,
    delay_ms: i32,
    /// The game type, for bots' standing actions ([`Bots::in_game`]).
    game: Option<String>,
}

impl Bots {
    /// The bots among `seats`, moving after `delay_ms`.
    pub fn at(seats: &[SeatRow], delay_ms: u32) -> Bots {
        Bots {
            seats: seats
                .iter()
                .filter(|s| s.is_bot())
                .filter_map(|s| u8::try_from(s.seat).ok().map(Seat))
                .collect(),
            delay_ms: i32::try_from(delay_ms).unwrap_or(i32::MAX),
            game: None,
        }
    }

    /// The bots of a create request's seat plan (numbered in its order).
    pub fn of_plan(seats: &[super::lobby::SeatPlan], delay_ms: u32) -> Bots {
        Bots {
            seats: (0..=u8::MAX)
                .zip(seats)
                .filter(|(_, s)| matches!(s, super::lobby::SeatPlan::Bot(_)))
                .map(|(i, _)| Seat(i))
                .collect(),
            delay_ms: i32::try_from(delay_ms).unwrap_or(i32::MAX),
            game: None,
        }
    }

    /// The same bots in a game of type `game`: their standing actions outside their turns
    /// (a Monopoly rent to claim, an offer to answer) are armed too.
    pub fn in_game(mut self, game: &str) -> Bots {
        self.game = Some(game.to_string());
        self
    }

    /// `None` for a game without bots (nothing to write); otherwise the lowest bot seat that
    /// the game waits for in `state` (stored as `snapshot`), or else the lowest bot seat with
    /// a standing action to take ([`bots::standing_seat`]), if any. One bot turn per game at a
    /// time: when several bot seats may move, the next is armed after this one's move.
    pub fn turn_after(&self, state: &dyn DynState, snapshot: &str) -> Option<BotTurn> {
        if self.seats.is_empty() {
            return None;
        }
        let seat = if state.outcome().is_some() {
            None
        } else {
            let mut active = state.active_seats();
            active.sort();
            active
                .into_iter()
                .find(|s| self.seats.contains(s))
                .or_else(|| self.standing_seat(snapshot))
        };
        Some(BotTurn {
            seat: seat.map(wire_seat),
            delay_ms: self.delay_ms,
        })
    }

    fn standing_seat(&self, snapshot: &str) -> Option<Seat> {
        let game = self.game.as_deref()?;
        bots::standing_seat(game, snapshot, &self.seats).unwrap_or_else(|error| {
            tracing::error!(%error, game, "bots' standing actions unreadable");
            None
        })
    }
}
