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
}

impl SeatRow {
    /// Whether nobody holds this seat yet.
    pub fn is_open(&self) -> bool {
        self.joined_at.is_none()
    }
}
