//! Table chat (migration 27): messages per game and channel, and whose chat a player mutes.
//!
//! A message is numbered under a transaction-level advisory lock on its game's channel, which
//! also makes the sender's rate limit exact: two messages sent at once by the same sender
//! are counted one after the other.

use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::sql_types::Text;
use uuid::Uuid;

use crate::schema::{chat_messages, chat_mutes};
use crate::StoreError;

/// A `chat_messages` row; it travels whole to other processes in a NOTIFY payload.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable, serde::Serialize, serde::Deserialize)]
#[diesel(table_name = chat_messages, check_for_backend(Pg))]
pub struct ChatRow {
    pub game_id: Uuid,
    /// `players` or `spectators`.
    pub channel: String,
    /// Numbered from 1 per game and channel.
    pub seq: i64,
    /// The sender's seat (the players' channel).
    pub seat: Option<i32>,
    /// The sender's player, when it is one.
    pub player_id: Option<Uuid>,
    /// The sender's name as shown.
    pub name: String,
    pub text: String,
    pub created_at: DateTime<Utc>,
}

/// A message to post.
#[derive(Debug, Clone, PartialEq)]
pub struct NewChat {
    pub game_id: Uuid,
    pub channel: &'static str,
    pub seat: Option<i32>,
    pub player_id: Option<Uuid>,
    pub name: String,
    pub text: String,
}

/// How many messages one sender may post to one channel within a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChatLimit {
    pub messages: i64,
    pub per: Duration,
}

/// Why a message was not posted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChatRateLimited {
    /// Seconds until the sender may post again.
    pub retry_after: u64,
}

/// Posts `new` unless its sender posted `limit.messages` to the channel within `limit.per`;
/// in the caller's transaction.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn post_chat(
    conn: &mut PgConnection,
    new: &NewChat,
    limit: ChatLimit,
) -> Result<Result<ChatRow, ChatRateLimited>, StoreError> {
    diesel::sql_query("SELECT pg_advisory_xact_lock(hashtextextended($1, 27))")
        .bind::<Text, _>(format!("{}:{}", new.game_id, new.channel))
        .execute(conn)?;
    let per_us = i64::try_from(limit.per.as_micros()).unwrap_or(i64::MAX);
    let since = diesel::dsl::sql::<diesel::sql_types::Timestamptz>(&format!(
        "now() - {per_us} * interval '1 microsecond'"
    ));
    let recent = chat_messages::table
        .filter(chat_messages::game_id.eq(new.game_id))
        .filter(chat_messages::channel.eq(new.channel))
        .filter(chat_messages::created_at.gt(since))
        .into_boxed();
    let recent = match (new.seat, new.player_id) {
        (Some(seat), _) => recent.filter(chat_messages::seat.eq(seat)),
        (None, Some(player)) => recent.filter(chat_messages::player_id.eq(player)),
        (None, None) => recent,
    };
    let times: Vec<DateTime<Utc>> = recent
        .order(chat_messages::created_at.asc())
        .select(chat_messages::created_at)
        .load(conn)?;
    if times.len() as i64 >= limit.messages {
        let oldest = times[times.len() - limit.messages as usize];
        let free_at = oldest + chrono::Duration::from_std(limit.per).unwrap_or_default();
        let wait = (free_at - Utc::now()).num_milliseconds().max(0);
        return Ok(Err(ChatRateLimited {
            retry_after: (wait as u64).div_ceil(1000).max(1),
        }));
    }
    let last: Option<i64> = chat_messages::table
        .filter(chat_messages::game_id.eq(new.game_id))
        .filter(chat_messages::channel.eq(new.channel))
        .select(diesel::dsl::max(chat_messages::seq))
        .first(conn)?;
    let row = diesel::insert_into(chat_messages::table)
        .values((
            chat_messages::game_id.eq(new.game_id),
            chat_messages::channel.eq(new.channel),
            chat_messages::seq.eq(last.unwrap_or(0) + 1),
            chat_messages::seat.eq(new.seat),
            chat_messages::player_id.eq(new.player_id),
            chat_messages::name.eq(&new.name),
            chat_messages::text.eq(&new.text),
        ))
        .returning(ChatRow::as_returning())
        .get_result(conn)?;
    Ok(Ok(row))
}

/// Up to `limit` messages of `game`'s `channel` after `after`, oldest first, leaving out
/// those of the players in `muted`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn chat_after(
    conn: &mut PgConnection,
    game: Uuid,
    channel: &str,
    after: i64,
    limit: i64,
    muted: &[Uuid],
) -> Result<Vec<ChatRow>, StoreError> {
    let mut query = chat_messages::table
        .filter(chat_messages::game_id.eq(game))
        .filter(chat_messages::channel.eq(channel))
        .filter(chat_messages::seq.gt(after))
        .into_boxed();
    if !muted.is_empty() {
        query = query.filter(
            chat_messages::player_id
                .is_null()
                .or(chat_messages::player_id.ne_all(muted.to_vec())),
        );
    }
    Ok(query
        .order(chat_messages::seq.asc())
        .limit(limit.max(1))
        .select(ChatRow::as_select())
        .load(conn)?)
}

/// `player` no longer sees `muted`'s chat (muting twice is muting once).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn mute_player(conn: &mut PgConnection, player: Uuid, muted: Uuid) -> Result<(), StoreError> {
    diesel::insert_into(chat_mutes::table)
        .values((
            chat_mutes::player_id.eq(player),
            chat_mutes::muted_id.eq(muted),
        ))
        .on_conflict_do_nothing()
        .execute(conn)?;
    Ok(())
}

/// Lifts `player`'s mute of `muted`; whether there was one.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn unmute_player(
    conn: &mut PgConnection,
    player: Uuid,
    muted: Uuid,
) -> Result<bool, StoreError> {
    Ok(diesel::delete(chat_mutes::table.find((player, muted))).execute(conn)? > 0)
}

/// The players `player` muted, in the order muted.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn muted_by(conn: &mut PgConnection, player: Uuid) -> Result<Vec<Uuid>, StoreError> {
    Ok(chat_mutes::table
        .filter(chat_mutes::player_id.eq(player))
        .order((chat_mutes::created_at.asc(), chat_mutes::muted_id.asc()))
        .select(chat_mutes::muted_id)
        .load(conn)?)
}
