//! The HTTP API of the board-game server (actix-web).
//!
//! [`Application::build`] connects to PostgreSQL (`DATABASE_URL`, or a private cluster it starts
//! in `--data-dir`), applies migrations, starts the LISTEN thread, binds the listener (port 0
//! works) and reports the real address; [`Application::run`] serves until SIGINT/SIGTERM, then
//! stops the listener and the private cluster. Tests use the same launcher:
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! let app = api::Application::build(api::Settings::for_tests("postgres://...")).await?;
//! let base = format!("http://{}", app.address());
//! tokio::spawn(app.run());
//! # let _ = base; Ok(()) }
//! ```
//!
//! Modules: [`routes`] (handlers by endpoint family, one list for router and spec),
//! [`extract`] (request parts parsed once), [`service`] (the synchronous store and engine work
//! of each request), [`error`] (every status mapping), [`dto`] (wire types), [`state`] (pool,
//! reads, LISTEN fan-out), [`replica`] (reads from a replica), [`fallback`] (404/405),
//! [`metrics`], [`openapi`], [`web_client`] (the web client's pages and assets), [`problems`]
//! (the pages of the problem codes), [`lifecycle`] (clocks, resignation, stand-in bots: the
//! seats' lifecycle beside the game's rules), [`workers`] (queue workers that ride out
//! failovers) with [`bot_runner`] and [`deadline_runner`] (the background workers every
//! process runs).

pub mod bot_runner;
pub mod caching;
pub mod codes;
pub mod config;
pub mod config_words;
pub mod deadline_runner;
pub mod dto;
pub mod error;
pub mod extract;
pub mod fallback;
pub mod hub;
pub mod known_tokens;
pub mod lifecycle;
pub mod metrics;
pub mod middleware;
pub mod openapi;
pub mod problems;
pub mod ratings;
pub mod replica;
pub mod rosters;
pub mod routes;
pub mod service;
pub mod state;
pub mod stored;
pub mod strict;
pub mod telemetry;
pub mod tournament;
pub mod watch;
pub mod web_client;
pub mod workers;

use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::middleware::{from_fn, Compress, ErrorHandlers};
use actix_web::{web, App, HttpServer};
use anyhow::Context;
use tracing_actix_web::TracingLogger;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

pub use config::Settings;
use hub::{Hub, ListenerGuard};
use state::AppState;

/// A bound, not yet running server.
pub struct Application {
    server: Server,
    address: SocketAddr,
    listener: ListenerGuard,
    bot_workers: workers::Workers,
    deadline_workers: workers::Workers,
    tournament_workers: workers::Workers,
    pool: db::Pool,
    /// The replica and the gauges its lag goes to, with `--read-database-url`.
    lag_sampler: Option<(Arc<replica::Replica>, replica::LagGauges)>,
    context: Arc<state::Context>,
    postgres: Option<db::local_pg::LocalPostgres>,
}

