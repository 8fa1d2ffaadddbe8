//! The watched mode (`--watched 0,10,100,1000`): what spectators cost a move.
//!
//! For each spectator count, one client plays one seeded two-seat Tycoon game by the act
//! protocol while that many anonymous spectators follow the game's push stream. Per move the
//! table gives what PostgreSQL committed (`pg_stat_database.xact_commit`) and the rows it read
//! (`tup_returned`, rows scanned or returned by index scans), the idle background work of the
//! same span subtracted; the server's own count of database calls for requests
//! (`db_request_calls_total`) and of the shared reads of followed games (`watch_reads_total`);
//! the acting client's latencies; and the CPU the whole system spent per move.
//!
//! Then it holds `--idle-streams` spectator streams open on games nobody plays, opened over
//! bare TCP connections that keep nothing but the socket on the client's side, and reports the
//! process's resident memory per stream and the database work of an idle span.
//!
//! PostgreSQL's statistics are flushed by each backend at most once a second while busy and
//! within 10 s of going idle, so every snapshot is taken after a quiet [`FLUSH`].

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use diesel::prelude::*;
use diesel::sql_types::BigInt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::clients;

/// Longer than PostgreSQL's idle flush interval of its statistics (10 s).
const FLUSH: Duration = Duration::from_secs(11);

/// What the mode measures.
pub struct Shape {
    pub spectators: Vec<usize>,
    pub moves: usize,
    pub idle_streams: usize,
    pub seed: u64,
}

#[derive(QueryableByName, Clone, Copy, Debug)]
struct DbStats {
    #[diesel(sql_type = BigInt)]
    xact_commit: i64,
    #[diesel(sql_type = BigInt)]
    tup_returned: i64,
}

/// The database's committed transactions and rows read so far, after a quiet flush span.
async fn db_stats(url: &str) -> anyhow::Result<(DbStats, Instant)> {
    tokio::time::sleep(FLUSH).await;
    let url = url.to_string();
    let stats = tokio::task::spawn_blocking(move || -> anyhow::Result<DbStats> {
        let mut conn = PgConnection::establish(&url)?;
        Ok(diesel::sql_query(
            "SELECT xact_commit, tup_returned FROM pg_stat_database \
             WHERE datname = current_database()",
        )
        .get_result(&mut conn)?)
    })
    .await??;
    Ok((stats, Instant::now()))
}

/// A counter of the server's `/metrics`.
async fn counter(http: &reqwest::Client, base: &str, name: &str) -> anyhow::Result<f64> {
    let text = http
        .get(format!("{base}/metrics"))
        .send()
        .await?
        .text()
        .await?;
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .with_context(|| format!("metric {name}"))
}

/// Opens `n` spectator streams of `game` over bare TCP (so that the clients' side costs
/// little of the machine's CPU next to the server's) and reads them in the background,
/// discarding what comes, until they end; returns once every stream has answered.
async fn spectate(
    base: &str,
    game: &str,
    n: usize,
) -> anyhow::Result<Vec<tokio::task::JoinHandle<()>>> {
    let mut tasks = Vec::with_capacity(n);
    for i in 0..n {
        let mut socket = open_stream(base, game)
            .await
            .with_context(|| format!("stream {i}"))?;
        tasks.push(tokio::spawn(async move {
            let mut buf = vec![0u8; 16 * 1024];
            while let Ok(1..) = socket.read(&mut buf).await {}
        }));
    }
    Ok(tasks)
}

/// A spectator's stream of `game` over a bare TCP connection, its response head read.
async fn open_stream(base: &str, game: &str) -> anyhow::Result<tokio::net::TcpStream> {
    let address = base.trim_start_matches("http://");
    let mut socket = tokio::net::TcpStream::connect(address).await?;
    let request = format!("GET /v1/games/{game}/stream HTTP/1.1\r\nHost: {address}\r\n\r\n");
    socket.write_all(request.as_bytes()).await?;
    let mut head = [0u8; 1024];
    let read = socket.read(&mut head).await?;
    if !head[..read].starts_with(b"HTTP/1.1 200") {
        bail!("{}", String::from_utf8_lossy(&head[..read]));
    }
    Ok(socket)
}

