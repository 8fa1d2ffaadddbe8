//! Shared per-process state: the pool, the request context, and a handle on the change hub
//! ([`crate::hub`], the LISTEN/NOTIFY fan-out). Metrics are app data of their own
//! ([`crate::metrics::Metrics`]).
//! Handlers keep no game state in memory between requests.

use std::sync::Arc;

use actix_web::web;
use db::store::LockWait;
use tokio::time::Instant;

use crate::error::ApiError;
use crate::hub::{Changes, Hub};
use crate::replica::{AtVersion, ReadOutcome, Replica};
use crate::rosters::RosterCache;

/// What handlers share.
#[derive(Clone)]
pub struct AppState {
    /// Connections to the writer (the primary).
    pub pool: db::Pool,
    /// The read replica, with `--read-database-url` (see [`crate::replica`]).
    pub replica: Option<Arc<Replica>>,
    pub hub: Arc<Hub>,
    pub context: Arc<Context>,
    /// `--db-on-blocking-pool`: [`AppState::db_here`] never runs on the worker.
    pub always_block: bool,
    /// One permit per pooled connection (of the primary's pool and the replica's together):
    /// what a database call holds while it runs on the blocking pool.
    pub db_permits: Arc<tokio::sync::Semaphore>,
    /// Counts every call made here (the `db_request_calls_total` metric).
    pub db_calls: prometheus::IntCounter,
}

/// How long a request waits for its turn at the database before it is answered 503: far
/// longer than any burst takes to drain, short enough that a stuck database is reported.
pub const DB_QUEUE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(30);

/// Whether `answer` is at least at `min_version` (any answer is, when none is named).
fn reaches(answer: &impl AtVersion, min_version: Option<i64>) -> bool {
    match min_version {
        Some(min) => answer.version() >= min,
        None => true,
    }
}

/// Where a read runs: on the HTTP worker when a connection is free (most reads), or always
/// on the blocking pool (reads that take long in themselves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Placement {
    Here,
    Blocking,
}

/// What the synchronous part of a request uses besides its connection.
pub struct Context {
    /// Complete rosters, so that tokens are recognised without a query.
    pub rosters: RosterCache,
    /// Tokens seen to be seats' (the rate limiter's identities).
    pub known_tokens: Arc<crate::known_tokens::KnownTokens>,
    /// Where committed versions go: long polls and streams, here and in other processes.
    pub changes: Changes,
    /// The document's schemas, to hold actions to their game's shape.
    pub schemas: Arc<crate::strict::Schemas>,
    /// Bot budgets and pacing.
    pub bots: crate::config::BotSettings,
    /// How long an open game waits for its seats to be taken (`--open-game-ttl`).
    pub open_game_ttl: std::time::Duration,
    /// How long a seek waits for opponents (`--seek-ttl`).
    pub seek_ttl: std::time::Duration,
    /// How long a challenge waits for answers (`--challenge-ttl`).
    pub challenge_ttl: std::time::Duration,
    /// Counts of the seats' lifecycle events (timeouts, takeovers, resignations, ...).
    pub lifecycle_events: prometheus::IntCounterVec,
    /// The deployment's secret behind the tokens of keyed lobby requests
    /// ([`crate::service::lobby_keys`]).
    pub token_secret: db::token::TokenSecret,
}

/// Runs `f` with a connection from `pool`, handed back as [`settle`] says: the one way every
/// caller (requests, the runners, the workers) uses a pooled connection.
///
/// # Errors
/// 503 when no connection is free within the pool's timeout; `f`'s error.
pub fn with_conn<T>(
    pool: &db::Pool,
    f: impl FnOnce(&mut db::PooledConn) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut conn = db::get_conn(pool)?;
    let result = f(&mut conn);
    settle(&mut conn, &result);
    result
}

/// After `conn` answered `result`: a 5xx may mean the server went away under the connection
/// (a failover), so it is closed instead of going back to the pool (see
/// `db::DbConn::mark_broken`).
pub fn settle<T>(conn: &mut db::PooledConn, result: &Result<T, ApiError>) {
    if result.as_ref().is_err_and(|e| e.status.is_server_error()) {
        conn.mark_broken();
    }
}

impl AppState {
    /// Runs `f` with a pooled connection and the [`Context`] on the blocking pool (diesel is
    /// synchronous), inside the request's tracing span. The connection goes back to the pool
    /// when `f` returns, unless `f` failed with a 5xx: then it is closed (see
    /// `db::DbConn::mark_broken`).
    ///
    /// At most one call per pooled connection runs at a time; the others wait here for a
    /// permit, in order and without a thread each. A burst (a thousand streams opened at
    /// once, every long poll woken by one move) so waits its turn instead of parking a
    /// blocking thread per request on the pool, which grew the process by hundreds of
    /// threads and answered 503 once the pool's checkout timeout ran out under that load.
    ///
    /// # Errors
    /// `f`'s error; 503 when the turn does not come within [`DB_QUEUE_PATIENCE`], or no
    /// connection is free within the pool's timeout.
    pub async fn db<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + 'static,
    {
        self.db_on(&self.pool, f).await
    }

