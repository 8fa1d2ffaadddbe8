//! Seeks: players waiting for opponents (migration 11). Seeks of one pool (same game type,
//! seat count, clock, rated and config: the api names the pool) are matched only under a
//! transaction-level advisory lock on the pool ([`lock_pool`]), so concurrent seekers, in any
//! number of processes, are matched exactly once: the transaction that completes a table sees
//! every seek committed before it took the lock, and marks the seeks it takes as matched
//! before the next one may look.

use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use uuid::Uuid;

use crate::schema::{players, seeks};
use crate::StoreError;

/// A `seeks` row.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = seeks, check_for_backend(Pg))]
pub struct SeekRow {
    pub id: Uuid,
    pub player_id: Uuid,
    pub game_type: String,
    pub seats: i32,
    pub clock: Option<serde_json::Value>,
    pub rated: bool,
    pub config: serde_json::Value,
    pub pool: String,
    /// `waiting`, `matched`, `cancelled` or `expired` (as stored; a waiting seek past
    /// `expires_at` is expired whatever the column says).
    pub status: String,
    pub fill_with_bots_after: Option<i32>,
    pub fill_at: Option<DateTime<Utc>>,
    pub expires_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
    pub game_id: Option<Uuid>,
    pub seat: Option<i32>,
    /// What the seeker adds to the chance of the game the seek is matched into (migration
    /// 25); secret until that game is over.
    pub entropy: Option<String>,
}

/// A seek to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSeek {
    pub player_id: Uuid,
    pub game_type: String,
    pub seats: i32,
    pub clock: Option<serde_json::Value>,
    pub rated: bool,
    pub config: serde_json::Value,
    /// The pool's name: seeks match only within one.
    pub pool: String,
    /// Seconds after which the seek is filled with the server's bots.
    pub fill_with_bots_after: Option<i32>,
    /// How long the seek waits at most.
    pub ttl: Duration,
    /// What the seeker adds to the chance of the game it is matched into.
    pub entropy: Option<String>,
}

fn micros(d: Duration) -> i64 {
    i64::try_from(d.as_micros()).unwrap_or(i64::MAX)
}

/// Stores `seek` (waiting) in the caller's transaction.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn insert_seek(conn: &mut PgConnection, seek: &NewSeek) -> Result<SeekRow, StoreError> {
    let fill_us = seek.fill_with_bots_after.map(|s| i64::from(s) * 1_000_000);
    Ok(diesel::insert_into(seeks::table)
        .values((
            seeks::id.eq(Uuid::new_v4()),
            seeks::player_id.eq(seek.player_id),
            seeks::game_type.eq(&seek.game_type),
            seeks::seats.eq(seek.seats),
            seeks::clock.eq(&seek.clock),
            seeks::rated.eq(seek.rated),
            seeks::config.eq(&seek.config),
            seeks::pool.eq(&seek.pool),
            seeks::fill_with_bots_after.eq(seek.fill_with_bots_after),
            seeks::entropy.eq(&seek.entropy),
            seeks::fill_at.eq(diesel::dsl::sql::<
                diesel::sql_types::Nullable<diesel::sql_types::Timestamptz>,
            >(&format!(
                "now() + {} * interval '1 microsecond'",
                fill_us.map_or("NULL".to_string(), |u| u.to_string())
            ))),
            seeks::expires_at.eq(diesel::dsl::sql::<diesel::sql_types::Timestamptz>(
                &format!("now() + {} * interval '1 microsecond'", micros(seek.ttl)),
            )),
        ))
        .returning(SeekRow::as_returning())
        .get_result(conn)?)
}

/// Seek `id`, if any.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn get_seek(conn: &mut PgConnection, id: Uuid) -> Result<Option<SeekRow>, StoreError> {
    Ok(seeks::table
        .find(id)
        .select(SeekRow::as_select())
        .first(conn)
        .optional()?)
}

