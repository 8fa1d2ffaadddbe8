//! Load generator: N concurrent clients, each playing its own Tycoon games over HTTP under a
//! client protocol (see [`clients::Protocol`]: poll before every move, one request per move,
//! or following the push stream), and, against the same PostgreSQL with the same concurrency,
//! the raw database transaction of an action (lock the game row, insert one event, write a
//! real Tycoon snapshot, commit). The report is a markdown table: a row per client count and
//! protocol, with the service / raw-database ratio; with `--runs N` every figure is the median
//! of N runs, the rows of a run measured one after another in an order that rotates from run
//! to run, so that a slow patch of the machine does not always hit the same row.
//!
//! ```text
//! cargo run --release -p tests --bin loadgen                      # own server + own PostgreSQL
//! cargo run --release -p tests --bin loadgen -- --runs 4          # the README's figures
//! cargo run --release -p tests --bin loadgen -- --smoke           # a few hundred actions (CI)
//! cargo run --release -p tests --bin loadgen -- --protocols read  # spectators' reads only
//! cargo run --release -p tests --bin loadgen -- --player-notices  # players' streams (notices.rs)
//! cargo run --release -p tests --bin loadgen -- --watched 0,10,100,1000 --idle-streams 9000  # spectators (watched.rs)
//! cargo run --release -p tests --bin loadgen -- --url http://127.0.0.1:8080 --database-url postgres://...
//! ```
//!
//! Without `--url` the service runs in this process (`api::Application` on port 0, production
//! defaults: pool 10, one HTTP worker per core, info-level logs formatted and discarded). Without
//! `--database-url`/`DATABASE_URL` it starts a private PostgreSQL in a temporary directory with
//! the launcher's production settings (fsync on), so both modes meet the same server settings.
//! With `--url` and no database URL only the HTTP side is measured.

mod clients;
mod measure;
mod notices;
mod raw;
mod report;
mod watched;

use anyhow::{bail, Context};
use clap::Parser;
use serde_json::{json, Value};

use clients::{Placement, Protocol, Variant};
use report::{Report, Row};

/// The same allocator as the server binary (`api/src/bin/server.rs`), which runs in this
/// process when no `--url` is given.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Debug, Clone, Parser)]
#[command(name = "loadgen", about = "Load generator for the board-game server")]
struct Args {
    /// Target a running server instead of starting one in this process.
    #[arg(long)]
    url: Option<String>,
    /// PostgreSQL for the in-process server and for the raw-database mode (else DATABASE_URL,
    /// else a private cluster in a temporary directory).
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
    /// Client counts to measure, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = vec![1, 8, 32])]
    clients: Vec<usize>,
    /// Client protocols to measure, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = vec![Protocol::Poll, Protocol::Act, Protocol::Stream])]
    protocols: Vec<Protocol>,
    /// Where the in-process service runs its database work, comma-separated: one service per
    /// placement, on the same database, measured in turn.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = vec![Placement::Workers])]
    placements: Vec<Placement>,
    /// Action POSTs per row and run (shared among the clients).
    #[arg(long, default_value_t = 3000)]
    actions: usize,
    /// Runs of every row; the table shows medians.
    #[arg(long, default_value_t = 1)]
    runs: usize,
    /// CI mode: a few hundred actions per row (1 and 4 clients), and a non-zero exit on any
    /// 5xx or transport error.
    #[arg(long)]
    smoke: bool,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Pool size of the in-process server.
    #[arg(long, default_value_t = 10)]
    pool_size: u32,
    /// HTTP workers of the in-process server (default: one per pool connection when the
    /// database work runs on them, one per core with `--placements blocking`).
    #[arg(long)]
    workers: Option<usize>,
    /// Skip the raw-database mode.
    #[arg(long)]
    no_raw: bool,
    /// Seed of the clients' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A read replica for the in-process service (`--read-database-url` of the server).
    #[arg(long)]
    read_database_url: Option<String>,
    /// Event streams (SSE, `GET /v1/games/{id}/stream`) to hold open during the measurement,
    /// ten per game, on games nobody plays: what holding many followers costs the action path.
    #[arg(long, default_value_t = 0)]
    streams: usize,
    /// Measure the players' streams instead of the table (see `notices.rs`): commit to
    /// notice latency, CPU per notice, what held streams hold.
    #[arg(long)]
    player_notices: bool,
    /// With `--player-notices`: players, each following its stream.
    #[arg(long, default_value_t = 20)]
    notice_players: usize,
    /// With `--player-notices`: games per player.
    #[arg(long, default_value_t = 10)]
    games_per_player: usize,
    /// With `--player-notices`: opponent turns per game.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// With `--player-notices`: idle player streams held open meanwhile.
    #[arg(long, default_value_t = 500)]
    idle_player_streams: usize,
    /// Measure what spectators cost a move instead of the table (see `watched.rs`): one
    /// game per spectator count given, comma-separated (e.g. `0,10,100,1000`).
    #[arg(long, value_delimiter = ',')]
    watched: Vec<usize>,
    /// With `--watched`: moves per game.
    #[arg(long, default_value_t = 200)]
    watched_moves: usize,
    /// With `--watched`: idle spectator streams to hold afterwards, for their memory.
    #[arg(long, default_value_t = 0)]
    idle_streams: usize,
}

