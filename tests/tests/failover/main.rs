//! Beyond one database machine (issue 26), proven on this machine with the real parts: etcd
//! and PostgreSQL members under Patroni on the loopback (`scripts/patroni-cluster`), two
//! service processes on the writer's multi-host URL reading from the replicas.
//!
//! - Under load from 8 clients playing all four games (people, and people against the
//!   server's bots), the primary's postmaster is killed with SIGKILL: Patroni promotes the
//!   synchronous standby, the service writes again without a restart, every action answered
//!   2xx is in the new primary's log exactly once, no game's versions have gaps, streams and
//!   long polls resume and never go back, bots move again, and deadlines fire again, each
//!   once (games that their clocks end). The test prints the time from the kill to the first
//!   2xx write and the count of 503s (figures, never asserted).
//! - With a replica whose replay is paused, a client that acted reads its own version (from
//!   the primary after the bounded wait), spectators that name what they saw never go back,
//!   and a spectator that names nothing reads the replica's older version.
//!
//! Needs Debian's `patroni` and `etcd-server` (`scripts/install-test-tools` installs them).

mod cluster;
mod load;

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use api::{Application, Settings};
use diesel::prelude::*;
use reqwest::StatusCode;
use serde_json::Value;
use tokio::sync::watch;
use uuid::Uuid;

use cluster::Cluster;
use load::{Followed, Shared, CLIENTS};
use testkit::client::{counter, create_tycoon, events, get, move_active_seat};
use testkit::gauge;

/// How long the test waits for something the system does by itself (a promotion, the load
/// getting through) before it calls it a hang: generous, for a loaded 2-core machine.
const PATIENCE: Duration = Duration::from_secs(120);

async fn wait_for<T, F, Fut>(what: &str, probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    testkit::wait_for_within(PATIENCE, what, probe).await
}

/// Starts a service process (in this process, on a port of its own) on `writer`, reading
/// from `reader`.
async fn start_service(writer: &str, reader: &str, change: impl FnOnce(&mut Settings)) -> String {
    let mut settings = Settings::for_tests(writer);
    settings.read_database_url = Some(reader.to_string());
    settings.pool_size = 6;
    change(&mut settings);
    let app = Application::build(settings)
        .await
        .expect("start the service on the cluster");
    let base = format!("http://{}", app.address());
    tokio::spawn(app.run());
    base
}

