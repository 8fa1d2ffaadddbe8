//! Deadlines across server processes on one database (issue 21): a clock deadline is fired by
//! exactly one process, and one that passes while no process runs fires once at the next
//! start.

use serde_json::{json, Value};

mod common;
use common::{counter, create_game, document, events, spawn_server, spawn_two_servers};
use common::{test_db, version_in_db, wait_for};

/// Creates a two-seat Tycoon game of people with a per-move clock of `seconds` whose stand-in
/// is the random bot; its id.
async fn create_clocked_game(client: &reqwest::Client, base: &str, seconds: u32) -> String {
    let body = json!({
        "type": "tycoon",
        "seats": [{ "name": "Ann" }, { "name": "Bob" }],
        "clock": { "kind": "per_move", "seconds": seconds, "bot": "random" }
    });
    create_game(client, base, &body).await.id
}

/// The `seat_timed_out` events of a log: `(seat, created_at)`.
fn timeouts(log: &[Value]) -> Vec<(u64, String)> {
    log.iter()
        .filter(|e| e["event"]["type"] == "seat_timed_out")
        .map(|e| {
            (
                e["event"]["seat"].as_u64().unwrap(),
                e["created_at"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The sum of `deadlines_fired_total` with `result` on the server at `base`.
async fn fired(client: &reqwest::Client, base: &str, result: &str) -> u64 {
    counter(client, base, "deadlines_fired_total", ("result", result)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_never_fire_one_deadline_twice() {
    let db = test_db().await;
    let (a, b) = spawn_two_servers(db.url(), &[("DEADLINE_THREADS", "2")]).await;
    let client = reqwest::Client::new();
    let mut ids = Vec::new();
    for i in 0..4 {
        // Alternate the process that creates (and is woken first).
        let base = if i % 2 == 0 { &a.base } else { &b.base };
        ids.push(create_clocked_game(&client, base, 1).await);
    }
    for id in &ids {
        wait_for("the clocked games to finish", || async {
            (document(&client, &a.base, id).await["status"] == "finished").then_some(())
        })
        .await;
    }
    // Each seat timed out once (then its stand-in bot played on, without a clock), each
    // timeout in a commit of its own.
    let mut commits = 0;
    for id in &ids {
        let log = events(&client, &a.base, id).await;
        let seqs: Vec<i64> = log.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
        assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>());
        let mut seats: Vec<u64> = timeouts(&log).iter().map(|(s, _)| *s).collect();
        seats.sort();
        assert_eq!(seats, vec![0, 1], "game {id}");
        commits += timeouts(&log).len() as u64;
    }
    let applied =
        fired(&client, &a.base, "applied").await + fired(&client, &b.base, "applied").await;
    assert_eq!(
        applied, commits,
        "every deadline fired is one timeout commit"
    );
    for result in ["stale", "early"] {
        let n = fired(&client, &a.base, result).await + fired(&client, &b.base, result).await;
        assert_eq!(n, 0, "{result} deadlines: one was fired twice or too soon");
    }
    assert!(
        fired(&client, &a.base, "applied").await > 0
            || fired(&client, &b.base, "applied").await > 0
    );
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_that_passes_while_no_process_runs_fires_once_at_the_next_start() {
    let db = test_db().await;
    let mut a = spawn_server(db.url(), &[]).await;
    let client = reqwest::Client::new();
    let id = create_clocked_game(&client, &a.base, 2).await;
    let version = document(&client, &a.base, &id).await["version"]
        .as_i64()
        .unwrap();
    a.child.kill().expect("SIGKILL the server");
    a.child.wait().unwrap();
    let due = pending_deadline(&db, &id).expect("the clock's deadline is queued");
    assert_eq!(due.0, version, "for the version the clock started at");
    // Nothing runs until the deadline has passed, by the database's clock.
    wait_for("the deadline to pass", || async {
        pending_deadline(&db, &id)
            .filter(|(_, passed)| *passed)
            .map(|_| ())
    })
    .await;
    assert_eq!(version_in_db(&db, &id), version, "no process fired it");

    let b = spawn_server(db.url(), &[]).await;
    let log = wait_for("the timeout to fire at the start", || async {
        let log = events(&client, &b.base, &id).await;
        (!timeouts(&log).is_empty()).then_some(log)
    })
    .await;
    let first = &log[version as usize];
    assert_eq!(
        first["event"],
        json!({ "type": "seat_timed_out", "seat": 0 }),
        "the next event is the timeout"
    );
    // Once, whatever happens next: seat 0 timed out a single time (Bob's clock may run out
    // after it, which is his own timeout).
    wait_for("the game to go on", || async {
        (document(&client, &b.base, &id).await["version"]
            .as_i64()
            .unwrap()
            > version + 2)
            .then_some(())
    })
    .await;
    let log = events(&client, &b.base, &id).await;
    let seat0 = timeouts(&log).iter().filter(|(s, _)| *s == 0).count();
    assert_eq!(seat0, 1, "{:?}", timeouts(&log));
    drop(b);
}

/// The game's queued deadline: its version, and whether it is due by the database's clock.
fn pending_deadline(db: &db::testing::TestDb, id: &str) -> Option<(i64, bool)> {
    use diesel::prelude::*;
    use diesel::sql_types::{BigInt, Bool, Uuid as SqlUuid};
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = BigInt)]
        version: i64,
        #[diesel(sql_type = Bool)]
        passed: bool,
    }
    let id: uuid::Uuid = id.parse().unwrap();
    diesel::sql_query(
        "SELECT version, due_at <= clock_timestamp() AS passed FROM game_deadlines
          WHERE game_id = $1",
    )
    .bind::<SqlUuid, _>(id)
    .get_result::<Row>(&mut db.conn())
    .optional()
    .unwrap()
    .map(|r| (r.version, r.passed))
}