impl Application {
    /// Connects, migrates, binds.
    ///
    /// # Errors
    /// When the database cannot be started or reached, a migration fails, or the address
    /// cannot be bound.
    pub async fn build(settings: Settings) -> anyhow::Result<Application> {
        let s = settings.clone();
        let (postgres, url, pool, token_secret) =
            tokio::task::spawn_blocking(move || prepare_database(&s))
                .await
                .context("database set-up panicked")??;
        let announcer = db::notify::Announcer::start(url.clone());
        let bot_wake = Arc::new(workers::Wake::default());
        let deadline_wake = Arc::new(workers::Wake::default());
        let queues = vec![
            bot_runner::queue(bot_wake.clone()),
            deadline_runner::queue(deadline_wake.clone()),
        ];
        let metrics = web::Data::new(metrics::Metrics::new());
        let watches = web::Data::new(watch::Watches::new(metrics.watch_reads.clone()));
        let (hub, listener_guard) = Hub::start(url, queues, watches.clone().into_inner());
        let replica = settings.read_database_url.as_deref().map(|read_url| {
            Arc::new(replica::Replica {
                // Reads fall back to the primary while the replica is down, also at start.
                pool: db::connect_pool_lazy(
                    &db::conninfo::with_failover_defaults(read_url),
                    settings.pool_size,
                ),
                max_wait: std::time::Duration::from_millis(u64::from(settings.read_max_wait_ms)),
                reads: metrics.replica_reads.clone(),
            })
        });
        let doc = openapi::document();
        let schemas = Arc::new(strict::Schemas::new(doc, action_schemas()));
        let known_tokens = Arc::new(known_tokens::KnownTokens::new(
            known_tokens::KNOWN_TOKENS_CAPACITY,
        ));
        let context = Arc::new(state::Context {
            known_tokens: known_tokens.clone(),
            rosters: rosters::RosterCache::new(ROSTER_CACHE_CAPACITY),
            changes: hub::Changes::new(hub.clone(), announcer),
            schemas: schemas.clone(),
            bots: settings.bots(),
            open_game_ttl: settings.open_game_ttl.into(),
            seek_ttl: settings.seek_ttl.into(),
            challenge_ttl: settings.challenge_ttl.into(),
            lifecycle_events: metrics.lifecycle_events.clone(),
            token_secret,
        });
        let bot_workers = bot_runner::start(
            settings.bots(),
            pool.clone(),
            context.clone(),
            bot_wake,
            metrics.clone(),
        );
        let tournament_workers = tournament::runner::start(pool.clone(), context.clone());
        let deadline_workers = deadline_runner::start(
            settings.deadlines(),
            pool.clone(),
            context.clone(),
            deadline_wake,
            metrics.clone(),
        );
        // One per connection of the primary's pool and of the replica's.
        let db_permits = settings.pool_size.max(1) as usize
            * (1 + usize::from(settings.read_database_url.is_some()));
        let state = AppState {
            pool: pool.clone(),
            replica: replica.clone(),
            hub,
            context: context.clone(),
            always_block: settings.db_on_blocking_pool,
            db_permits: Arc::new(tokio::sync::Semaphore::new(db_permits)),
            db_calls: metrics.db_calls.clone(),
        };
        let listener = TcpListener::bind((settings.bind, settings.port))
            .with_context(|| format!("bind {}:{}", settings.bind, settings.port))?;
        let address = listener.local_addr()?;
        let data = web::Data::new(state);
        let schemas = web::Data::from(schemas);
        let catalogue = web::Data::new(routes::games::Catalogue::new(&catalogue()));
        let openapi_json = web::Data::new(routes::operations::OpenApiJson::new(
            openapi::document_json(),
        ));
        let origins = settings.origins();
        let limiter = settings.limits().map(|l| {
            web::Data::new(middleware::rate_limit::RateLimiter::new(
                l,
                known_tokens,
                settings.client_addresses(),
            ))
        });
        let lag_sampler = replica.map(|replica| {
            let gauges = replica::LagGauges {
                seconds: metrics.replica_lag_seconds.clone(),
                bytes: metrics.replica_lag_bytes.clone(),
            };
            (replica, gauges)
        });
        let server = HttpServer::new(move || {
            let app = App::new()
                .into_utoipa_app()
                .app_data(data.clone())
                .app_data(metrics.clone())
                .app_data(watches.clone())
                .app_data(schemas.clone())
                .app_data(catalogue.clone())
                .app_data(openapi_json.clone())
                .app_data(web::QueryConfig::default().error_handler(error::query_error))
                .configure(routes::configure)
                .into_app()
                .configure(web_client::configure)
                .configure(problems::configure);
            let app = match &limiter {
                Some(limiter) => app.app_data(limiter.clone()),
                None => app,
            };
            app.route("/docs", web::get().to(routes::operations::docs_redirect))
                .route(
                    "/openapi.json",
                    web::get().to(routes::operations::openapi_json),
                )
                .service(
                    SwaggerUi::new("/docs/{_:.*}")
                        .config(utoipa_swagger_ui::Config::new(["/openapi.json"])),
                )
                .default_service(web::to(fallback::not_found))
                .wrap(from_fn(middleware::query::strict))
                .wrap(ErrorHandlers::new().default_handler(error::problemize))
                .wrap(from_fn(middleware::head::as_get))
                .wrap(from_fn(middleware::rate_limit::limit))
                .wrap(origins.cors())
                // gzip, Brotli or zstd as the client asks; the event stream is flushed
                // whenever it waits for the next event, so compression never holds one back.
                // Outside CORS, which sets `Vary` whole: compression then adds
                // `Accept-Encoding` to it.
                .wrap(Compress::default())
                // The preflights actix-cors refuses (a method or header not allowed) get the
                // problem+json envelope too.
                .wrap(ErrorHandlers::new().default_handler(error::problemize))
                .wrap(from_fn(metrics::track))
                .wrap(from_fn(middleware::date::now))
                .wrap(TracingLogger::default())
        })
        .listen(listener)?
        .shutdown_timeout(10);
        let workers = settings.http_workers();
        let server = server
            .workers(workers)
            .worker_max_blocking_threads(blocking_threads_per_worker(db_permits, workers))
            .run();
        tracing::info!(%address, "listening");
        Ok(Application {
            server,
            address,
            listener: listener_guard,
            bot_workers,
            deadline_workers,
            tournament_workers,
            pool,
            lag_sampler,
            context,
            postgres,
        })
    }

