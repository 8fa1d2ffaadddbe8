//! The catalogue and the lobby: game types, creating, listing and joining games.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::schema;

/// Lifecycle of a game: `open` (seats to take), `active`, then over in one of three ways:
/// `finished` (by its rules, or by resignations that left one seat; `outcome` is set),
/// `aborted` (a seated player ended it before any seat moved; no winner) or `expired` (its
/// seats were not all taken in time; it never started). A game that is over never changes
/// again, stays readable and replayable, and shows every event unredacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    Open,
    Active,
    Finished,
    Aborted,
    Expired,
}

impl From<db::GameStatus> for GameStatus {
    fn from(s: db::GameStatus) -> Self {
        match s {
            db::GameStatus::Open => GameStatus::Open,
            db::GameStatus::Active => GameStatus::Active,
            db::GameStatus::Finished => GameStatus::Finished,
            db::GameStatus::Aborted => GameStatus::Aborted,
            db::GameStatus::Expired => GameStatus::Expired,
        }
    }
}

impl From<GameStatus> for db::GameStatus {
    fn from(s: GameStatus) -> Self {
        match s {
            GameStatus::Open => db::GameStatus::Open,
            GameStatus::Active => db::GameStatus::Active,
            GameStatus::Finished => db::GameStatus::Finished,
            GameStatus::Aborted => db::GameStatus::Aborted,
            GameStatus::Expired => db::GameStatus::Expired,
        }
    }
}

/// How a finished game ended. Seats that left the game (resigned, or taken over by the
/// server's bot after their clock ran out and not reclaimed) rank below every seat that
/// played to the end, whatever their score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Outcome {
    /// The seats in first place among those that played to the end; several on a tie.
    pub winners: Vec<u8>,
    /// Final score per seat, by the game's rules; empty when the game ended before its rules
    /// scored it (`ended_by: resignation`).
    pub scores: Vec<i64>,
    /// Each seat's place, 1 for the first; tied seats share a place.
    pub places: Vec<u32>,
    /// The seats that left the game before its end, ranked last.
    pub left: Vec<super::LeftSeat>,
    pub ended_by: super::EndedBy,
}

/// The schema of every `type` field and parameter that names a game type (`GameTypeName` in
/// the OpenAPI document): a string enum of the hosted types' names, built from
/// `engine::registry`, so a game type added there is in the document without another edit.
/// The fields stay `String`s (the server reads a stored name back as it is); only their schema
/// is this.
pub struct GameTypeName;

impl utoipa::PartialSchema for GameTypeName {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(engine::registry::all().iter().map(|g| g.name())))
            .description(Some(
                "A game type's stable name, as listed by `GET /v1/game-types`.",
            ))
            .into()
    }
}

impl ToSchema for GameTypeName {
    fn name() -> std::borrow::Cow<'static, str> {
        "GameTypeName".into()
    }
}

/// A hosted game type.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameType {
    /// Stable type name, used in `POST /v1/games`.
    #[serde(rename = "type")]
    #[schema(value_type = GameTypeName)]
    pub type_: String,
    pub title: String,
    pub min_seats: usize,
    pub max_seats: usize,
    /// Version of the rules implementation.
    pub rules_version: u32,
    /// The configuration used when a game is created without one.
    #[schema(schema_with = schema::config)]
    pub default_config: Value,
    /// A self-contained JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) of the
    /// configuration: the schema of the type's config in this document, with everything it
    /// references under `$defs`, worded for players: each option's `title` and `description`
    /// are for a lobby's form (the document's own description moves to `$comment`), named
    /// choices are `oneOf` of `const` with a `title` each, and `x-lobby` is `"more"` for an
    /// option most tables leave as it is and `"hidden"` for one a lobby sets otherwise;
    /// `x-order` is the order in which to show the options.
    #[schema(schema_with = schema::json_schema)]
    pub config_schema: Value,
}

/// The catalogue.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameTypeList {
    pub game_types: Vec<GameType>,
}

