//! The tournament worker every process runs: it claims the earliest tournament due to be
//! looked at (`FOR UPDATE SKIP LOCKED`, so two processes never take the same one) and takes
//! its next step in that transaction ([`super::rounds::advance`]). Built on the queue workers
//! ([`crate::workers`]) like the bots and the deadlines, so it rides out failovers the same
//! way. A running tournament is looked at every [`super::rounds::ROUND_CHECK`]; an idle
//! worker sleeps until the next one is due, at most [`MAX_IDLE`].

use std::sync::Arc;
use std::time::Duration;

use db::store;

use crate::error::ApiError;
use crate::state::Context;
use crate::workers::{Job, Next, Wake, Workers};

/// The longest an idle worker sleeps without looking (for tournaments created meanwhile).
pub const MAX_IDLE: Duration = Duration::from_secs(2);

/// Starts one tournament worker.
///
/// # Panics
/// When its thread cannot be spawned.
pub fn start(pool: db::Pool, cx: Arc<Context>) -> Workers {
    let worker = Worker {
        name: format!("pid{}-tournaments", std::process::id()),
        pool,
        cx,
    };
    Workers::start("tournament", vec![worker], Arc::new(Wake::default()))
}

struct Worker {
    name: String,
    pool: db::Pool,
    cx: Arc<Context>,
}

impl Job for Worker {
    fn run_once(&self) -> Result<Next, ApiError> {
        let stepped = crate::state::with_conn(&self.pool, |conn| {
            store::atomically(conn, |conn| match store::claim_due_tournament(conn)? {
                Ok(t) => super::rounds::advance(conn, &self.cx, &t).map(Ok),
                Err(next) => Ok(Err(next)),
            })
        })?;
        Ok(match stepped {
            Ok(notices) => {
                self.cx.changes.notices(&notices);
                Next::Again
            }
            Err(next) => Next::Idle(next.map_or(MAX_IDLE, |n| n.min(MAX_IDLE))),
        })
    }

    fn poll_interval(&self) -> Duration {
        MAX_IDLE
    }

    fn name(&self) -> &str {
        &self.name
    }
}
