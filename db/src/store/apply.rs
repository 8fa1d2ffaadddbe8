//! Applying an action (and starting a game): the store's plain steps of the action path
//! (`docs/architecture.md`, "Storage"). The api runs the path top to bottom (read, check,
//! decide, append, answer, remember the answer: `api/src/service/act.rs`); the store offers
//! each step as a function that reads or writes and calls nothing back:
//!
//! - the optimistic write: [`crate::store::get_game`] without a lock, then [`append_at_version`],
//!   one statement that refuses with [`AppendError::VersionMoved`] when another action came
//!   first;
//! - the locked write, inside the caller's transaction: [`read_locked`], [`stored_response`]
//!   for a request with an `Idempotency-Key`, [`append_locked`], and [`remember_response`],
//!   all committed together; starting a game is the same with [`lock_for_start`] in place
//!   of [`read_locked`].
//!
//! Anything that fails before commit writes nothing. Announcing the new version to long polls
//! is the caller's next step ([`crate::notify::Announcer`]), outside the transaction.

use diesel::prelude::*;
use uuid::Uuid;

use super::append::{append, append_unless_locked, version_moved, Applied, Decision, LockWait};
use super::games::lock_game;
use crate::models::{GameRow, GameStatus, IdempotencyRow, SeatRow, StoredResponse};
use crate::schema::idempotency_keys;
use crate::StoreError;

/// An `Idempotency-Key` with the request it came with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey {
    /// The seat sending the request (keys are per seat).
    pub seat: i32,
    /// The client's key.
    pub key: String,
    /// [`crate::token::fingerprint`] of the request.
    pub fingerprint: Vec<u8>,
}

/// A response stored under an idempotency key, to send again.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The response stored with the key.
    pub response: StoredResponse,
    /// The game's version that response reported (`None` for responses stored before the
    /// version was kept beside them, migration 7).
    pub version: Option<i64>,
}

/// Why [`append_at_version`] wrote nothing.
#[derive(Debug)]
pub enum AppendError {
    /// Another action committed after the game was read: read it again and decide again (or
    /// lock the row first).
    VersionMoved,
    /// Any other failure, `Busy` included (the caller may not wait and the row was locked).
    Store(StoreError),
}

impl From<diesel::result::Error> for AppendError {
    fn from(e: diesel::result::Error) -> Self {
        if version_moved(&e) {
            AppendError::VersionMoved
        } else {
            AppendError::Store(e.into())
        }
    }
}

/// The optimistic write: appends `decision` to `game` as read (without a lock) at its
/// version, in one statement that is its own transaction: two round trips for the whole
/// action (the read and this), where a locking transaction needs four.
///
/// With [`LockWait::Refused`] the write only takes a free lock: `Busy` (nothing written) when
/// another transaction holds the game's row.
///
/// # Errors
/// [`AppendError::VersionMoved`] when the game is no longer at `game.version` (nothing
/// written); `Store(Busy)`; `Store(Unavailable | Database)`.
pub fn append_at_version(
    conn: &mut PgConnection,
    game: &GameRow,
    decision: Decision,
    wait: LockWait,
) -> Result<Applied, AppendError> {
    match wait {
        LockWait::Allowed => Ok(append(conn, game, decision)?),
        LockWait::Refused => {
            append_unless_locked(conn, game, decision)?.ok_or(AppendError::Store(StoreError::Busy))
        }
    }
}

/// Game `game_id`, its row locked (`FOR UPDATE`) until the caller's transaction ends: the
/// start of the locked write.
///
/// # Errors
/// `NotFound`, `Unavailable`, `Database`.
pub fn read_locked(conn: &mut PgConnection, game_id: Uuid) -> Result<GameRow, StoreError> {
    lock_game(conn, game_id)
}

