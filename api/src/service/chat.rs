//! Table chat: short plain-text messages at a game, in two channels that never see each
//! other (the seated players', the watching players'), delivered through the game's stream
//! and readable in pages. Chat is kept apart from the game's log: it is in no event, state,
//! export or record.

use db::store::{self, ChatLimit, ChatRow, NewChat};
use db::{PgConnection, PooledConn};
use engine::Seat;
use uuid::Uuid;

use super::blocks::{named_player, player_refs};
use super::caller::{self, engine_seat, require_player};
use crate::dto::{ChatChannel, ChatMessage, ChatPage, PlayerRef};
use crate::error::ApiError;
use crate::extract::{missing_token, SeatToken};
use crate::state::Context;

/// How much one sender may post to one game's channel: 5 messages in any 10 seconds.
pub const CHAT_LIMIT: ChatLimit = ChatLimit {
    messages: 5,
    per: std::time::Duration::from_secs(10),
};

/// The longest message, in characters.
pub const CHAT_CHARS: usize = 500;

/// Who reads or writes a game's chat, and what of it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatViewer {
    pub channel: ChatChannel,
    /// The viewer's seat (the players' channel).
    pub seat: Option<Seat>,
    /// The viewer's player, when it is one (a player's token, or the token of a player's
    /// seat).
    pub player_id: Option<Uuid>,
    /// The viewer's name as its messages show it; `None` for an anonymous spectator.
    pub name: Option<String>,
    /// Whose messages the viewer does not see.
    pub muted: Vec<Uuid>,
}

impl ChatViewer {
    /// A spectator without a token: reads the spectators' channel, mutes nobody.
    pub fn anonymous() -> ChatViewer {
        ChatViewer {
            channel: ChatChannel::Spectators,
            seat: None,
            player_id: None,
            name: None,
            muted: Vec::new(),
        }
    }

    /// Whether the viewer sees `row`.
    pub fn sees(&self, row: &ChatRow) -> bool {
        row.channel == self.channel.name() && row.player_id.is_none_or(|p| !self.muted.contains(&p))
    }
}

/// `row` as clients see it.
pub fn message(row: &ChatRow) -> ChatMessage {
    ChatMessage {
        channel: if row.channel == ChatChannel::Players.name() {
            ChatChannel::Players
        } else {
            ChatChannel::Spectators
        },
        seq: row.seq,
        seat: row.seat,
        player_id: row.player_id,
        name: row.name.clone(),
        text: row.text.clone(),
        created_at: row.created_at,
    }
}

/// The caller of game `id`'s chat: a seat (by its token, or its player's) writes and reads the
/// players' channel; a player without a seat, and anyone without a token (who may only read),
/// the spectators'.
///
/// # Errors
/// 404, 401/403 as for any request naming the game; store errors.
pub fn viewer(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
) -> Result<ChatViewer, ApiError> {
    let roster = cx.rosters.get(conn, id)?;
    let (seat, player) = match token {
        None => (None, None),
        Some(token) if token.is_player() => {
            let player = require_player(conn, cx, token)?;
            let seat = roster
                .seat_of_player(player.id)
                .map(engine_seat)
                .transpose()?;
            (seat, Some(player))
        }
        Some(token) => {
            let (_, seat) = caller::resolve_caller(conn, cx, id, Some(token))?;
            (seat, None)
        }
    };
    let seat_row = seat.and_then(|s| roster.seats().iter().find(|r| r.seat == i32::from(s.0)));
    let player_id = player
        .as_ref()
        .map(|p| p.id)
        .or_else(|| seat_row.and_then(|r| r.player_id));
    let name = match (seat_row, &player) {
        (Some(row), _) => row.name.clone(),
        (None, Some(player)) => Some(player.name.clone()),
        (None, None) => None,
    };
    let muted = match player_id {
        Some(p) => store::muted_by(conn, p)?,
        None => Vec::new(),
    };
    Ok(ChatViewer {
        channel: if seat.is_some() {
            ChatChannel::Players
        } else {
            ChatChannel::Spectators
        },
        seat,
        player_id,
        name,
        muted,
    })
}

