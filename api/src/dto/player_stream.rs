//! The messages of a player's stream (`GET /v1/players/me/stream`): turns, starts, offers,
//! results and matched seeks, each a notice with its place in the stream.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::games::{GameStatus, Outcome};
use super::schema;

/// A game now waits for one of the player's seats: act in it (its legal actions are in the
/// game document for the player's token). Sent for every commit after which the game waits
/// for the seat, unless the seat's own request made the commit (its answer says so already).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TurnNotice {
    /// Position in the player's stream (its SSE `id`).
    pub seq: i64,
    pub game_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    /// The version to act at (`expected_version`).
    pub version: i64,
    pub seat: u8,
    /// When the seat's clock runs out; `null` without a clock.
    #[schema(required = true)]
    pub deadline: Option<DateTime<Utc>>,
}

/// A game with one of the player's seats started.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameStartedNotice {
    pub seq: i64,
    pub game_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub version: i64,
    pub seat: u8,
    pub rated: bool,
}

/// A trade offer addressed to one of the player's seats.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct OfferNotice {
    pub seq: i64,
    pub game_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub version: i64,
    /// The seat the offer is addressed to.
    pub seat: u8,
    /// The seat that made it.
    #[schema(required = true)]
    pub from: Option<u8>,
    /// The game's event that made the offer (its `trade_offered`, as in the game's log), as
    /// the addressed seat sees it.
    #[schema(value_type = Object)]
    pub event: Value,
}

/// A game with one of the player's seats is over: finished (with its outcome) or aborted.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameFinishedNotice {
    pub seq: i64,
    pub game_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub version: i64,
    pub seat: u8,
    pub status: GameStatus,
    /// `null` for an aborted game.
    #[schema(required = true)]
    pub outcome: Option<Outcome>,
    /// Whether the game was rated (the player's new rating is on the profile).
    pub rated: bool,
}

/// A seek of the player's was matched: the game exists with the player seated.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeekMatchedNotice {
    pub seq: i64,
    pub seek_id: Uuid,
    pub game_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub seat: i32,
}

/// A message of `GET /v1/players/me/stream`: its SSE `event` is the `kind`, its `id` the
/// `seq`, its `data` this object.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayerNotice {
    Turn(TurnNotice),
    GameStarted(GameStartedNotice),
    Offer(OfferNotice),
    GameFinished(GameFinishedNotice),
    SeekMatched(SeekMatchedNotice),
    Challenge(super::ChallengeNotice),
    ChallengeEnded(super::ChallengeEndedNotice),
    TournamentRound(super::TournamentRoundNotice),
    TournamentFinished(super::TournamentFinishedNotice),
}

impl PlayerNotice {
    /// The `kind` (the SSE event name).
    pub fn kind(&self) -> &'static str {
        match self {
            PlayerNotice::Turn(_) => "turn",
            PlayerNotice::GameStarted(_) => "game_started",
            PlayerNotice::Offer(_) => "offer",
            PlayerNotice::GameFinished(_) => "game_finished",
            PlayerNotice::SeekMatched(_) => "seek_matched",
            PlayerNotice::Challenge(_) => "challenge",
            PlayerNotice::ChallengeEnded(_) => "challenge_ended",
            PlayerNotice::TournamentRound(_) => "tournament_round",
            PlayerNotice::TournamentFinished(_) => "tournament_finished",
        }
    }
}

/// The SSE `event` of a player stream's message: the notice's `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayerNoticeKind {
    Turn,
    GameStarted,
    Offer,
    GameFinished,
    SeekMatched,
    Challenge,
    ChallengeEnded,
    TournamentRound,
    TournamentFinished,
}

/// One message of `GET /v1/players/me/stream` as an SSE parser hands it over (`event`, `id`,
/// `data`): `data` is the JSON text of a `PlayerNotice` (`contentSchema` names it).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerStreamMessage {
    /// The notice's `kind`.
    pub event: PlayerNoticeKind,
    /// The notice's seq: where a reconnecting client resumes (`Last-Event-ID`).
    #[schema(pattern = "^[0-9]+$")]
    pub id: String,
    /// The notice, as JSON text.
    #[schema(schema_with = schema::player_notice_text)]
    pub data: String,
}

/// Query of `GET /v1/players/me/stream`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PlayerStreamQuery {
    /// Resume after this seq (like `Last-Event-ID`, which wins when both are sent).
    #[param(value_type = Option<i64>, minimum = 0)]
    pub after: Option<crate::extract::EventsAfter>,
}
