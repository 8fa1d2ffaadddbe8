//! Load generator: N concurrent clients, each playing its own Tycoon game over HTTP (a poll of
//! `GET /v1/games/{id}` as the active seat, whose document lists its legal actions, then one
//! random legal action per move),
//! and, against the same PostgreSQL with the same concurrency, the raw database transaction of
//! an action (lock the game row, insert one event, write a real Tycoon snapshot, commit). The
//! report is a markdown table per client count with the service / raw-database ratio.
//!
//! ```text
//! cargo run --release -p tests --bin loadgen                      # own server + own PostgreSQL
//! cargo run --release -p tests --bin loadgen -- --smoke           # a few hundred actions (CI)
//! cargo run --release -p tests --bin loadgen -- --url http://127.0.0.1:8080 --database-url postgres://...
//! ```
//!
//! Without `--url` the service runs in this process (`api::Application` on port 0, production
//! defaults: pool 10, one HTTP worker per core, info-level logs formatted and discarded). Without
//! `--database-url`/`DATABASE_URL` it starts a private PostgreSQL in a temporary directory with
//! the launcher's production settings (fsync on), so both modes meet the same server settings.
//! With `--url` and no database URL only the HTTP side is measured.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Parser;
use diesel::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use tests::pick;
use uuid::Uuid;

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
    /// Action POSTs per client count (shared among the clients).
    #[arg(long, default_value_t = 3000)]
    actions: usize,
    /// CI mode: a few hundred actions in all (1 and 4 clients), and a non-zero exit on any
    /// 5xx or transport error.
    #[arg(long)]
    smoke: bool,
    /// Players per game.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Pool size of the in-process server.
    #[arg(long, default_value_t = 10)]
    pool_size: u32,
    /// HTTP workers of the in-process server (default: one per core).
    #[arg(long)]
    workers: Option<usize>,
    /// Skip the raw-database mode.
    #[arg(long)]
    no_raw: bool,
    /// Seed of the clients' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Event streams (SSE, `GET /v1/games/{id}/stream`) to hold open during the measurement,
    /// ten per game, on games nobody plays: what holding many followers costs the action path.
    #[arg(long, default_value_t = 0)]
    streams: usize,
}

/// Latencies and failures of one run.
#[derive(Default)]
struct Tally {
    ok: usize,
    latencies: Vec<Duration>,
    failures: BTreeMap<String, usize>,
}

struct Measured {
    actions: usize,
    elapsed: Duration,
    latencies: Vec<Duration>,
    failures: BTreeMap<String, usize>,
    /// CPU time the whole machine spent during the run (every process: client, service,
    /// PostgreSQL), when the OS tells (`/proc/stat`).
    machine_cpu: Option<Duration>,
}

/// CPU time all cores of the machine have spent busy since boot, from `/proc/stat` (Linux);
/// `None` elsewhere. The difference over a run is what the run cost the machine, whoever
/// spent it.
fn machine_busy() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu = stat.lines().next()?.strip_prefix("cpu ")?;
    let ticks: Vec<u64> = cpu
        .split_whitespace()
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    // user nice system idle iowait irq softirq steal guest guest_nice: busy is user, nice,
    // system, irq and softirq (steal is the hypervisor's; guest is counted in user).
    let busy: u64 = [0, 1, 2, 5, 6].iter().filter_map(|&i| ticks.get(i)).sum();
    // USER_HZ is 100 on every Linux ABI Rust targets.
    Some(Duration::from_millis(busy * 10))
}

/// CPU the machine spent since `before` (from [`machine_busy`]).
fn machine_busy_since(before: Option<Duration>) -> Option<Duration> {
    Some(machine_busy()?.saturating_sub(before?))
}

impl Measured {
    /// Machine CPU per action, in ms.
    fn cpu_per_action(&self) -> String {
        match self.machine_cpu {
            Some(cpu) if self.actions > 0 => {
                format!("{:.2}", cpu.as_secs_f64() * 1000.0 / self.actions as f64)
            }
            _ => "–".into(),
        }
    }

    fn rate(&self) -> f64 {
        self.actions as f64 / self.elapsed.as_secs_f64()
    }

