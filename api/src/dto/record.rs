//! What a game record carries beside what the rules need (`engine::record::Record`'s
//! `table`): who sat where, the time control, the times and how the game ended.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::{Clock, GameStatus, Outcome, SeatInfo};

/// The server's facts of a recorded game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RecordTable {
    pub status: GameStatus,
    pub rated: bool,
    pub clock: Clock,
    /// The seats as the game's document shows them (names, players, bots, who left).
    pub seats: Vec<SeatInfo>,
    pub created_at: DateTime<Utc>,
    /// `null` while the game is not over.
    #[schema(required = true)]
    pub finished_at: Option<DateTime<Utc>>,
    /// How the game ended (places, scores, who resigned or timed out); `null` until it is over.
    #[schema(required = true)]
    pub outcome: Option<Outcome>,
    /// The game this record was imported as a copy of, when it was imported
    /// (`POST /v1/records`); `null` for a game played here.
    #[schema(required = true)]
    pub imported_from: Option<String>,
}

/// `201` of `POST /v1/records`: the imported game.
#[derive(Debug, Clone, Serialize, serde::Deserialize, ToSchema)]
pub struct ImportedGame {
    pub game_id: uuid::Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub version: i64,
    pub status: GameStatus,
    /// The id of the game the record records (on the server that played it).
    pub imported_from: uuid::Uuid,
}
