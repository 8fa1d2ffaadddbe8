//! Challenges: invitations of named players to a game (migration 26), and whom a player takes
//! none from.
//!
//! Every change of a challenge (an answer, a cancellation, its end) takes the challenge's row
//! lock first ([`lock_challenge`]), so accepts, declines, cancellations and the expiry, in any
//! number of processes, are applied one after another and exactly one of them ends it.

use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use uuid::Uuid;

use crate::schema::{challenge_answers, challenges, player_blocks, players};
use crate::StoreError;

/// A `challenges` row.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = challenges, check_for_backend(Pg))]
pub struct ChallengeRow {
    pub id: Uuid,
    pub challenger_id: Uuid,
    pub game_type: String,
    pub config: serde_json::Value,
    /// The clock as the api stores it.
    pub clock: Option<serde_json::Value>,
    pub rated: bool,
    /// The table in seat order, as the api stores it.
    pub seats: serde_json::Value,
    /// `pending`, `accepted`, `declined`, `cancelled` or `expired` (as stored: a pending
    /// challenge past `expires_at` is expired whatever the column says).
    pub status: String,
    pub declined_by: Option<Uuid>,
    pub decline_reason: Option<String>,
    pub game_id: Option<Uuid>,
    pub rematch_of: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
}

impl ChallengeRow {
    /// Whether the challenge still waits for answers now.
    pub fn is_pending(&self) -> bool {
        self.status == "pending" && self.expires_at > Utc::now()
    }
}

/// An invited player's answer.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = challenge_answers, check_for_backend(Pg))]
pub struct AnswerRow {
    pub challenge_id: Uuid,
    pub player_id: Uuid,
    pub accepted_at: Option<DateTime<Utc>>,
    /// What the player adds to the game's chance; secret until that game is over.
    pub entropy: Option<String>,
}

/// A challenge to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewChallenge {
    pub challenger_id: Uuid,
    pub game_type: String,
    pub config: serde_json::Value,
    pub clock: Option<serde_json::Value>,
    pub rated: bool,
    pub seats: serde_json::Value,
    /// The invited players (the challenger is not among them).
    pub invited: Vec<Uuid>,
    pub rematch_of: Option<Uuid>,
    /// How long it waits for answers.
    pub ttl: Duration,
}

/// Stores `new` (pending) with an unanswered row per invited player, in the caller's
/// transaction.
///
/// # Errors
/// `Unavailable`/`Database` (a unique violation for a second rematch of a game).
pub fn insert_challenge(
    conn: &mut PgConnection,
    new: &NewChallenge,
) -> Result<ChallengeRow, StoreError> {
    let ttl_us = i64::try_from(new.ttl.as_micros()).unwrap_or(i64::MAX);
    let row = diesel::insert_into(challenges::table)
        .values((
            challenges::id.eq(Uuid::new_v4()),
            challenges::challenger_id.eq(new.challenger_id),
            challenges::game_type.eq(&new.game_type),
            challenges::config.eq(&new.config),
            challenges::clock.eq(&new.clock),
            challenges::rated.eq(new.rated),
            challenges::seats.eq(&new.seats),
            challenges::rematch_of.eq(new.rematch_of),
            challenges::expires_at.eq(diesel::dsl::sql::<diesel::sql_types::Timestamptz>(
                &format!("now() + {ttl_us} * interval '1 microsecond'"),
            )),
        ))
        .returning(ChallengeRow::as_returning())
        .get_result(conn)?;
    let answers: Vec<_> = new
        .invited
        .iter()
        .map(|p| {
            (
                challenge_answers::challenge_id.eq(row.id),
                challenge_answers::player_id.eq(*p),
            )
        })
        .collect();
    diesel::insert_into(challenge_answers::table)
        .values(&answers)
        .execute(conn)?;
    Ok(row)
}

/// Challenge `id`, if any.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn get_challenge(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<ChallengeRow>, StoreError> {
    Ok(challenges::table
        .find(id)
        .select(ChallengeRow::as_select())
        .first(conn)
        .optional()?)
}

/// Challenge `id`, locked until the caller's transaction ends.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn lock_challenge(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<ChallengeRow>, StoreError> {
    Ok(challenges::table
        .find(id)
        .select(ChallengeRow::as_select())
        .for_update()
        .first(conn)
        .optional()?)
}

/// The answers of challenge `id`, by player id.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn challenge_answers(conn: &mut PgConnection, id: Uuid) -> Result<Vec<AnswerRow>, StoreError> {
    Ok(challenge_answers::table
        .filter(challenge_answers::challenge_id.eq(id))
        .order(challenge_answers::player_id.asc())
        .select(AnswerRow::as_select())
        .load(conn)?)
}

