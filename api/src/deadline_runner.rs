//! The deadlines at work: threads that claim due deadlines from the shared `game_deadlines`
//! queue ([`db::store::claim_deadline`]) and fire them: a clock that ran out
//! ([`crate::service::lifecycle::fire_clock`]) or an open game that expired
//! ([`crate::service::lifecycle::fire_expiry`]).
//!
//! Built on the same queue workers as the bots ([`crate::workers`]), so both ride out a
//! database failover the same way (woken after the LISTEN connection's reconnect, patient
//! while the database is unavailable, a claimed deadline fired once a new primary takes it,
//! within its lease): every process may run them (`--deadline-threads`); the
//! queue's lease and `FOR UPDATE SKIP LOCKED` give each deadline to one process at a time,
//! and a clock deadline is written at its version only, so a deadline an action beat (or
//! that another process fired) is refused by the version guard and dropped. Nothing is held
//! in memory: a deadline that passes while no process runs is fired by the first to look.
//! An idle worker sleeps until the earliest deadline in the queue, at most
//! [`MAX_IDLE`], and is woken sooner when a deadline is armed, here or in another process
//! (through the announcer's NOTIFY and the process's LISTEN connection).

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web;
use db::store::{self, ClaimedDeadline, DeadlineKind};

use crate::config::DeadlineSettings;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::service::lifecycle::{self, Fired};
use crate::state::Context;
use crate::workers::{retry_while_unavailable, Job, Next, Queue, Wake, Workers};

/// The longest an idle worker sleeps without looking at the queue: covers wake-ups lost while
/// the LISTEN connection was down, and leases of dead processes.
pub const MAX_IDLE: Duration = Duration::from_secs(5);

/// How long a claimed deadline stays with its worker before another process may fire it.
pub const LEASE: Duration = Duration::from_secs(30);

/// The deadline queue as the LISTEN connection sees it: armed deadlines are announced on
/// [`store::DEADLINE_CHANNEL`].
pub fn queue(wake: Arc<Wake>) -> Queue {
    Queue {
        channel: store::DEADLINE_CHANNEL,
        wake,
    }
}

/// Starts `settings.threads` deadline workers, woken through `wake`.
///
/// # Panics
/// When a thread cannot be spawned.
pub fn start(
    settings: DeadlineSettings,
    pool: db::Pool,
    cx: Arc<Context>,
    wake: Arc<Wake>,
    metrics: web::Data<Metrics>,
) -> Workers {
    let jobs = (0..settings.threads)
        .map(|i| Worker {
            name: format!("pid{}-deadline{i}", std::process::id()),
            pool: pool.clone(),
            cx: cx.clone(),
            metrics: metrics.clone(),
        })
        .collect();
    Workers::start("deadline", jobs, wake)
}

struct Worker {
    name: String,
    pool: db::Pool,
    cx: Arc<Context>,
    metrics: web::Data<Metrics>,
}

impl Job for Worker {
    fn run_once(&self) -> Result<Next, ApiError> {
        self.claim_and_fire()
    }

    fn poll_interval(&self) -> Duration {
        Duration::from_secs(1)
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl Worker {
    /// Fires one due deadline, or says how long to sleep (until the earliest deadline, at
    /// most [`MAX_IDLE`]).
    fn claim_and_fire(&self) -> Result<Next, ApiError> {
        let claimed_at = Instant::now();
        let claimed =
            self.with_conn(
                |conn| match store::claim_deadline(conn, &self.name, LEASE)? {
                    Some(deadline) => Ok(Ok(deadline)),
                    None => Ok(Err(store::next_deadline_in(conn)?)),
                },
            )?;
        let deadline = match claimed {
            Ok(deadline) => deadline,
            Err(next) => return Ok(Next::Idle(next.map_or(MAX_IDLE, |n| n.min(MAX_IDLE)))),
        };
        // Within the lease, a database outage (a failover) delays the deadline instead of
        // leaving it claimed until the lease runs out; the version guard refuses a clock that
        // an action beat meanwhile.
        let fired = retry_while_unavailable(claimed_at + LEASE, || {
            self.with_conn(|conn| {
                let fired = match deadline.kind {
                    DeadlineKind::Clock => lifecycle::fire_clock(conn, &self.cx, &deadline)?,
                    DeadlineKind::Expiry => lifecycle::fire_expiry(conn, &self.cx, &deadline)?,
                };
                match fired {
                    Fired::Applied => {}
                    Fired::Stale => store::drop_stale_deadline(conn, &deadline)?,
                    Fired::NotYet(due) => store::reschedule_deadline(conn, &deadline, due)?,
                }
                Ok(fired)
            })
        })?;
        self.count(&deadline, &fired);
        Ok(Next::Again)
    }

    /// Runs `f` with a pooled connection ([`crate::state::with_conn`]).
    fn with_conn<T>(
        &self,
        f: impl FnOnce(&mut db::PooledConn) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        crate::state::with_conn(&self.pool, f)
    }

    fn count(&self, deadline: &ClaimedDeadline, fired: &Fired) {
        let kind = match deadline.kind {
            DeadlineKind::Clock => "clock",
            DeadlineKind::Expiry => "expiry",
        };
        let result = match fired {
            Fired::Applied => "applied",
            Fired::Stale => "stale",
            Fired::NotYet(_) => "early",
        };
        self.metrics
            .deadlines_fired
            .with_label_values(&[kind, result])
            .inc();
    }
}
