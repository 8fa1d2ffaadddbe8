//! History: the event log and time travel.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::games::Outcome;
use super::schema;

/// One event of the log, as the caller may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventDto {
    /// Position in the log, from 1; the game's version is the seq of its last event.
    pub seq: i64,
    /// The seat whose action caused it; `null` for setup and automatic events.
    #[schema(required = true)]
    pub seat: Option<i32>,
    #[schema(schema_with = schema::event)]
    pub event: Value,
    pub created_at: DateTime<Utc>,
}

/// One event of the log with its game type: the `data` of an event stream's `game_event`
/// message and one line of the NDJSON export. One shape per game type, told apart by `type`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LoggedEvent {
    /// The game type (which game's event this is).
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    /// Position in the log, from 1; the game's version is the seq of its last event.
    pub seq: i64,
    /// The seat whose action caused it; `null` for setup and automatic events.
    #[schema(required = true)]
    pub seat: Option<i32>,
    #[schema(schema_with = schema::event)]
    pub event: Value,
    pub created_at: DateTime<Utc>,
}

impl LoggedEvent {
    /// `event` of a game of type `game_type`.
    pub fn of(game_type: &str, event: &EventDto) -> LoggedEvent {
        LoggedEvent {
            type_: game_type.to_string(),
            seq: event.seq,
            seat: event.seat,
            event: event.event.clone(),
            created_at: event.created_at,
        }
    }
}

/// `GET /v1/games/{id}/events`. One shape per game type, told apart by `type`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventPage {
    /// The game type (which game's events these are).
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub events: Vec<EventDto>,
    /// Pass as `after` for the next page; `null` on the last page (also in the `Link` header).
    #[schema(required = true)]
    pub next_after: Option<i64>,
}

/// `GET /v1/games/{id}/states/{seq}`: the caller's view as of event `seq`. One shape per
/// game type, told apart by `type`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StateDocument {
    pub game_id: Uuid,
    /// The game type.
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub seq: i64,
    /// The game's status as of `seq` (`active`, or how it was over).
    pub status: super::games::GameStatus,
    /// The seats the game waited for as of `seq`.
    pub active_seats: Vec<u8>,
    /// The caller's seat; `null` for a spectator.
    #[schema(required = true)]
    pub seat: Option<i32>,
    /// The seats as of `seq`: who stood in for whom, who had left, and each clock as of the
    /// commit of event `seq` (the same as the game document of that version showed).
    pub seats: Vec<super::lifecycle::SeatInfo>,
    #[schema(schema_with = schema::view)]
    pub view: Box<RawValue>,
    /// How the game ended, if it had ended by `seq`; `null` otherwise.
    #[schema(required = true)]
    pub outcome: Option<Outcome>,
}

/// Query of `GET /v1/games/{id}/events`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Only events with a greater seq (default 0).
    #[param(value_type = Option<i64>, minimum = 0)]
    pub after: Option<crate::extract::EventsAfter>,
    /// Page size, 1 to 1000 (default 100). Ignored by the NDJSON export, which streams all.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 1000)]
    pub limit: Option<crate::extract::EventsLimit>,
}

/// Query of `GET /v1/games/{id}/events.ndjson`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// Only events with a greater seq (default 0).
    #[param(value_type = Option<i64>, minimum = 0)]
    pub after: Option<crate::extract::EventsAfter>,
}

/// Query of `GET /v1/games/{id}/stream`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// Start after this seq (default: `Last-Event-ID`, else 0, the whole log).
    #[param(value_type = Option<i64>, minimum = 0)]
    pub after: Option<crate::extract::EventsAfter>,
}

/// The `version` message of an event stream: the game is at `version` (sent after each batch
/// of events, also when every event of the batch was hidden from the caller).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StreamVersion {
    /// The game type.
    #[serde(rename = "type")]
    #[schema(value_type = super::GameTypeName)]
    pub type_: String,
    pub version: i64,
    pub status: super::games::GameStatus,
    /// The seats the game waits for at `version` (as in the game document): a seat's client
    /// that finds its seat here reads its document (legal actions) and acts; one that does
    /// not keeps listening. Empty unless the game is active.
    pub active_seats: Vec<u8>,
    /// For a game with a clock: when the clock of each awaited seat runs out (seats the
    /// server's bot plays have none). Empty otherwise.
    pub deadlines: Vec<super::SeatDeadline>,
    /// Once the game is over (the stream's final message): the server's seed and the seats'
    /// entropies, as the document's `chance.reveal` (`docs/fairness.md`). Absent while the
    /// game runs and for a game whose chance has no reveal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance_reveal: Option<super::ChanceReveal>,
}

/// One message of an event stream as an SSE parser hands it over (`event`, `id`, `data`): a
/// `game_event` message's `data` is the JSON text of a `LoggedEvent`, a `version` message's
/// the JSON text of a `StreamVersion`, a `chat` message's the JSON text of a `ChatMessage`
/// (`contentSchema` names it). Told apart by `event`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum ServerSentEvent {
    GameEvent(GameEventMessage),
    Version(VersionMessage),
    Chat(ChatEventMessage),
}

/// `event: chat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChatName {
    Chat,
}

/// A `chat` message: a chat message of the caller's channel, as it is posted. It has no `id`,
/// so a reconnecting client resumes the game's events where it left them; the chat it missed
/// meanwhile is in `GET /v1/games/{id}/chat?after=`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChatEventMessage {
    #[schema(inline)]
    pub event: ChatName,
    /// The message, as JSON text.
    #[schema(schema_with = schema::chat_message_text)]
    pub data: String,
}

/// `event: game_event`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameEventName {
    GameEvent,
}

/// `event: version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VersionName {
    Version,
}

/// A `game_event` message: one event the caller may see, as it commits.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameEventMessage {
    #[schema(inline)]
    pub event: GameEventName,
    /// The event's seq: where a reconnecting client resumes (`Last-Event-ID`).
    #[schema(pattern = "^[0-9]+$")]
    pub id: String,
    /// The event, as JSON text.
    #[schema(schema_with = schema::logged_event_text)]
    pub data: String,
}

/// A `version` message: the game's version after a batch of events.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VersionMessage {
    #[schema(inline)]
    pub event: VersionName,
    /// The version: where a reconnecting client resumes (`Last-Event-ID`).
    #[schema(pattern = "^[0-9]+$")]
    pub id: String,
    /// The version, as JSON text.
    #[schema(schema_with = schema::stream_version_text)]
    pub data: String,
}