fn assert_no_failures(shared: &Shared) {
    let failures = shared.failures.lock().unwrap();
    assert!(
        failures.is_empty(),
        "{} failures, the first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_the_primary_under_load_loses_no_acknowledged_action_and_play_resumes() {
    let started = Instant::now();
    let cluster = Cluster::start(3).await;
    let cluster_ready = started.elapsed();
    let mut bases = Vec::new();
    for _ in 0..2 {
        bases.push(start_service(&cluster.writer_url, &cluster.reader_url, |_| {}).await);
    }
    let shared = Arc::new(Shared::new(bases.clone()));

    // The load: a player, a stream follower and a long-polling spectator per client, the
    // followers on the other service process than their player.
    let mut tasks = Vec::new();
    let mut streams = Vec::new();
    let mut polls = Vec::new();
    for i in 0..CLIENTS {
        let (tx, rx) = watch::channel(None);
        tasks.push(tokio::spawn(load::play(shared.clone(), i, tx)));
        let other = bases[(i + 1) % bases.len()].clone();
        let seen = Arc::new(Mutex::new(Followed::default()));
        streams.push(seen.clone());
        tasks.push(tokio::spawn(load::follow_stream(
            shared.clone(),
            other.clone(),
            rx.clone(),
            seen,
        )));
        let seen = Arc::new(Mutex::new(Followed::default()));
        polls.push(seen.clone());
        tasks.push(tokio::spawn(load::follow_polls(
            shared.clone(),
            other,
            rx,
            seen,
        )));
    }
    tasks.push(tokio::spawn(load::leave_to_the_clock(
        shared.clone(),
        bases[1].clone(),
    )));
    wait_for("200 acknowledged actions before the kill", || async {
        assert_no_failures(&shared);
        (shared.acked.lock().unwrap().len() >= 200).then_some(())
    })
    .await;

    // SIGKILL the primary's postmaster (its backends die with it; Patroni stays up and, with
    // primary_start_timeout 0, hands the leader lock over instead of restarting it).
    let old_leader = cluster.member_with_role("leader").await.expect("a leader");
    let pid = old_leader.postmaster_pid();
    let acked_before = shared.acked.lock().unwrap().len();
    shared
        .killed
        .set((Instant::now(), std::time::SystemTime::now()))
        .unwrap();
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success(), "kill -9 {pid}");
    let kill = shared.killed.get().unwrap().0;

    // Play resumes: every client acts again, bots move again, followers hear of it, clocks
    // run out.
    wait_for(
        "every client to act 3 times, every bot to move, every follower to move on, a game \
         created after the kill to end by its clock",
        || async {
            assert_no_failures(&shared);
            let acked = shared.acked.lock().unwrap();
            let clients_acted = (0..CLIENTS).all(|i| {
                acked
                    .iter()
                    .filter(|a| a.client == i && a.sent > kill)
                    .count()
                    >= 3
            });
            let bots = (load::GAMES.len()..CLIENTS)
                .all(|i| shared.bot_moves_after_kill[i].load(Ordering::SeqCst) > 0);
            let followers = streams
                .iter()
                .chain(&polls)
                .all(|f| f.lock().unwrap().moved_after(&shared));
            let clocks = shared.clock_endings_after_kill.load(Ordering::SeqCst) > 0;
            (clients_acted && bots && followers && clocks).then_some(())
        },
    )
    .await;
    let new_leader = wait_for("Patroni to name a new leader", || async {
        cluster
            .member_with_role("leader")
            .await
            .filter(|m| m.name != old_leader.name)
    })
    .await;
    shared.stop.store(true, Ordering::SeqCst);
    for t in tasks {
        t.await.unwrap();
    }
    assert_no_failures(&shared);

    // The figures.
    let acked = shared.acked.lock().unwrap().clone();
    let first_write = acked
        .iter()
        .filter(|a| a.sent > kill)
        .map(|a| a.answered - kill)
        .min()
        .unwrap();
    // The writes answered 2xx after the kill, in order: the longest pause between two (or
    // from the kill to the first) is the failover as clients saw it. A commit already under
    // way on the old primary may still be answered in the kill's first milliseconds (its
    // backend lives on until it notices the postmaster is gone; the synchronous standby has
    // the commit), so the first 2xx alone can come before the pause.
    let mut answers: Vec<Duration> = acked
        .iter()
        .filter(|a| a.answered > kill)
        .map(|a| a.answered - kill)
        .collect();
    answers.sort();
    let (paused, resumed) = std::iter::once(Duration::ZERO)
        .chain(answers.iter().copied())
        .zip(answers.iter().copied())
        .max_by_key(|(before, after)| *after - *before)
        .unwrap();
    eprintln!(
        "failover: cluster ready in {:.1} s; {} actions acknowledged before the kill, {} after; \
         kill -9 to the first 2xx write: {} ms; no 2xx write from +{} to +{} ms; {} answers \
         503 to {} requests, which all succeeded when sent again; other answers: {:?}; {} -> {}",
        cluster_ready.as_secs_f64(),
        acked_before,
        acked.len() - acked_before,
        first_write.as_millis(),
        paused.as_millis(),
        resumed.as_millis(),
        shared.unavailable.load(Ordering::SeqCst),
        shared.delayed_requests.load(Ordering::SeqCst),
        shared.other.lock().unwrap(),
        old_leader.name,
        new_leader.name,
    );

    // The new primary's log: every game gapless and consistent, every acknowledged action in
    // it exactly once, and bot moves after the kill in every client's bot games.
    let games = shared.games.lock().unwrap().clone();
    let writer = cluster.writer_url.clone();
    let killed_at = shared.killed.get().unwrap().1;
    let logs = tokio::task::spawn_blocking(move || {
        let mut conn = PgConnection::establish(&writer).expect("connect to the new primary");
        games
            .iter()
            .map(|&(id, with_bots)| {
                let game = db::store::get_game(&mut conn, id).unwrap();
                let events = db::store::all_events(&mut conn, id).unwrap();
                (id, (game, events, with_bots))
            })
            .collect::<BTreeMap<_, _>>()
    })
    .await
    .unwrap();
    for (id, (game, events, _)) in &logs {
        let seqs: Vec<i64> = events.iter().map(|e| e.seq).collect();
        let expected: Vec<i64> = (1..=game.version).collect();
        assert_eq!(
            seqs, expected,
            "game {id}: seq numbers 1..=version, no gaps"
        );
        let kind = engine::registry::find(&game.game_type).unwrap();
        // The game's own events; timeouts and resignations are the service's (docs/clocks.md).
        let values: Vec<Value> = events
            .iter()
            .map(|e| e.event.clone())
            .filter(|e| !api::lifecycle::is_lifecycle(e))
            .collect();
        let replayed = kind.replay(&values).unwrap().to_json();
        assert_eq!(
            Some(replayed),
            game.snapshot.as_ref().map(|s| s.to_value().unwrap()),
            "game {id}: the snapshot is the fold of its events"
        );
    }
    let mut by_key = BTreeMap::new();
    for a in &acked {
        // An idempotent retry answered with the stored response is the same action.
        by_key.entry(a.key.clone()).or_insert_with(|| a.clone());
    }
    let mut claimed: BTreeMap<Uuid, Vec<(i64, i64)>> = BTreeMap::new();
    for a in by_key.values() {
        let (_, events, _) = &logs[&a.game];
        let first = events
            .iter()
            .find(|e| e.seq == a.expected + 1)
            .unwrap_or_else(|| panic!("acknowledged action lost: {a:?}"));
        assert_eq!(first.seat, Some(a.seat), "{a:?}");
        assert_eq!(first.action.as_ref(), Some(&a.action), "{a:?}");
        assert!(events.iter().any(|e| e.seq == a.version), "{a:?}");
        claimed
            .entry(a.game)
            .or_default()
            .push((a.expected, a.version));
    }
    for (id, mut ranges) in claimed {
        ranges.sort();
        for pair in ranges.windows(2) {
            assert!(
                pair[0].1 <= pair[1].0,
                "game {id}: two acknowledged actions claim the same events: {pair:?}"
            );
        }
    }
    let killed_ms = killed_at
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let bot_games_moved = logs.values().any(|(_, events, with_bots)| {
        *with_bots
            && events.iter().any(|e| {
                e.seat.is_some_and(|s| s >= 1) && e.created_at.timestamp_millis() > killed_ms
            })
    });
    assert!(
        bot_games_moved,
        "the bots' moves after the kill are in the log"
    );
    // Every clock game's deadline fired exactly once (the timeout and its resignation end
    // it in one commit), those of the last games perhaps not yet.
    let clock_games = shared.clock_games.lock().unwrap().clone();
    let mut ended = 0;
    let mut timeouts_after_kill = Vec::new();
    for id in &clock_games {
        let (game, events, _) = &logs[id];
        let timeouts: Vec<_> = events
            .iter()
            .filter(|e| e.event["type"] == "seat_timed_out")
            .collect();
        let finished = game.status == db::GameStatus::Finished;
        assert_eq!(
            timeouts.len(),
            usize::from(finished),
            "game {id} ({:?}): one timeout ends it, fired once",
            game.status
        );
        ended += timeouts.len();
        timeouts_after_kill.extend(
            timeouts
                .iter()
                .map(|e| e.created_at.timestamp_millis() - killed_ms)
                .filter(|after| *after > 0),
        );
    }
    eprintln!(
        "failover: {ended} of {} games ended by their clocks, {} of them after the kill, the \
         first {} ms after it",
        clock_games.len(),
        timeouts_after_kill.len(),
        timeouts_after_kill.iter().min().copied().unwrap_or(-1),
    );
    assert!(
        !timeouts_after_kill.is_empty(),
        "deadlines fired after the kill"
    );

    // Streams: each follower received exactly the events a spectator's log shows, up to the
    // last version it was told of, in order and once.
    let client = reqwest::Client::new();
    for seen in &streams {
        let received_by_game: Vec<(Uuid, i64, Vec<i64>)> = {
            let seen = seen.lock().unwrap();
            seen.versions
                .iter()
                .map(|(id, versions)| {
                    let last = versions.last().unwrap().0;
                    (*id, last, seen.seqs.get(id).cloned().unwrap_or_default())
                })
                .collect()
        };
        for (id, last, received) in received_by_game {
            // Every page of the log: a long game holds more than one page's 1,000 events.
            let expected: Vec<i64> = events(&client, &bases[0], &id.to_string())
                .await
                .iter()
                .map(|e| e["seq"].as_i64().unwrap())
                .filter(|seq| *seq <= last)
                .collect();
            assert_eq!(received, expected, "game {id}: the stream's events");
        }
    }
    drop(cluster);
}