    async fn db_on<T, F>(&self, pool: &db::Pool, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + 'static,
    {
        let permit =
            tokio::time::timeout(DB_QUEUE_PATIENCE, self.db_permits.clone().acquire_owned())
                .await
                .map_err(|_| ApiError::unavailable("the database is busy; retry later"))?
                .map_err(|_| ApiError::unavailable("the server is shutting down"))?;
        self.db_calls.inc();
        let pool = pool.clone();
        let context = self.context.clone();
        let span = tracing::Span::current();
        web::block(move || {
            let _permit = permit;
            let _entered = span.enter();
            with_conn(&pool, |conn| f(conn, &context))
        })
        .await
        .map_err(|_| ApiError::unavailable("the server is shutting down"))?
    }

    /// Runs `f` right here on the HTTP worker when that cannot make the worker wait, else as
    /// [`AppState::db`] does. Handing work to the blocking pool and back costs a request
    /// two thread switches, a good part of the service's CPU per move; but a worker also
    /// serves every other request queued on it, so it must never block on anything that can
    /// take long. Here it runs `f` only with a connection that is free now (no waiting for
    /// the pool) and with [`LockWait::Refused`] (no waiting for another transaction's row
    /// lock: the store answers `Busy` instead, having written nothing). Reads take no locks.
    /// What would wait goes to the blocking pool, which waits boundedly and answers 503 when
    /// the pool stays exhausted: overload is shed exactly as before.
    ///
    /// # Errors
    /// As [`AppState::db`].
    pub async fn db_here<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: Fn(&mut db::PooledConn, &Context, LockWait) -> Result<T, ApiError> + Send + 'static,
    {
        self.db_here_on(&self.pool, f).await
    }

    async fn db_here_on<T, F>(&self, pool: &db::Pool, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: Fn(&mut db::PooledConn, &Context, LockWait) -> Result<T, ApiError> + Send + 'static,
    {
        let here = if self.always_block {
            None
        } else {
            pool.try_get()
        };
        if let Some(mut conn) = here {
            self.db_calls.inc();
            match f(&mut conn, &self.context, LockWait::Refused) {
                Err(e) if e.is_busy() => {}
                result => {
                    settle(&mut conn, &result);
                    return result;
                }
            }
        }
        self.db_on(pool, move |conn, cx| f(conn, cx, LockWait::Allowed))
            .await
    }

    /// Runs the read `f` on the replica when there is one, else (or when the replica cannot
    /// give the answer, see [`crate::replica`]) on the writer, as [`AppState::db_here`] does.
    /// `min_version`: the version the caller named; the answer is never older (the replica is
    /// waited for up to `--read-max-wait-ms`, then the primary answers).
    ///
    /// # Errors
    /// `f`'s error (from the primary when the replica's was a 404, 401 or 503).
    pub async fn read<T, F>(&self, min_version: Option<i64>, f: F) -> Result<T, ApiError>
    where
        T: AtVersion + Send + 'static,
        F: Fn(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        self.read_placed(Placement::Here, min_version, f).await
    }

    /// [`AppState::read`] for reads that take long in themselves (a whole log, a replay):
    /// always on the blocking pool, as [`AppState::db`] runs them.
    ///
    /// # Errors
    /// As [`AppState::read`].
    pub async fn read_blocking<T, F>(&self, min_version: Option<i64>, f: F) -> Result<T, ApiError>
    where
        T: AtVersion + Send + 'static,
        F: Fn(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        self.read_placed(Placement::Blocking, min_version, f).await
    }

    async fn read_placed<T, F>(
        &self,
        placement: Placement,
        min_version: Option<i64>,
        f: F,
    ) -> Result<T, ApiError>
    where
        T: AtVersion + Send + 'static,
        F: Fn(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        let f = Arc::new(f);
        if let Some(replica) = &self.replica {
            match self
                .read_replica(replica, placement, min_version, &f)
                .await?
            {
                Ok(answer) => return Ok(answer),
                Err(outcome) => replica.count(outcome),
            }
        }
        self.run_placed(&self.pool, placement, f).await
    }

    async fn run_placed<T, F>(
        &self,
        pool: &db::Pool,
        placement: Placement,
        f: Arc<F>,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: Fn(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        match placement {
            Placement::Here => self.db_here_on(pool, move |conn, cx, _| f(conn, cx)).await,
            Placement::Blocking => self.db_on(pool, move |conn, cx| f(conn, cx)).await,
        }
    }

    /// The replica's answer, or why the primary must answer instead.
    async fn read_replica<T, F>(
        &self,
        replica: &Replica,
        placement: Placement,
        min_version: Option<i64>,
        f: &Arc<F>,
    ) -> Result<Result<T, ReadOutcome>, ApiError>
    where
        T: AtVersion + Send + 'static,
        F: Fn(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        if replica.pool.is_down() {
            return Ok(Err(ReadOutcome::PrimaryUnavailable));
        }
        let deadline = Instant::now() + replica.max_wait;
        let mut pause = crate::replica::FIRST_PAUSE;
        let mut waited = false;
        loop {
            match self.run_placed(&replica.pool, placement, f.clone()).await {
                Ok(answer) if reaches(&answer, min_version) => {
                    replica.count(if waited {
                        ReadOutcome::ReplicaAfterWait
                    } else {
                        ReadOutcome::Replica
                    });
                    return Ok(Ok(answer));
                }
                Ok(_) if Instant::now() + pause < deadline => {
                    tokio::time::sleep(pause).await;
                    waited = true;
                    pause = (pause * 2).min(crate::replica::MAX_PAUSE);
                }
                Ok(_) => return Ok(Err(ReadOutcome::PrimaryLagging)),
                Err(e) => return ReadOutcome::of_refusal(&e).map(Err).ok_or(e),
            }
        }
    }
}
