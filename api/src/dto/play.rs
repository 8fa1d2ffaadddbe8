//! Playing: the game document, legal actions, actions and their answers.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::games::{GameStatus, Outcome};
use super::history::EventDto;
use super::lifecycle::SeatInfo;
use super::schema;

/// `GET /v1/games/{id}`: the game as the caller may see it. One shape per game type, told
/// apart by `type`: each carries that game's view, actions and templates.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameDocument {
    pub game_id: Uuid,
    /// The game type.
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub rules_version: i32,
    /// Seq of the last event; the `ETag` is derived from it.
    pub version: i64,
    pub status: GameStatus,
    /// Seats the game waits for now (empty unless it is active).
    pub active_seats: Vec<u8>,
    /// The time control.
    pub clock: super::Clock,
    /// Whether the game is rated.
    pub rated: bool,
    /// How the game's chance is drawn, the server's commitment to it, and once the game is
    /// over the reveal that lets anyone recompute every chance outcome.
    pub chance: super::ChanceInfo,
    /// For a game imported from a record (`POST /v1/records`): the id of the game it records;
    /// `null` for a game played here.
    #[schema(required = true)]
    pub imported_from: Option<Uuid>,
    /// The caller's seat; `null` for a spectator.
    #[schema(required = true)]
    pub seat: Option<i32>,
    pub seats: Vec<SeatInfo>,
    #[schema(schema_with = schema::nullable_view, required = true)]
    pub view: Option<Box<RawValue>>,
    /// What the caller's seat may do now, exactly as `GET …/legal-actions` lists them (empty for
    /// spectators, for seats that may not act, and while the server's bot plays the seat), so
    /// a client needs no second request.
    #[schema(schema_with = schema::actions)]
    pub legal_actions: Vec<Value>,
    /// The caller's actions whose parameters cannot be listed (an auction bid, a trade offer):
    /// fill each free field from its domain and post the result as an action. Any such
    /// instantiation is legal now. Empty for games without such actions. Each game's
    /// templates are a union tagged by the action's `type` (`MonopolyTemplate`, ...), with
    /// typed `fixed` fields and `params` domains.
    #[schema(schema_with = schema::templates)]
    pub action_templates: Vec<Value>,
    /// How the game ended; `null` until it is over.
    #[schema(required = true)]
    pub outcome: Option<Outcome>,
}

/// `GET /v1/games/{id}/legal-actions`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LegalActions {
    pub game_id: Uuid,
    /// The game type (which game's actions these are).
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    /// The version these actions are legal at; send it back as `expected_version`.
    pub version: i64,
    /// The caller's seat; `null` (with no actions) for a spectator.
    #[schema(required = true)]
    pub seat: Option<i32>,
    #[schema(schema_with = schema::actions)]
    pub actions: Vec<Value>,
    /// Actions whose parameters cannot be listed, as templates (as the document's
    /// `action_templates`).
    #[schema(schema_with = schema::templates)]
    pub templates: Vec<Value>,
}

/// `POST /v1/games/{id}/actions` and `POST /v1/games/{id}/actions/dry-run`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// One of the game's actions, as `legal-actions` lists them.
    #[schema(schema_with = schema::action)]
    pub action: Value,
    /// Refuse with 409 unless the game is at this version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
}

/// `200` of an applied action. One shape per game type, told apart by `type`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ActionResponse {
    /// The game type.
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    /// The game after the action, for the caller: the same document as `GET /v1/games/{id}`
    /// gives, so a caller still active acts again from its `legal_actions` without reading
    /// the game first.
    pub game: GameDocument,
    /// The events the action produced, redacted for the caller.
    pub events: Vec<EventDto>,
}

/// `200` of `POST /v1/games/{id}/actions/dry-run`: the action would be accepted now. Nothing
/// is written, and the would-be events are not shown (they could reveal hidden information
/// such as the next card). A refused action gets the same error as `POST …/actions`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DryRunResponse {
    /// Always `true`: this is a dry run.
    #[schema(schema_with = schema::always_true)]
    pub dry_run: bool,
    /// Always `true`: a refused action is an error response instead.
    #[schema(schema_with = schema::always_true)]
    pub accepted: bool,
    /// The version the check was made at.
    pub version: i64,
}

/// Query of `GET /v1/games/{id}`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GetGameQuery {
    /// Long poll: wait up to this many seconds (0 to 30) for a version newer than the one
    /// the client has (`after_version`, or the version in `If-None-Match`).
    #[param(value_type = Option<i64>, minimum = 0, maximum = 30)]
    pub wait: Option<crate::extract::WaitSeconds>,
    /// The version the client has.
    #[param(value_type = Option<i64>, minimum = 0)]
    pub after_version: Option<crate::extract::AfterVersion>,
}

/// Query of `GET /v1/games/{id}/legal-actions`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LegalActionsQuery {
    /// The version the client has (from an action's answer or a document): the answer is at
    /// least this new.
    #[param(value_type = Option<i64>, minimum = 0)]
    pub after_version: Option<crate::extract::AfterVersion>,
}

/// The query of `POST /v1/games/{id}/actions`: none. Any parameter is refused (400
/// `invalid_query`), so that a client still sending the old `?dry_run=true` gets an error
/// instead of having its action applied (dry runs are `POST …/actions/dry-run`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoQuery {}
