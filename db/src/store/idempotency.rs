//! Expiring idempotency records. Clients retry within minutes; keeping keys forever would
//! only grow the table, so the api (or a periodic job) deletes old ones.

use chrono::{DateTime, Utc};
use diesel::prelude::*;

use crate::schema::idempotency_keys;
use crate::StoreError;

/// Deletes idempotency records created before `cutoff`; returns how many. A retry after that
/// runs as a new request (and usually meets a version conflict or a rule error instead).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn expire_idempotency_keys(
    conn: &mut PgConnection,
    cutoff: DateTime<Utc>,
) -> Result<usize, StoreError> {
    Ok(
        diesel::delete(idempotency_keys::table.filter(idempotency_keys::created_at.lt(cutoff)))
            .execute(conn)?,
    )
}
