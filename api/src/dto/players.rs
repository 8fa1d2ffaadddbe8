//! Players as clients see them: identity and token, profiles with ratings and records, a
//! player's games, leaderboards, seeks, and the messages of the player's stream.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::games::{GameStatus, Outcome};
use super::lifecycle::{Clock, ClockRequest, SeatDeadline};
use super::schema;

/// `POST /v1/players`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatePlayerRequest {
    /// 2 to 24 characters: letters, digits and marks of any script, spaces, `_`, `-`, `.`;
    /// starting and ending with a letter or digit, no two spaces in a row. Unique among
    /// players after Unicode case folding (`Anna`, `ANNA` and `anna` are one name).
    pub name: String,
}

/// `201` of `POST /v1/players`: the player's token is shown here once.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreatedPlayer {
    pub player_id: Uuid,
    pub name: String,
    /// The player's bearer token (`pl_...`). Keep it: only its hash is stored. It acts for
    /// every seat the player takes, in every game.
    pub token: String,
    pub created_at: DateTime<Utc>,
}

/// `200` of `POST /v1/players/me/token`: the new token, shown once; the old one no longer
/// works.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RotatedToken {
    pub player_id: Uuid,
    pub token: String,
}

/// A player's rating for one game type (Weng-Lin, the OpenSkill model): `rating` is the
/// estimated skill (25 for a newcomer), `uncertainty` how sure the estimate is (25/3 for a
/// newcomer, shrinking with every rated game), `conservative` = rating − 3 × uncertainty,
/// what leaderboards rank by.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerRating {
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub rating: f64,
    pub uncertainty: f64,
    pub conservative: f64,
    /// Rated games of this type played.
    pub games: i32,
    pub updated_at: DateTime<Utc>,
}

/// Finished games of one type a player played and won (rated or not; a win is a first place
/// among the seats that played to the end).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerRecord {
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub played: i64,
    pub won: i64,
}

/// One rated game's change of a player's rating.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingChange {
    pub game_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub finished_at: DateTime<Utc>,
    /// The player's place (1 for the first).
    pub place: i32,
    pub rating_before: f64,
    pub uncertainty_before: f64,
    pub rating_after: f64,
    pub uncertainty_after: f64,
}

/// `GET /v1/players/{id}`: a public profile.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerProfile {
    pub player_id: Uuid,
    pub name: String,
    pub created_at: DateTime<Utc>,
    /// Per game type the player has played rated games of.
    pub ratings: Vec<PlayerRating>,
    /// Finished games, all types.
    pub games_played: i64,
    pub games_won: i64,
    /// Per game type.
    pub records: Vec<PlayerRecord>,
    /// The latest rating changes, newest first (at most 50).
    pub rating_history: Vec<RatingChange>,
}

/// A seat as a game list (`GET /v1/games`, a player's games) shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ListedSeat {
    pub seat: i32,
    /// `null` while open.
    #[schema(required = true)]
    pub name: Option<String>,
    /// The player the seat belongs to, if any.
    #[schema(required = true)]
    pub player_id: Option<Uuid>,
    /// Whether the server's bot was seated there at creation.
    pub bot: bool,
}

impl ListedSeat {
    /// The seat of a stored `row`.
    pub fn of(row: &db::SeatRow) -> ListedSeat {
        ListedSeat {
            seat: row.seat,
            name: row.name.clone(),
            player_id: row.player_id,
            bot: row.is_bot(),
        }
    }
}

/// A game in `GET /v1/players/me/games`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerGameSummary {
    pub game_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub status: GameStatus,
    pub version: i64,
    pub rated: bool,
    pub clock: Clock,
    /// The player's seat.
    pub seat: i32,
    pub seats: Vec<ListedSeat>,
    /// The seats the game waits for now (empty unless active).
    pub active_seats: Vec<u8>,
    /// Whether the game waits for the player's seat.
    pub my_turn: bool,
    /// When the clocks of the awaited seats run out (a game with a clock).
    pub deadlines: Vec<SeatDeadline>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[schema(required = true)]
    pub finished_at: Option<DateTime<Utc>>,
}

/// `GET /v1/players/me/games`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerGameList {
    /// Newest first.
    pub games: Vec<PlayerGameSummary>,
    /// Pass as `cursor` for the next page; `null` on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// `turn=mine`: only games that wait for the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TurnFilter {
    Mine,
}

/// Query of `GET /v1/players/me/games`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PlayerGamesQuery {
    /// Only games in this status.
    pub status: Option<GameStatus>,
    /// `mine`: only active games that wait for the player's seat.
    #[param(inline)]
    pub turn: Option<TurnFilter>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1 to 100 (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub limit: Option<crate::extract::GamesLimit>,
}

/// A row of a leaderboard.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LeaderboardEntry {
    /// 1 for the best.
    pub rank: i64,
    pub player_id: Uuid,
    pub name: String,
    pub rating: f64,
    pub uncertainty: f64,
    /// rating − 3 × uncertainty: what the board ranks by.
    pub conservative: f64,
    /// Rated games played.
    pub games: i32,
}

/// `GET /v1/leaderboards/{type}`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Leaderboard {
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub entries: Vec<LeaderboardEntry>,
    /// Pass as `cursor` for the next page; `null` on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Query of `GET /v1/leaderboards/{type}`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1 to 100 (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub limit: Option<crate::extract::GamesLimit>,
}

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