/// One measurement of a run, in the order the runs rotate through.
#[derive(Debug, Clone, Copy)]
enum Step {
    Raw,
    Service(Variant),
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let mut args = Args::parse();
    if args.smoke {
        args.clients = vec![1, 4];
        args.actions = 150;
        args.runs = 1;
    }
    // Tuple fields drop in order: the server stops before its directory is deleted.
    let mut _cluster: Option<(db::local_pg::LocalPostgres, tempfile::TempDir)> = None;
    let database_url = match (&args.database_url, &args.url) {
        (Some(u), _) if !u.is_empty() => Some(u.clone()),
        (_, Some(_)) => None,
        _ => {
            let dir = tempfile::Builder::new().prefix("loadgen-pg-").tempdir()?;
            eprintln!("starting a private PostgreSQL in {}", dir.path().display());
            let data = dir.path().join("data");
            let pg = tokio::task::spawn_blocking(move || db::local_pg::LocalPostgres::start(&data))
                .await??;
            let url = pg.database_url("postgres");
            if args.url.is_none() {
                // Service, clients and database all ours: charge runs to them alone.
                if let Some(postmaster) = postmaster_pid(pg.data_dir()) {
                    measure::charge_to(measure::Scope::Processes { postmaster });
                }
            }
            _cluster = Some((pg, dir));
            Some(url)
        }
    };
    let services: Vec<(Placement, String)> = match &args.url {
        Some(u) => vec![(Placement::Workers, u.trim_end_matches('/').to_string())],
        None => {
            let url = database_url.clone().context("a database URL")?;
            let mut services = Vec::new();
            for &placement in &args.placements {
                services.push((
                    placement,
                    start_service(url.clone(), placement, &args).await?,
                ));
            }
            services
        }
    };
    let base = services[0].1.clone();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    eprintln!(
        "target {base}; {cores} cores; {} actions per row, {} run(s)",
        args.actions, args.runs
    );