/// Cancels seek `id` if it is still waiting; returns the seek after (unchanged when it was
/// not waiting any more: matched meanwhile, say). `None` for an unknown seek.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn cancel_seek(conn: &mut PgConnection, id: Uuid) -> Result<Option<SeekRow>, StoreError> {
    let cancelled = diesel::update(seeks::table.find(id).filter(seeks::status.eq("waiting")))
        .set((
            seeks::status.eq("cancelled"),
            seeks::ended_at.eq(diesel::dsl::now),
        ))
        .returning(SeekRow::as_returning())
        .get_result(conn)
        .optional()?;
    match cancelled {
        Some(row) => Ok(Some(row)),
        None => get_seek(conn, id),
    }
}

/// Takes the pool's advisory lock until the caller's transaction ends: every matching of the
/// pool holds it.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn lock_pool(conn: &mut PgConnection, pool: &str) -> Result<(), StoreError> {
    diesel::sql_query("SELECT pg_advisory_xact_lock(hashtextextended($1, 22))")
        .bind::<Text, _>(pool)
        .execute(conn)?;
    Ok(())
}

/// The waiting (not expired) seeks of `pool`, oldest first, at most `limit`, locked until the
/// caller's transaction ends (a cancellation waits for the match, or the match for it).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn waiting_in_pool(
    conn: &mut PgConnection,
    pool: &str,
    limit: i64,
) -> Result<Vec<SeekRow>, StoreError> {
    Ok(seeks::table
        .filter(seeks::pool.eq(pool))
        .filter(seeks::status.eq("waiting"))
        .filter(seeks::expires_at.gt(diesel::dsl::now))
        .order((seeks::created_at.asc(), seeks::id.asc()))
        .limit(limit.max(1))
        .select(SeekRow::as_select())
        .for_update()
        .load(conn)?)
}

/// Marks seek `id` as matched into seat `seat` of game `game_id`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn mark_matched(
    conn: &mut PgConnection,
    id: Uuid,
    game_id: Uuid,
    seat: i32,
) -> Result<(), StoreError> {
    diesel::update(seeks::table.find(id))
        .set((
            seeks::status.eq("matched"),
            seeks::game_id.eq(game_id),
            seeks::seat.eq(seat),
            seeks::ended_at.eq(diesel::dsl::now),
        ))
        .execute(conn)?;
    Ok(())
}

/// The pools of up to `limit` waiting seeks whose time to be filled with bots has come, the
/// earliest first (read without locks: the filler then takes the pool's lock and looks again).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn due_fills(conn: &mut PgConnection, limit: i64) -> Result<Vec<SeekRow>, StoreError> {
    Ok(seeks::table
        .filter(seeks::status.eq("waiting"))
        .filter(seeks::fill_at.le(diesel::dsl::now))
        .filter(seeks::expires_at.gt(diesel::dsl::now))
        .order(seeks::fill_at.asc())
        .limit(limit.max(1))
        .select(SeekRow::as_select())
        .load(conn)?)
}

/// Locks the rows of `ids` in the caller's transaction, in id order: a transaction that will
/// record notices for several players takes their locks first, all at once, so that it never
/// waits for one while holding another out of order.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn lock_players(conn: &mut PgConnection, ids: &[Uuid]) -> Result<(), StoreError> {
    let _: Vec<Uuid> = players::table
        .filter(players::id.eq_any(ids))
        .order(players::id.asc())
        .select(players::id)
        .for_no_key_update()
        .load(conn)?;
    Ok(())
}

/// How many seeks wait in each pool (for metrics and tests).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn waiting_seeks(conn: &mut PgConnection) -> Result<i64, StoreError> {
    #[derive(QueryableByName)]
    struct Count {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    Ok(diesel::sql_query(
        "SELECT count(*) AS n FROM seeks WHERE status = 'waiting' AND expires_at > now()",
    )
    .get_result::<Count>(conn)?
    .n)
}
