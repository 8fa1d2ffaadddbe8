//! The JSON shapes of the HTTP API. These are API types, not rows and not engine types: the
//! handlers convert once, so a column rename or an engine refactor never silently changes the
//! wire format. Request bodies reject unknown fields (400 `invalid_body`), so a typo such as
//! `expected_verison` is reported instead of ignored.

use chrono::{DateTime, Utc};
use engine::ActionTemplate;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use utoipa::openapi::schema::{AnyOfBuilder, ArrayBuilder, Schema};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

/// Lifecycle of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Created with open seats; not started.
    Open,
    /// Started; seats act in turn.
    Active,
    /// Over; `outcome` is set and every event is shown unredacted.
    Finished,
}

impl From<db::GameStatus> for GameStatus {
    fn from(s: db::GameStatus) -> Self {
        match s {
            db::GameStatus::Open => GameStatus::Open,
            db::GameStatus::Active => GameStatus::Active,
            db::GameStatus::Finished => GameStatus::Finished,
        }
    }
}

impl From<GameStatus> for db::GameStatus {
    fn from(s: GameStatus) -> Self {
        match s {
            GameStatus::Open => db::GameStatus::Open,
            GameStatus::Active => db::GameStatus::Active,
            GameStatus::Finished => db::GameStatus::Finished,
        }
    }
}

fn game_refs(kind: fn(&engine::openapi::GameSchemas) -> &String) -> Vec<RefOr<Schema>> {
    engine::openapi::game_schema_names()
        .iter()
        .map(|g| RefOr::Ref(Ref::from_schema_name(kind(g).clone())))
        .collect()
}

/// `anyOf`, not `oneOf`: the game is chosen by the game's type, not by the value, and two
/// games' schemas may both accept one value (`{"type": "turn_started", "seat": 0}` is a Tycoon
/// and an Acquire event), which `oneOf` would make invalid.
fn one_of(kind: fn(&engine::openapi::GameSchemas) -> &String, what: &str) -> Schema {
    let mut b = AnyOfBuilder::new().description(Some(format!(
        "{what}: one of the hosted games' schemas, chosen by the game's type."
    )));
    for r in game_refs(kind) {
        b = b.item(r);
    }
    b.build().into()
}

/// Schema of an `action` field: one of every game's actions.
pub fn action_schema() -> Schema {
    one_of(|g| &g.action, "A game action")
}

/// Schema of a `config` field.
pub fn config_schema() -> Schema {
    one_of(|g| &g.config, "A game configuration")
}

/// Schema of a `view` field.
pub fn view_schema() -> Schema {
    one_of(|g| &g.view, "What the caller may see of the game")
}

/// Schema of an `event` field.
pub fn event_schema() -> Schema {
    one_of(|g| &g.event, "A game event")
}

/// Schema of a list of actions.
pub fn actions_schema() -> Schema {
    ArrayBuilder::new()
        .items(RefOr::T(action_schema()))
        .build()
        .into()
}

/// A hosted game type.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameType {
    /// Stable type name, used in `POST /v1/games`.
    #[serde(rename = "type")]
    pub type_: String,
    pub title: String,
    pub min_seats: usize,
    pub max_seats: usize,
    /// Version of the rules implementation.
    pub rules_version: u32,
    /// The configuration used when a game is created without one.
    #[schema(schema_with = config_schema)]
    pub default_config: Value,
    /// JSON Schema (OpenAPI 3.1) of the configuration.
    pub config_schema: Value,
}

/// The catalogue.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameTypeList {
    pub game_types: Vec<GameType>,
}

/// A seat in a create request: `{"name": "Ann"}` takes it, `{"open": true}` leaves it open.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// Display name (1 to 64 characters) of the player taking the seat.
    pub name: Option<String>,
    /// `true` to leave the seat open for `POST /v1/games/{id}/seats`.
    pub open: Option<bool>,
}

/// `POST /v1/games`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGameRequest {
    /// A type from `GET /v1/game-types`.
    #[serde(rename = "type")]
    pub type_: String,
    /// The game's configuration; the type's `default_config` when absent.
    #[serde(default)]
    #[schema(schema_with = config_schema)]
    pub config: Option<Value>,
    /// The seats in playing order.
    pub seats: Vec<SeatRequest>,
    /// Makes the game's chance reproducible (tests, tournaments); a random seed when absent.
    /// The seed is never shown back.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A seat as created; `token` is shown here once and never again.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreatedSeat {
    pub seat: i32,
    pub name: Option<String>,
    pub open: bool,
    /// Bearer token of a named seat (absent for open seats). Keep it: it is not stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

/// `201` of `POST /v1/games`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreatedGame {
    pub game_id: Uuid,
    #[serde(rename = "type")]
    pub type_: String,
    pub version: i64,
    pub status: GameStatus,
    pub seats: Vec<CreatedSeat>,
}

/// `POST /v1/games/{id}/seats`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// Display name, 1 to 64 characters.
    pub name: String,
    /// A particular open seat; the lowest open one when absent.
    pub seat: Option<i32>,
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

/// A seat in a game document.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatInfo {
    pub seat: i32,
    pub name: Option<String>,
    pub open: bool,
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Outcome {
    /// Seats with the best score; several on a tie.
    pub winners: Vec<u8>,
    /// Final score per seat.
    pub scores: Vec<i64>,
}

