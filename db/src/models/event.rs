//! The game log's rows (`game_events`): an event as stored, with the seat and the action that
//! caused it, and an event about to be appended. A module of its own because the log is the
//! truth a game is replayed from (a snapshot is only its cache), and its row shape is read by
//! every history endpoint while [`NewEvent`] is what every decision hands the store.

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use uuid::Uuid;

use crate::schema::game_events;

/// A `game_events` row.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable, serde::Serialize)]
#[diesel(table_name = game_events, check_for_backend(Pg))]
pub struct EventRow {
    /// Game id.
    pub game_id: Uuid,
    /// 1-based position in the game's log; consecutive, no gaps.
    pub seq: i64,
    /// Seat whose action caused the event (None for setup/automatic events).
    pub seat: Option<i32>,
    /// The action as submitted (None for setup events).
    pub action: Option<serde_json::Value>,
    /// The event itself.
    pub event: serde_json::Value,
    /// When it was stored.
    pub created_at: DateTime<Utc>,
}

/// An event to append; the store assigns `seq`.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    /// Seat whose action caused it.
    pub seat: Option<i32>,
    /// The causing action.
    pub action: Option<serde_json::Value>,
    /// The event.
    pub event: serde_json::Value,
}

impl NewEvent {
    /// A setup or automatic event, caused by no seat's action.
    pub fn system(event: serde_json::Value) -> Self {
        NewEvent {
            seat: None,
            action: None,
            event,
        }
    }

    /// An event caused by `seat` submitting `action`.
    pub fn by_seat(seat: i32, action: serde_json::Value, event: serde_json::Value) -> Self {
        NewEvent {
            seat: Some(seat),
            action: Some(action),
            event,
        }
    }
}