    /// The bound address (the real port when 0 was asked for).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Serves until the server is stopped (SIGINT/SIGTERM: graceful, in-flight requests
    /// finish), then stops the LISTEN thread and the private cluster.
    ///
    /// # Errors
    /// An I/O error of the server.
    pub async fn run(self) -> std::io::Result<()> {
        let sweeper = tokio::spawn(sweep_idempotency_keys(self.pool.clone()));
        let sampler = self.lag_sampler.map(|(replica, gauges)| {
            tokio::spawn(replica::sample_lag(replica, self.pool.clone(), gauges))
        });
        let filler = tokio::spawn(fill_seeks(self.pool.clone(), self.context.clone()));
        let result = self.server.await;
        sweeper.abort();
        filler.abort();
        if let Some(sampler) = sampler {
            sampler.abort();
        }
        let bot_workers = self.bot_workers;
        let _ = tokio::task::spawn_blocking(move || bot_workers.stop_and_join()).await;
        let deadline_workers = self.deadline_workers;
        let _ = tokio::task::spawn_blocking(move || deadline_workers.stop_and_join()).await;
        let tournament_workers = self.tournament_workers;
        let _ = tokio::task::spawn_blocking(move || tournament_workers.stop_and_join()).await;
        let listener = self.listener;
        let _ = tokio::task::spawn_blocking(move || listener.stop_and_join()).await;
        if let Some(pg) = self.postgres {
            tracing::info!("stopping the embedded PostgreSQL");
            drop(pg);
        }
        result
    }
}

/// Each hosted game's type name and the name of its action schema in the document.
fn action_schemas() -> Vec<(String, String)> {
    engine::openapi::game_schema_names()
        .into_iter()
        .map(|g| (g.game.to_string(), g.action))
        .collect()
}

/// The catalogue `GET /v1/game-types` serves: fixed for a build, so built once.
fn catalogue() -> dto::GameTypeList {
    let names = engine::openapi::game_schema_names();
    let game_types = engine::registry::all()
        .iter()
        .map(|g| {
            let info = g.info();
            let config_schema = names
                .iter()
                .find(|n| n.game == info.name)
                .map_or(serde_json::Value::Bool(true), |n| {
                    config_words::worded(openapi::standalone_schema(&n.config), info.options)
                });
            dto::GameType {
                type_: info.name.to_string(),
                title: info.title.to_string(),
                min_seats: info.min_seats,
                max_seats: info.max_seats,
                rules_version: info.rules_version,
                default_config: info.default_config,
                config_schema,
            }
        })
        .collect();
    dto::GameTypeList { game_types }
}

/// How many complete rosters a process remembers (a few hundred bytes each).
pub const ROSTER_CACHE_CAPACITY: usize = 10_000;

/// How long a stored idempotent response is kept: clients retry within minutes.
pub const IDEMPOTENCY_KEY_TTL: chrono::TimeDelta = chrono::TimeDelta::hours(24);

