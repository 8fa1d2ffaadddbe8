//! The `players` row as it may leave the store: id, name and creation time, never the token
//! hash (the store only compares it, in SQL, with the hash of a token it is shown). A module
//! of its own so that selecting a player (`PlayerRow::as_select()`) cannot bring the hash along.

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use uuid::Uuid;

use crate::schema::players;

/// A `players` row without its token hash, which never leaves the store.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, serde::Serialize)]
#[diesel(table_name = players, check_for_backend(Pg))]
pub struct PlayerRow {
    /// Player id.
    pub id: Uuid,
    /// The name as the player chose it.
    pub name: String,
    /// When the player was created.
    pub created_at: DateTime<Utc>,
}
