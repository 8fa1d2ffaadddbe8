//! The players' stream under load (`--player-notices`): N players, each in M Tycoon games
//! against an anonymous opponent, each following its one player stream, plus idle player
//! streams held open the whole time. The opponents move; every move that hands the turn
//! back to a player is a `turn` notice on that player's stream. Measured:
//!
//! - commit to notice: from the commit's own time (the `created_at` of the events in the
//!   opponent's action answer, the database's clock) to the notice's arrival at the client
//!   (this machine's clock: the same clock), p50 and p99;
//! - CPU per notice: the CPU the service, the clients and PostgreSQL spent on the run, minus
//!   what the same games with the same moves cost with seat tokens and no players (so no
//!   notices), divided by the notices sent;
//! - what the held streams hold: the service's threads and pool connections while they are
//!   open (from `/proc` and `/metrics`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{bail, Context};
use rand_chacha::ChaCha8Rng;
use reqwest::Client;
use serde_json::{json, Value};

use crate::measure;

/// What to measure.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub players: usize,
    pub games_per_player: usize,
    /// Opponent turns per game.
    pub rounds: usize,
    /// Player streams held open by players without games.
    pub idle_streams: usize,
    pub seed: u64,
}

/// When each notice (game, version) arrived.
type Arrivals = Arc<Mutex<HashMap<(String, i64), SystemTime>>>;

/// The commits that handed a turn to a player: (game, version) and the commit's time.
type Commits = Arc<Mutex<Vec<((String, i64), SystemTime)>>>;

async fn post(
    http: &Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> anyhow::Result<Value> {
    let mut req = http.post(url).json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await?;
    let status = res.status();
    let body: Value = res.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("{status}: {body}");
    }
    Ok(body)
}

async fn new_player(http: &Client, base: &str, name: &str) -> anyhow::Result<String> {
    let body = post(
        http,
        format!("{base}/v1/players"),
        None,
        json!({ "name": name }),
    )
    .await?;
    Ok(body["token"].as_str().context("token")?.to_string())
}

/// Reads a player's stream, noting when each `turn` arrives, until the task is dropped.
async fn follow(http: Client, base: String, token: String, arrivals: Option<Arrivals>) {
    let Ok(mut res) = http
        .get(format!("{base}/v1/players/me/stream"))
        .bearer_auth(&token)
        .send()
        .await
    else {
        return;
    };
    let mut buffer = String::new();
    while let Ok(Some(chunk)) = res.chunk().await {
        let now = SystemTime::now();
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let (Some(arrivals), true) = (&arrivals, block.starts_with("event: turn")) else {
                continue;
            };
            let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) else {
                continue;
            };
            if let Ok(v) = serde_json::from_str::<Value>(data) {
                if let (Some(g), Some(version)) = (v["game_id"].as_str(), v["version"].as_i64()) {
                    arrivals
                        .lock()
                        .unwrap()
                        .insert((g.to_string(), version), now);
                }
            }
        }
    }
}

/// Plays the seat of `token` until game `id` no longer waits for it. Returns the game's
/// document after the last action and that action's commit time (if it acted), and how
/// many actions it took.
async fn play_turn(
    http: &Client,
    base: &str,
    id: &str,
    token: &str,
    rng: &mut ChaCha8Rng,
) -> anyhow::Result<(Value, Option<SystemTime>, usize)> {
    let mut doc: Value = http
        .get(format!("{base}/v1/games/{id}"))
        .bearer_auth(token)
        .send()
        .await?
        .json()
        .await?;
    let seat = doc["seat"].clone();
    let (mut committed, mut actions) = (None, 0);
    while doc["status"] == "active"
        && doc["active_seats"]
            .as_array()
            .is_some_and(|a| a.contains(&seat))
    {
        let action = tests::choose(
            rng,
            doc["legal_actions"].as_array().context("legal actions")?,
            doc["action_templates"].as_array().context("templates")?,
        );
        let body = post(
            http,
            format!("{base}/v1/games/{id}/actions"),
            Some(token),
            json!({ "action": action, "expected_version": doc["version"] }),
        )
        .await?;
        committed = body["events"][0]["created_at"]
            .as_str()
            .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
            .map(SystemTime::from);
        doc = body["game"].clone();
        actions += 1;
    }
    Ok((doc, committed, actions))
}

/// One run's figures.
struct Run {
    actions: usize,
    cpu: Option<Duration>,
    elapsed: Duration,
    /// Commit to notice, per notice matched.
    latencies: Vec<Duration>,
    notices: usize,
}

