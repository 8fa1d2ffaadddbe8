//! The `seats` row as it may leave the store: who holds a seat (a name, a player, the server's
//! bot), never its token hash, plus the seat's chance entropy (secret until the game is over;
//! the api decides when to show it). A module of its own because every document, list and
//! lifecycle decision reads seats apart from their game's row.

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use uuid::Uuid;

use crate::schema::seats;

/// A `seats` row without its token hash, which never leaves the store.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable, serde::Serialize)]
#[diesel(table_name = seats, check_for_backend(Pg))]
pub struct SeatRow {
    /// Game id.
    pub game_id: Uuid,
    /// Seat number (0-based, like `engine::Seat`).
    pub seat: i32,
    /// Display name (None while open).
    pub name: Option<String>,
    /// When the seat was taken (None while open).
    pub joined_at: Option<DateTime<Utc>>,
    /// The level of the server's bot playing this seat (`random`, `greedy`, `mcts`); None for
    /// a person's seat or an open one.
    pub bot_level: Option<String>,
    /// The bot's time budget per move in milliseconds; None for the server's default.
    pub bot_budget_ms: Option<i32>,
    /// The player this seat belongs to (migration 11): the player's token acts for it. None
    /// for a seat taken with a seat token, a bot's seat or an open one.
    pub player_id: Option<Uuid>,
    /// What the seat's taker added to the game's chance (migration 25); secret until the
    /// game is over.
    pub entropy: Option<String>,
}

impl SeatRow {
    /// Whether nobody holds this seat yet.
    pub fn is_open(&self) -> bool {
        self.joined_at.is_none()
    }

    /// Whether the server's bot plays this seat.
    pub fn is_bot(&self) -> bool {
        self.bot_level.is_some()
    }
}
