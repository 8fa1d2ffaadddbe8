//! The one write path of every event: creating a started game, starting an open one,
//! applying an action and the seats' lifecycle (resigning, a clock running out, ...) all end
//! in [`append`], so the events of a game are always written the same way (consecutive seq
//! numbers after the game's version, snapshot, version, status, lifecycle and the game's bot
//! turn and deadline updated in the same statement, all events of one commit stamped with one
//! time, later than the previous commit's).

use std::time::Duration;

use chrono::{DateTime, Utc};
use diesel::prelude::*;

use super::notices::{self, NewNotice, NoticeRow};
use super::results::{self, Finish};
use crate::models::{EventRow, GameRow, GameStatus, JsonText, NewEvent};

/// May a request wait for another transaction's lock on the game's row?
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LockWait {
    /// Yes: the caller runs on a thread that may block (the api's blocking pool).
    #[default]
    Allowed,
    /// No: [`crate::StoreError::Busy`] instead, having written nothing. For callers on a thread
    /// that serves other requests in between (the api's HTTP workers), which must never
    /// block on another transaction. Requests with an idempotency key always lock the row,
    /// so they are always `Busy` here.
    Refused,
}

/// What a decision (setup or action) produced: the new events (in order), the state after
/// them, and the game's status after them.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// Events to append; seq numbers follow the game's version.
    pub events: Vec<NewEvent>,
    /// The full state after the events.
    pub snapshot: JsonText,
    /// `Active`, or `Finished` when the events end the game.
    pub status: GameStatus,
    /// The seats the game waits for after the events (none once it is finished).
    pub active_seats: Vec<i32>,
    /// For a game with bot seats, its `bot_turns` row after the events; `None` for a game
    /// without (the row is left alone: there is none).
    pub bot_turn: Option<BotTurn>,
    /// The game's lifecycle snapshot after the events (see `GameRow::lifecycle`); `None`
    /// keeps the stored one.
    pub lifecycle: Option<JsonText>,
    /// What becomes of the game's deadline row.
    pub deadline: DeadlineChange,
    /// What the commit tells players (migration 11), recorded in its transaction.
    pub notices: Vec<NewNotice>,
    /// For a commit that finishes a game with players' seats: their results and, for a rated
    /// game, their new ratings, recorded in its transaction.
    pub finish: Option<Finish>,
}

/// What a decision does to the game's `game_deadlines` row (see
/// [`crate::store::claim_deadline`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeadlineChange {
    /// Leave it as it is (a game without a clock has none to change).
    #[default]
    Keep,
    /// Delete it: nothing is due any more (no clock runs, the game is over, it started).
    Clear,
    /// Arm a clock deadline for the new version at the earlier of `at` and the commit's own
    /// time plus `after_commit` (for a clock that starts with this commit, whose time is not
    /// known before it is written). At least one of the two is set.
    Arm {
        /// An absolute due time (a clock that was already running).
        at: Option<DateTime<Utc>>,
        /// A due time relative to the commit.
        after_commit: Option<Duration>,
    },
}

/// Which bot moves after a decision, written with it (see [`crate::store::claim_bot_turn`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotTurn {
    /// The bot seat that moves next; `None` when no bot does (a person's turn, or the end).
    pub seat: Option<i32>,
    /// How long to wait before the move (so spectators can follow), in milliseconds.
    pub delay_ms: i32,
}

/// The result of a successful append.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The game row after the change (new version, snapshot, status).
    pub game: GameRow,
    /// The stored events, with their seq numbers.
    pub events: Vec<EventRow>,
    /// Whether a deadline was armed (idle deadline workers should look at the queue again).
    pub deadline_armed: bool,
    /// The notices the commit recorded, numbered.
    pub notices: Vec<NoticeRow>,
}

impl Applied {
    /// What to announce to long polls now that this change is committed.
    pub fn change(&self) -> crate::notify::GameChanged {
        crate::notify::GameChanged {
            game_id: self.game.id,
            version: self.game.version,
        }
    }
}

/// Appends `decision` to `game` (as read at its version), or fails with a serialization
/// failure when the game has moved on ([`version_moved`]).
///
/// One round trip: the `append_commit` function (migration 10) inserts the events and writes
/// the snapshot, version, status, active seats and lifecycle (and the bot turn and the
/// deadline). Only the commit's timestamp comes back: the rows are built here from what was
/// sent rather than shipped back and parsed again.
pub(super) fn append(
    conn: &mut PgConnection,
    game: &GameRow,
    decision: Decision,
) -> QueryResult<Applied> {
    Ok(write(conn, game, decision, LockWait::Allowed)?.expect("a waiting append always writes"))
}

/// The store's one append path, for a caller outside the store that holds the game's row in
/// its own transaction (importing a record writes one commit per recorded commit, after
/// creating the game).
///
/// # Errors
/// `Database`.
pub fn append_imported(
    conn: &mut PgConnection,
    game: &GameRow,
    decision: Decision,
) -> Result<Applied, crate::StoreError> {
    Ok(append(conn, game, decision)?)
}

/// [`append`], unless another transaction holds the game's row lock: then `None`, having
/// written nothing and waited for nothing (migration 9, and 10).
pub(super) fn append_unless_locked(
    conn: &mut PgConnection,
    game: &GameRow,
    decision: Decision,
) -> QueryResult<Option<Applied>> {
    write(conn, game, decision, LockWait::Refused)
}

