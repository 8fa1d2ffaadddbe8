//! The deadline queue: one `game_deadlines` row per game with something due at a time, a
//! clock running out (written with the events that started it, [`super::DeadlineChange`]) or
//! an open game expiring (written at creation), claimed by any server process with a lease,
//! like a bot turn ([`super::claim_bot_turn`]). The claim commits at once; the deadline is
//! then fired through the ordinary append at the claimed version, so a deadline that an action
//! beat is refused by the version guard and dropped. A deadline that passed while no process
//! ran is simply due: the first process to look fires it.

use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Double, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use uuid::Uuid;

use super::notices::{NewNotice, NoticeRow};
use crate::models::{GameRow, GameStatus};
use crate::schema::{game_deadlines, games};
use crate::StoreError;

/// The NOTIFY channel on which armed deadlines are announced (migration 10), so that idle
/// deadline workers of every process look at the queue again.
pub const DEADLINE_CHANNEL: &str = "game_deadlines";

/// What is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadlineKind {
    /// A seat's clock runs out (the game is active, at the deadline's version).
    Clock,
    /// An open game's time to find players is over.
    Expiry,
}

/// A deadline claimed by this process until its lease runs out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimedDeadline {
    /// The game.
    pub game_id: Uuid,
    /// What is due.
    pub kind: DeadlineKind,
    /// The version the deadline is for (0 for an expiry).
    pub version: i64,
    /// When it was due.
    pub due_at: DateTime<Utc>,
    /// The database's time at the claim (at or after `due_at`): what has run out is judged
    /// by it, never by the claiming process's own clock.
    pub now: DateTime<Utc>,
}

#[derive(QueryableByName)]
struct ClaimRow {
    #[diesel(sql_type = SqlUuid)]
    game_id: Uuid,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = BigInt)]
    version: i64,
    #[diesel(sql_type = Timestamptz)]
    due_at: DateTime<Utc>,
    #[diesel(sql_type = Timestamptz)]
    now: DateTime<Utc>,
}

/// Claims the earliest due deadline that nobody holds (or whose holder's lease ran out) for
/// `worker` during `lease`, skipping rows other processes are claiming this very moment.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn claim_deadline(
    conn: &mut PgConnection,
    worker: &str,
    lease: Duration,
) -> Result<Option<ClaimedDeadline>, StoreError> {
    let row: Option<ClaimRow> = diesel::sql_query(
        "UPDATE game_deadlines SET leased_by = $1,
                leased_until = clock_timestamp() + make_interval(secs => $2 / 1000.0)
          WHERE game_id = (SELECT game_id FROM game_deadlines
                            WHERE due_at <= clock_timestamp()
                              AND (leased_until IS NULL OR leased_until < clock_timestamp())
                            ORDER BY due_at
                            LIMIT 1
                              FOR UPDATE SKIP LOCKED)
      RETURNING game_id, kind, version, due_at, clock_timestamp() AS now",
    )
    .bind::<Text, _>(worker)
    .bind::<BigInt, _>(i64::try_from(lease.as_millis()).unwrap_or(i64::MAX))
    .get_result(conn)
    .optional()?;
    Ok(row.map(|r| ClaimedDeadline {
        game_id: r.game_id,
        kind: if r.kind == "expiry" {
            DeadlineKind::Expiry
        } else {
            DeadlineKind::Clock
        },
        version: r.version,
        due_at: r.due_at,
        now: r.now,
    }))
}

#[derive(QueryableByName)]
struct NextRow {
    #[diesel(sql_type = Nullable<Double>)]
    ms: Option<f64>,
}

/// How long until the next deadline may be claimed (due and not leased), as the database
/// sees it: zero when one is claimable now, `None` when the queue is empty. An idle worker
/// sleeps that long (or until woken).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn next_deadline_in(conn: &mut PgConnection) -> Result<Option<Duration>, StoreError> {
    let row: NextRow = diesel::sql_query(
        "SELECT extract(epoch FROM min(greatest(due_at, coalesce(leased_until, due_at)))
                                   - clock_timestamp())::float8 * 1000 AS ms
           FROM game_deadlines",
    )
    .get_result(conn)?;
    Ok(row
        .ms
        .map(|ms| Duration::from_micros((ms.max(0.0) * 1000.0) as u64)))
}