/// A seat in a create request: `{"name": "Ann"}` takes it (with a seat token),
/// `{"me": true}` takes it for the calling player (with a player token), `{"open": true}`
/// leaves it open, `{"bot": "mcts"}` gives it to the server's bot.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// Display name (1 to 64 characters) of the player taking the seat.
    pub name: Option<String>,
    /// `true` to take the seat for the player whose token authorizes the request (at most one
    /// seat per request): the player's token then acts for it, and it shows the player's name.
    pub me: Option<bool>,
    /// `true` to leave the seat open for `POST /v1/games/{id}/seats`.
    pub open: Option<bool>,
    /// The level of the server's bot playing this seat.
    pub bot: Option<BotLevel>,
    /// With `bot`: the bot's thinking time per move in milliseconds, clamped to the server's
    /// maximum. Without it `mcts` searches a fixed number of iterations (within the maximum).
    #[schema(minimum = 1)]
    pub budget_ms: Option<u32>,
    /// With `name` or `me`: what the seat's taker adds to the game's chance (at most 128
    /// bytes; send a fresh random string, e.g. 16 random bytes in hex). The game's chance key
    /// is derived from the server's committed seed, every seat's entropy and the game id, so
    /// no single party chooses the chance; the entropies are shown once the game is over
    /// (`docs/fairness.md`). Ignored by a seeded game.
    #[schema(max_length = 128)]
    pub entropy: Option<String>,
}

/// How strongly the server's bot plays: `random` (a uniformly random legal move), `greedy`
/// (one move ahead with a hand-written evaluation of the game), `mcts` (information-set Monte
/// Carlo tree search). Every level sees only what its seat may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    Random,
    Greedy,
    Mcts,
}

impl BotLevel {
    /// The level's name, as stored and shown.
    pub fn name(self) -> &'static str {
        self.level().name()
    }

    /// The bots crate's level.
    pub fn level(self) -> bots::Level {
        match self {
            BotLevel::Random => bots::Level::Random,
            BotLevel::Greedy => bots::Level::Greedy,
            BotLevel::Mcts => bots::Level::Mcts,
        }
    }

    /// The level stored as `name`, if any.
    pub fn parse(name: &str) -> Option<BotLevel> {
        [BotLevel::Random, BotLevel::Greedy, BotLevel::Mcts]
            .into_iter()
            .find(|l| l.name() == name)
    }
}

/// The server's bot on a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BotInfo {
    pub level: BotLevel,
    /// Thinking time per move in milliseconds (already clamped); `null`: the level's default.
    #[schema(required = true)]
    pub budget_ms: Option<u32>,
}

/// `POST /v1/games`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGameRequest {
    /// A type from `GET /v1/game-types`.
    #[serde(rename = "type")]
    #[schema(value_type = GameTypeName)]
    pub type_: String,
    /// The game's configuration; the type's `default_config` when absent.
    #[serde(default)]
    #[schema(schema_with = schema::config)]
    pub config: Option<Value>,
    /// The time control; `{"kind": "none"}` when absent.
    #[serde(default)]
    pub clock: Option<super::ClockRequest>,
    /// A rated game: when it finishes, every player's rating for the game type changes. Only
    /// when every seat belongs to a player (`{"me": true}`, or open seats that players join
    /// with their tokens) and no bot is seated. Default false.
    #[serde(default)]
    pub rated: Option<bool>,
    /// The seats in playing order.
    pub seats: Vec<SeatRequest>,
    /// Makes the game's chance reproducible, for tests and for tournaments where every player
    /// agrees to it. A client-given seed makes every chance outcome of the game (deck orders,
    /// tile draws, dice) public knowledge: anyone can create a game with the same seed and
    /// read the future from it, so a rated game takes none. Without it the server draws a
    /// secret 256-bit seed, commits to it (`chance.commitment`) and reveals it when the game
    /// is over.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A named seat as created: its `token` is shown here once and never again.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TakenSeat {
    pub seat: i32,
    pub name: String,
    #[schema(schema_with = schema::always_false)]
    pub open: bool,
    /// Bearer token of this seat. Keep it: only its hash is stored.
    pub token: String,
}

/// An open seat as created: taken later with `POST /v1/games/{id}/seats`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct OpenSeat {
    pub seat: i32,
    #[schema(schema_with = schema::always_null)]
    pub name: Option<String>,
    #[schema(schema_with = schema::always_true)]
    pub open: bool,
}

/// A seat given to the server's bot, as created (no token: nobody else acts for it).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BotSeat {
    pub seat: i32,
    pub name: String,
    #[schema(schema_with = schema::always_false)]
    pub open: bool,
    pub bot: BotInfo,
}

/// A seat taken for the calling player (`{"me": true}`): no seat token, the player's token
/// acts for it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerSeat {
    pub seat: i32,
    pub name: String,
    #[schema(schema_with = schema::always_false)]
    pub open: bool,
    pub player_id: Uuid,
}

/// A seat as created: taken (with its token), taken by the calling player (`player_id`),
/// played by a bot (`bot`), or open (`open`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum CreatedSeat {
    Taken(TakenSeat),
    Player(PlayerSeat),
    Bot(BotSeat),
    Open(OpenSeat),
}

