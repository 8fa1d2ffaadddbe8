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

/// Query of `GET /v1/players/{id}/records`.
#[derive(Debug, Clone, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct RecordsQuery {
    /// Only games of this type.
    #[serde(rename = "type")]
    #[param(value_type = Option<super::GameTypeName>)]
    pub type_: Option<String>,
    /// Only rated (`true`) or unrated (`false`) games.
    pub rated: Option<bool>,
    /// Only games that ended at or after this time (RFC 3339).
    pub since: Option<DateTime<Utc>>,
    /// Only games that ended before this time (RFC 3339).
    pub until: Option<DateTime<Utc>>,
    /// The cursor of the previous page (from its `Link: rel="next"`).
    pub cursor: Option<String>,
    /// Games a page, 1 to 50 (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 50)]
    pub limit: Option<crate::extract::RecordsLimit>,
}