/// The count of `db_replica_reads_total` with `outcome` on `base`.
async fn replica_reads(client: &reqwest::Client, base: &str, outcome: &str) -> u64 {
    counter(client, base, "db_replica_reads_total", ("outcome", outcome)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lagging_replica_never_answers_older_than_the_version_a_request_names() {
    let cluster = Cluster::start(2).await;
    let replica = wait_for("a synchronous standby", || async {
        cluster.member_with_role("sync_standby").await
    })
    .await;
    let base = start_service(&cluster.writer_url, &replica.url(), |s| {
        s.read_max_wait_ms = 300;
    })
    .await;
    let client = reqwest::Client::new();
    let game = create_tycoon(&client, &base, 7).await;
    let game_url = format!("{base}/v1/games/{}", game.id);
    // One move by whoever is active, reading as of `version` (the replica may be behind):
    // `end_turn` when it is legal; the seat and the new version.
    let act = |version: i64| {
        let (client, base, game) = (client.clone(), base.clone(), game.clone());
        async move {
            let end_turn = |legal: &[Value]| {
                legal
                    .iter()
                    .find(|a| a["type"] == "end_turn")
                    .unwrap_or(&legal[0])
                    .clone()
            };
            let moved = move_active_seat(&client, &base, &game, Some(version), end_turn)
                .await
                .expect("a move");
            (moved.seat, moved.version())
        }
    };
    let (_, mut version) = act(game.version).await;
    // The replica catches up (a spectator naming nothing reads it).
    wait_for("the replica to replay the first move", || async {
        let (_, doc) = get(&client, &game_url, None, &[]).await;
        (doc["version"].as_i64() == Some(version)).then_some(())
    })
    .await;

    cluster.enter_maintenance().await;
    replica.execute("SELECT pg_wal_replay_pause()");
    let stale = version;
    let (_, between) = act(version).await;
    let (seat, acted) = act(between).await;
    version = acted;
    assert!(version > stale);
    let token = game.token(seat);

    // A spectator naming nothing reads the replica, which has not replayed the move.
    let (_, doc) = get(&client, &game_url, None, &[]).await;
    assert_eq!(
        doc["version"], stale,
        "the paused replica answers a read naming no version (the move made {version})"
    );

    // The client that acted reads its own version, however it names it.
    let (status, doc) = get(
        &client,
        &format!("{game_url}?after_version={version}"),
        Some(token),
        &[],
    )
    .await;
    assert_eq!(
        (status, doc["version"].as_i64()),
        (StatusCode::OK, Some(version))
    );
    let etag = format!("\"v{version}-seat{seat}\"");
    let (status, _) = get(&client, &game_url, Some(token), &[("if-none-match", etag)]).await;
    assert_eq!(
        status,
        StatusCode::NOT_MODIFIED,
        "its ETag is current, not the replica's"
    );
    let (_, legal) = get(
        &client,
        &format!("{game_url}/legal-actions?after_version={version}"),
        Some(token),
        &[],
    )
    .await;
    assert_eq!(legal["version"], version);
    // The events after the previous move, which the paused replica has not replayed either.
    let (_, page) = get(
        &client,
        &format!("{game_url}/events?after={between}"),
        Some(token),
        &[],
    )
    .await;
    let seqs: Vec<i64> = page["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs.last(), Some(&version), "the events of its own move");
    assert!(seqs.iter().all(|s| *s > between), "{seqs:?}");
    let (status, _) = get(
        &client,
        &format!("{game_url}/states/{version}"),
        Some(token),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "the state as of its own move");
    let mut stream = client
        .get(format!("{game_url}/stream"))
        .bearer_auth(token)
        .header("last-event-id", between.to_string())
        .send()
        .await
        .unwrap();
    let mut text = String::new();
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !text.contains(&format!("event: version\nid: {version}\n")) {
        let chunk = tokio::time::timeout_at(deadline, stream.chunk())
            .await
            .expect("the stream sends the client's own version")
            .unwrap()
            .expect("the stream stays open");
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    drop(stream);

    // A spectator long-polling with the version it saw wakes for the next move with that
    // move's version (from the primary, the replica being paused), not the old one at its
    // deadline; and a spectator naming a version never gets an older one.
    let poll = {
        let (client, url) = (
            client.clone(),
            format!("{game_url}?wait=20&after_version={version}"),
        );
        tokio::spawn(async move { get(&client, &url, None, &[]).await })
    };
    wait_for("the long poll to wait", || async {
        (gauge(&client, &base, "long_polls_waiting").await >= 1).then_some(())
    })
    .await;
    let (_, next) = act(version).await;
    let (status, doc) = poll.await.unwrap();
    assert_eq!(
        (status, doc["version"].as_i64()),
        (StatusCode::OK, Some(next))
    );
    let mut seen = next;
    for _ in 0..3 {
        let (_, doc) = get(
            &client,
            &format!("{game_url}?after_version={seen}"),
            None,
            &[],
        )
        .await;
        let got = doc["version"].as_i64().unwrap();
        assert!(got >= seen, "a spectator went back from {seen} to {got}");
        seen = got;
    }

    // The replica's lag and the reads it could not serve are visible.
    wait_for("the lag to show in db_replica_lag_bytes", || async {
        (gauge(&client, &base, "db_replica_lag_bytes").await > 0).then_some(())
    })
    .await;
    assert!(replica_reads(&client, &base, "primary_lagging").await >= 1);

    // Replay resumes: the replica serves the latest version again, and its lag is gone.
    replica.execute("SELECT pg_wal_replay_resume()");
    wait_for("the replica to catch up", || async {
        let (_, doc) = get(&client, &game_url, None, &[]).await;
        (doc["version"].as_i64() == Some(next)).then_some(())
    })
    .await;
    // A read that names no version goes to the replica again (one that names a version may be
    // answered from the process's copy of a followed game, without any read).
    let served = replica_reads(&client, &base, "replica").await;
    let (_, doc) = get(&client, &game_url, None, &[]).await;
    assert_eq!(doc["version"], next);
    assert!(replica_reads(&client, &base, "replica").await > served);
    drop(cluster);
}
