//! Table chat.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::PlayerRef;

/// `POST /v1/games/{id}/chat`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    /// Plain text, 1 to 500 characters, one line (no control characters), not only spaces.
    #[schema(min_length = 1, max_length = 500)]
    pub text: String,
}

/// Who reads a message: the seated players, or the players watching. The two never see each
/// other's messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChatChannel {
    Players,
    Spectators,
}

impl ChatChannel {
    /// As stored.
    pub fn name(self) -> &'static str {
        match self {
            ChatChannel::Players => "players",
            ChatChannel::Spectators => "spectators",
        }
    }
}

/// One chat message. Its `text` is plain text: a client shows it as text, never as markup.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChatMessage {
    pub channel: ChatChannel,
    /// Numbered from 1 in its game and channel (a viewer may miss numbers: muted senders).
    pub seq: i64,
    /// The sender's seat, in the players' channel; `null` in the spectators'.
    #[schema(required = true)]
    pub seat: Option<i32>,
    /// The sender's player; `null` for a guest's seat.
    #[schema(required = true)]
    pub player_id: Option<Uuid>,
    /// The sender's name.
    pub name: String,
    pub text: String,
    pub created_at: DateTime<Utc>,
}

/// `GET /v1/games/{id}/chat`: the messages of the caller's channel.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChatPage {
    /// The channel the caller reads: `players` with a seat of the game, else `spectators`.
    pub channel: ChatChannel,
    /// Oldest first.
    pub messages: Vec<ChatMessage>,
    /// Pass as `after` for the next page; `null` on the last page.
    #[schema(required = true)]
    pub next_after: Option<i64>,
}

/// `GET /v1/games/{id}/chat` query.
#[derive(Debug, Clone, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ChatQuery {
    /// Messages after this `seq` (default 0: from the first).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// At most this many (1 to 100, default 100).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// `POST /v1/players/me/mutes`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MuteRequest {
    /// The player whose chat the caller no longer wants to see, by id or by name.
    pub player: String,
}

/// `GET /v1/players/me/mutes`: whose chat the caller does not see.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Mutes {
    pub players: Vec<PlayerRef>,
}
