//! Players' notices: what each player must react to, written in the transaction of the commit
//! that caused it and numbered per player (migration 11), so that a player's stream resumes
//! exactly after the last seq it sent, in any process. The api decides what a commit tells
//! whom; this module only stores, numbers and reads.

use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use uuid::Uuid;

use crate::schema::{player_notices, players};
use crate::StoreError;

/// The NOTIFY channel on which committed notices are announced (migration 11), each as the
/// JSON of a [`NoticeRow`] (or only its player and seq when the row is too large for a
/// payload: the listener then reads it).
pub const NOTICE_CHANNEL: &str = "player_notices";

/// When a notice's deadline is, if it has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NoticeDue {
    /// No deadline.
    #[default]
    None,
    /// At this time (a clock that was already running).
    At(DateTime<Utc>),
    /// This long after the commit (a clock that starts with it).
    AfterCommit(Duration),
}

/// A notice to record with a commit.
#[derive(Debug, Clone, PartialEq)]
pub struct NewNotice {
    /// Who is told.
    pub player_id: Uuid,
    /// What kind of notice (`turn`, `game_started`, ...).
    pub kind: String,
    /// The notice as the player's stream sends it (the deadline is filled in from `due`).
    pub body: serde_json::Value,
    /// Its deadline.
    pub due: NoticeDue,
}

/// A stored notice.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable, serde::Serialize, serde::Deserialize)]
#[diesel(table_name = player_notices, check_for_backend(Pg))]
pub struct NoticeRow {
    /// Who is told.
    pub player_id: Uuid,
    /// Its number among the player's notices (1, 2, ...; commit order).
    pub seq: i64,
    /// The game it is about, if any.
    pub game_id: Option<Uuid>,
    /// What kind of notice.
    pub kind: String,
    /// The notice as the api wrote it.
    pub body: serde_json::Value,
    /// Its deadline, if any.
    pub deadline: Option<DateTime<Utc>>,
    /// The commit's time.
    pub created_at: DateTime<Utc>,
}

diesel::define_sql_function! {
    /// `record_notices(game, players, kinds, bodies, due_at, due_in_us, at, may_wait)`: see
    /// migration 11.
    #[allow(clippy::too_many_arguments)]
    fn record_notices(
        game: diesel::sql_types::Nullable<diesel::sql_types::Uuid>,
        players: diesel::sql_types::Array<diesel::sql_types::Uuid>,
        kinds: diesel::sql_types::Array<diesel::sql_types::Text>,
        bodies: diesel::sql_types::Array<diesel::sql_types::Jsonb>,
        due_at: diesel::sql_types::Array<diesel::sql_types::Nullable<diesel::sql_types::Timestamptz>>,
        due_in_us: diesel::sql_types::Array<diesel::sql_types::Nullable<diesel::sql_types::Int8>>,
        at: diesel::sql_types::Timestamptz,
        may_wait: diesel::sql_types::Bool,
    ) -> diesel::sql_types::Array<diesel::sql_types::Int8>;
}

/// Records `notices` about `game_id` at `at` (the commit's time) in the caller's transaction
/// and returns them as stored. With `may_wait` false a player row locked by another
/// transaction is an error ([`lock_refused`]) instead of a wait.
pub(super) fn record(
    conn: &mut PgConnection,
    game_id: Option<Uuid>,
    notices: Vec<NewNotice>,
    at: DateTime<Utc>,
    may_wait: bool,
) -> QueryResult<Vec<NoticeRow>> {
    if notices.is_empty() {
        return Ok(Vec::new());
    }
    let players: Vec<Uuid> = notices.iter().map(|n| n.player_id).collect();
    let kinds: Vec<&str> = notices.iter().map(|n| n.kind.as_str()).collect();
    let bodies: Vec<&serde_json::Value> = notices.iter().map(|n| &n.body).collect();
    let due_at: Vec<Option<DateTime<Utc>>> = notices
        .iter()
        .map(|n| match n.due {
            NoticeDue::At(t) => Some(t),
            _ => None,
        })
        .collect();
    let due_in_us: Vec<Option<i64>> = notices
        .iter()
        .map(|n| match n.due {
            NoticeDue::AfterCommit(d) => Some(i64::try_from(d.as_micros()).unwrap_or(i64::MAX)),
            _ => None,
        })
        .collect();
    let seqs: Vec<i64> = diesel::select(record_notices(
        game_id, players, kinds, bodies, due_at, due_in_us, at, may_wait,
    ))
    .get_result(conn)?;
    Ok(notices
        .into_iter()
        .zip(seqs)
        .map(|(n, seq)| NoticeRow {
            player_id: n.player_id,
            seq,
            game_id,
            deadline: match n.due {
                NoticeDue::None => None,
                NoticeDue::At(t) => Some(t),
                NoticeDue::AfterCommit(d) => Some(
                    at + chrono::TimeDelta::microseconds(
                        i64::try_from(d.as_micros()).unwrap_or(i64::MAX),
                    ),
                ),
            },
            kind: n.kind,
            body: n.body,
            created_at: at,
        })
        .collect())
}

/// Records `notices` now, in a transaction of the caller's (a seek matched: no game commit).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn record_now(
    conn: &mut PgConnection,
    game_id: Option<Uuid>,
    notices: Vec<NewNotice>,
) -> Result<Vec<NoticeRow>, StoreError> {
    let at: DateTime<Utc> =
        diesel::select(diesel::dsl::sql::<diesel::sql_types::Timestamptz>("now()"))
            .get_result(conn)?;
    Ok(record(conn, game_id, notices, at, true)?)
}

/// Whether `e` is a `NOWAIT` lock refused by another transaction's lock.
pub(super) fn lock_refused(e: &diesel::result::Error) -> bool {
    matches!(e, diesel::result::Error::DatabaseError(_, info)
        if info.message().contains("could not obtain lock"))
}

/// Up to `limit` notices of `player` with a seq above `after`, in order.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn notices_after(
    conn: &mut PgConnection,
    player: Uuid,
    after: i64,
    limit: i64,
) -> Result<Vec<NoticeRow>, StoreError> {
    Ok(player_notices::table
        .filter(player_notices::player_id.eq(player))
        .filter(player_notices::seq.gt(after))
        .order(player_notices::seq.asc())
        .limit(limit.max(1))
        .select(NoticeRow::as_select())
        .load(conn)?)
}

/// The seq of `player`'s latest notice (0 before any), and of the oldest still kept.
///
/// # Errors
/// `NotFound` for an unknown player; `Unavailable`/`Database`.
pub fn notice_range(
    conn: &mut PgConnection,
    player: Uuid,
) -> Result<(i64, Option<i64>), StoreError> {
    let head: i64 = players::table
        .find(player)
        .select(players::notice_seq)
        .first(conn)?;
    let oldest: Option<i64> = player_notices::table
        .filter(player_notices::player_id.eq(player))
        .select(diesel::dsl::min(player_notices::seq))
        .first(conn)?;
    Ok((head, oldest))
}

/// Deletes notices recorded before `cutoff`; returns how many. A stream resuming from before
/// them starts afresh (with the games that wait for the player now).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn expire_notices(conn: &mut PgConnection, cutoff: DateTime<Utc>) -> Result<usize, StoreError> {
    Ok(
        diesel::delete(player_notices::table.filter(player_notices::created_at.lt(cutoff)))
            .execute(conn)?,
    )
}