/// Writes `decision`: in one statement when it tells no player anything and finishes no
/// player's game; otherwise in a transaction (or savepoint) that also records its notices and
/// results. `None` when the caller may not wait and something was locked: nothing written. A
/// finishing commit of a game with players never runs where it may not wait (it rates).
fn write(
    conn: &mut PgConnection,
    game: &GameRow,
    mut decision: Decision,
    wait: LockWait,
) -> QueryResult<Option<Applied>> {
    if decision.notices.is_empty() && decision.finish.is_none() {
        return write_commit(conn, game, decision, wait);
    }
    if wait == LockWait::Refused && decision.finish.is_some() {
        return Ok(None);
    }
    let new_notices = std::mem::take(&mut decision.notices);
    let finish = decision.finish.take();
    let written = conn.transaction(|conn| {
        let Some(mut applied) = write_commit(conn, game, decision, wait)? else {
            return Err(diesel::result::Error::RollbackTransaction);
        };
        let at = applied.game.updated_at;
        applied.notices = notices::record(
            conn,
            Some(game.id),
            new_notices,
            at,
            wait == LockWait::Allowed,
        )?;
        if let Some(finish) = &finish {
            results::record(conn, game.id, finish, at)?;
        }
        Ok(applied)
    });
    match written {
        Ok(applied) => Ok(Some(applied)),
        Err(diesel::result::Error::RollbackTransaction) => Ok(None),
        Err(e) if notices::lock_refused(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

fn write_commit(
    conn: &mut PgConnection,
    game: &GameRow,
    decision: Decision,
    wait: LockWait,
) -> QueryResult<Option<Applied>> {
    let Decision {
        events: new_events,
        snapshot,
        status,
        active_seats,
        bot_turn,
        lifecycle,
        deadline,
        notices: _,
        finish: _,
    } = decision;
    let seats = new_events.iter().map(|e| e.seat).collect::<Vec<_>>();
    let actions = new_events
        .iter()
        .map(|e| e.action.as_ref())
        .collect::<Vec<_>>();
    let events = new_events.iter().map(|e| &e.event).collect::<Vec<_>>();
    let (touch_deadline, due_at, due_in_us) = match deadline {
        DeadlineChange::Keep => (false, None, None),
        DeadlineChange::Clear => (true, None, None),
        DeadlineChange::Arm { at, after_commit } => (
            true,
            at,
            after_commit.map(|d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX)),
        ),
    };
    let now: Option<DateTime<Utc>> = diesel::select(append_commit(
        game.id,
        game.version,
        seats,
        actions,
        events,
        &snapshot,
        status,
        &active_seats,
        bot_turn.is_some(),
        bot_turn.and_then(|t| t.seat),
        bot_turn.map_or(0, |t| t.delay_ms),
        wait == LockWait::Allowed,
        lifecycle.as_ref(),
        touch_deadline,
        due_at,
        due_in_us,
    ))
    .get_result(conn)?;
    // NULL: the row was locked and the caller may not wait; nothing was written.
    let Some(now) = now else {
        return Ok(None);
    };
    let events: Vec<EventRow> = new_events
        .into_iter()
        .zip(game.version + 1..)
        .map(|(e, seq)| EventRow {
            game_id: game.id,
            seq,
            seat: e.seat,
            action: e.action,
            event: e.event,
            created_at: now,
        })
        .collect();
    let game = GameRow {
        id: game.id,
        game_type: game.game_type.clone(),
        rules_version: game.rules_version,
        config: game.config.clone(),
        status,
        version: game.version + events.len() as i64,
        snapshot: Some(snapshot),
        active_seats,
        seat_count: game.seat_count,
        rng_seed: game.rng_seed.clone(),
        created_at: game.created_at,
        updated_at: now,
        finished_at: status.is_over().then(|| game.finished_at.unwrap_or(now)),
        clock: game.clock.clone(),
        lifecycle: lifecycle.or_else(|| game.lifecycle.clone()),
        rated: game.rated,
        chance_version: game.chance_version,
        chance_seeded: game.chance_seeded,
        imported_from: game.imported_from,
    };
    Ok(Some(Applied {
        game,
        events,
        deadline_armed: matches!(deadline, DeadlineChange::Arm { .. }),
        notices: Vec::new(),
    }))
}

/// Whether `append_commit` refused because the game moved past the version it was given.
pub(super) fn version_moved(e: &diesel::result::Error) -> bool {
    matches!(
        e,
        diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::SerializationFailure,
            _
        )
    )
}

diesel::define_sql_function! {
    /// `append_commit(game, version, seats, actions, events, snapshot, status, active_seats,
    /// bot_turn, bot_seat, delay_ms, may_wait, lifecycle, deadline, due_at, due_in_us)`: see
    /// migration 10. NULL when `may_wait` is false and the game's row is locked.
    #[allow(clippy::too_many_arguments)]
    fn append_commit(
        game: diesel::sql_types::Uuid,
        version: diesel::sql_types::Int8,
        seats: diesel::sql_types::Array<diesel::sql_types::Nullable<diesel::sql_types::Int4>>,
        actions: diesel::sql_types::Array<diesel::sql_types::Nullable<diesel::sql_types::Jsonb>>,
        events: diesel::sql_types::Array<diesel::sql_types::Jsonb>,
        snapshot: diesel::sql_types::Json,
        status: diesel::sql_types::Text,
        active_seats: diesel::sql_types::Array<diesel::sql_types::Int4>,
        bot_turn: diesel::sql_types::Bool,
        bot_seat: diesel::sql_types::Nullable<diesel::sql_types::Int4>,
        delay_ms: diesel::sql_types::Int4,
        may_wait: diesel::sql_types::Bool,
        lifecycle: diesel::sql_types::Nullable<diesel::sql_types::Json>,
        deadline: diesel::sql_types::Bool,
        due_at: diesel::sql_types::Nullable<diesel::sql_types::Timestamptz>,
        due_in_us: diesel::sql_types::Nullable<diesel::sql_types::Int8>,
    ) -> diesel::sql_types::Nullable<diesel::sql_types::Timestamptz>;
}