    fn pct(&self, p: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let i = ((self.latencies.len() as f64 * p).ceil() as usize).clamp(1, self.latencies.len());
        self.latencies[i - 1]
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let mut args = Args::parse();
    if args.smoke {
        args.clients = vec![1, 4];
        args.actions = 150;
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
            _cluster = Some((pg, dir));
            Some(url)
        }
    };
    let base = match &args.url {
        Some(u) => u.trim_end_matches('/').to_string(),
        None => {
            let url = database_url.clone().context("a database URL")?;
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
            settings.workers = args.workers;
            let app = api::Application::build(settings).await?;
            let base = format!("http://{}", app.address());
            tokio::spawn(app.run());
            base
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    eprintln!(
        "target {base}; {cores} cores; {} actions per client count",
        args.actions
    );

    let followers = open_streams(&base, args.streams).await?;
    if args.streams > 0 {
        eprintln!("{} event streams open", followers.len());
    }
    let mut rows = Vec::new();
    let mut bad = 0usize;
    for &clients in &args.clients {
        let service = run_service(&base, clients, &args).await?;
        let raw = match (&database_url, args.no_raw) {
            (Some(url), false) => Some(run_raw(url, clients, args.actions).await?),
            _ => None,
        };
        for (what, n) in &service.failures {
            eprintln!("  {clients} clients: {n} × {what}");
            if what.starts_with('5') || what.starts_with("transport") {
                bad += n;
            }
        }
        rows.push((clients, service, raw));
    }

    println!(
        "| Clients | Actions/s | p50 ms | p95 ms | p99 ms | max ms | CPU ms/action | Raw DB tx/s | Raw p99 ms | Raw CPU ms/tx | Service / raw |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (clients, s, raw) in &rows {
        let (raw_rate, raw_p99, raw_cpu, ratio) = match raw {
            Some(r) => (
                format!("{:.0}", r.rate()),
                ms(r.pct(0.99)),
                r.cpu_per_action(),
                format!("{:.0} %", 100.0 * s.rate() / r.rate()),
            ),
            None => ("–".into(), "–".into(), "–".into(), "–".into()),
        };
        println!(
            "| {clients} | {:.0} | {} | {} | {} | {} | {} | {raw_rate} | {raw_p99} | {raw_cpu} | {ratio} |",
            s.rate(),
            ms(s.pct(0.50)),
            ms(s.pct(0.95)),
            ms(s.pct(0.99)),
            ms(s.pct(1.0)),
            s.cpu_per_action(),
        );
    }
    println!();
    println!(
        "CPU ms/action: CPU time of the whole machine (load generator, service and PostgreSQL) per action or raw transaction; with {cores} cores, {cores} s of CPU per second is the ceiling."
    );
    println!();
    for (clients, s, _) in &rows {
        if s.failures.is_empty() {
            println!("- {clients} clients: every action POST answered 2xx");
        } else {
            let list: Vec<String> = s
                .failures
                .iter()
                .map(|(k, n)| format!("{n} × {k}"))
                .collect();
            println!("- {clients} clients: non-2xx: {}", list.join(", "));
        }
    }
    if args.smoke && bad > 0 {
        bail!("{bad} server errors or transport failures");
    }
    if args.smoke && rows.iter().any(|(_, s, _)| s.actions == 0) {
        bail!("no action was applied");
    }
    Ok(())
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

/// One client: plays its own games (a new one when a game ends) until `quota` action POSTs.
async fn client_loop(
    base: String,
    players: usize,
    quota: usize,
    seed: u64,
    tally: Arc<Mutex<Tally>>,
) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game: Option<(String, Vec<String>)> = None;
    // The seat the last response said acts next (a game starts with seat 0).
    let mut expected_seat = 0;
    let mut sent = 0;
    while sent < quota {
        let (id, tokens) = match &game {
            Some(g) => g.clone(),
            None => {
                let seats: Vec<Value> = (0..players)
                    .map(|i| json!({ "name": format!("P{i}") }))
                    .collect();
                let res = http
                    .post(format!("{base}/v1/games"))
                    .json(&json!({ "type": "tycoon", "seats": seats, "seed": rng.random::<u32>() }))
                    .send()
                    .await?;
                if !res.status().is_success() {
                    bail!("create: {} {}", res.status(), res.text().await?);
                }
                let body: Value = res.json().await?;
                let id = body["game_id"].as_str().context("game_id")?.to_string();
                let tokens: Vec<String> = body["seats"]
                    .as_array()
                    .context("seats")?
                    .iter()
                    .filter_map(|s| s["token"].as_str().map(str::to_string))
                    .collect();
                game = Some((id.clone(), tokens.clone()));
                (id, tokens)
            }
        };
        // The poll between moves, as the seat expected to act: its document lists that seat's
        // legal actions, so a move is two requests (poll, act).
        let mut doc = poll(&http, &base, &id, &tokens[expected_seat]).await?;
        if doc.status == "finished" {
            game = None;
            expected_seat = 0;
            continue;
        }
        let seat = *doc.active_seats.first().context("an active seat")?;
        if seat != expected_seat {
            expected_seat = seat;
            doc = poll(&http, &base, &id, &tokens[seat]).await?;
        }
        let token = &tokens[seat];
        if doc.legal_actions.is_empty() {
            bail!("seat {seat} is active but has no legal action");
        }
        let action = pick(&mut rng, &doc.legal_actions);
        let started = Instant::now();
        let res = http
            .post(format!("{base}/v1/games/{id}/actions"))
            .bearer_auth(token)
            .json(&json!({ "action": action, "expected_version": doc.version }))
            .send()
            .await;
        sent += 1;
        let outcome = match res {
            Ok(res) => {
                let status = res.status();
                let bytes = res.bytes().await.unwrap_or_default();
                if status.is_success() {
                    if let Ok(applied) = serde_json::from_slice::<Applied>(&bytes) {
                        if let Some(&next) = applied.game.active_seats.first() {
                            expected_seat = next;
                        }
                    }
                    Ok(())
                } else {
                    let code = serde_json::from_slice::<Problem>(&bytes)
                        .map_or_else(|_| "-".to_string(), |p| p.code);
                    Err(format!("{} {code}", status.as_u16()))
                }
            }
            Err(e) => Err(format!("transport error ({})", short(&e))),
        };
        let elapsed = started.elapsed();
        let mut t = tally.lock().unwrap();
        match outcome {
            Ok(()) => {
                t.ok += 1;
                t.latencies.push(elapsed);
            }
            Err(what) => *t.failures.entry(what).or_default() += 1,
        }
    }
    Ok(())
}

/// What a client reads of a game document: the rest (the view above all) is skipped
/// unparsed, as a lean bot would, so that the client's CPU stays off the service's two cores.
#[derive(serde::Deserialize)]
struct Doc {
    status: String,
    version: i64,
    active_seats: Vec<usize>,
    legal_actions: Vec<Value>,
}

/// What a client reads of an action's answer.
#[derive(serde::Deserialize)]
struct Applied {
    game: Seats,
}

#[derive(serde::Deserialize)]
struct Seats {
    active_seats: Vec<usize>,
}

/// The stable code of a problem answer.
#[derive(serde::Deserialize)]
struct Problem {
    code: String,
}

/// `GET /v1/games/{id}` as the seat holding `token`.
async fn poll(http: &reqwest::Client, base: &str, id: &str, token: &str) -> anyhow::Result<Doc> {
    Ok(http
        .get(format!("{base}/v1/games/{id}"))
        .bearer_auth(token)
        .send()
        .await?
        .json()
        .await?)
}

fn short(e: &reqwest::Error) -> &'static str {
    if e.is_timeout() {
        "timeout"
    } else if e.is_connect() {
        "connect"
    } else {
        "other"
    }
}

async fn run_service(base: &str, clients: usize, args: &Args) -> anyhow::Result<Measured> {
    let tally = Arc::new(Mutex::new(Tally::default()));
    let per_client = args.actions.div_ceil(clients);
    let busy = machine_busy();
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|i| {
            tokio::spawn(client_loop(
                base.to_string(),
                args.players,
                per_client,
                args.seed.wrapping_mul(1000).wrapping_add(i as u64),
                tally.clone(),
            ))
        })
        .collect();
    for t in tasks {
        t.await??;
    }
    let elapsed = started.elapsed();
    let machine_cpu = machine_busy_since(busy);
    let t = std::mem::take(&mut *tally.lock().unwrap());
    let mut latencies = t.latencies;
    latencies.sort();
    Ok(Measured {
        actions: t.ok,
        elapsed,
        latencies,
        failures: t.failures,
        machine_cpu,
    })
}

