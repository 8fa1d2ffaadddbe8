//! Applying an action (and starting a game): the one transaction that turns a decision into
//! stored events. See DESIGN.md "Storage": lock, check, decide, append, update, remember,
//! commit. Anything that fails before commit writes nothing. Announcing the new version to
//! long polls is the caller's next step ([`crate::notify::Announcer`]), outside the
//! transaction.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use crate::models::{
    EventRow, GameRow, GameStatus, IdempotencyRow, JsonText, NewEvent, SeatRow, StoredResponse,
};
use crate::schema::idempotency_keys;
use crate::StoreError;

/// What the caller's decision closure returns: the new events (in order), the state after
/// them, and the game's status after them.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// Events to append; seq numbers follow the game's version.
    pub events: Vec<NewEvent>,
    /// The full state after the events.
    pub snapshot: JsonText,
    /// `Active`, or `Finished` when the events end the game.
    pub status: GameStatus,
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
    Replayed(StoredResponse),
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
/// 2. The game must be `Active` (`WrongStatus`), and at `expected_version` if given
///    (`VersionConflict { current }`).
/// 3. `decide(&game)` returns the [`Decision`] or the caller's error (`Rejected`).
/// 4. Inserts the events with seq `version+1..` and updates snapshot, version, status,
///    `updated_at` (and `finished_at`), with `respond(&applied)` stored under the
///    idempotency key, all committed together.
///
/// `respond` builds the response body from the stored result, so the first answer and every
/// replay are byte-for-byte the same. `decide` may run more than once (each time on a newer
/// version of the game); only the last decision is written.
///
/// # Errors
/// As listed above, plus `NotFound`, `Unavailable`, `Database`. Every error writes nothing.
pub fn apply_action<E>(
    conn: &mut PgConnection,
    req: &ApplyRequest,
    mut decide: impl FnMut(&GameRow) -> Result<Decision, E>,
    respond: impl FnOnce(&Applied) -> StoredResponse,
) -> Result<ApplyOutcome, StoreError<E>> {
    if req.idempotency.is_none() {
        for _ in 0..OPTIMISTIC_ATTEMPTS {
            let game = super::games::get_game(conn, req.game_id).map_err(StoreError::widen)?;
            check_actionable(&game, req.expected_version)?;
            let decision = decide(&game).map_err(StoreError::Rejected)?;
            match append(conn, &game, decision) {
                Ok(applied) => {
                    let response = respond(&applied);
                    return Ok(ApplyOutcome::Applied { applied, response });
                }
                Err(e) if version_moved(&e) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }
    conn.transaction(|conn| {
        let game = super::lock_game(conn, req.game_id)?;
        if let Some(idem) = &req.idempotency {
            if let Some(stored) = check_idempotency(conn, req.game_id, idem)? {
                return Ok(ApplyOutcome::Replayed(stored));
            }
        }
        check_actionable(&game, req.expected_version)?;
        let decision = decide(&game).map_err(StoreError::Rejected)?;
        let applied = append(conn, &game, decision)?;
        let response = respond(&applied);
        if let Some(idem) = &req.idempotency {
            diesel::insert_into(idempotency_keys::table)
                .values((
                    idempotency_keys::game_id.eq(req.game_id),
                    idempotency_keys::seat.eq(idem.seat),
                    idempotency_keys::key.eq(&idem.key),
                    idempotency_keys::request_fingerprint.eq(&idem.fingerprint),
                    idempotency_keys::response_status.eq(response.status),
                    idempotency_keys::response_body.eq(&response.body),
                ))
                .execute(conn)?;
        }
        Ok(ApplyOutcome::Applied { applied, response })
    })
}

/// Whether an action may be applied to `game` now: it is active and, when the client named
/// one, at the expected version.
fn check_actionable<E>(game: &GameRow, expected_version: Option<i64>) -> Result<(), StoreError<E>> {
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

/// Whether `append_events` refused because the game moved past the version it was given.
fn version_moved(e: &diesel::result::Error) -> bool {
    matches!(
        e,
        diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::SerializationFailure,
            _
        )
    )
}

/// Starts an open game whose seats are all taken: `decide(&game, &seats)` returns the setup
/// events, the initial snapshot and the status (normally `Active`).
///
/// # Errors
/// `NotFound`; `WrongStatus` unless open; `SeatsOpen`; `Rejected`; `Unavailable`; `Database`.
/// Every error writes nothing.
pub fn start_game<E>(
    conn: &mut PgConnection,
    game_id: Uuid,
    decide: impl FnOnce(&GameRow, &[SeatRow]) -> Result<Decision, E>,
) -> Result<Applied, StoreError<E>> {
    conn.transaction(|conn| {
        let game = super::lock_game(conn, game_id)?;
        if game.status != GameStatus::Open {
            return Err(StoreError::WrongStatus {
                current: game.status,
                required: GameStatus::Open,
            });
        }
        let seats = super::seats(conn, game_id).map_err(StoreError::widen)?;
        if seats.iter().any(SeatRow::is_open) {
            return Err(StoreError::SeatsOpen);
        }
        let decision = decide(&game, &seats).map_err(StoreError::Rejected)?;
        Ok(append(conn, &game, decision)?)
    })
}

/// Same key seen before: `Some(response)` to replay, or an error; `None` for a new key.
fn check_idempotency<E>(
    conn: &mut PgConnection,
    game_id: Uuid,
    idem: &IdempotencyKey,
) -> Result<Option<StoredResponse>, StoreError<E>> {
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
        (Some(status), Some(body)) => Ok(Some(StoredResponse { status, body })),
        _ => Err(StoreError::IdempotencyInFlight),
    }
}

/// Appends `decision` to `game` (as read at its version), or fails with a serialization
/// failure when the game has moved on ([`version_moved`]).
///
/// One round trip: the `append_events` function (migration 6) inserts the events and writes
/// the snapshot, version and status. Only the transaction's timestamp comes back: the rows are
/// built here from what was sent rather than shipped back and parsed again.
fn append(conn: &mut PgConnection, game: &GameRow, decision: Decision) -> QueryResult<Applied> {
    let Decision {
        events: new_events,
        snapshot,
        status,
    } = decision;
    let now: DateTime<Utc> = diesel::select(append_events(
        game.id,
        game.version,
        new_events.iter().map(|e| e.seat).collect::<Vec<_>>(),
        new_events
            .iter()
            .map(|e| e.action.as_ref())
            .collect::<Vec<_>>(),
        new_events.iter().map(|e| &e.event).collect::<Vec<_>>(),
        &snapshot,
        status,
    ))
    .get_result(conn)?;
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
        seat_count: game.seat_count,
        rng_seed: game.rng_seed.clone(),
        created_at: game.created_at,
        updated_at: now,
        finished_at: (status == GameStatus::Finished).then(|| game.finished_at.unwrap_or(now)),
    };
    Ok(Applied { game, events })
}

diesel::define_sql_function! {
    /// `append_events(game, version, seats, actions, events, snapshot, status)`: see
    /// migration 6.
    fn append_events(
        game: diesel::sql_types::Uuid,
        version: diesel::sql_types::Int8,
        seats: diesel::sql_types::Array<diesel::sql_types::Nullable<diesel::sql_types::Int4>>,
        actions: diesel::sql_types::Array<diesel::sql_types::Nullable<diesel::sql_types::Jsonb>>,
        events: diesel::sql_types::Array<diesel::sql_types::Jsonb>,
        snapshot: diesel::sql_types::Json,
        status: diesel::sql_types::Text,
    ) -> diesel::sql_types::Timestamptz;
}