impl From<engine::Outcome> for Outcome {
    fn from(o: engine::Outcome) -> Self {
        Outcome {
            winners: o.winners.iter().map(|s| s.0).collect(),
            scores: o.scores,
        }
    }
}

/// `GET /v1/games/{id}`: the game as the caller may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameDocument {
    pub game_id: Uuid,
    #[serde(rename = "type")]
    pub type_: String,
    pub rules_version: i32,
    /// Seq of the last event; the `ETag` is derived from it.
    pub version: i64,
    pub status: GameStatus,
    /// Seats that may act now.
    pub active_seats: Vec<u8>,
    /// The caller's seat; `null` for a spectator.
    pub seat: Option<i32>,
    pub seats: Vec<SeatInfo>,
    /// The game-specific view; `null` before the game starts.
    #[schema(schema_with = view_schema)]
    pub view: Option<Box<RawValue>>,
    /// What the caller's seat may do now, exactly as `GET …/legal-actions` lists them (empty for
    /// spectators and for seats that may not act), so a client needs no second request.
    #[schema(schema_with = actions_schema)]
    pub legal_actions: Vec<Value>,
    /// The caller's actions whose parameters cannot be listed (an auction bid, a trade offer):
    /// fill each free field from its domain and post the result as an action. Any such
    /// instantiation is legal now. Empty for games without such actions.
    pub action_templates: Vec<ActionTemplate>,
    /// Set once the game is over.
    pub outcome: Option<Outcome>,
}

/// `GET /v1/games/{id}/legal-actions`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LegalActions {
    pub game_id: Uuid,
    /// The version these actions are legal at; send it back as `expected_version`.
    pub version: i64,
    /// The caller's seat; `null` (with no actions) for a spectator.
    pub seat: Option<i32>,
    #[schema(schema_with = actions_schema)]
    pub actions: Vec<Value>,
    /// Actions whose parameters cannot be listed, as templates (see `ActionTemplate`).
    pub templates: Vec<ActionTemplate>,
}

/// `POST /v1/games/{id}/actions`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// One of the game's actions, as `legal-actions` lists them.
    #[schema(schema_with = action_schema)]
    pub action: Value,
    /// Refuse with 409 unless the game is at this version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_version: Option<i64>,
}

/// One event of the log, as the caller may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventDto {
    /// Position in the log, from 1; the game's version is the seq of its last event.
    pub seq: i64,
    /// The seat whose action caused it; `null` for setup and automatic events.
    pub seat: Option<i32>,
    #[schema(schema_with = event_schema)]
    pub event: Value,
    pub created_at: DateTime<Utc>,
}

/// `200` of an applied action.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ActionResponse {
    /// The game after the action, for the caller.
    pub game: GameDocument,
    /// The events the action produced, redacted for the caller.
    pub events: Vec<EventDto>,
}

/// `200` of `?dry_run=true`: the action would be accepted now. Nothing is written, and the
/// would-be events are not shown (they could reveal hidden information such as the next card).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DryRunResponse {
    pub dry_run: bool,
    pub accepted: bool,
    /// The version the check was made at.
    pub version: i64,
}

/// `GET /v1/games/{id}/events`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventPage {
    pub events: Vec<EventDto>,
    /// Pass as `after` for the next page; `null` on the last page (also in the `Link` header).
    pub next_after: Option<i64>,
}

/// `GET /v1/games/{id}/states/{seq}`: the caller's view as of event `seq`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StateDocument {
    pub game_id: Uuid,
    #[serde(rename = "type")]
    pub type_: String,
    pub seq: i64,
    pub active_seats: Vec<u8>,
    pub seat: Option<i32>,
    #[schema(schema_with = view_schema)]
    pub view: Box<RawValue>,
    pub outcome: Option<Outcome>,
}

/// A game in a listing.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameSummary {
    pub game_id: Uuid,
    #[serde(rename = "type")]
    pub type_: String,
    pub rules_version: i32,
    pub status: GameStatus,
    pub version: i64,
    pub seat_count: i32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// `GET /v1/games`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameList {
    /// Newest first.
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` for the next page; `null` on the last page.
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
    #[param(rename = "type")]
    pub type_: Option<String>,
    /// Only games in this status.
    pub status: Option<GameStatus>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1 to 100 (default 20).
    pub limit: Option<u32>,
}

/// Query of `GET /v1/games/{id}`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GetGameQuery {
    /// Long poll: wait up to this many seconds (capped at 30) for a version newer than the
    /// one the client has (`after_version`, or the version in `If-None-Match`).
    #[param(value_type = Option<u64>)]
    pub wait: Option<crate::extract::WaitSeconds>,
    /// The version the client has.
    pub after_version: Option<i64>,
}

/// Query of `POST /v1/games/{id}/actions`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActionQuery {
    /// Validate only: nothing is written.
    pub dry_run: Option<bool>,
}

/// Query of `GET /v1/games/{id}/events`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events with a greater seq (default 0).
    pub after: Option<i64>,
    /// Page size, 1 to 1000 (default 100). Ignored by the NDJSON export, which streams all.
    pub limit: Option<u32>,
}
