//! Prometheus metrics: requests by route and status, action latency, pool use, long polls,
//! bot moves, the seats' lifecycle (timeouts, takeovers, resignations, ...), deadlines
//! fired, and the read replica (lag, how reads were served).

use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web;
use prometheus::{
    Encoder, Gauge, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    Opts, Registry, TextEncoder,
};

/// The process's metrics.
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    request_seconds: Histogram,
    action_seconds: HistogramVec,
    pool_connections: IntGauge,
    pool_idle: IntGauge,
    pool_max: IntGauge,
    pub long_polls: IntGauge,
    pub streams: IntGauge,
    /// Database reads by the copies of followed games (see [`crate::watch`]): one serves
    /// every stream, long poll and versioned read of its game in the process.
    pub watch_reads: IntCounter,
    /// Database calls made for requests (every [`crate::state::AppState`] call, a watch's
    /// reads included; not the background workers').
    pub db_calls: IntCounter,
    /// Open player streams (`GET /v1/players/me/stream`).
    pub player_streams: IntGauge,
    /// Notices sent on player streams, by how they reached the stream: `pushed` (from the
    /// committing request or a NOTIFY payload, no read) or `read` (from the database: a
    /// resume, a reconnect, a gap).
    pub notices_sent: IntCounterVec,
    /// Bot moves by game type, level and result (`applied`, `stale`, `failed`).
    pub bot_moves: IntCounterVec,
    /// Time a bot thought per move (wall clock of its worker thread).
    pub bot_think_seconds: Histogram,
    /// Bot moves being thought about now.
    pub bots_thinking: IntGauge,
    /// Reads that could go to the replica, by how they were served (see
    /// [`crate::replica::ReadOutcome`]); none without `--read-database-url`.
    pub replica_reads: IntCounterVec,
    /// The replica's replay lag in seconds of commit time (0 when it has replayed all it
    /// received, and without a replica).
    pub replica_lag_seconds: Gauge,
    /// How many bytes of WAL the primary has written beyond what the replica replayed.
    pub replica_lag_bytes: IntGauge,
    /// Lifecycle events written, by game type and event (`seat_timed_out`, `bot_took_over`,
    /// `seat_resigned`, `seat_reclaimed`, `game_aborted`; `game_aborted` and `game_expired`
    /// also for open games, which end without an event).
    pub lifecycle_events: IntCounterVec,
    /// Deadlines fired by this process, by kind (`clock`, `expiry`) and result (`applied`,
    /// `stale`: an action or another process beat it, `early`: nothing had run out yet).
    pub deadlines_fired: IntCounterVec,
}

