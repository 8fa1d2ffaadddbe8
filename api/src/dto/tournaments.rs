//! Tournaments: Swiss and knockout.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{schema, BotLevel, Clock, ClockRequest};

/// How a tournament is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TournamentFormat {
    /// A fixed number of rounds; each round seats players of similar points together, and
    /// nobody meets an opponent again while a seating without that exists.
    Swiss,
    /// Each table's better half (by place) goes on to the next round, until one table is
    /// left: its places decide the tournament.
    Knockout,
}

impl TournamentFormat {
    /// As stored.
    pub fn name(self) -> &'static str {
        match self {
            TournamentFormat::Swiss => "swiss",
            TournamentFormat::Knockout => "knockout",
        }
    }
}

/// `POST /v1/tournaments`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TournamentRequest {
    /// Shown in lists.
    #[schema(min_length = 1, max_length = 80)]
    pub name: String,
    /// A type from `GET /v1/game-types`.
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    /// The games' configuration; the type's `default_config` when absent.
    #[serde(default)]
    #[schema(schema_with = schema::config)]
    pub config: Option<Value>,
    /// Every game's time control (required: absent players must not stall a round).
    pub clock: ClockRequest,
    /// Rated games (no bots). Default false.
    #[serde(default)]
    pub rated: Option<bool>,
    pub format: TournamentFormat,
    /// Swiss: the number of rounds (1 to 20). Not for knockout.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 20)]
    pub rounds: Option<i32>,
    /// Seats per table, within the game's seat counts.
    pub table_size: i32,
    /// The server's bots fill incomplete tables (every player plays every round); otherwise
    /// the players left over have a bye. Default false; not for rated tournaments.
    #[serde(default)]
    pub fill_with_bots: Option<bool>,
    /// The bots' level when they fill tables (default `greedy`).
    #[serde(default)]
    pub bot: Option<BotLevel>,
    /// At most this many players (2 to 256, default 64).
    #[serde(default)]
    #[schema(minimum = 2, maximum = 256)]
    pub max_players: Option<i32>,
    /// When the first round starts (the organiser may start it earlier).
    pub starts_at: DateTime<Utc>,
}

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TournamentStatus {
    /// Players join until it starts.
    Waiting,
    /// A round is being played (`round`).
    Running,
    Finished,
    /// Fewer than two players were there at its start.
    Cancelled,
}

/// A player's line of the standings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Standing {
    /// 1 for the first; players equal on every tie-break share a rank.
    pub rank: u32,
    pub player_id: Uuid,
    pub name: String,
    /// Points over the rounds: at a table of n seats, n − place (the first of four 3, the
    /// last 0); a bye scores as a first place at a full table.
    pub points: i32,
    /// The first tie-break: the sum of the points of everyone the player sat with.
    pub opponents_points: i32,
    /// The second tie-break: the sum of the player's game scores.
    pub score: i64,
    /// Rounds played at a table, and rounds sat out.
    pub games: u32,
    pub byes: u32,
    /// Knockout: the round the player went out in; `null` while in (and for the winner).
    #[schema(required = true)]
    pub out_in_round: Option<i32>,
    /// Whether the player withdrew.
    pub withdrawn: bool,
}

/// A tournament.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Tournament {
    pub tournament_id: Uuid,
    pub name: String,
    pub organiser_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    #[schema(schema_with = schema::config)]
    pub config: Value,
    pub clock: Clock,
    pub rated: bool,
    pub format: TournamentFormat,
    /// Swiss: its number of rounds; knockout: `null`.
    #[schema(required = true)]
    pub rounds: Option<i32>,
    pub table_size: i32,
    pub fill_with_bots: bool,
    pub max_players: i32,
    pub starts_at: DateTime<Utc>,
    pub status: TournamentStatus,
    /// The round being played, or the last one played (0 before the start).
    pub round: i32,
    /// Ranked (before the start: in the order they joined, all at 0).
    pub standings: Vec<Standing>,
    pub created_at: DateTime<Utc>,
    #[schema(required = true)]
    pub finished_at: Option<DateTime<Utc>>,
}

/// `GET /v1/tournaments`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentList {
    /// Newest first, at most 100; without standings (read a tournament for them).
    pub tournaments: Vec<Tournament>,
}

/// A seat at a tournament table.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentSeat {
    pub seat: i32,
    /// `null` for a bot.
    #[schema(required = true)]
    pub player_id: Option<Uuid>,
    /// The player's place in the game, once it is over; `null` before (and for an aborted
    /// game).
    #[schema(required = true)]
    pub place: Option<i32>,
    /// The points the player got for it, once the round is over.
    #[schema(required = true)]
    pub points: Option<i32>,
}

/// A table of a round: its game, or a bye (`game_id` null, one player).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentTable {
    pub table: i32,
    #[schema(required = true)]
    pub game_id: Option<Uuid>,
    pub seats: Vec<TournamentSeat>,
}

/// A round.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentRound {
    pub round: i32,
    /// Whether every game of the round is over and scored.
    pub over: bool,
    pub tables: Vec<TournamentTable>,
}

/// `GET /v1/tournaments/{id}/rounds`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentRounds {
    pub rounds: Vec<TournamentRound>,
}

/// A round of a tournament the player is in started: its table (`game_id`, `seat`), or a
/// bye (`game_id` null).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentRoundNotice {
    pub seq: i64,
    pub tournament_id: Uuid,
    pub round: i32,
    #[schema(required = true)]
    pub game_id: Option<Uuid>,
    #[schema(required = true)]
    pub seat: Option<i32>,
}

/// A tournament the player was in finished.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentFinishedNotice {
    pub seq: i64,
    pub tournament_id: Uuid,
    pub rank: u32,
    pub points: i32,
}
