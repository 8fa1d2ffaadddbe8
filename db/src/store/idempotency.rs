//! Idempotency records besides the actions' (which [`super::remember_response`] keeps): the lobby's,
//! for requests that create something for an anonymous client, and expiring old records of
//! both kinds. Clients retry within minutes; keeping keys forever would only grow the tables,
//! so the api (or a periodic job) deletes old ones.

use chrono::{DateTime, Utc};
use diesel::prelude::*;

use crate::models::{JsonText, StoredResponse};
use crate::schema::{idempotency_keys, lobby_idempotency_keys, token_secret};
use crate::token::TokenSecret;
use crate::StoreError;

/// The deployment's [`TokenSecret`]: the first process to ask stores a fresh one (a concurrent
/// first start keeps whichever committed first), and every process reads that one.
///
/// # Errors
/// `Unavailable`/`Database`; `Database` also for a stored value that is not 32 bytes (only a
/// hand-made row could be: the table refuses other lengths).
pub fn token_secret(conn: &mut PgConnection) -> Result<TokenSecret, StoreError> {
    diesel::insert_into(token_secret::table)
        .values(token_secret::secret.eq(TokenSecret::generate().stored()))
        .on_conflict_do_nothing()
        .execute(conn)?;
    let stored: Vec<u8> = token_secret::table
        .select(token_secret::secret)
        .first(conn)?;
    TokenSecret::from_stored(&stored).ok_or(StoreError::Database(
        diesel::result::Error::DeserializationError(
            "the stored token secret is not 32 bytes".into(),
        ),
    ))
}

/// Claims a lobby request's key inside the caller's transaction: `None` when the key is new
/// (the caller does the work, then [`save_lobby_response`] in the same transaction), or the
/// response stored for it. A concurrent request with the same key waits here until the first
/// one's transaction ends, then sees its response (or, if it rolled back, claims the key).
///
/// # Errors
/// `IdempotencyMismatch` when the key was used for another request; `IdempotencyInFlight`
/// should a record without a response be seen; `Unavailable`/`Database`.
pub fn claim_lobby_key(
    conn: &mut PgConnection,
    key_sha256: &[u8],
    fingerprint: &[u8],
) -> Result<Option<StoredResponse>, StoreError> {
    let inserted = diesel::insert_into(lobby_idempotency_keys::table)
        .values((
            lobby_idempotency_keys::key_sha256.eq(key_sha256),
            lobby_idempotency_keys::request_fingerprint.eq(fingerprint),
        ))
        .on_conflict_do_nothing()
        .execute(conn)?;
    if inserted == 1 {
        return Ok(None);
    }
    let (stored_fingerprint, status, body): (Vec<u8>, Option<i32>, Option<JsonText>) =
        lobby_idempotency_keys::table
            .find(key_sha256)
            .select((
                lobby_idempotency_keys::request_fingerprint,
                lobby_idempotency_keys::response_status,
                lobby_idempotency_keys::response_body,
            ))
            .first(conn)?;
    if stored_fingerprint != fingerprint {
        return Err(StoreError::IdempotencyMismatch);
    }
    match (status, body) {
        (Some(status), Some(body)) => Ok(Some(StoredResponse { status, body })),
        _ => Err(StoreError::IdempotencyInFlight),
    }
}

/// Stores the response of a lobby request whose key [`claim_lobby_key`] claimed, in the same
/// transaction.
///
/// # Errors
/// `Unavailable`/`Database`.
pub fn save_lobby_response(
    conn: &mut PgConnection,
    key_sha256: &[u8],
    response: &StoredResponse,
) -> Result<(), StoreError> {
    diesel::update(lobby_idempotency_keys::table.find(key_sha256))
        .set((
            lobby_idempotency_keys::response_status.eq(response.status),
            lobby_idempotency_keys::response_body.eq(&response.body),
        ))
        .execute(conn)?;
    Ok(())
}

/// Deletes idempotency records (of actions and of the lobby) created before `cutoff`; returns
/// how many. A retry after that runs as a new request (and usually meets a version conflict
/// or a rule error instead).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn expire_idempotency_keys(
    conn: &mut PgConnection,
    cutoff: DateTime<Utc>,
) -> Result<usize, StoreError> {
    let actions =
        diesel::delete(idempotency_keys::table.filter(idempotency_keys::created_at.lt(cutoff)))
            .execute(conn)?;
    let lobby = diesel::delete(
        lobby_idempotency_keys::table.filter(lobby_idempotency_keys::created_at.lt(cutoff)),
    )
    .execute(conn)?;
    Ok(actions + lobby)
}