/// Removes `deadline` when the game has moved past it without re-arming it (or ended): it
/// will never fire. A deadline re-armed meanwhile (another version) is kept.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn drop_stale_deadline(
    conn: &mut PgConnection,
    deadline: &ClaimedDeadline,
) -> Result<(), StoreError> {
    diesel::delete(
        game_deadlines::table
            .filter(game_deadlines::game_id.eq(deadline.game_id))
            .filter(game_deadlines::version.eq(deadline.version))
            .filter(game_deadlines::due_at.eq(deadline.due_at)),
    )
    .execute(conn)?;
    Ok(())
}

/// Moves `deadline` (still unchanged) to `due_at` and frees it: it was claimed before
/// anything had run out (which the arithmetic of the append rules out; kept as a guard so
/// that a deadline is never lost).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn reschedule_deadline(
    conn: &mut PgConnection,
    deadline: &ClaimedDeadline,
    due_at: DateTime<Utc>,
) -> Result<(), StoreError> {
    diesel::update(
        game_deadlines::table
            .filter(game_deadlines::game_id.eq(deadline.game_id))
            .filter(game_deadlines::version.eq(deadline.version))
            .filter(game_deadlines::due_at.eq(deadline.due_at)),
    )
    .set((
        game_deadlines::due_at.eq(due_at),
        game_deadlines::leased_by.eq(None::<String>),
        game_deadlines::leased_until.eq(None::<DateTime<Utc>>),
    ))
    .execute(conn)?;
    Ok(())
}

/// Arms the expiry of open game `game_id` after `ttl` (from the database's now).
pub(super) fn arm_expiry(conn: &mut PgConnection, game_id: Uuid, ttl: Duration) -> QueryResult<()> {
    diesel::sql_query(
        "INSERT INTO game_deadlines (game_id, kind, version, due_at)
         VALUES ($1, 'expiry', 0, now() + $2 * interval '1 microsecond')",
    )
    .bind::<SqlUuid, _>(game_id)
    .bind::<BigInt, _>(i64::try_from(ttl.as_micros()).unwrap_or(i64::MAX))
    .execute(conn)?;
    Ok(())
}

/// An open game that ended: the game after the change, and the notices its players got.
#[derive(Debug, Clone)]
pub struct EndedOpen {
    /// The game after the change.
    pub game: GameRow,
    /// The notices recorded with it, to push to the players' streams.
    pub notices: Vec<NoticeRow>,
}

/// Ends open game `game.id` (locked by the caller) as `status` (`Aborted` or `Expired`): no
/// event (it never started), its deadline row gone, `notices` recorded for its seated
/// players (decided by the api from the seats it read under the lock, so a player who just
/// took a seat is told too).
pub(super) fn end_open_game(
    conn: &mut PgConnection,
    game: &GameRow,
    status: GameStatus,
    notices: Vec<NewNotice>,
) -> QueryResult<EndedOpen> {
    debug_assert!(game.status == GameStatus::Open && status.is_over());
    diesel::delete(game_deadlines::table.filter(game_deadlines::game_id.eq(game.id)))
        .execute(conn)?;
    // One time for both columns, never before the game's last change.
    let at: DateTime<Utc> = games::table
        .find(game.id)
        .select(diesel::dsl::sql::<Timestamptz>(
            "greatest(clock_timestamp(), updated_at + interval '1 microsecond')",
        ))
        .first(conn)?;
    let ended: GameRow = diesel::update(games::table.find(game.id))
        .set((
            games::status.eq(status),
            games::updated_at.eq(at),
            games::finished_at.eq(at),
        ))
        .returning(GameRow::as_returning())
        .get_result(conn)?;
    let notices = if notices.is_empty() {
        Vec::new()
    } else {
        super::notices::record(conn, Some(game.id), notices, at, true)?
    };
    Ok(EndedOpen {
        game: ended,
        notices,
    })
}
