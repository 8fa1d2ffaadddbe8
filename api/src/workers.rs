//! Background workers fed by a work queue in PostgreSQL: threads that claim rows of a queue
//! table (`FOR UPDATE SKIP LOCKED`, with a lease) and do them, in any number of processes.
//! Bot turns ([`crate::bot_runner`]) and deadlines ([`crate::deadline_runner`]) are such
//! queues; any other is built the same way and gets, by construction, everything that keeps
//! a queue moving through database restarts and failovers:
//!
//! - **Wake-ups.** A queue has a NOTIFY channel on which the transaction that adds work
//!   announces it. [`Queue`] names the channel and the [`Wake`] of its workers; the process's
//!   one LISTEN connection ([`crate::hub::Hub`]) listens on every registered queue's
//!   channel and wakes its workers.
//! - **Catch-up.** Notifications sent while the LISTEN connection was down (a failover) are
//!   lost, so every reconnect wakes every queue's workers, who look at their table: the
//!   table, not the notification, is the truth. An idle worker also looks every
//!   [`Job::poll_interval`] (for leases of dead processes and for work that becomes due by
//!   time).
//! - **Outages.** [`Job::run_once`] returning a 503 (`unavailable`) is an outage, not a
//!   failure: logged once per outage and retried every [`OUTAGE_RETRY`] until the database
//!   answers. [`retry_while_unavailable`] carries one piece of work (a computed bot move)
//!   across a short outage instead of dropping it.
//! - **Panics** in a job are caught and logged; the thread lives on and the claimed row is
//!   taken again when its lease runs out.
//!
//! A kind of worker implements [`Job`] (claim one row, do it, or say how long to wait),
//! creates a [`Wake`], registers `Queue { channel, wake }` with [`crate::hub::Hub::start`]
//! and starts its threads with [`Workers::start`]; [`crate::deadline_runner`] is the second.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::error::ApiError;

/// How often a worker retries while the database is unavailable (a failover takes a few
/// seconds; the LISTEN connection's reconnect wakes the workers as soon as it is over).
pub const OUTAGE_RETRY: Duration = Duration::from_millis(250);

/// What a worker does after one look at its queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// There was work: look again at once, there may be more.
    Again,
    /// Nothing was due: wait for a wake-up, at most this long (until the next row falls due,
    /// or [`Job::poll_interval`]).
    Idle(Duration),
}

/// One worker's share of a queue.
pub trait Job: Send + 'static {
    /// Claims one due row and does it, or says how long to wait when none is due.
    ///
    /// # Errors
    /// Any failure; a 503 means the database is unavailable and is retried shortly.
    fn run_once(&self) -> Result<Next, ApiError>;

    /// How long a worker waits after a failure (and, usually, when idle) before it looks at
    /// the queue again without a wake-up.
    fn poll_interval(&self) -> Duration;

    /// The worker's name in logs.
    fn name(&self) -> &str;
}

/// A queue as the LISTEN connection sees it: the channel its new work is announced on, and
/// the workers to wake then and after every reconnect.
#[derive(Clone)]
pub struct Queue {
    /// The NOTIFY channel (a plain identifier).
    pub channel: &'static str,
    /// The queue's workers.
    pub wake: Arc<Wake>,
}

/// Wakes a queue's idle workers.
#[derive(Default)]
pub struct Wake {
    generation: Mutex<u64>,
    changed: Condvar,
}

impl Wake {
    /// Wakes every waiting worker (each then tries to claim).
    pub fn wake(&self) {
        *self.generation.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.changed.notify_all();
    }