/// What is stored under `idem` for game `game_id`: `Some(replay)` to send again, `None` for a
/// key not seen before. Checked before the game's version, so a retry of a request that
/// moved the version replays instead of conflicting. Call it with the game's row locked
/// ([`read_locked`]): the key's record is written in the same transaction.
///
/// # Errors
/// `IdempotencyMismatch` when the key came with another request (another fingerprint);
/// `IdempotencyInFlight` for a record without a response; `Unavailable`, `Database`.
pub fn stored_response(
    conn: &mut PgConnection,
    game_id: Uuid,
    idem: &IdempotencyKey,
) -> Result<Option<Replay>, StoreError> {
    let row: Option<IdempotencyRow> = idempotency_keys::table
        .find((game_id, idem.seat, &idem.key))
        .select(IdempotencyRow::as_select())
        .first(conn)
        .optional()?;
    let Some(row) = row else { return Ok(None) };
    if row.request_fingerprint != idem.fingerprint {
        return Err(StoreError::IdempotencyMismatch);
    }
    match (row.response_status, row.response_body) {
        (Some(status), Some(body)) => Ok(Some(Replay {
            response: StoredResponse { status, body },
            version: row.response_version,
        })),
        _ => Err(StoreError::IdempotencyInFlight),
    }
}

/// The locked write: appends `decision` to `game`, whose row the caller's transaction holds
/// ([`read_locked`]).
///
/// # Errors
/// `Unavailable`, `Database`.
pub fn append_locked(
    conn: &mut PgConnection,
    game: &GameRow,
    decision: Decision,
) -> Result<Applied, StoreError> {
    Ok(append(conn, game, decision)?)
}

/// Stores `response` under `idem` with the version it reports, in the caller's transaction
/// (the one that appended the events it answers), so a retry with the same key gets it
/// byte for byte.
///
/// # Errors
/// `Unavailable`, `Database`.
pub fn remember_response(
    conn: &mut PgConnection,
    game_id: Uuid,
    idem: &IdempotencyKey,
    response: &StoredResponse,
    version: i64,
) -> Result<(), StoreError> {
    diesel::insert_into(idempotency_keys::table)
        .values((
            idempotency_keys::game_id.eq(game_id),
            idempotency_keys::seat.eq(idem.seat),
            idempotency_keys::key.eq(&idem.key),
            idempotency_keys::request_fingerprint.eq(&idem.fingerprint),
            idempotency_keys::response_status.eq(response.status),
            idempotency_keys::response_body.eq(&response.body),
            idempotency_keys::response_version.eq(version),
        ))
        .execute(conn)?;
    Ok(())
}

/// Whether an action may be applied to `game` now: it is active and, when the client named
/// one, at the expected version. The action path checks this before it decides; a dry run
/// checks the same.
///
/// # Errors
/// `WrongStatus` unless active; `VersionConflict { current }` at another version.
pub fn check_actionable(game: &GameRow, expected_version: Option<i64>) -> Result<(), StoreError> {
    if game.status != GameStatus::Active {
        return Err(StoreError::WrongStatus {
            current: game.status,
            required: GameStatus::Active,
        });
    }
    match expected_version {
        Some(expected) if expected != game.version => Err(StoreError::VersionConflict {
            current: game.version,
        }),
        _ => Ok(()),
    }
}

/// An open game's row, locked for its start in the caller's transaction, with the seats that
/// will play it ([`lock_for_start`]).
#[derive(Debug, Clone)]
pub struct Starting {
    /// The game, its seat count that of `seats`.
    pub game: GameRow,
    /// The taken seats, numbered from 0.
    pub seats: Vec<SeatRow>,
}

/// The first step of starting open game `game_id` with the seats taken so far, in the
/// caller's transaction: the row is locked (`FOR UPDATE`), the open seats are closed (removed,
/// the taken ones keeping their order and numbered from 0 again) and the seat count follows.
/// The caller decides the setup for these seats and writes it with [`append_locked`]; a
/// refusal (too few seats, say) rolls the transaction back, the closing with it.
///
/// # Errors
/// `NotFound`; `WrongStatus` unless open; `Unavailable`; `Database`.
pub fn lock_for_start(conn: &mut PgConnection, game_id: Uuid) -> Result<Starting, StoreError> {
    let mut game = lock_game(conn, game_id)?;
    if game.status != GameStatus::Open {
        return Err(StoreError::WrongStatus {
            current: game.status,
            required: GameStatus::Open,
        });
    }
    let seats = super::seats::close_open_seats(conn, game_id)?;
    if seats.len() as i32 != game.seat_count {
        game = super::games::set_seat_count(conn, game_id, seats.len() as i32)?;
    }
    Ok(Starting { game, seats })
}