/// A realistic row: a Tycoon game 60 random moves in (its snapshot, one of its action events).
fn realistic_payload(players: usize) -> anyhow::Result<(db::JsonText, Value, Value)> {
    let kind = engine::registry::find("tycoon").context("tycoon is hosted")?;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut state, _) = kind.setup(&kind.info().default_config, players, &mut rng)?;
    let mut last = (json!({}), json!({}));
    for _ in 0..60 {
        if state.outcome().is_some() {
            break;
        }
        let seat = state.active_seats()[0];
        let legal = state.legal_actions(seat);
        let action = pick(&mut rng, &legal).clone();
        let events = state.apply(seat, &action, &mut rng)?;
        if let Some(e) = events.into_iter().last() {
            last = (action, e);
        }
    }
    Ok((db::JsonText::new(state.snapshot()), last.0, last.1))
}

/// The service's transaction shape without the service: lock the game row (reading it, as the
/// service must), insert one event, write the snapshot and version, commit.
async fn run_raw(url: &str, clients: usize, actions: usize) -> anyhow::Result<Measured> {
    use db::schema::{game_events, games};
    let (snapshot, action, event) = realistic_payload(2)?;
    let per_client = actions.div_ceil(clients);
    let url = url.to_string();
    tokio::task::spawn_blocking(move || -> anyhow::Result<Measured> {
        // One game row per client, created through the store like the service's.
        let mut conns = Vec::new();
        let mut ids = Vec::new();
        for _ in 0..clients {
            let mut conn = PgConnection::establish(&url)?;
            let id = Uuid::new_v4();
            db::store::create_game(
                &mut conn,
                db::store::NewGame {
                    id,
                    game_type: "tycoon".into(),
                    rules_version: 1,
                    config: json!({}),
                    rng_seed: db::RngSeed([0; 32]),
                    seats: vec![
                        db::store::NewSeat::Taken {
                            name: "raw0".into(),
                            token: db::token::new_token(),
                        },
                        db::store::NewSeat::Taken {
                            name: "raw1".into(),
                            token: db::token::new_token(),
                        },
                    ],
                    initial: Some(db::store::Decision {
                        events: vec![db::NewEvent::system(event.clone())],
                        snapshot: snapshot.clone(),
                        status: db::GameStatus::Active,
                        bot_turn: None,
                    }),
                },
            )
            .map_err(|e| anyhow::anyhow!("{e}"))?;
            conns.push(conn);
            ids.push(id);
        }
        let busy = machine_busy();
        let started = Instant::now();
        let results: Vec<anyhow::Result<Vec<Duration>>> = std::thread::scope(|s| {
            let handles: Vec<_> = conns
                .iter_mut()
                .zip(&ids)
                .map(|(conn, &id)| {
                    let (snapshot, action, event) = (&snapshot, &action, &event);
                    s.spawn(move || -> anyhow::Result<Vec<Duration>> {
                        let mut lat = Vec::with_capacity(per_client);
                        for _ in 0..per_client {
                            let t = Instant::now();
                            conn.transaction(|c| {
                                let (version, _state): (i64, Option<db::JsonText>) = games::table
                                    .find(id)
                                    .select((games::version, games::snapshot))
                                    .for_update()
                                    .first(c)?;
                                diesel::insert_into(game_events::table)
                                    .values((
                                        game_events::game_id.eq(id),
                                        game_events::seq.eq(version + 1),
                                        game_events::seat.eq(Some(0)),
                                        game_events::action.eq(Some(action)),
                                        game_events::event.eq(event),
                                    ))
                                    .execute(c)?;
                                diesel::update(games::table.find(id))
                                    .set((
                                        games::snapshot.eq(Some(snapshot)),
                                        games::version.eq(version + 1),
                                        games::updated_at.eq(diesel::dsl::now),
                                    ))
                                    .execute(c)?;
                                Ok::<_, diesel::result::Error>(())
                            })?;
                            lat.push(t.elapsed());
                        }
                        Ok(lat)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let elapsed = started.elapsed();
        let machine_cpu = machine_busy_since(busy);
        let mut latencies = Vec::new();
        for r in results {
            latencies.extend(r?);
        }
        latencies.sort();
        Ok(Measured {
            actions: latencies.len(),
            elapsed,
            latencies,
            failures: BTreeMap::new(),
            machine_cpu,
        })
    })
    .await?
}
