//! Reads from a replica (`--read-database-url`), with read-your-writes.
//!
//! Documents, legal actions, event pages, states, long polls and streams read from a
//! streaming replica when one is configured; writes, the lobby and the LISTEN connection stay
//! on the writer. A replica replays the primary's WAL a little later than the primary
//! commits it, so a read there may see an older version of a game. That is fine for a reader
//! that names no version (a spectator opening a game gets a version that was current
//! milliseconds ago), and wrong for one that does: a client that just got version 12 from
//! its action, or has `"v12-seat1"` as its ETag, or resumes a stream after event 12, must
//! never be answered with version 11. So every read states the version it must reach
//! (`after_version`, the version in `If-None-Match`, `Last-Event-ID`/`after`, the version a
//! long poll or stream was told of), and [`crate::state::AppState::read`] answers from the
//! replica only once the replica has replayed it:
//!
//! - the replica's answer is at least that version: it stands (most reads: replay lags by
//!   a millisecond or so);
//! - it is older: the read is tried again after a short pause (2, 4, 8 … 50 ms, no connection
//!   held), up to `--read-max-wait-ms`, and then answered by the primary;
//! - the replica does not know the game or the token at all (404, 401: created or joined a
//!   moment ago), or cannot be reached: the primary answers at once.
//!
//! So a client's reads never go back behind a version it names, and a spectator's reads
//! never go back behind a version it has seen as long as it names it (as every long poll
//! and every stream does). Replica lag and how reads were served are metrics
//! (`db_replica_lag_seconds`, `db_replica_lag_bytes`, `db_replica_reads_total{outcome}`).

use std::time::Duration;

use prometheus::{Gauge, IntCounterVec, IntGauge};

use crate::dto::{EventPage, GameDocument, LegalActions, StateDocument};
use crate::error::ApiError;

/// The first pause before a lagging replica is asked again; it doubles up to [`MAX_PAUSE`].
pub const FIRST_PAUSE: Duration = Duration::from_millis(2);

/// The longest pause between two reads of a lagging replica.
pub const MAX_PAUSE: Duration = Duration::from_millis(50);

/// How often the replica's lag is sampled for the metrics.
pub const LAG_SAMPLE_EVERY: Duration = Duration::from_secs(1);

/// A read replica and how long a read may wait for it.
pub struct Replica {
    /// Connections to the replica (or to any member a multi-host reader URL reaches).
    pub pool: db::Pool,
    /// The longest a read waits for the replica to reach the version it names.
    pub max_wait: Duration,
    /// `db_replica_reads_total`, by [`ReadOutcome`].
    pub reads: IntCounterVec,
}

/// How a read that could go to the replica was served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadOutcome {
    /// By the replica, at once.
    Replica,
    /// By the replica, after waiting for it to replay the version the read names.
    ReplicaAfterWait,
    /// By the primary: the replica did not reach the version within the wait.
    PrimaryLagging,
    /// By the primary: the replica did not know the game or the token.
    PrimaryMissing,
    /// By the primary: the replica could not be reached.
    PrimaryUnavailable,
}

impl ReadOutcome {
    /// The metric label.
    pub fn label(self) -> &'static str {
        match self {
            ReadOutcome::Replica => "replica",
            ReadOutcome::ReplicaAfterWait => "replica_after_wait",
            ReadOutcome::PrimaryLagging => "primary_lagging",
            ReadOutcome::PrimaryMissing => "primary_missing",
            ReadOutcome::PrimaryUnavailable => "primary_unavailable",
        }
    }

    /// What the replica's refusal `error` means for the read: the primary answers
    /// (`Some`), or the refusal stands (`None`: bad input, a token of another game).
    pub fn of_refusal(error: &ApiError) -> Option<ReadOutcome> {
        match error.status.as_u16() {
            404 | 401 => Some(ReadOutcome::PrimaryMissing),
            503 => Some(ReadOutcome::PrimaryUnavailable),
            _ => None,
        }
    }
}

impl Replica {
    /// Counts a read served as `outcome`.
    pub fn count(&self, outcome: ReadOutcome) {
        self.reads.with_label_values(&[outcome.label()]).inc();
    }
}

/// A read's answer and the game version it was read at.
pub trait AtVersion {
    /// The version of the game this answer shows.
    fn version(&self) -> i64;
}

impl AtVersion for (GameDocument, String) {
    fn version(&self) -> i64 {
        self.0.version
    }
}

impl AtVersion for LegalActions {
    fn version(&self) -> i64 {
        self.version
    }
}

/// A page of a log read further, with the version the game had on the server it was read
/// from (to compare with the version the first page was read at).
impl AtVersion for (i64, EventPage) {
    fn version(&self) -> i64 {
        self.0
    }
}

/// A state as of `seq` exists only at a version of at least `seq`; a replica that has not
/// replayed it answers 404 `no_such_state`, and the primary answers instead.
impl AtVersion for StateDocument {
    fn version(&self) -> i64 {
        self.seq
    }
}

/// The replica's lag gauges.
pub struct LagGauges {
    /// `db_replica_lag_seconds`.
    pub seconds: Gauge,
    /// `db_replica_lag_bytes`.
    pub bytes: IntGauge,
}

/// Samples the replica's lag every [`LAG_SAMPLE_EVERY`] into `gauges`, forever (the
/// application aborts it at shutdown). A sample that fails (a member down) leaves the
/// gauges as they were.
pub async fn sample_lag(replica: std::sync::Arc<Replica>, writer: db::Pool, gauges: LagGauges) {
    let mut tick = tokio::time::interval(LAG_SAMPLE_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let (replica, writer) = (replica.clone(), writer.clone());
        let sample = tokio::task::spawn_blocking(move || {
            let position = db::get_conn(&replica.pool)
                .and_then(|mut c| db::store::replica_position(&mut c))?;
            let bytes = match &position.replayed {
                Some(lsn) if position.standby => {
                    db::get_conn(&writer).and_then(|mut c| db::store::bytes_behind(&mut c, lsn))?
                }
                _ => 0,
            };
            Ok::<_, db::StoreError>((position.lag_seconds, bytes))
        })
        .await;
        match sample {
            Ok(Ok((seconds, bytes))) => {
                gauges.seconds.set(seconds);
                gauges.bytes.set(bytes);
            }
            Ok(Err(e)) => tracing::debug!(error = %e, "could not sample the replica's lag"),
            Err(_) => return,
        }
    }
}
