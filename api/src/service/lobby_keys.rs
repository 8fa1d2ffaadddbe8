//! `Idempotency-Key` for the requests that create something outside a game (a game, a seat, a
//! player, a seek): a retry with the same key and body gets the first response again, tokens
//! included, instead of a second game, seat, player or seek, although tokens are shown once
//! and never stored.
//!
//! How: the first request's work and the record of its key commit in one transaction
//! ([`db::store::claim_lobby_key`]; a concurrent retry waits for it). Only a hash of the key
//! is stored, and the response is stored with its tokens blanked out: the tokens of such a
//! request are an HMAC of the key under the deployment's secret
//! ([`db::token::TokenSecret::for_key`]), so a replay derives them again, and nobody who sees
//! a key (in a proxy's or a client's log) can compute them without that secret. A database
//! dump holds neither a key nor a token. A replay still answers the tokens to whoever sends
//! the same key, body and credentials again, so these keys must have at least [`MIN_KEY_LEN`]
//! characters (a UUID has 36).

use db::token::{KeyedTokens, TokenSecret};
use db::{JsonText, PgConnection, StoredResponse};
use serde::de::DeserializeOwned;
use serde::Serialize;
use uuid::Uuid;

use crate::error::ApiError;
use crate::extract::{IdempotencyKey, SeatToken};

/// The fewest characters a lobby request's key may have.
pub const MIN_KEY_LEN: usize = 16;

/// A lobby request's key with what it guards.
pub struct LobbyKey {
    tokens: KeyedTokens,
    key_sha256: Vec<u8>,
    fingerprint: Vec<u8>,
}

impl LobbyKey {
    /// The key of a request to `operation` (on `game`, for a join) with body `request`, made
    /// with the credentials `caller` (a player's token takes a seat for that player, so a
    /// retry must come from the same player; only a hash of it enters the fingerprint). Its
    /// tokens are made under `secret`, the deployment's.
    ///
    /// # Errors
    /// 400 `invalid_idempotency_key` for a key shorter than [`MIN_KEY_LEN`].
    pub fn new(
        secret: &TokenSecret,
        key: IdempotencyKey,
        operation: &str,
        game: Option<Uuid>,
        request: &impl Serialize,
        caller: Option<&SeatToken>,
    ) -> Result<LobbyKey, ApiError> {
        let key = key.into_string();
        if key.len() < MIN_KEY_LEN {
            return Err(ApiError::bad_request(
                "invalid_idempotency_key",
                format!(
                    "an Idempotency-Key that creates a game, a seat, a player or a seek has \
                     at least {MIN_KEY_LEN} characters (a random one, such as a UUID): it \
                     stands for the tokens of the response"
                ),
            ));
        }
        let game = game.map(|g| g.into_bytes()).unwrap_or_default();
        let key_sha256 =
            db::token::fingerprint(&[b"lobby key", operation.as_bytes(), &game, key.as_bytes()]);
        let body = serde_json::to_vec(request).unwrap_or_default();
        let caller = caller.map(SeatToken::as_str).unwrap_or_default();
        let fingerprint =
            db::token::fingerprint(&[operation.as_bytes(), &game, &body, caller.as_bytes()]);
        Ok(LobbyKey {
            tokens: secret.for_key(&key),
            key_sha256,
            fingerprint,
        })
    }

    /// The token this key makes for `parts` (the operation, the game, the seat).
    pub fn token(&self, parts: &[&[u8]]) -> String {
        self.tokens.token(parts)
    }
}

/// A lobby response, and whether it is a stored one sent again.
pub struct Answer<T> {
    pub body: T,
    pub replayed: bool,
}

/// [`once`] where the request carries a key; without one, `work` runs in one transaction and
/// its answer is sent as the first one.
///
/// # Errors
/// As [`once`].
pub fn once_if_keyed<T: Serialize + DeserializeOwned>(
    conn: &mut PgConnection,
    key: Option<&LobbyKey>,
    status: u16,
    work: impl FnOnce(&mut PgConnection) -> Result<T, ApiError>,
    blank: impl Fn(&mut T),
    restore: impl Fn(&mut T),
) -> Result<Answer<T>, ApiError> {
    match key {
        Some(key) => once(conn, key, status, work, blank, restore),
        None => db::store::atomically(conn, work).map(|body| Answer {
            body,
            replayed: false,
        }),
    }
}

/// Runs `work` once per key (see the module documentation): the first time in one transaction
/// with the key's record, afterwards not at all, answering the stored response. `blank`
/// removes the tokens before the response is stored; `restore` derives them again for a
/// replay (and for the first answer they are already there).
///
/// # Errors
/// `work`'s; 422 `idempotency_key_reused` for the key with another request.
pub fn once<T: Serialize + DeserializeOwned>(
    conn: &mut PgConnection,
    key: &LobbyKey,
    status: u16,
    work: impl FnOnce(&mut PgConnection) -> Result<T, ApiError>,
    blank: impl Fn(&mut T),
    restore: impl Fn(&mut T),
) -> Result<Answer<T>, ApiError> {
    db::store::atomically(conn, |conn| {
        if let Some(stored) = db::store::claim_lobby_key(conn, &key.key_sha256, &key.fingerprint)? {
            let mut body: T = serde_json::from_str(stored.body.as_str())
                .map_err(|e| ApiError::internal(format!("stored lobby response: {e}")))?;
            restore(&mut body);
            return Ok(Answer {
                body,
                replayed: true,
            });
        }
        let body = work(conn)?;
        let mut kept = serde_json::to_value(&body)
            .and_then(serde_json::from_value::<T>)
            .map_err(|e| ApiError::internal(format!("lobby response: {e}")))?;
        blank(&mut kept);
        let json = serde_json::to_string(&kept)
            .map_err(|e| ApiError::internal(format!("lobby response: {e}")))?;
        let response = StoredResponse {
            status: i32::from(status),
            body: JsonText::new(json),
        };
        db::store::save_lobby_response(conn, &key.key_sha256, &response)?;
        Ok(Answer {
            body,
            replayed: false,
        })
    })
}