/// Checks a message's text.
///
/// # Errors
/// 422 `invalid_chat_message`.
pub fn check_text(text: &str) -> Result<(), ApiError> {
    let chars = text.chars().count();
    let why = if text.trim().is_empty() {
        Some("it has no text".to_string())
    } else if chars > CHAT_CHARS {
        Some(format!("it has {chars}"))
    } else if text.chars().any(char::is_control) {
        Some("it has a control character (a line break, a tab, ...)".to_string())
    } else {
        None
    };
    match why {
        Some(why) => Err(ApiError::unprocessable(
            "invalid_chat_message",
            format!("a chat message is one line of 1 to {CHAT_CHARS} characters ({why})"),
        )),
        None => Ok(()),
    }
}

/// `POST /v1/games/{id}/chat` (text checked with [`check_text`]): the message as posted,
/// which the caller then passes to the game's streams ([`crate::hub::Changes::chat`]).
///
/// # Errors
/// 401 `missing_token` without a token; 404, 401/403; 429 `chat_rate_limited`; store errors.
pub fn post(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
    text: &str,
) -> Result<ChatRow, ApiError> {
    let token = token.ok_or_else(missing_token)?;
    let viewer = viewer(conn, cx, id, Some(token))?;
    store::atomically(conn, |conn| {
        let new = NewChat {
            game_id: id,
            channel: viewer.channel.name(),
            seat: viewer.seat.map(|s| i32::from(s.0)),
            player_id: viewer.player_id,
            name: viewer.name.clone().unwrap_or_else(|| "guest".to_string()),
            text: text.to_string(),
        };
        store::post_chat(conn, &new, CHAT_LIMIT)?.map_err(|limited| {
            ApiError::chat_rate_limited(
                limited.retry_after,
                format!(
                    "at most {} messages in any {} s at one table: retry in {} s",
                    CHAT_LIMIT.messages,
                    CHAT_LIMIT.per.as_secs(),
                    limited.retry_after
                ),
            )
        })
    })
}

/// `GET /v1/games/{id}/chat`: the caller's channel after `after`, at most `limit` messages.
///
/// # Errors
/// 404, 401/403; store errors.
pub fn page(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
    after: i64,
    limit: i64,
) -> Result<ChatPage, ApiError> {
    let viewer = viewer(conn, cx, id, token)?;
    let mut rows = store::chat_after(
        conn,
        id,
        viewer.channel.name(),
        after,
        limit + 1,
        &viewer.muted,
    )?;
    let more = rows.len() as i64 > limit;
    rows.truncate(usize::try_from(limit).unwrap_or(0));
    Ok(ChatPage {
        channel: viewer.channel,
        next_after: if more {
            rows.last().map(|r| r.seq)
        } else {
            None
        },
        messages: rows.iter().map(message).collect(),
    })
}

/// `POST /v1/players/me/mutes`.
///
/// # Errors
/// 401, 422 `unknown_player`, `mute_yourself`; store errors.
pub fn mute(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    who: &str,
) -> Result<Vec<PlayerRef>, ApiError> {
    let player = require_player(conn, cx, token)?;
    let muted = named_player(conn, who)?;
    if muted.id == player.id {
        return Err(ApiError::unprocessable(
            "mute_yourself",
            "a player cannot mute itself",
        ));
    }
    store::mute_player(conn, player.id, muted.id)?;
    mutes_of(conn, player.id)
}

/// `DELETE /v1/players/me/mutes/{player_id}`.
///
/// # Errors
/// 401, 404 `not_muted`; store errors.
pub fn unmute(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    muted: Uuid,
) -> Result<(), ApiError> {
    let player = require_player(conn, cx, token)?;
    if !store::unmute_player(conn, player.id, muted)? {
        return Err(ApiError::not_found(
            "not_muted",
            "you have not muted this player",
        ));
    }
    Ok(())
}

/// `GET /v1/players/me/mutes`.
///
/// # Errors
/// 401; store errors.
pub fn mutes(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
) -> Result<Vec<PlayerRef>, ApiError> {
    let player = require_player(conn, cx, token)?;
    mutes_of(conn, player.id)
}

fn mutes_of(conn: &mut PgConnection, player: Uuid) -> Result<Vec<PlayerRef>, ApiError> {
    let muted = store::muted_by(conn, player)?;
    player_refs(conn, &muted)
}
