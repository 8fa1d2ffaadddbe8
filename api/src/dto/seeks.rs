//! Seeks as clients see them: a player waiting for opponents for a game of some kind, until
//! enough seekers match.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::lifecycle::{Clock, ClockRequest};
use super::schema;

/// `POST /v1/seeks`: wait for opponents for a game of this kind.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// A type from `GET /v1/game-types`.
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    /// How many seats the game has (within the type's range); the seeker takes one.
    #[schema(minimum = 1)]
    pub seats: usize,
    /// The time control; no clock when absent.
    #[serde(default)]
    pub clock: Option<ClockRequest>,
    /// A rated game (every seat a player's; no bot fill). Default false.
    #[serde(default)]
    pub rated: Option<bool>,
    /// The game's configuration; the type's `default_config` when absent.
    #[serde(default)]
    #[schema(schema_with = schema::config)]
    pub config: Option<Value>,
    /// After this many seconds (1 to 86,400) without enough seekers, the game starts with
    /// the seekers there are and the server's bots (`greedy`) in the other seats. Not for
    /// rated seeks.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 86400)]
    pub fill_with_bots_after: Option<u32>,
    /// What the seeker adds to the chance of the game the seek is matched into, as a seat's
    /// `entropy` in `POST /v1/games` (at most 128 bytes; shown once that game is over).
    #[serde(default)]
    #[schema(max_length = 128)]
    pub entropy: Option<String>,
}

/// Where a seek stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeekStatus {
    /// Waiting for compatible seekers.
    Waiting,
    /// A game was created with the seeker seated (`game_id`, `seat`).
    Matched,
    /// Cancelled by its player.
    Cancelled,
    /// Nobody matched it in time (after the server's `--seek-ttl`).
    Expired,
}

/// A seek.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Seek {
    pub seek_id: Uuid,
    pub player_id: Uuid,
    pub status: SeekStatus,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub seats: i32,
    pub clock: Clock,
    pub rated: bool,
    #[schema(schema_with = schema::config)]
    pub config: Value,
    #[schema(required = true)]
    pub fill_with_bots_after: Option<i32>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// The game it was matched into; `null` unless matched.
    #[schema(required = true)]
    pub game_id: Option<Uuid>,
    /// The seeker's seat in it; `null` unless matched.
    #[schema(required = true)]
    pub seat: Option<i32>,
}