/// `201` of `POST /v1/games`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreatedGame {
    pub game_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = GameTypeName)]
    pub type_: String,
    pub version: i64,
    pub status: GameStatus,
    pub rated: bool,
    pub seats: Vec<CreatedSeat>,
}

/// `POST /v1/games/{id}/seats`: `{"name": "Ann"}` takes a seat for a person (with a seat
/// token), `{}` (or only `seat`) with a player token takes it for that player,
/// `{"bot": "greedy"}` gives it to the server's bot.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// Display name, 1 to 64 characters (for a person's seat with a seat token; leave it out
    /// with a player token: the seat shows the player's name).
    pub name: Option<String>,
    /// A particular open seat; the lowest open one when absent.
    pub seat: Option<i32>,
    /// The level of the server's bot to seat instead of a person.
    pub bot: Option<BotLevel>,
    /// With `bot`: thinking time per move in milliseconds, clamped to the server's maximum.
    #[schema(minimum = 1)]
    pub budget_ms: Option<u32>,
    /// For a person's or a player's seat: what the seat's taker adds to the game's chance, as
    /// in a create request's seat.
    #[schema(max_length = 128)]
    pub entropy: Option<String>,
}

/// `201` of `POST /v1/games/{id}/seats`: a person's seat (with its token), a player's, or a
/// bot's.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Joined {
    Person(JoinedSeat),
    Player(JoinedPlayer),
    Bot(JoinedBot),
}

/// A seat taken by a player with `POST /v1/games/{id}/seats` and a player token: no seat
/// token, the player's acts for it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct JoinedPlayer {
    pub game_id: Uuid,
    pub seat: i32,
    pub name: String,
    pub player_id: Uuid,
    /// The game's status after the join (`active` when this join filled the last seat).
    pub status: GameStatus,
    pub version: i64,
}

/// A seat given to the server's bot by `POST /v1/games/{id}/seats`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct JoinedBot {
    pub game_id: Uuid,
    pub seat: i32,
    pub name: String,
    pub bot: BotInfo,
    /// The game's status after the join (`active` when this join filled the last seat).
    pub status: GameStatus,
    pub version: i64,
}

/// `201` of `POST /v1/games/{id}/seats`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct JoinedSeat {
    pub game_id: Uuid,
    pub seat: i32,
    pub name: String,
    /// Bearer token for this seat, shown once.
    pub token: String,
    /// The game's status after the join (`active` when this join filled the last seat).
    pub status: GameStatus,
    pub version: i64,
}

/// A game in a listing.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    pub game_id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = GameTypeName)]
    pub type_: String,
    pub rules_version: i32,
    pub status: GameStatus,
    pub version: i64,
    pub seat_count: i32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// When the game ended (finished, aborted or expired); `null` while it is not over.
    #[schema(required = true)]
    pub finished_at: Option<DateTime<Utc>>,
    pub clock: super::Clock,
    pub rated: bool,
    /// The server's commitment to the game's chance.
    pub chance: super::ChanceCommitment,
    /// For a game imported from a record: the id of the game it records; `null` otherwise.
    #[schema(required = true)]
    pub imported_from: Option<Uuid>,
    /// Who sits at the table, in seat order: what a lobby shows of each game without reading
    /// its document (which says more: each seat's status and clock).
    pub seats: Vec<super::ListedSeat>,
}

/// `GET /v1/games`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameList {
    /// Newest first.
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` for the next page; `null` on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// `/healthz`, `/readyz`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Health {
    pub status: String,
}

/// Query of `GET /v1/games`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Only games of this type.
    #[serde(rename = "type")]
    #[param(rename = "type", value_type = Option<GameTypeName>)]
    pub type_: Option<String>,
    /// Only games in this status.
    pub status: Option<GameStatus>,
    /// Only rated (`true`) or only unrated (`false`) games.
    pub rated: Option<bool>,
    /// Only games with this kind of clock (`none`: no clock).
    pub clock: Option<ClockKind>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1 to 100 (default 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub limit: Option<crate::extract::GamesLimit>,
}

/// A kind of clock, as a clock's `kind` names it (`none` for a game without one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClockKind {
    None,
    PerMove,
    Fischer,
}

impl ClockKind {
    /// The name as the query writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ClockKind::None => "none",
            ClockKind::PerMove => "per_move",
            ClockKind::Fischer => "fischer",
        }
    }
}