impl Metrics {
    /// Registers every metric.
    ///
    /// # Panics
    /// Never in practice: names are constant and distinct.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        let requests = IntCounterVec::new(
            Opts::new(
                "http_requests_total",
                "HTTP requests by route, method and status",
            ),
            &["method", "route", "status"],
        )
        .expect("metric");
        let request_seconds = Histogram::with_opts(HistogramOpts::new(
            "http_request_duration_seconds",
            "HTTP request latency (long polls included)",
        ))
        .expect("metric");
        let action_seconds = HistogramVec::new(
            HistogramOpts::new(
                "game_action_duration_seconds",
                "Latency of POST /v1/games/{id}/actions by result",
            )
            .buckets(vec![
                0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
            ]),
            &["result"],
        )
        .expect("metric");
        let pool_connections =
            IntGauge::new("db_pool_connections", "Open pool connections").expect("metric");
        let pool_idle =
            IntGauge::new("db_pool_idle_connections", "Idle pool connections").expect("metric");
        let pool_max = IntGauge::new("db_pool_max_size", "Pool size limit").expect("metric");
        let long_polls =
            IntGauge::new("long_polls_waiting", "Long polls waiting for a change").expect("metric");
        let streams =
            IntGauge::new("event_streams_open", "Open event streams (SSE)").expect("metric");
        let watch_reads = IntCounter::new(
            "watch_reads_total",
            "Database reads by the shared copies of followed games",
        )
        .expect("metric");
        let db_calls = IntCounter::new(
            "db_request_calls_total",
            "Database calls made for requests (watch reads included, background workers not)",
        )
        .expect("metric");
        let player_streams =
            IntGauge::new("player_streams_open", "Open player streams (SSE)").expect("metric");
        let notices_sent = IntCounterVec::new(
            Opts::new(
                "player_notices_sent_total",
                "Notices sent on player streams, by how they reached the stream",
            ),
            &["via"],
        )
        .expect("metric");
        let bot_moves = IntCounterVec::new(
            Opts::new(
                "bot_moves_total",
                "Bot moves by game type, level and result",
            ),
            &["game", "level", "result"],
        )
        .expect("metric");
        let bot_think_seconds = Histogram::with_opts(
            HistogramOpts::new("bot_think_duration_seconds", "Time a bot thought per move")
                .buckets(vec![
                    0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                ]),
        )
        .expect("metric");
        let bots_thinking =
            IntGauge::new("bots_thinking", "Bot moves being thought about now").expect("metric");
        let replica_reads = IntCounterVec::new(
            Opts::new(
                "db_replica_reads_total",
                "Reads that could be served by the read replica, by how they were served",
            ),
            &["outcome"],
        )
        .expect("metric");
        let replica_lag_seconds = Gauge::new(
            "db_replica_lag_seconds",
            "Replica replay lag: time since the last replayed commit while replay is behind",
        )
        .expect("metric");
        let replica_lag_bytes = IntGauge::new(
            "db_replica_lag_bytes",
            "WAL bytes the primary has written beyond the replica's replay position",
        )
        .expect("metric");
        let lifecycle_events = IntCounterVec::new(
            Opts::new(
                "game_lifecycle_events_total",
                "Timeouts, takeovers, resignations, reclaims, aborts and expiries, by game type",
            ),
            &["game", "event"],
        )
        .expect("metric");
        let deadlines_fired = IntCounterVec::new(
            Opts::new(
                "deadlines_fired_total",
                "Deadlines fired by this process, by kind and result",
            ),
            &["kind", "result"],
        )
        .expect("metric");
        for c in [
            Box::new(lifecycle_events.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(deadlines_fired.clone()),
            Box::new(bot_moves.clone()),
            Box::new(bots_thinking.clone()),
            Box::new(bot_think_seconds.clone()),
            Box::new(requests.clone()),
            Box::new(request_seconds.clone()),
            Box::new(action_seconds.clone()),
            Box::new(pool_connections.clone()),
            Box::new(pool_idle.clone()),
            Box::new(pool_max.clone()),
            Box::new(long_polls.clone()),
            Box::new(streams.clone()),
            Box::new(watch_reads.clone()),
            Box::new(db_calls.clone()),
            Box::new(replica_reads.clone()),
            Box::new(replica_lag_seconds.clone()),
            Box::new(replica_lag_bytes.clone()),
            Box::new(player_streams.clone()),
            Box::new(notices_sent.clone()),
        ] {
            registry.register(c).expect("register metric");
        }
        Metrics {
            registry,
            requests,
            request_seconds,
            action_seconds,
            pool_connections,
            pool_idle,
            pool_max,
            long_polls,
            streams,
            watch_reads,
            db_calls,
            player_streams,
            notices_sent,
            bot_moves,
            bot_think_seconds,
            bots_thinking,
            replica_reads,
            replica_lag_seconds,
            replica_lag_bytes,
            lifecycle_events,
            deadlines_fired,
        }
    }

    /// Records one action request (`result`: `applied`, `replayed`, `dry_run` or the status).
    pub fn observe_action(&self, result: &str, elapsed: Duration) {
        self.action_seconds
            .with_label_values(&[result])
            .observe(elapsed.as_secs_f64());
    }

    /// The text exposition, with pool gauges read now.
    pub fn render(&self, pool: &db::Pool) -> String {
        let state = pool.state();
        self.pool_connections.set(i64::from(state.connections));
        self.pool_idle.set(i64::from(state.idle_connections));
        self.pool_max.set(i64::from(pool.max_size()));
        let mut buf = Vec::new();
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut buf);
        String::from_utf8(buf).unwrap_or_default()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

/// Middleware adding `X-Request-Id` and counting every request by matched route pattern (never the raw path, so ids do
/// not explode the label set) and status.
///
/// # Errors
/// Whatever the inner service returns.
pub async fn track(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = std::time::Instant::now();
    let metrics = req.app_data::<web::Data<Metrics>>().cloned();
    let method = req.method().to_string();
    // TracingLogger (outermost) put the request id into the extensions; echo it so clients can
    // quote it and operators can find the request's log lines.
    let request_id = {
        use actix_web::HttpMessage;
        req.extensions()
            .get::<tracing_actix_web::RequestId>()
            .map(|id| id.to_string())
    };
    let mut res = next.call(req).await?;
    if let Some(value) = request_id.and_then(|id| HeaderValue::from_str(&id).ok()) {
        res.headers_mut()
            .insert(HeaderName::from_static("x-request-id"), value);
    }
    if let Some(m) = metrics {
        let route = res
            .request()
            .match_pattern()
            .unwrap_or_else(|| "unmatched".to_string());
        m.requests
            .with_label_values(&[&method, &route, res.status().as_str()])
            .inc();
        m.request_seconds.observe(started.elapsed().as_secs_f64());
    }
    Ok(res)
}
