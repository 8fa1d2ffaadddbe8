//! Challenges and rematches: playing with the people you choose.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{schema, BotLevel, Clock, ClockRequest};

/// `POST /v1/challenges`: a game with the players you name.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// A type from `GET /v1/game-types`.
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    /// The players challenged, each by id or by name: one seat each, after the challenger's.
    #[schema(min_items = 1)]
    pub players: Vec<String>,
    /// The server's bots for further seats, after the players'.
    #[serde(default)]
    pub bots: Option<Vec<BotLevel>>,
    /// The time control; no clock when absent.
    #[serde(default)]
    pub clock: Option<ClockRequest>,
    /// A rated game (no bot). Default false.
    #[serde(default)]
    pub rated: Option<bool>,
    /// The game's configuration; the type's `default_config` when absent.
    #[serde(default)]
    #[schema(schema_with = schema::config)]
    pub config: Option<Value>,
    /// What the challenger adds to the game's chance, as a seat's `entropy` in
    /// `POST /v1/games` (at most 128 bytes; shown once the game is over).
    #[serde(default)]
    #[schema(max_length = 128)]
    pub entropy: Option<String>,
}

/// `POST /v1/challenges/{id}/accept` and `POST /v1/games/{id}/rematch`: optional.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AcceptChallenge {
    /// What the accepting player adds to the game's chance (at most 128 bytes).
    #[serde(default)]
    #[schema(max_length = 128)]
    pub entropy: Option<String>,
}

/// `POST /v1/challenges/{id}/decline`: optional.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclineChallenge {
    /// Why; `generic` when absent.
    #[serde(default)]
    pub reason: Option<DeclineReason>,
}

/// Why a challenge was declined (Lichess's reasons, for clients that show them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeclineReason {
    Generic,
    Later,
    TooFast,
    TooSlow,
    NotRated,
    Rated,
}

impl DeclineReason {
    /// The reason as stored.
    pub fn name(self) -> &'static str {
        match self {
            DeclineReason::Generic => "generic",
            DeclineReason::Later => "later",
            DeclineReason::TooFast => "too_fast",
            DeclineReason::TooSlow => "too_slow",
            DeclineReason::NotRated => "not_rated",
            DeclineReason::Rated => "rated",
        }
    }

    /// The reason stored as `name`.
    pub fn parse(name: &str) -> Option<DeclineReason> {
        [
            DeclineReason::Generic,
            DeclineReason::Later,
            DeclineReason::TooFast,
            DeclineReason::TooSlow,
            DeclineReason::NotRated,
            DeclineReason::Rated,
        ]
        .into_iter()
        .find(|r| r.name() == name)
    }
}

/// Where a challenge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeStatus {
    /// Waiting for answers.
    Pending,
    /// Everyone accepted: the game exists (`game_id`).
    Accepted,
    /// A challenged player declined (`declined_by`, `decline_reason`).
    Declined,
    /// The challenger withdrew it.
    Cancelled,
    /// Not everyone accepted before `expires_at`.
    Expired,
}

/// A seat of the challenged game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChallengeSeat {
    pub seat: i32,
    /// The player of the seat; `null` for a bot's.
    #[schema(required = true)]
    pub player_id: Option<Uuid>,
    /// The player's name; `null` for a bot's seat.
    #[schema(required = true)]
    pub name: Option<String>,
    /// The bot of the seat; `null` for a player's.
    #[schema(required = true)]
    pub bot: Option<BotLevel>,
    /// Whether the seat's player accepted (the challenger's seat: always); `null` for a bot.
    #[schema(required = true)]
    pub accepted: Option<bool>,
}

/// A challenge as its players see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Challenge {
    pub challenge_id: Uuid,
    pub status: ChallengeStatus,
    /// Who sent it.
    pub challenger_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    #[schema(schema_with = schema::config)]
    pub config: Value,
    pub clock: Clock,
    pub rated: bool,
    /// The table, in seat order (the challenger's first; a rematch's rotated).
    pub seats: Vec<ChallengeSeat>,
    /// The player who declined; `null` unless declined.
    #[schema(required = true)]
    pub declined_by: Option<Uuid>,
    #[schema(required = true)]
    pub decline_reason: Option<DeclineReason>,
    /// The game, once everyone accepted; `null` before.
    #[schema(required = true)]
    pub game_id: Option<Uuid>,
    /// For a rematch: the game it is a rematch of.
    #[schema(required = true)]
    pub rematch_of: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// `GET /v1/challenges`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChallengeList {
    /// Newest first, at most 100.
    pub challenges: Vec<Challenge>,
}

/// Which challenges to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeRole {
    /// The ones I sent.
    Sent,
    /// The ones sent to me.
    Received,
}

/// `GET /v1/challenges` query.
#[derive(Debug, Clone, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ChallengeQuery {
    /// Only the challenges I sent, or only those sent to me; both when absent.
    #[param(inline)]
    pub role: Option<ChallengeRole>,
    /// Only challenges in this state.
    #[param(inline)]
    pub status: Option<ChallengeStatus>,
}

/// A player challenged the player to a game: accept or decline it
/// (`POST /v1/challenges/{challenge_id}/accept`, `.../decline`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChallengeNotice {
    pub seq: i64,
    pub challenge_id: Uuid,
    pub challenger_id: Uuid,
    pub challenger_name: String,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub rated: bool,
    /// For a rematch: the game it is a rematch of.
    #[schema(required = true)]
    pub rematch_of: Option<Uuid>,
    pub expires_at: DateTime<Utc>,
}

/// A challenge the player sent or received ended without a game: declined or cancelled.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChallengeEndedNotice {
    pub seq: i64,
    pub challenge_id: Uuid,
    pub status: ChallengeStatus,
    /// Who declined or cancelled it.
    pub by: Uuid,
    /// Why, when declined.
    #[schema(required = true)]
    pub reason: Option<DeclineReason>,
}

/// Whom a player takes challenges from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChallengesFrom {
    /// Everyone but the players blocked (`POST /v1/players/me/blocks`).
    Everyone,
    /// Nobody: every challenge is refused.
    Nobody,
}

impl ChallengesFrom {
    /// As stored.
    pub fn name(self) -> &'static str {
        match self {
            ChallengesFrom::Everyone => "everyone",
            ChallengesFrom::Nobody => "nobody",
        }
    }
}

/// `GET`/`PUT /v1/players/me/settings`: the player's settings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerSettings {
    pub challenges_from: ChallengesFrom,
}

/// `POST /v1/players/me/blocks`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BlockRequest {
    /// The player to block, by id or by name.
    pub player: String,
}

/// A player, by id and name.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerRef {
    pub player_id: Uuid,
    pub name: String,
}

/// `GET /v1/players/me/blocks`: the players whose challenges the player refuses.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Blocks {
    pub players: Vec<PlayerRef>,
}
