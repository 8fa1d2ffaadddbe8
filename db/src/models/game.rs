//! The `games` row and the two column types only it has: [`GameStatus`], the lifecycle every
//! store function guards on, and [`RngSeed`], the secret seed of a game's chance, which must
//! never be printed or serialised. They live together because a game's status and seed are
//! read and written only with its row (under its row lock).

use std::fmt;
use std::io::Write;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::pg::{Pg, PgValue};
use diesel::prelude::*;
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::{Bytea, Text};
use uuid::Uuid;

use crate::models::JsonText;
use crate::schema::games;

/// Lifecycle of a game: seats fill while `Open`, actions are accepted while `Active`, and
/// nothing changes once it is over: `Finished` (by its rules, or because too few seats are
/// left in it), `Aborted` (before anyone moved) or `Expired` (its seats were not all taken in
/// time). Stored as text (`'open' | 'active' | 'finished' | 'aborted' | 'expired'`, enforced
/// by a CHECK constraint) so the database stays readable with plain SQL.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    AsExpression,
    FromSqlRow,
    serde::Serialize,
    serde::Deserialize,
)]
#[diesel(sql_type = Text)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Created; seats may still be open; no actions yet.
    Open,
    /// Started; seats act in turn.
    Active,
    /// Over; `finished_at` is set.
    Finished,
    /// Ended by a seated player before any seat moved; no winner. `finished_at` is set.
    Aborted,
    /// Its seats were not all taken in time; it never started. `finished_at` is set.
    Expired,
}

impl GameStatus {
    /// The stored (and JSON) spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
            GameStatus::Expired => "expired",
        }
    }

    /// Whether nothing changes any more (`finished_at` is set).
    pub fn is_over(self) -> bool {
        matches!(
            self,
            GameStatus::Finished | GameStatus::Aborted | GameStatus::Expired
        )
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown status spelling.
#[derive(Debug, Clone, thiserror::Error)]
#[error("unknown game status {0:?} (expected open, active, finished, aborted or expired)")]
pub struct UnknownStatus(pub String);

impl FromStr for GameStatus {
    type Err = UnknownStatus;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "open" => Ok(GameStatus::Open),
            "active" => Ok(GameStatus::Active),
            "finished" => Ok(GameStatus::Finished),
            "aborted" => Ok(GameStatus::Aborted),
            "expired" => Ok(GameStatus::Expired),
            other => Err(UnknownStatus(other.to_string())),
        }
    }
}

impl ToSql<Text, Pg> for GameStatus {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        out.write_all(self.as_str().as_bytes())?;
        Ok(IsNull::No)
    }
}

impl FromSql<Text, Pg> for GameStatus {
    fn from_sql(bytes: PgValue<'_>) -> deserialize::Result<Self> {
        let s = <String as FromSql<Text, Pg>>::from_sql(bytes)?;
        Ok(s.parse()?)
    }
}

/// The 32-byte seed of a game's RNG. It is secret (knowing it predicts every future roll and
/// draw), so it has no `Serialize` and its `Debug` prints nothing of it.
#[derive(Clone, PartialEq, Eq, AsExpression, FromSqlRow)]
#[diesel(sql_type = Bytea)]
pub struct RngSeed(pub [u8; 32]);

impl fmt::Debug for RngSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RngSeed(<secret>)")
    }
}

impl ToSql<Bytea, Pg> for RngSeed {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        out.write_all(&self.0)?;
        Ok(IsNull::No)
    }
}

impl FromSql<Bytea, Pg> for RngSeed {
    fn from_sql(bytes: PgValue<'_>) -> deserialize::Result<Self> {
        let raw = bytes.as_bytes();
        let seed: [u8; 32] = raw
            .try_into()
            .map_err(|_| format!("rng_seed has {} bytes, expected 32", raw.len()))?;
        Ok(RngSeed(seed))
    }
}

/// A `games` row.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = games, check_for_backend(Pg))]
pub struct GameRow {
    /// Game id.
    pub id: Uuid,
    /// Engine game type (`tycoon`, `acquire`, ...).
    pub game_type: String,
    /// Rules version the game was created with; replays must use the same.
    pub rules_version: i32,
    /// Validated game config.
    pub config: serde_json::Value,
    /// Lifecycle status.
    pub status: GameStatus,
    /// Seq of the last event (0 before any).
    pub version: i64,
    /// Full state after event `version` (None before start).
    pub snapshot: Option<JsonText>,
    /// The seats the game waits for (see migration 9): empty unless active, and for a game
    /// last written before the column existed.
    pub active_seats: Vec<i32>,
    /// Number of seats.
    pub seat_count: i32,
    /// Secret RNG seed.
    pub rng_seed: RngSeed,
    /// Creation time (also the listing order).
    pub created_at: DateTime<Utc>,
    /// Time of the last change.
    pub updated_at: DateTime<Utc>,
    /// Set once the game is over.
    pub finished_at: Option<DateTime<Utc>>,
    /// The time control chosen at creation, as the api stores it; `None`: no clock.
    pub clock: Option<serde_json::Value>,
    /// The fold of the seats' lifecycle and clocks (migration 10), as the api stores it;
    /// `None` while nothing happened to the seats of a game without a clock.
    pub lifecycle: Option<JsonText>,
    /// Whether the game is rated (chosen at creation, migration 11): its players' ratings
    /// change when it finishes.
    pub rated: bool,
    /// How the game draws its chance (migration 25): 1 for games created before checkable
    /// chance, 2 for the derivation `docs/fairness.md` documents.
    pub chance_version: i32,
    /// Whether a client's `seed` fixed the game's chance (migration 25).
    pub chance_seeded: bool,
    /// For a game imported from a record: the id of the game it records (migration 25).
    pub imported_from: Option<Uuid>,
}
