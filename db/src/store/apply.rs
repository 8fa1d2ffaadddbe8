//! Applying an action (and starting a game): the one transaction that turns a decision into
//! stored events (`docs/architecture.md`, "Storage"): read (and lock, or guard the write by
//! the version read), check, decide, append, update, remember the response, commit; the steps
//! are in [`apply_action`]'s doc. Anything that fails before commit writes nothing. Announcing the new version to
//! long polls is the caller's next step ([`crate::notify::Announcer`]), outside the
//! transaction.

use diesel::prelude::*;
use uuid::Uuid;

use super::append::{append, append_unless_locked, version_moved, Applied, Decision, LockWait};
use super::games::{get_game, lock_game};
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

/// Which game to act on and the request's optimistic and idempotency guards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyRequest {
    /// The game.
    pub game_id: Uuid,
    /// Refuse with `VersionConflict` unless the game is at this version.
    pub expected_version: Option<i64>,
    /// Replay the stored response when this key was already used for the same request.
    pub idempotency: Option<IdempotencyKey>,
    /// Whether the request may wait for another transaction's lock on the game's row.
    pub lock_wait: LockWait,
}

/// What [`apply_action`] did.
// One value per request, moved once: boxing `Applied` would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum ApplyOutcome {
    /// The action was applied now; `response` was stored under the idempotency key, if any.
    Applied {
        /// The new events and game row.
        applied: Applied,
        /// The response to send (from the `respond` closure).
        response: StoredResponse,
    },
    /// The same request was applied before; send the stored response again.
    Replayed {
        /// The response stored with the key.
        response: StoredResponse,
        /// The game's version that response reported (`None` for responses stored before
        /// the version was kept beside them, migration 7).
        version: Option<i64>,
    },
}

/// How often [`apply_action`] re-reads and re-decides when another action on the same game
/// committed between its read and its write, before it falls back to locking the row first.
pub const OPTIMISTIC_ATTEMPTS: usize = 3;

