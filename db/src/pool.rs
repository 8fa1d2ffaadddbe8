//! The r2d2 connection pool. Diesel is synchronous, so the api runs store calls inside
//! `web::block` with a connection from here; the pool size bounds database concurrency.
//!
//! The pool does not ping every connection it hands out (r2d2's `test_on_check_out` costs a
//! `SELECT 1` round trip per request, a sixth of an action's round trips). Instead:
//! - a connection that has rested longer than [`PING_AFTER_IDLE`] is pinged before use, which
//!   catches a database restart that happened while it sat in the pool;
//! - a connection on which a request met [`StoreError::Unavailable`] is marked with
//!   [`DbConn::mark_broken`] and dropped when it returns, so a connection killed under load is
//!   used by exactly one failing request; and every other connection that was in the pool
//!   at that moment is pinged before its next use, so that after a failover the dead
//!   primary's connections cost pings, not failed requests.
//!
//! While the server cannot be reached at all (the last attempt to connect failed: a primary
//! is gone and no new one accepts writes yet), [`get_conn`] waits only [`CHECKOUT_WHILE_DOWN`]
//! for a connection, so that requests are answered 503 at once instead of each waiting out
//! the full [`CHECKOUT_TIMEOUT`]; the pool keeps trying to connect in the background every
//! [`RECONNECT_EVERY`] at most, and the first connection that succeeds ends the outage.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel::connection::Connection;
use diesel::r2d2::R2D2Connection;
use diesel::{ConnectionError, PgConnection};

use crate::StoreError;

/// A checked-out connection of a [`Pool`]; derefs to [`DbConn`] and from there to
/// `PgConnection`.
pub type PooledConn = r2d2::PooledConnection<DbManager>;

/// How long `get_conn` waits for a free connection before reporting `Unavailable` (503).
pub const CHECKOUT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long `get_conn` waits for a connection while the server cannot be reached.
pub const CHECKOUT_WHILE_DOWN: Duration = Duration::from_millis(250);

/// The longest pause between two attempts to connect while the server cannot be reached
/// (r2d2 retries at half its connection timeout at most).
pub const RECONNECT_EVERY: Duration = Duration::from_millis(500);

/// A connection idle for longer than this is pinged at checkout.
pub const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// A pool of PostgreSQL connections, and what it knows about its server's health. Derefs to
/// the r2d2 pool (`try_get`, `state`, `max_size`); check out with [`get_conn`].
#[derive(Clone)]
pub struct Pool {
    inner: r2d2::Pool<DbManager>,
    health: Arc<Health>,
}

impl Deref for Pool {
    type Target = r2d2::Pool<DbManager>;
    fn deref(&self) -> &r2d2::Pool<DbManager> {
        &self.inner
    }
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("state", &self.inner.state())
            .field("down", &self.health.is_down())
            .finish()
    }
}

impl Pool {
    /// Whether the last attempt to open a connection failed (the server is unreachable, or
    /// is not the kind the URL asks for, such as a standby for `target_session_attrs=read-write`).
    pub fn is_down(&self) -> bool {
        self.health.is_down()
    }
}

/// What the connections of one pool have learnt about their server.
#[derive(Debug)]
struct Health {
    /// The instant the offsets below count from.
    base: Instant,
    /// The last attempt to connect failed.
    down: AtomicBool,
    /// When a request last found the server gone under its connection (milliseconds after
    /// `base`, plus one; 0: never): connections older than that are pinged before use.
    gone_at: AtomicU64,
}

impl Health {
    fn new() -> Health {
        Health {
            base: Instant::now(),
            down: AtomicBool::new(false),
            gone_at: AtomicU64::new(0),
        }
    }

    fn is_down(&self) -> bool {
        self.down.load(Ordering::Relaxed)
    }

    fn server_gone(&self) {
        let ms = u64::try_from(self.base.elapsed().as_millis()).unwrap_or(u64::MAX - 1);
        self.gone_at.fetch_max(ms + 1, Ordering::Relaxed);
    }

    /// Whether the server was found gone after `instant`.
    fn gone_since(&self, instant: Instant) -> bool {
        match self.gone_at.load(Ordering::Relaxed) {
            0 => false,
            at => self.base + Duration::from_millis(at - 1) >= instant,
        }
    }
}

/// A pooled PostgreSQL connection with what the pool needs to know about its health.
pub struct DbConn {
    conn: PgConnection,
    returned_at: Instant,
    broken: bool,
    health: Arc<Health>,
}

impl DbConn {
    /// Tells the pool to close this connection instead of reusing it (the server went away
    /// while it was in use), and to ping the pool's other connections before their next use.
    pub fn mark_broken(&mut self) {
        self.broken = true;
        self.health.server_gone();
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
    health: Arc<Health>,
}

impl r2d2::ManageConnection for DbManager {
    type Connection = DbConn;
    type Error = DbCheckError;

    fn connect(&self) -> Result<DbConn, DbCheckError> {
        match PgConnection::establish(&self.url) {
            Ok(conn) => {
                self.health.down.store(false, Ordering::Relaxed);
                Ok(DbConn {
                    conn,
                    returned_at: Instant::now(),
                    broken: false,
                    health: self.health.clone(),
                })
            }
            Err(e) => {
                self.health.down.store(true, Ordering::Relaxed);
                Err(e.into())
            }
        }
    }

    fn is_valid(&self, conn: &mut DbConn) -> Result<(), DbCheckError> {
        if conn.returned_at.elapsed() > PING_AFTER_IDLE || self.health.gone_since(conn.returned_at)
        {
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
    let pool = connect_pool_lazy(url, size);
    // Fail fast on a wrong URL, as r2d2's checked build would, with the usual patience.
    drop(pool.inner.get_timeout(CHECKOUT_TIMEOUT)?);
    Ok(pool)
}

/// A pool of at most `size` connections to `url` that connects in the background and does
/// not wait for the first connection: for a server that may be down when the service starts
/// (a read replica, whose reads the primary answers meanwhile).
pub fn connect_pool_lazy(url: &str, size: u32) -> Pool {
    let health = Arc::new(Health::new());
    let inner = r2d2::Pool::builder()
        .max_size(size.max(1))
        .min_idle(Some(1))
        // r2d2 retries a failed connect after at most half of this; checkouts pass their own
        // timeout (get_conn).
        .connection_timeout(RECONNECT_EVERY * 2)
        .test_on_check_out(true)
        .build_unchecked(DbManager {
            url: url.to_string(),
            health: health.clone(),
        });
    Pool { inner, health }
}

/// Checks a connection out of `pool`: waits up to [`CHECKOUT_TIMEOUT`] for one, or only
/// [`CHECKOUT_WHILE_DOWN`] while the server cannot be reached.
///
/// # Errors
/// `StoreError::Unavailable` when the pool times out.
pub fn get_conn(pool: &Pool) -> Result<PooledConn, StoreError> {
    let timeout = if pool.is_down() {
        CHECKOUT_WHILE_DOWN
    } else {
        CHECKOUT_TIMEOUT
    };
    Ok(pool.inner.get_timeout(timeout)?)
}
