//! Stored answers to `Idempotency-Key` requests (`idempotency_keys`): the key's row, and the
//! response an applied action is remembered by. A module of its own because a retry must get
//! the first answer byte for byte, so the response is stored in the same transaction as the
//! events it reports (see [`crate::store::remember_response`]).

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use uuid::Uuid;

use crate::models::JsonText;
use crate::schema::idempotency_keys;

/// An `idempotency_keys` row.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = idempotency_keys, check_for_backend(Pg))]
pub struct IdempotencyRow {
    /// Game id.
    pub game_id: Uuid,
    /// Seat that sent the request.
    pub seat: i32,
    /// Client-chosen key (`Idempotency-Key` header).
    pub key: String,
    /// Hash of the request, to tell a retry from a reused key.
    pub request_fingerprint: Vec<u8>,
    /// HTTP status of the stored response (None while in flight).
    pub response_status: Option<i32>,
    /// Body of the stored response.
    pub response_body: Option<JsonText>,
    /// When the key was first seen.
    pub created_at: DateTime<Utc>,
    /// The game's version in the stored response (None while in flight, and for responses
    /// stored before migration 7).
    pub response_version: Option<i64>,
}

/// The response the api sent for an applied action, stored so a retry gets the same answer.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredResponse {
    /// HTTP status code.
    pub status: i32,
    /// JSON body, as sent.
    pub body: JsonText,
}
