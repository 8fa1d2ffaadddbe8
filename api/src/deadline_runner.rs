//! The deadlines at work: threads that claim due deadlines from the shared `game_deadlines`
//! queue ([`db::store::claim_deadline`]) and fire them: a clock that ran out
//! ([`crate::service::lifecycle::fire_clock`]) or an open game that expired
//! ([`crate::service::lifecycle::fire_expiry`]).
//!
//! Built like the bot workers ([`crate::bot_runner`]), so that both can be made to ride out a
//! database failover the same way: every process may run them (`--deadline-threads`); the
//! queue's lease and `FOR UPDATE SKIP LOCKED` give each deadline to one process at a time,
//! and a clock deadline is written at its version only, so a deadline an action beat (or
//! that another process fired) is refused by the version guard and dropped. Nothing is held
//! in memory: a deadline that passes while no process runs is fired by the first to look.
//! An idle worker sleeps until the earliest deadline in the queue, at most
//! [`MAX_IDLE`], and is woken sooner when a deadline is armed, here or in another process
//! (through the announcer's NOTIFY and the process's LISTEN connection).

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use actix_web::web;
use db::store::{self, ClaimedDeadline, DeadlineKind};

use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::service::lifecycle::{self, Fired};
use crate::state::BotWake;
use crate::state::Context;

/// The longest an idle worker sleeps without looking at the queue: covers wake-ups lost while
/// the LISTEN connection was down, and leases of dead processes.
pub const MAX_IDLE: Duration = Duration::from_secs(5);

/// How long a claimed deadline stays with its worker before another process may fire it.
pub const LEASE: Duration = Duration::from_secs(30);

/// How deadlines are fired in this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeadlineSettings {
    /// Worker threads; 0: this process fires no deadlines (others on the database do).
    pub threads: usize,
}

/// The running workers; [`DeadlineWorkers::stop_and_join`] ends them.
pub struct DeadlineWorkers {
    stop: Arc<AtomicBool>,
    wake: Arc<BotWake>,
    threads: Vec<JoinHandle<()>>,
}

struct Worker {
    name: String,
    pool: db::Pool,
    cx: Arc<Context>,
    metrics: web::Data<Metrics>,
}

impl DeadlineWorkers {
    /// Starts `settings.threads` workers, woken by `wake`.
    ///
    /// # Panics
    /// When a thread cannot be spawned.
    pub fn start(
        settings: DeadlineSettings,
        pool: db::Pool,
        cx: Arc<Context>,
        wake: Arc<BotWake>,
        metrics: web::Data<Metrics>,
    ) -> DeadlineWorkers {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..settings.threads)
            .map(|i| {
                let worker = Worker {
                    name: format!("pid{}-deadline{i}", std::process::id()),
                    pool: pool.clone(),
                    cx: cx.clone(),
                    metrics: metrics.clone(),
                };
                let (stop, wake) = (stop.clone(), wake.clone());
                std::thread::Builder::new()
                    .name(format!("deadline-{i}"))
                    .spawn(move || worker.run(&stop, &wake))
                    .expect("spawn a deadline worker")
            })
            .collect();
        DeadlineWorkers {
            stop,
            wake,
            threads,
        }
    }

    /// Stops the workers and waits for them (a worker finishes the deadline it fires).
    pub fn stop_and_join(self) {
        self.stop.store(true, Ordering::Relaxed);
        self.wake.wake();
        for t in self.threads {
            let _ = t.join();
        }
    }
}

impl Worker {
    fn run(&self, stop: &AtomicBool, wake: &BotWake) {
        while !stop.load(Ordering::Relaxed) {
            let seen = wake.generation();
            match std::panic::catch_unwind(AssertUnwindSafe(|| self.claim_and_fire())) {
                // Look again at once: there may be more due.
                Ok(Ok(None)) => {}
                Ok(Ok(Some(idle))) => wake.wait_past(seen, idle),
                Ok(Err(error)) => {
                    tracing::warn!(worker = %self.name, %error, "deadline worker failed");
                    wake.wait_past(seen, Duration::from_secs(1));
                }
                Err(panic) => {
                    let message = panic
                        .downcast_ref::<&str>()
                        .copied()
                        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                        .unwrap_or("a panic without a message");
                    tracing::error!(worker = %self.name, panic = message, "firing a deadline panicked");
                    wake.wait_past(seen, Duration::from_secs(1));
                }
            }
        }
    }

    /// Fires one due deadline (`None`: look again at once), or says how long to sleep.
    fn claim_and_fire(&self) -> Result<Option<Duration>, ApiError> {
        let mut conn = db::get_conn(&self.pool)?;
        let Some(deadline) = store::claim_deadline(&mut conn, &self.name, LEASE)? else {
            let next = store::next_deadline_in(&mut conn)?;
            return Ok(Some(next.map_or(MAX_IDLE, |n| n.min(MAX_IDLE))));
        };
        let fired = match deadline.kind {
            DeadlineKind::Clock => lifecycle::fire_clock(&mut conn, &self.cx, &deadline)?,
            DeadlineKind::Expiry => lifecycle::fire_expiry(&mut conn, &self.cx, &deadline)?,
        };
        self.count(&deadline, &fired);
        match fired {
            Fired::Applied => {}
            Fired::Stale => store::drop_stale_deadline(&mut conn, &deadline)?,
            Fired::NotYet(due) => store::reschedule_deadline(&mut conn, &deadline, due)?,
        }
        Ok(None)
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