/// Records `player`'s acceptance of challenge `id` (with its entropy).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn accept_challenge(
    conn: &mut PgConnection,
    id: Uuid,
    player: Uuid,
    entropy: Option<&str>,
) -> Result<(), StoreError> {
    diesel::update(challenge_answers::table.find((id, player)))
        .set((
            challenge_answers::accepted_at.eq(diesel::dsl::now),
            challenge_answers::entropy.eq(entropy),
        ))
        .execute(conn)?;
    Ok(())
}

/// Ends challenge `id` as `status` (`declined` by `declined_by` for `reason`, `cancelled`,
/// `expired`); the row after.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn end_challenge(
    conn: &mut PgConnection,
    id: Uuid,
    status: &str,
    declined_by: Option<Uuid>,
    reason: Option<&str>,
) -> Result<ChallengeRow, StoreError> {
    Ok(diesel::update(challenges::table.find(id))
        .set((
            challenges::status.eq(status),
            challenges::declined_by.eq(declined_by),
            challenges::decline_reason.eq(reason),
            challenges::ended_at.eq(diesel::dsl::now),
        ))
        .returning(ChallengeRow::as_returning())
        .get_result(conn)?)
}

/// Marks challenge `id` accepted by everyone, its game `game_id` created; the row after.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn challenge_started(
    conn: &mut PgConnection,
    id: Uuid,
    game_id: Uuid,
) -> Result<ChallengeRow, StoreError> {
    Ok(diesel::update(challenges::table.find(id))
        .set((
            challenges::status.eq("accepted"),
            challenges::game_id.eq(game_id),
            challenges::ended_at.eq(diesel::dsl::now),
        ))
        .returning(ChallengeRow::as_returning())
        .get_result(conn)?)
}

/// The challenges `player` sent or received, newest first, at most `limit`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn challenges_of(
    conn: &mut PgConnection,
    player: Uuid,
    limit: i64,
) -> Result<Vec<ChallengeRow>, StoreError> {
    let received = challenge_answers::table
        .filter(challenge_answers::player_id.eq(player))
        .select(challenge_answers::challenge_id);
    Ok(challenges::table
        .filter(
            challenges::challenger_id
                .eq(player)
                .or(challenges::id.eq_any(received)),
        )
        .order((challenges::created_at.desc(), challenges::id.desc()))
        .limit(limit.max(1))
        .select(ChallengeRow::as_select())
        .load(conn)?)
}

/// The rematch challenge of game `game_id`, if one was sent.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn rematch_of(
    conn: &mut PgConnection,
    game_id: Uuid,
) -> Result<Option<ChallengeRow>, StoreError> {
    Ok(challenges::table
        .filter(challenges::rematch_of.eq(game_id))
        .select(ChallengeRow::as_select())
        .first(conn)
        .optional()?)
}

/// `player` takes no challenges from `blocked` (again: blocking twice is blocking once).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn block_player(
    conn: &mut PgConnection,
    player: Uuid,
    blocked: Uuid,
) -> Result<(), StoreError> {
    diesel::insert_into(player_blocks::table)
        .values((
            player_blocks::player_id.eq(player),
            player_blocks::blocked_id.eq(blocked),
        ))
        .on_conflict_do_nothing()
        .execute(conn)?;
    Ok(())
}

/// Lifts `player`'s block of `blocked`; whether there was one.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn unblock_player(
    conn: &mut PgConnection,
    player: Uuid,
    blocked: Uuid,
) -> Result<bool, StoreError> {
    Ok(diesel::delete(player_blocks::table.find((player, blocked))).execute(conn)? > 0)
}

/// The players `player` blocked, in the order blocked.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn blocked_by(conn: &mut PgConnection, player: Uuid) -> Result<Vec<Uuid>, StoreError> {
    Ok(player_blocks::table
        .filter(player_blocks::player_id.eq(player))
        .order((
            player_blocks::created_at.asc(),
            player_blocks::blocked_id.asc(),
        ))
        .select(player_blocks::blocked_id)
        .load(conn)?)
}

/// Whether `player` blocked `whom`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn has_blocked(conn: &mut PgConnection, player: Uuid, whom: Uuid) -> Result<bool, StoreError> {
    Ok(diesel::select(diesel::dsl::exists(
        player_blocks::table.find((player, whom)),
    ))
    .get_result(conn)?)
}

/// Whom `player` takes challenges from: `everyone` (but those blocked) or `nobody`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn challenges_from(conn: &mut PgConnection, player: Uuid) -> Result<String, StoreError> {
    Ok(players::table
        .find(player)
        .select(players::challenges_from)
        .first(conn)?)
}

/// Sets whom `player` takes challenges from (`everyone` or `nobody`).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn set_challenges_from(
    conn: &mut PgConnection,
    player: Uuid,
    from: &str,
) -> Result<(), StoreError> {
    diesel::update(players::table.find(player))
        .set(players::challenges_from.eq(from))
        .execute(conn)?;
    Ok(())
}
