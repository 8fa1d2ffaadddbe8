//! The one write path of every event: creating a started game, starting an open one and
//! applying an action all end in [`append`], so the events of a game are always written the
//! same way (consecutive seq numbers after the game's version, snapshot, version and status
//! updated in the same statement).

use chrono::{DateTime, Utc};
use diesel::prelude::*;

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
/// One round trip: the `append_decision` function (migration 9) inserts the events and writes
/// the snapshot, version, status and active seats (and the bot turn). Only the transaction's timestamp comes back: the rows are
/// built here from what was sent rather than shipped back and parsed again.
pub(super) fn append(
    conn: &mut PgConnection,
    game: &GameRow,
    decision: Decision,
) -> QueryResult<Applied> {
    Ok(write(conn, game, decision, LockWait::Allowed)?.expect("a waiting append always writes"))
}

/// [`append`], unless another transaction holds the game's row lock: then `None`, having
/// written nothing and waited for nothing (migration 9).
pub(super) fn append_unless_locked(
    conn: &mut PgConnection,
    game: &GameRow,
    decision: Decision,
) -> QueryResult<Option<Applied>> {
    write(conn, game, decision, LockWait::Refused)
}

fn write(
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
    } = decision;
    let seats = new_events.iter().map(|e| e.seat).collect::<Vec<_>>();
    let actions = new_events
        .iter()
        .map(|e| e.action.as_ref())
        .collect::<Vec<_>>();
    let events = new_events.iter().map(|e| &e.event).collect::<Vec<_>>();
    let now: Option<DateTime<Utc>> = diesel::select(append_decision(
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
        finished_at: (status == GameStatus::Finished).then(|| game.finished_at.unwrap_or(now)),
    };
    Ok(Some(Applied { game, events }))
}

/// Whether `append_decision` refused because the game moved past the version it was given.
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
    /// `append_decision(game, version, seats, actions, events, snapshot, status,
    /// active_seats, bot_turn, bot_seat, delay_ms, may_wait)`: see migration 9. NULL when
    /// `may_wait` is false and the game's row is locked.
    #[allow(clippy::too_many_arguments)]
    fn append_decision(
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
    ) -> diesel::sql_types::Nullable<diesel::sql_types::Timestamptz>;
}
