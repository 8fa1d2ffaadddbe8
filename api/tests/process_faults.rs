//! Faults and secrets that need a real `server` process:
//! - `kill -9` in the middle of a load run loses nothing that was answered 200 and leaves every
//!   game consistent (snapshot = fold of its events, seq numbers without gaps);
//! - seat tokens never reach the log, even at debug level;
//! - a log written to a file is plain text (no colour codes), or JSON lines when asked for;
//! - a burst of ~1,000 stream opens while the database is held up waits for it, in threads
//!   and memory that do not grow per stream.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use uuid::Uuid;

mod common;
use common::{create_tycoon, move_active_seat, start_server, start_server_with, test_db, Created};
use testkit::client::get;

/// An action answered 200: which game, seat and action, and the seqs of its events.
#[derive(Debug, Clone)]
struct Answered {
    game: Uuid,
    seat: i32,
    action: Value,
    seqs: Vec<i64>,
}

/// Plays random legal moves on one game until the server stops answering. Records every 200.
async fn play_until_failure(
    client: reqwest::Client,
    base: String,
    game: Created,
    answered: Arc<Mutex<Vec<Answered>>>,
    count: Arc<AtomicUsize>,
) {
    for n in 0usize.. {
        // Prefer building (games last longer than the run either way); vary by move number.
        let pick = |actions: &[Value]| {
            actions
                .iter()
                .find(|a| a["type"] == "build_hotel")
                .unwrap_or(&actions[n % actions.len()])
                .clone()
        };
        let Some(moved) = move_active_seat(&client, &base, &game, None, pick).await else {
            return;
        };
        if moved.status == reqwest::StatusCode::OK {
            let seqs = moved.answer["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["seq"].as_i64().unwrap())
                .collect();
            answered.lock().unwrap().push(Answered {
                game: game.id.parse().unwrap(),
                seat: moved.seat as i32,
                action: moved.action,
                seqs,
            });
            count.fetch_add(1, Ordering::SeqCst);
        } else {
            assert!(
                moved.status.is_client_error(),
                "unexpected {} before the kill: {}",
                moved.status,
                moved.answer
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_during_load_loses_no_answered_action_and_leaves_every_game_consistent() {
    let db = test_db().await;
    let url = db.url().to_string();
    let u = url.clone();
    let mut server = tokio::task::spawn_blocking(move || start_server(&u, "warn", None))
        .await
        .unwrap();
    let client = reqwest::Client::new();
    let mut games = Vec::new();
    for seed in 0..6 {
        games.push(create_tycoon(&client, &server.base, seed).await);
    }
    let answered = Arc::new(Mutex::new(Vec::new()));
    let count = Arc::new(AtomicUsize::new(0));
    let tasks: Vec<_> = games
        .iter()
        .map(|game| {
            tokio::spawn(play_until_failure(
                client.clone(),
                server.base.clone(),
                game.clone(),
                answered.clone(),
                count.clone(),
            ))
        })
        .collect();
    // Kill once the load is well under way (by progress, not by time).
    common::wait_for("120 answered actions before the kill", || async {
        let answered = count.load(Ordering::SeqCst);
        assert!(
            answered >= 120 || tasks.iter().any(|t| !t.is_finished()),
            "the load stopped after {answered} answered actions, before the kill"
        );
        (answered >= 120).then_some(())
    })
    .await;
    server.child.kill().expect("SIGKILL the server");
    server.child.wait().unwrap();
    for t in tasks {
        t.await.unwrap();
    }
    let answered = answered.lock().unwrap().clone();
    assert!(answered.len() >= 120);

    // Start again on the same database: it serves, and every game is consistent.
    let u = url.clone();
    let server = tokio::task::spawn_blocking(move || start_server(&u, "warn", None))
        .await
        .unwrap();
    let (status, _) = get(&client, &format!("{}/readyz", server.base), None, &[]).await;
    assert_eq!(status, 200);

    let ids: Vec<Uuid> = games.iter().map(|g| g.id.parse().unwrap()).collect();
    let u = url.clone();
    let logs = tokio::task::spawn_blocking(move || {
        let pool = db::connect_pool(&u, 1).unwrap();
        let mut conn = db::get_conn(&pool).unwrap();
        ids.iter()
            .map(|&id| {
                let game = db::store::get_game(&mut conn, id).unwrap();
                let events = db::store::all_events(&mut conn, id).unwrap();
                (id, (game, events))
            })
            .collect::<BTreeMap<_, _>>()
    })
    .await
    .unwrap();
    for (id, (game, events)) in &logs {
        let seqs: Vec<i64> = events.iter().map(|e| e.seq).collect();
        let expected: Vec<i64> = (1..=game.version).collect();
        assert_eq!(
            seqs, expected,
            "game {id}: seq numbers 1..=version, no gaps"
        );
        let kind = engine::registry::find(&game.game_type).unwrap();
        let values: Vec<Value> = events.iter().map(|e| e.event.clone()).collect();
        let replayed = kind.replay(&values).unwrap().to_json();
        assert_eq!(
            Some(replayed),
            game.snapshot.as_ref().map(|s| s.to_value().unwrap()),
            "game {id}: the snapshot is the fold of its events"
        );
    }
    for a in &answered {
        let (_, events) = &logs[&a.game];
        assert!(!a.seqs.is_empty());
        for seq in &a.seqs {
            let row = events
                .iter()
                .find(|e| e.seq == *seq)
                .unwrap_or_else(|| panic!("answered event {seq} of {} is lost", a.game));
            assert_eq!(row.seat, Some(a.seat), "{a:?}");
            assert_eq!(row.action.as_ref(), Some(&a.action), "{a:?}");
        }
    }

    // And play goes on through the new process, in a game the load was playing (a Tycoon game
    // lasts hundreds of moves; the 120 answers were spread over six games).
    let mut moved = None;
    for game in &games {
        let first = |legal: &[Value]| legal[0].clone();
        moved = move_active_seat(&client, &server.base, game, None, first).await;
        if moved.is_some() {
            break;
        }
    }
    let moved = moved.expect("a game of the load still in play");
    assert_eq!(moved.status, 200, "{}", moved.answer);
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_tokens_never_appear_in_the_log() {
    let db = test_db().await;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.log");
    let (u, l) = (db.url().to_string(), log.clone());
    // Debug level: more than production logs (info), so nothing hides behind the filter.
    let server = tokio::task::spawn_blocking(move || start_server(&u, "debug", Some(&l)))
        .await
        .unwrap();
    let base = server.base.clone();
    let client = reqwest::Client::new();
    let mut secrets = Vec::new();

    let game = create_tycoon(&client, &base, 3).await;
    let (id, tokens): (_, Vec<String>) =
        (&game.id, game.tokens.iter().flatten().cloned().collect());
    secrets.extend(tokens.iter().cloned());
    // A game with an open seat, joined: the join's token too.
    let open: Value = client
        .post(format!("{base}/v1/games"))
        .json(&json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "open": true }] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    secrets.push(open["seats"][0]["token"].as_str().unwrap().to_string());
    let joined: Value = client
        .post(format!(
            "{base}/v1/games/{}/seats",
            open["game_id"].as_str().unwrap()
        ))
        .json(&json!({ "name": "Late" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    secrets.push(joined["token"].as_str().unwrap().to_string());

    // Every kind of request a token travels with: reads, actions, refusals, wrong game, wrong
    // token, a malformed body, an idempotent replay.
    let other = secrets[2].clone();
    let made_up = "f".repeat(64);
    secrets.push(made_up.clone());
    for token in tokens.iter().chain([&other, &made_up]) {
        for path in [
            format!("/v1/games/{id}"),
            format!("/v1/games/{id}/legal-actions"),
            format!("/v1/games/{id}/events"),
            format!("/v1/games/{id}/states/1"),
        ] {
            client
                .get(format!("{base}{path}"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap();
        }
        client
            .post(format!("{base}/v1/games/{id}/actions"))
            .bearer_auth(token)
            .json(&json!({ "action": { "type": "end_turn" } }))
            .send()
            .await
            .unwrap();
        client
            .post(format!("{base}/v1/games/{id}/actions"))
            .bearer_auth(token)
            .header("content-type", "application/json")
            .body("{not json")
            .send()
            .await
            .unwrap();
    }
    for _ in 0..3 {
        let doc = common::document(&client, &base, id).await;
        let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
        let legal = common::legal_actions(&client, &base, id, &tokens[seat]).await;
        for _ in 0..2 {
            let res = client
                .post(format!("{base}/v1/games/{id}/actions"))
                .bearer_auth(&tokens[seat])
                .header("idempotency-key", format!("k{}", legal["version"]))
                .json(
                    &json!({ "action": legal["actions"][0], "expected_version": legal["version"] }),
                )
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200);
        }
    }
    drop(server);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("action applied"),
        "the log was captured: {}",
        &text[..text.len().min(2000)]
    );
    assert!(
        !text.contains('\x1b'),
        "a log file gets no colour codes: {}",
        &text[..text.len().min(2000)]
    );
    for secret in &secrets {
        assert!(
            !text.contains(secret.as_str()),
            "a seat token is in the log:\n{}",
            text.lines()
                .filter(|l| l.contains(secret.as_str()))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// `LOG_FORMAT=json` (like `--log-format json`): every line of the log is one JSON object with
/// a level and a message, and none carries colour codes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_format_json_writes_one_json_object_per_line() {
    let db = test_db().await;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.log");
    let (u, l) = (db.url().to_string(), log.clone());
    let server = tokio::task::spawn_blocking(move || {
        start_server_with(&u, "info", Some(&l), &[("LOG_FORMAT", "json")])
    })
    .await
    .unwrap();
    let client = reqwest::Client::new();
    create_tycoon(&client, &server.base, 5).await;
    drop(server);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    assert!(!lines.is_empty(), "the log was captured");
    for line in &lines {
        let entry: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        assert!(entry["level"].is_string(), "{line}");
        assert!(entry["fields"]["message"].is_string(), "{line}");
    }
    assert!(!text.contains('\x1b'), "{text}");
}

/// How many streams the burst opens: the ~1,000 of issue 23.
const BURST: usize = 1000;

/// What the server process may grow by under the burst, whatever the number of streams:
/// threads beyond those it had before (at most one blocking thread per pooled connection
/// works at a time; the blocking pool may start a few more as they hand over, and keeps them
/// a while), and resident memory (a waiting request and an open stream are a few kilobytes
/// each). Issue 23 saw a server grow from 19 to 681 threads and to 784 MB; measured since,
/// in a debug build on a loaded 2-core machine: from 13–15 to at most 20–25 threads, from
/// 94–100 MB to a peak of 106–110 MB.
const MORE_THREADS: i64 = 32;
const MORE_RSS_KB: i64 = 128 * 1024;

/// A field of `/proc/<pid>/status` (`Threads`, `VmRSS`, `VmHWM`), as its number (kB for memory).
fn proc_status(pid: u32, field: &str) -> i64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("{field} missing in /proc/{pid}/status"))
}

/// How many TCP connections to local port `port` are established (the server's ends, in the
/// kernel's table: accepted or waiting to be).
fn connections_to(port: u16) -> usize {
    let local = format!(":{port:04X}");
    std::fs::read_to_string("/proc/net/tcp")
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| {
            let mut fields = l.split_whitespace().skip(1);
            let (from, state) = (fields.next(), fields.nth(1));
            from.is_some_and(|f| f.ends_with(&local)) && state == Some("01")
        })
        .count()
}

/// Raises this process's soft limit of open files to what `sockets` sockets need (the
/// server, its child, inherits it), as far as the hard limit allows; how many it allows.
fn room_for_sockets(sockets: usize) -> usize {
    use rustix::process::{getrlimit, setrlimit, Resource};
    const SPARE: u64 = 200; // database connections, log, the test's own files
    let mut limit = getrlimit(Resource::Nofile);
    let want = sockets as u64 + SPARE;
    if limit.current.is_some_and(|soft| soft < want) {
        limit.current = Some(limit.maximum.map_or(want, |hard| hard.min(want)));
        setrlimit(Resource::Nofile, limit).expect("raise the soft limit of open files");
    }
    let soft = limit.current.unwrap_or(u64::MAX);
    soft.saturating_sub(SPARE).min(sockets as u64) as usize
}

/// A burst of ~1,000 stream opens while the database is held up (issue 23): every stream
/// opens once the database is free again, none is answered 503, and the server process grows
/// neither threads nor memory per stream. The server runs as a process of its own, so that
/// `/proc/<pid>/status` counts its threads and memory alone. Its pool has two connections
/// and all its database work runs on the blocking pool (the path that used to take a thread
/// per request); the games table is locked until every request has reached the server, and
/// for longer than the pool's checkout timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_a_thousand_stream_opens_waits_in_bounded_threads_and_memory() {
    let streams = room_for_sockets(BURST);
    assert!(
        streams >= 500,
        "the hard limit of open files leaves room for {streams} streams only"
    );
    let db = test_db().await;
    let env = [
        ("POOL_SIZE", "2"),
        ("DB_ON_BLOCKING_POOL", "true"),
        ("NO_RATE_LIMITS", "true"),
    ];
    let server = common::spawn_server(db.url(), &env).await;
    let pid = server.child.id();
    let port: u16 = server.base.rsplit(':').next().unwrap().parse().unwrap();
    let (game, path) = {
        // Warmed up (a stream opened and closed once) by a client of its own, whose
        // connections close with it.
        let client = reqwest::Client::new();
        let game = create_tycoon(&client, &server.base, 5).await;
        let path = format!("{}/v1/games/{}/stream", server.base, game.id);
        drop(client.get(&path).send().await.unwrap());
        (game, path)
    };
    common::wait_for("the warm-up's connections to close", || async {
        (connections_to(port) == 0).then_some(())
    })
    .await;
    let (threads_before, rss_before) = (proc_status(pid, "Threads"), proc_status(pid, "VmRSS"));
    let client = reqwest::Client::new();

    // Hold every read of the games table until released.
    let (locked_tx, locked_rx) = tokio::sync::oneshot::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let url = db.url().to_string();
    let holder = tokio::task::spawn_blocking(move || {
        use diesel::{Connection, RunQueryDsl};
        let mut conn = diesel::PgConnection::establish(&url).unwrap();
        conn.transaction::<_, diesel::result::Error, _>(|conn| {
            diesel::sql_query("LOCK TABLE games IN ACCESS EXCLUSIVE MODE").execute(conn)?;
            locked_tx.send(()).unwrap();
            release_rx.recv().unwrap();
            Ok(())
        })
        .unwrap();
    });
    locked_rx.await.unwrap();
    let locked = tokio::time::Instant::now();

    // The server's thread count, sampled until the burst is over.
    let sampling = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let sampling = sampling.clone();
        tokio::spawn(async move {
            let mut most = 0;
            while sampling.load(Ordering::SeqCst) {
                most = most.max(proc_status(pid, "Threads"));
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            most
        })
    };
    let opens: Vec<_> = (0..streams)
        .map(|i| {
            let (client, path) = (client.clone(), path.clone());
            // Spectators and both seats.
            let token = (i % 3 != 0).then(|| game.token(i % 2).to_string());
            tokio::spawn(async move {
                let mut req = client.get(&path);
                if let Some(t) = token {
                    req = req.bearer_auth(t);
                }
                req.send().await.unwrap()
            })
        })
        .collect();
    common::wait_for("every stream's connection to reach the server", || async {
        (connections_to(port) >= streams).then_some(())
    })
    .await;
    tokio::time::sleep_until(locked + db::CHECKOUT_TIMEOUT + std::time::Duration::from_secs(1))
        .await;
    let threads_waiting = proc_status(pid, "Threads");
    release_tx.send(()).unwrap();
    holder.await.unwrap();

    let mut open = Vec::new();
    for o in opens {
        open.push(o.await.unwrap());
    }
    let statuses: BTreeMap<u16, usize> = open.iter().fold(BTreeMap::new(), |mut m, r| {
        *m.entry(r.status().as_u16()).or_default() += 1;
        m
    });
    assert_eq!(statuses, BTreeMap::from([(200, streams)]));
    // (The warm-up's stream may still count until the server next writes to it.)
    let open_now = common::gauge(&client, &server.base, "event_streams_open").await;
    assert!(
        open_now >= streams as i64,
        "{open_now} streams open at once, not all {streams}"
    );
    sampling.store(false, Ordering::SeqCst);
    let threads_most = sampler.await.unwrap();
    let (rss_open, rss_peak) = (proc_status(pid, "VmRSS"), proc_status(pid, "VmHWM"));
    eprintln!(
        "stream burst: {streams} streams; server threads {threads_before} before, \
         {threads_waiting} with every request waiting, at most {threads_most}; RSS {} MB \
         before, {} MB with every stream open, peak {} MB",
        rss_before / 1024,
        rss_open / 1024,
        rss_peak / 1024
    );
    assert!(
        threads_most <= threads_before + MORE_THREADS,
        "threads grew from {threads_before} to {threads_most}"
    );
    assert!(
        rss_peak <= rss_before + MORE_RSS_KB,
        "resident memory grew from {rss_before} kB to {rss_peak} kB"
    );
    drop(open);
}
