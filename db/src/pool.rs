//! The r2d2 connection pool. Diesel is synchronous, so the api runs store calls inside
//! `web::block` with a connection from here; the pool size bounds database concurrency.

use std::time::Duration;

use diesel::r2d2::ConnectionManager;
use diesel::PgConnection;

use crate::StoreError;

/// A pool of PostgreSQL connections.
pub type Pool = r2d2::Pool<ConnectionManager<PgConnection>>;

/// A connection checked out of a [`Pool`]; derefs to `PgConnection`.
pub type PooledConn = r2d2::PooledConnection<ConnectionManager<PgConnection>>;

/// How long `get_conn` waits for a free connection before reporting `Unavailable` (503).
pub const CHECKOUT_TIMEOUT: Duration = Duration::from_secs(5);

/// Opens a pool of at most `size` connections to `url`.
///
/// Connections are opened lazily (one at start, to fail fast on a wrong URL) and tested on
/// checkout, so a database restart costs one failed check, not a failed request.
///
/// # Errors
/// `StoreError::Unavailable` if no connection can be made within [`CHECKOUT_TIMEOUT`].
pub fn connect_pool(url: &str, size: u32) -> Result<Pool, StoreError> {
    let manager = ConnectionManager::<PgConnection>::new(url);
    let pool = r2d2::Pool::builder()
        .max_size(size.max(1))
        .min_idle(Some(1))
        .connection_timeout(CHECKOUT_TIMEOUT)
        .test_on_check_out(true)
        .build(manager)?;
    Ok(pool)
}

/// Checks a connection out of `pool`.
///
/// # Errors
/// `StoreError::Unavailable` when the pool times out.
pub fn get_conn(pool: &Pool) -> Result<PooledConn, StoreError> {
    Ok(pool.get()?)
}