    if args.player_notices {
        let shape = notices::Shape {
            players: args.notice_players,
            games_per_player: args.games_per_player,
            rounds: args.rounds,
            idle_streams: args.idle_player_streams,
            seed: args.seed,
        };
        return notices::measure(&base, shape).await;
    }
    if !args.watched.is_empty() {
        let url = database_url
            .as_deref()
            .context("--watched reads PostgreSQL's statistics: it needs the database")?;
        let shape = watched::Shape {
            spectators: args.watched.clone(),
            moves: args.watched_moves,
            idle_streams: args.idle_streams,
            seed: args.seed,
        };
        return watched::measure(&base, url, shape).await;
    }
    let followers = open_streams(&base, args.streams).await?;
    if args.streams > 0 {
        eprintln!("{} event streams open", followers.len());
    }
    let raw_url = database_url.filter(|_| !args.no_raw);
    let variants: Vec<Variant> = args
        .protocols
        .iter()
        .flat_map(|&protocol| {
            services.iter().map(move |&(placement, _)| Variant {
                protocol,
                placement,
            })
        })
        .collect();
    let mut steps: Vec<Step> = variants.iter().map(|&v| Step::Service(v)).collect();
    if raw_url.is_some() {
        steps.insert(0, Step::Raw);
    }
    let mut report = Report::new(&args.clients, &variants);
    for run in 0..args.runs {
        for &clients in &args.clients {
            for i in 0..steps.len() {
                let step = steps[(i + run) % steps.len()];
                let seed = args.seed.wrapping_add(run as u64);
                let row = match (step, &raw_url) {
                    (Step::Raw, Some(url)) => {
                        Row::Raw(raw::run_raw(url, clients, args.actions).await?)
                    }
                    (Step::Raw, None) => continue,
                    (Step::Service(v), _) => {
                        let base = &services
                            .iter()
                            .find(|s| s.0 == v.placement)
                            .expect("started")
                            .1;
                        let m = clients::run(
                            base,
                            v.protocol,
                            clients,
                            args.actions,
                            args.players,
                            seed,
                        )
                        .await?;
                        Row::Service(v, m)
                    }
                };
                report.add(clients, row);
            }
        }
        eprintln!("run {} of {} done", run + 1, args.runs);
    }
    report.print(cores, args.runs);
    let bad = report.server_errors();
    if args.smoke && bad > 0 {
        bail!("{bad} server errors or transport failures");
    }
    if args.smoke && report.any_row_without_actions() {
        bail!("a row applied no action");
    }
    Ok(())
}

/// The postmaster's process id: the first line of `postmaster.pid` in its data directory.
fn postmaster_pid(data_dir: &std::path::Path) -> Option<u32> {
    let text = std::fs::read_to_string(data_dir.join("postmaster.pid")).ok()?;
    text.lines().next()?.trim().parse().ok()
}

/// Starts the service in this process on `url` and returns its base URL.
async fn start_service(url: String, placement: Placement, args: &Args) -> anyhow::Result<String> {
    // Production logging cost: every event formatted at info level, then discarded.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::sink)
        .try_init();
    let mut settings = api::Settings::for_tests(&url);
    settings.pool_size = args.pool_size;
    settings.db_on_blocking_pool = placement == Placement::Blocking;
    settings.read_database_url = args.read_database_url.clone();
    // Unless told, each placement gets its own default: one worker per pool connection for
    // work on the workers, one per core (the default before) for the blocking pool.
    settings.workers = match (args.workers, placement) {
        (Some(w), _) => Some(w),
        (None, Placement::Workers) => None,
        (None, Placement::Blocking) => {
            Some(std::thread::available_parallelism().map_or(1, |n| n.get()))
        }
    };
    let app = api::Application::build(settings).await?;
    let base = format!("http://{}", app.address());
    tokio::spawn(app.run());
    Ok(base)
}

/// Opens `n` spectator event streams, ten per new game, and keeps reading them (heartbeats)
/// in the background; the returned tasks end when dropped with the runtime.
async fn open_streams(base: &str, n: usize) -> anyhow::Result<Vec<tokio::task::JoinHandle<()>>> {
    let http = reqwest::Client::new();
    let mut tasks = Vec::with_capacity(n);
    let mut game = String::new();
    for i in 0..n {
        if i % 10 == 0 {
            let created: Value = http
                .post(format!("{base}/v1/games"))
                .json(&json!({"type": "tycoon", "seats": [{"name": "A"}, {"name": "B"}]}))
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            game = created["game_id"].as_str().context("game id")?.to_string();
        }
        let mut res = http
            .get(format!("{base}/v1/games/{game}/stream"))
            .send()
            .await?
            .error_for_status()?;
        tasks.push(tokio::spawn(async move {
            while let Ok(Some(_)) = res.chunk().await {}
        }));
    }
    Ok(tasks)
}