/// Plays `rounds` opponent turns in each game; with `players`, the first seat is a player's
/// (who follows a stream), else both seats are anonymous.
async fn run(http: &Client, base: &str, shape: Shape, players: bool) -> anyhow::Result<Run> {
    let arrivals: Arrivals = Arc::default();
    let mut followers = Vec::new();
    let mut tables = Vec::new();
    for p in 0..shape.players {
        let (me, seat) = if players {
            let token = new_player(http, base, &format!("Load {p}")).await?;
            followers.push(tokio::spawn(follow(
                http.clone(),
                base.to_string(),
                token.clone(),
                Some(arrivals.clone()),
            )));
            (Some(token), json!({"me": true}))
        } else {
            (None, json!({"name": "Anon"}))
        };
        let mut games = Vec::new();
        for g in 0..shape.games_per_player {
            let created = post(
                http,
                format!("{base}/v1/games"),
                me.as_deref(),
                json!({"type": "tycoon", "seats": [seat, {"name": "Opp"}], "seed": shape.seed + g as u64}),
            )
            .await?;
            let id = created["game_id"].as_str().context("game id")?.to_string();
            let mine = me
                .clone()
                .or_else(|| created["seats"][0]["token"].as_str().map(str::to_string))
                .context("a token")?;
            let opp = created["seats"][1]["token"]
                .as_str()
                .context("token")?
                .to_string();
            games.push((id, mine, opp));
        }
        tables.push(games);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let cpu_before = measure::cpu_now();
    let started = Instant::now();
    let commits: Commits = Arc::default();
    let drivers: Vec<_> = tables
        .into_iter()
        .enumerate()
        .map(|(p, games)| {
            let (http, base, commits) = (http.clone(), base.to_string(), commits.clone());
            tokio::spawn(async move {
                let mut rng: ChaCha8Rng =
                    rand::SeedableRng::seed_from_u64(shape.seed.wrapping_add(p as u64));
                let mut actions = 0;
                for _ in 0..shape.rounds {
                    for (id, mine, opp) in &games {
                        actions += play_turn(&http, &base, id, mine, &mut rng).await?.2;
                        let (doc, at, n) = play_turn(&http, &base, id, opp, &mut rng).await?;
                        actions += n;
                        let waits = doc["active_seats"]
                            .as_array()
                            .is_some_and(|a| a.contains(&json!(0)));
                        if let (Some(at), true) = (at, waits) {
                            let version = doc["version"].as_i64().unwrap_or(-1);
                            commits.lock().unwrap().push(((id.clone(), version), at));
                        }
                    }
                }
                Ok::<_, anyhow::Error>(actions)
            })
        })
        .collect();
    let mut actions = 0;
    for d in drivers {
        actions += d.await??;
    }
    let elapsed = started.elapsed();
    // The last notices may still be on their way: wait for them (bounded).
    let expected = commits.lock().unwrap().len();
    let give_up = Instant::now() + Duration::from_secs(10);
    while players && Instant::now() < give_up {
        let arrived = {
            let arrivals = arrivals.lock().unwrap();
            commits
                .lock()
                .unwrap()
                .iter()
                .filter(|(k, _)| arrivals.contains_key(k))
                .count()
        };
        if arrived == expected {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let cpu = measure::cpu_now()
        .zip(cpu_before)
        .map(|(now, before)| now.saturating_sub(before));
    for f in followers {
        f.abort();
    }
    let arrivals = arrivals.lock().unwrap();
    let mut latencies: Vec<Duration> = commits
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(k, at)| {
            let arrived = arrivals.get(k)?;
            Some(arrived.duration_since(*at).unwrap_or(Duration::ZERO))
        })
        .collect();
    latencies.sort();
    if players && latencies.len() < expected {
        eprintln!(
            "warning: {} of {expected} notices did not arrive",
            expected - latencies.len()
        );
    }
    Ok(Run {
        actions,
        cpu,
        elapsed,
        notices: latencies.len(),
        latencies,
    })
}

/// Threads of this process (the in-process service's included), from `/proc`.
fn threads() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))?
        .trim()
        .parse()
        .ok()
}

async fn gauge(http: &Client, base: &str, name: &str) -> Option<i64> {
    let text = http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .ok()?
        .text()
        .await
        .ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// Runs the measurement and prints its report (markdown).
pub async fn measure(base: &str, shape: Shape) -> anyhow::Result<()> {
    let http = Client::builder().pool_max_idle_per_host(256).build()?;
    let threads_before = threads();
    let mut idle = Vec::new();
    for i in 0..shape.idle_streams {
        let token = new_player(&http, base, &format!("Idle {i}")).await?;
        idle.push(tokio::spawn(follow(
            http.clone(),
            base.to_string(),
            token,
            None,
        )));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let held = gauge(&http, base, "player_streams_open").await;
    let threads_held = threads();
    let pool = gauge(&http, base, "db_pool_connections").await;
    let idle_pool = gauge(&http, base, "db_pool_idle_connections").await;
    eprintln!("{held:?} idle player streams held; measuring with players");
    let with = run(&http, base, shape, true).await?;
    eprintln!("measuring the same games without players");
    // The same games (seeds) and moves (the clients' seeds), with seat tokens only.
    let without = run(&http, base, shape, false).await?;
    let ms = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0);
    let per_action = |r: &Run| ms(r.cpu) / r.actions.max(1) as f64;
    let extra_per_notice = (per_action(&with) - per_action(&without)) * with.actions as f64
        / with.notices.max(1) as f64;
    println!(
        "| players × games | streams held | notices | commit→notice p50 / p99 (ms) | CPU per action with / without players (ms) | CPU per notice (ms) |"
    );
    println!("|---|---|---|---|---|---|");
    println!(
        "| {} × {} | {} | {} | {:.1} / {:.1} | {:.2} / {:.2} | {:.2} |",
        shape.players,
        shape.games_per_player,
        held.unwrap_or(0) as usize + shape.players,
        with.notices,
        pct(&with.latencies, 0.5),
        pct(&with.latencies, 0.99),
        per_action(&with),
        per_action(&without),
        extra_per_notice,
    );
    println!();
    println!(
        "{} actions with players in {:.1} s, {} without in {:.1} s. With {} idle player \
         streams open: threads of the process {:?} → {:?}, pool connections open {:?} (idle {:?}).",
        with.actions,
        with.elapsed.as_secs_f64(),
        without.actions,
        without.elapsed.as_secs_f64(),
        held.unwrap_or(0),
        threads_before,
        threads_held,
        pool,
        idle_pool,
    );
    for task in idle {
        task.abort();
    }
    Ok(())
}