/// How long players' notices are kept for streams to resume from.
pub const NOTICE_TTL: chrono::TimeDelta = chrono::TimeDelta::days(7);

/// Deletes idempotency records older than [`IDEMPOTENCY_KEY_TTL`] and players' notices older
/// than [`NOTICE_TTL`], hourly.
async fn sweep_idempotency_keys(pool: db::Pool) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(3600));
    loop {
        tick.tick().await;
        let pool = pool.clone();
        let _ = tokio::task::spawn_blocking(move || {
            let now = chrono::Utc::now();
            let deleted = db::get_conn(&pool).and_then(|mut c| {
                Ok((
                    db::store::expire_idempotency_keys(&mut c, now - IDEMPOTENCY_KEY_TTL)?,
                    db::store::expire_notices(&mut c, now - NOTICE_TTL)?,
                ))
            });
            match deleted {
                Ok((keys, notices)) if keys + notices > 0 => {
                    tracing::info!(keys, notices, "expired idempotency keys and notices")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "could not expire old rows"),
            }
        })
        .await;
    }
}

/// How often every process looks for seeks due to be filled with bots.
pub const SEEK_FILL_INTERVAL: std::time::Duration = std::time::Duration::from_millis(500);

/// Fills seeks whose `fill_with_bots_after` has passed ([`service::seeks::fill_due`]), in
/// every process: the pool's lock makes each fill happen once.
async fn fill_seeks(pool: db::Pool, cx: Arc<state::Context>) {
    let mut tick = tokio::time::interval(SEEK_FILL_INTERVAL);
    loop {
        tick.tick().await;
        let (pool, cx) = (pool.clone(), cx.clone());
        let _ = tokio::task::spawn_blocking(move || {
            let Ok(mut conn) = db::get_conn(&pool) else {
                return;
            };
            for _ in 0..100 {
                let filled = service::seeks::fill_due(&mut conn, &cx);
                state::settle(&mut conn, &filled);
                match filled {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(e) => {
                        tracing::warn!(error = %e, "filling a seek with bots failed");
                        break;
                    }
                }
            }
        })
        .await;
    }
}

/// The blocking threads each HTTP worker may start (actix's default is 512 / cores each).
/// Only database calls run there, and at most `db_permits` run at once in the whole process
/// ([`AppState::db`]); but each worker keeps its own pool, and a thread that finished a call
/// idles for seconds, so that under a burst every worker grew threads for calls the others
/// had already finished (a fresh process went from 22 to 82–94 threads under 1,000 stream
/// opens). A worker's share of the permits, and one to hand over: the process then holds at
/// most `workers × (permits / workers + 1)` such threads, and a worker with more calls than
/// threads queues them (they would have waited for a permit anyway).
fn blocking_threads_per_worker(db_permits: usize, workers: usize) -> usize {
    db_permits.div_ceil(workers.max(1)) + 1
}

type Prepared = (
    Option<db::local_pg::LocalPostgres>,
    String,
    db::Pool,
    db::token::TokenSecret,
);

fn prepare_database(settings: &Settings) -> anyhow::Result<Prepared> {
    let (postgres, url) = match &settings.database_url {
        // A database of the operator's, perhaps a cluster with failover: see db::conninfo.
        Some(url) if !url.is_empty() => (None, db::conninfo::with_failover_defaults(url)),
        _ => {
            tracing::info!(data_dir = %settings.data_dir.display(), "starting the embedded PostgreSQL");
            let pg = db::local_pg::LocalPostgres::start(&settings.data_dir)
                .context("start the embedded PostgreSQL")?;
            let url = pg.database_url("postgres");
            (Some(pg), url)
        }
    };
    let pool = db::connect_pool(&url, settings.pool_size)
        .map_err(|e| anyhow::anyhow!("connect to the database: {e}"))?;
    let mut conn = db::get_conn(&pool).map_err(|e| anyhow::anyhow!("{e}"))?;
    db::migrate(&mut conn)?;
    let token_secret = db::store::token_secret(&mut conn)
        .map_err(|e| anyhow::anyhow!("read the token secret: {e}"))?;
    drop(conn);
    Ok((postgres, url, pool, token_secret))
}