    fn generation(&self) -> u64 {
        *self.generation.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until woken after `seen` (the generation read before the last look at the
    /// queue, so that no wake-up between that look and this wait is lost), or `timeout`.
    fn wait_past(&self, seen: u64, timeout: Duration) {
        let guard = self.generation.lock().unwrap_or_else(|e| e.into_inner());
        let _ = self
            .changed
            .wait_timeout_while(guard, timeout, |g| *g == seen);
    }
}

/// Running worker threads of one queue; [`Workers::stop_and_join`] ends them.
pub struct Workers {
    stop: Arc<AtomicBool>,
    wake: Arc<Wake>,
    threads: Vec<JoinHandle<()>>,
}

impl Workers {
    /// Starts one thread per job, named `<kind>-<i>`, woken through `wake`.
    ///
    /// # Panics
    /// When a thread cannot be spawned.
    pub fn start<J: Job>(kind: &str, jobs: Vec<J>, wake: Arc<Wake>) -> Workers {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = jobs
            .into_iter()
            .enumerate()
            .map(|(i, job)| {
                let (stop, wake) = (stop.clone(), wake.clone());
                std::thread::Builder::new()
                    .name(format!("{kind}-{i}"))
                    .spawn(move || run(&job, &stop, &wake))
                    .expect("spawn a worker thread")
            })
            .collect();
        Workers {
            stop,
            wake,
            threads,
        }
    }

    /// Stops the workers and waits for them (a worker finishes the job it is doing).
    pub fn stop_and_join(self) {
        self.stop.store(true, Ordering::Relaxed);
        self.wake.wake();
        for t in self.threads {
            let _ = t.join();
        }
    }
}

fn run<J: Job>(job: &J, stop: &AtomicBool, wake: &Wake) {
    let mut outage = false;
    while !stop.load(Ordering::Relaxed) {
        let seen = wake.generation();
        match std::panic::catch_unwind(AssertUnwindSafe(|| job.run_once())) {
            Ok(Ok(Next::Again)) => outage = false,
            Ok(Ok(Next::Idle(idle))) => {
                outage = false;
                wake.wait_past(seen, idle);
            }
            Ok(Err(error)) if error.is_unavailable() => {
                if !outage {
                    tracing::warn!(worker = job.name(), %error, "database unavailable; retrying");
                    outage = true;
                }
                wake.wait_past(seen, OUTAGE_RETRY.min(job.poll_interval()));
            }
            Ok(Err(error)) => {
                tracing::warn!(worker = job.name(), %error, "worker failed");
                wake.wait_past(seen, job.poll_interval());
            }
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .copied()
                    .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                    .unwrap_or("a panic without a message");
                tracing::error!(worker = job.name(), panic = message, "worker panicked");
                wake.wait_past(seen, job.poll_interval());
            }
        }
    }
}

/// Runs `attempt` until it returns anything but a 503, or until `until` has passed (then the
/// last 503), pausing [`OUTAGE_RETRY`] in between: for work that is done but not yet stored
/// when the database goes away (a computed move), so that a failover shorter than the work's
/// lease delays it instead of throwing it away.
///
/// # Errors
/// `attempt`'s last error.
pub fn retry_while_unavailable<T>(
    until: Instant,
    mut attempt: impl FnMut() -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    loop {
        match attempt() {
            Err(e) if e.is_unavailable() && Instant::now() + OUTAGE_RETRY < until => {
                std::thread::sleep(OUTAGE_RETRY);
            }
            result => return result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_503_is_retried_until_it_passes() {
        let calls = Cell::new(0);
        let result = retry_while_unavailable(Instant::now() + Duration::from_secs(60), || {
            calls.set(calls.get() + 1);
            if calls.get() < 3 {
                Err(ApiError::unavailable("down"))
            } else {
                Ok(calls.get())
            }
        });
        assert_eq!(result.unwrap(), 3);
    }

    #[test]
    fn other_errors_and_an_expired_lease_end_the_retries() {
        let calls = Cell::new(0);
        let result: Result<(), _> =
            retry_while_unavailable(Instant::now() + Duration::from_secs(60), || {
                calls.set(calls.get() + 1);
                Err(ApiError::conflict("version_conflict", "moved on"))
            });
        assert_eq!(result.unwrap_err().status.as_u16(), 409);
        assert_eq!(calls.get(), 1);

        let calls = Cell::new(0);
        let result: Result<(), _> = retry_while_unavailable(Instant::now(), || {
            calls.set(calls.get() + 1);
            Err(ApiError::unavailable("down"))
        });
        assert_eq!(result.unwrap_err().status.as_u16(), 503);
        assert_eq!(calls.get(), 1, "no retry past the deadline");
    }
}
