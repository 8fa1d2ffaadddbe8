//! Players as clients see them: identity and token, profiles with ratings and records, a
//! player's games, leaderboards. Seeks are [`super::seeks`], the player's stream
//! [`super::player_stream`].

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::games::GameStatus;
use super::lifecycle::{Clock, SeatDeadline};

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
