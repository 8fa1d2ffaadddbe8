//! The r2d2 connection pool. Diesel is synchronous, so the api runs store calls inside
//! `web::block` with a connection from here; the pool size bounds database concurrency.
//!
//! The pool does not ping every connection it hands out (r2d2's `test_on_check_out` costs a
//! `SELECT 1` round trip per request, a sixth of an action's round trips). Instead:
//! - a connection that has rested longer than [`PING_AFTER_IDLE`] is pinged before use, which
//!   catches a database restart that happened while it sat in the pool;
//! - a connection on which a request met [`StoreError::Unavailable`] is marked with
//!   [`DbConn::mark_broken`] and dropped when it returns, so a connection killed under load is
//!   used by exactly one failing request.

use std::ops::{Deref, DerefMut};
use std::time::{Duration, Instant};

use diesel::connection::Connection;
use diesel::r2d2::R2D2Connection;
use diesel::{ConnectionError, PgConnection};

use crate::StoreError;

/// A pool of PostgreSQL connections.
pub type Pool = r2d2::Pool<DbManager>;

/// A connection checked out of a [`Pool`]; derefs to [`DbConn`] and from there to
/// `PgConnection`.
pub type PooledConn = r2d2::PooledConnection<DbManager>;

/// How long `get_conn` waits for a free connection before reporting `Unavailable` (503).
pub const CHECKOUT_TIMEOUT: Duration = Duration::from_secs(5);

/// A connection idle for longer than this is pinged at checkout.
pub const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// A pooled PostgreSQL connection with what the pool needs to know about its health.
pub struct DbConn {
    conn: PgConnection,
    returned_at: Instant,
    broken: bool,
}

impl DbConn {
    /// Tells the pool to close this connection instead of reusing it (the server went away
    /// while it was in use).
    pub fn mark_broken(&mut self) {
        self.broken = true;
    }
}

impl Deref for DbConn {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        &self.conn
    }
}

impl DerefMut for DbConn {
    fn deref_mut(&mut self) -> &mut PgConnection {
        &mut self.conn
    }
}

/// Opens [`DbConn`]s to one database URL.
#[derive(Debug)]
pub struct DbManager {
    url: String,
}

impl r2d2::ManageConnection for DbManager {
    type Connection = DbConn;
    type Error = DbCheckError;

    fn connect(&self) -> Result<DbConn, DbCheckError> {
        Ok(DbConn {
            conn: PgConnection::establish(&self.url)?,
            returned_at: Instant::now(),
            broken: false,
        })
    }

    fn is_valid(&self, conn: &mut DbConn) -> Result<(), DbCheckError> {
        if conn.returned_at.elapsed() > PING_AFTER_IDLE {
            conn.conn.ping()?;
        }
        Ok(())
    }

    fn has_broken(&self, conn: &mut DbConn) -> bool {
        // Called whenever a connection comes back: the start of its rest.
        conn.returned_at = Instant::now();
        conn.broken || std::thread::panicking() || conn.conn.is_broken()
    }
}

/// Why a connection could not be opened or failed its ping.
#[derive(Debug, thiserror::Error)]
pub enum DbCheckError {
    /// Connecting failed.
    #[error(transparent)]
    Connect(#[from] ConnectionError),
    /// The ping failed.
    #[error(transparent)]
    Ping(#[from] diesel::result::Error),
}

/// Opens a pool of at most `size` connections to `url`.
///
/// Connections are opened lazily (one at start, to fail fast on a wrong URL).
///
/// # Errors
/// `StoreError::Unavailable` if no connection can be made within [`CHECKOUT_TIMEOUT`].
pub fn connect_pool(url: &str, size: u32) -> Result<Pool, StoreError> {
    let pool = r2d2::Pool::builder()
        .max_size(size.max(1))
        .min_idle(Some(1))
        .connection_timeout(CHECKOUT_TIMEOUT)
        .test_on_check_out(true)
        .build(DbManager {
            url: url.to_string(),
        })?;
    Ok(pool)
}

/// Checks a connection out of `pool`.
///
/// # Errors
/// `StoreError::Unavailable` when the pool times out.
pub fn get_conn(pool: &Pool) -> Result<PooledConn, StoreError> {
    Ok(pool.get()?)
}