/// Applies one action in one transaction.
///
/// 1. Reads the game. Without an idempotency key the read takes no lock: the write below is
///    a single statement (its own transaction) that refuses unless the game is still at the
///    version read, and a refused write starts again from the read ([`OPTIMISTIC_ATTEMPTS`]
///    times, then as in the keyed case). Two round trips in all, where a locking transaction
///    needs four. With an idempotency key the row is locked (`FOR UPDATE`) in a transaction
///    that also checks and stores the key: a stored response for the same key and
///    fingerprint is returned as [`ApplyOutcome::Replayed`] (checked before the version, so
///    a retry of a request that moved the version replays instead of conflicting); a
///    different fingerprint is `IdempotencyMismatch`; a record without response is
///    `IdempotencyInFlight`.
/// 2. [`check_actionable`]: the game must be `Active` (`WrongStatus`), and at
///    `expected_version` if given (`VersionConflict { current }`).
/// 3. `decide(&game)` returns the [`Decision`] and whatever the caller wants to build its
///    response from (`T`, e.g. the state after the action), or the caller's error
///    (`Rejected`).
/// 4. Inserts the events with seq `version+1..` and updates snapshot, version, status,
///    `updated_at` (and `finished_at`), with `respond(&applied, t)` and the new version
///    stored under the idempotency key, all committed together.
///
/// `respond` builds the response body from the stored result, so the first answer and every
/// replay are byte-for-byte the same. `decide` may run more than once (each time on a newer
/// version of the game); only the last decision is written and handed to `respond`.
///
/// With [`LockWait::Refused`] the read takes no lock and the write only a free one: `Busy`
/// (nothing written) where the steps above would wait, including any request with a key.
///
/// # Errors
/// As listed above, plus `NotFound`, `Busy`, `Unavailable`, `Database`. Every error writes
/// nothing.
pub fn apply_action<T, E>(
    conn: &mut PgConnection,
    req: &ApplyRequest,
    mut decide: impl FnMut(&GameRow) -> Result<(Decision, T), E>,
    respond: impl FnOnce(&Applied, T) -> StoredResponse,
) -> Result<ApplyOutcome, StoreError<E>> {
    let waits = req.lock_wait == LockWait::Allowed;
    if req.idempotency.is_none() {
        for _ in 0..OPTIMISTIC_ATTEMPTS {
            let game = get_game(conn, req.game_id).map_err(StoreError::widen)?;
            check_actionable(&game, req.expected_version).map_err(StoreError::widen)?;
            let (decision, decided) = decide(&game).map_err(StoreError::Rejected)?;
            let appended = if waits {
                append(conn, &game, decision).map(Some)
            } else {
                append_unless_locked(conn, &game, decision)
            };
            match appended {
                Ok(Some(applied)) => {
                    let response = respond(&applied, decided);
                    return Ok(ApplyOutcome::Applied { applied, response });
                }
                Ok(None) => return Err(StoreError::Busy),
                Err(e) if version_moved(&e) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }
    if !waits {
        return Err(StoreError::Busy);
    }
    conn.transaction(|conn| {
        let game = lock_game(conn, req.game_id)?;
        if let Some(idem) = &req.idempotency {
            if let Some(replay) = check_idempotency(conn, req.game_id, idem)? {
                return Ok(replay);
            }
        }
        check_actionable(&game, req.expected_version).map_err(StoreError::widen)?;
        let (decision, decided) = decide(&game).map_err(StoreError::Rejected)?;
        let applied = append(conn, &game, decision)?;
        let response = respond(&applied, decided);
        if let Some(idem) = &req.idempotency {
            diesel::insert_into(idempotency_keys::table)
                .values((
                    idempotency_keys::game_id.eq(req.game_id),
                    idempotency_keys::seat.eq(idem.seat),
                    idempotency_keys::key.eq(&idem.key),
                    idempotency_keys::request_fingerprint.eq(&idem.fingerprint),
                    idempotency_keys::response_status.eq(response.status),
                    idempotency_keys::response_body.eq(&response.body),
                    idempotency_keys::response_version.eq(applied.game.version),
                ))
                .execute(conn)?;
        }
        Ok(ApplyOutcome::Applied { applied, response })
    })
}

/// Whether an action may be applied to `game` now: it is active and, when the client named
/// one, at the expected version. [`apply_action`] checks this; a dry run checks the same.
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

/// Starts an open game with the seats taken so far: open seats are closed (removed, the
/// taken ones keeping their order and numbered from 0 again) and `decide(&game, &seats)`
/// returns the setup events, the initial snapshot and the status (normally `Active`) for
/// those seats, or refuses (for instance when they are too few for the game: then nothing,
/// not even the closing, is written).
///
/// # Errors
/// `NotFound`; `WrongStatus` unless open; `Rejected`; `Unavailable`; `Database`. Every error
/// writes nothing.
pub fn start_game<E>(
    conn: &mut PgConnection,
    game_id: Uuid,
    decide: impl FnOnce(&GameRow, &[SeatRow]) -> Result<Decision, E>,
) -> Result<Applied, StoreError<E>> {
    conn.transaction(|conn| {
        let mut game = lock_game(conn, game_id)?;
        if game.status != GameStatus::Open {
            return Err(StoreError::WrongStatus {
                current: game.status,
                required: GameStatus::Open,
            });
        }
        let seats = super::seats::close_open_seats(conn, game_id).map_err(StoreError::widen)?;
        if seats.len() as i32 != game.seat_count {
            game = super::games::set_seat_count(conn, game_id, seats.len() as i32)
                .map_err(StoreError::widen)?;
        }
        let decision = decide(&game, &seats).map_err(StoreError::Rejected)?;
        Ok(append(conn, &game, decision)?)
    })
}

/// Same key seen before: `Some(replay)` to send again, or an error; `None` for a new key.
fn check_idempotency<E>(
    conn: &mut PgConnection,
    game_id: Uuid,
    idem: &IdempotencyKey,
) -> Result<Option<ApplyOutcome>, StoreError<E>> {
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
        (Some(status), Some(body)) => Ok(Some(ApplyOutcome::Replayed {
            response: StoredResponse { status, body },
            version: row.response_version,
        })),
        _ => Err(StoreError::IdempotencyInFlight),
    }
}