/// Runs the mode against the in-process service at `base` on the database at `url`.
pub async fn measure(base: &str, url: &str, shape: Shape) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    // The idle work of the service (deadline and bot workers) over one flush span.
    let (first, at_first) = db_stats(url).await?;
    let (second, at_second) = db_stats(url).await?;
    let idle_span = at_second - at_first;
    let idle_xact = (second.xact_commit - first.xact_commit) as f64 / idle_span.as_secs_f64();
    let idle_rows = (second.tup_returned - first.tup_returned) as f64 / idle_span.as_secs_f64();
    eprintln!("idle: {idle_xact:.2} transactions/s, {idle_rows:.1} rows read/s");

    println!(
        "| Spectators | Moves | DB transactions/move | Rows read/move | Server DB calls/move | \
         Shared reads/move | p50 ms | p99 ms | CPU ms/move |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &n in &shape.spectators {
        // The spectators join before the first snapshot: their first reads count in no figure.
        let (played, (followers, before, at_before, calls_before, reads_before)) =
            clients::play_watched(base, shape.moves, shape.seed, |game| {
                let http = http.clone();
                async move {
                    let followers = spectate(base, &game, n).await?;
                    let (before, at_before) = db_stats(url).await?;
                    let calls = counter(&http, base, "db_request_calls_total").await?;
                    let reads = counter(&http, base, "watch_reads_total").await?;
                    Ok((followers, before, at_before, calls, reads))
                }
            })
            .await?;
        let (after, at_after) = db_stats(url).await?;
        let calls = counter(&http, base, "db_request_calls_total").await? - calls_before;
        let reads = counter(&http, base, "watch_reads_total").await? - reads_before;
        for f in followers {
            f.abort();
        }
        let span = (at_after - at_before).as_secs_f64();
        let moves = played.actions.max(1) as f64;
        let xact = (after.xact_commit - before.xact_commit) as f64 - idle_xact * span;
        let rows = (after.tup_returned - before.tup_returned) as f64 - idle_rows * span;
        println!(
            "| {n} | {} | {:.1} | {:.0} | {:.2} | {:.2} | {:.1} | {:.1} | {} |",
            played.actions,
            xact / moves,
            rows / moves,
            calls / moves,
            reads / moves,
            played.pct_ms(0.50),
            played.pct_ms(0.99),
            played
                .cpu_ms_per_action()
                .map_or("-".to_string(), |c| format!("{c:.2}")),
        );
    }
    if shape.idle_streams > 0 {
        idle_streams(base, url, shape.idle_streams).await?;
    }
    Ok(())
}

/// Resident memory of this process, in bytes (`/proc/self/status`).
fn rss() -> anyhow::Result<u64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .context("VmRSS")?;
    Ok(kb * 1024)
}

/// Holds `n` idle spectator streams (ten per game, on games nobody plays) over bare TCP and
/// reports the memory per stream and the database work while they are held.
async fn idle_streams(base: &str, url: &str, n: usize) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let mut games = Vec::new();
    for _ in 0..n.div_ceil(10) {
        let created: Value = http
            .post(format!("{base}/v1/games"))
            .json(&json!({"type": "tycoon", "seats": [{"name": "A"}, {"name": "B"}]}))
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        games.push(created["game_id"].as_str().context("game id")?.to_string());
    }
    let before = rss()?;
    let mut sockets = Vec::with_capacity(n);
    for i in 0..n {
        let socket = open_stream(base, &games[i / 10])
            .await
            .with_context(|| format!("stream {i}"))?;
        sockets.push(socket);
    }
    // Settle, then measure.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let held = rss()?;
    let calls_before = counter(&http, base, "db_request_calls_total").await?;
    let (quiet_before, at_before) = db_stats(url).await?;
    let (quiet_after, at_after) = db_stats(url).await?;
    let calls = counter(&http, base, "db_request_calls_total").await? - calls_before;
    println!();
    println!(
        "{n} idle streams held: resident memory {:.1} MB more, {:.1} KB per stream (server and \
         the client's bare sockets); over {:.0} s of holding them the server made {calls} \
         database calls for requests and PostgreSQL committed {} transactions (the idle \
         workers' included).",
        (held.saturating_sub(before)) as f64 / 1e6,
        (held.saturating_sub(before)) as f64 / 1024.0 / n as f64,
        (at_after - at_before).as_secs_f64(),
        quiet_after.xact_commit - quiet_before.xact_commit,
    );
    drop(sockets);
    Ok(())
}
