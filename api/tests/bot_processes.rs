//! Bots across server processes on one database (issue 14): a bot turn is moved by exactly
//! one process, and a process killed while its bot thinks loses the game nothing.

use std::collections::BTreeSet;

use serde_json::{json, Value};

mod common;
use common::{counter, create_game, document, events, spawn_server, spawn_two_servers};
use common::{test_db, version_in_db, wait_for};

/// Creates a Tycoon game whose every seat is a bot on the server at `base`; its id.
async fn create_bot_game(client: &reqwest::Client, base: &str, seats: Value) -> String {
    create_game(client, base, &json!({ "type": "tycoon", "seats": seats }))
        .await
        .id
}

/// The sum of `bot_moves_total` with `result` on the server at `base`.
async fn bot_moves(client: &reqwest::Client, base: &str, result: &str) -> u64 {
    counter(client, base, "bot_moves_total", ("result", result)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_never_both_move_the_same_bot_turn() {
    let db = test_db().await;
    let (a, b) = spawn_two_servers(db.url(), &[("BOT_THREADS", "2")]).await;
    let client = reqwest::Client::new();

    let mut ids = Vec::new();
    for i in 0..4 {
        // Alternate the process that creates, so that both are woken first now and then.
        let base = if i % 2 == 0 { &a.base } else { &b.base };
        let seats = json!([{ "bot": "random" }, { "bot": "random" }, { "bot": "greedy" }]);
        ids.push(create_bot_game(&client, base, seats).await);
    }
    for id in &ids {
        wait_for("the bot games to finish", || async {
            (document(&client, &a.base, id).await["status"] == "finished").then_some(())
        })
        .await;
    }

    // Each version is one batch of events: one action's events share their transaction's
    // timestamp, and the versions run 1, 2, ... without gaps (a double move would either be a
    // second batch for one version, refused by the store, or a stale move counted below).
    let mut batches = 0;
    for id in &ids {
        let log = events(&client, &a.base, id).await;
        let seqs: Vec<i64> = log.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
        assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>());
        let version = document(&client, &a.base, id).await["version"]
            .as_i64()
            .unwrap();
        assert_eq!(version, seqs.len() as i64);
        let acted: BTreeSet<&str> = log
            .iter()
            .filter(|e| !e["seat"].is_null())
            .map(|e| e["created_at"].as_str().unwrap())
            .collect();
        batches += acted.len() as u64;
    }
    let applied =
        bot_moves(&client, &a.base, "applied").await + bot_moves(&client, &b.base, "applied").await;
    assert_eq!(
        applied, batches,
        "every bot move applied is one batch in the log"
    );
    for result in ["stale", "failed"] {
        let n =
            bot_moves(&client, &a.base, result).await + bot_moves(&client, &b.base, result).await;
        assert_eq!(
            n, 0,
            "{result} bot moves: a turn was thought about twice or refused"
        );
    }
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_killed_while_its_bot_thinks_leaves_the_game_to_another() {
    let db = test_db().await;
    // A long think (3 s) and a lease just above it: the kill lands in the think, and the
    // turn is free again soon after.
    let env = [("BOT_MAX_BUDGET_MS", "3000"), ("BOT_LEASE_SECS", "4")];
    let mut a = spawn_server(db.url(), &env).await;
    let client = reqwest::Client::new();
    let seats = json!([{ "bot": "mcts", "budget_ms": 3000 }, { "bot": "mcts", "budget_ms": 3000 }]);
    let id = create_bot_game(&client, &a.base, seats).await;
    let version = document(&client, &a.base, &id).await["version"]
        .as_i64()
        .unwrap();
    wait_for("the bot on A to think", || async {
        (common::gauge(&client, &a.base, "bots_thinking").await == 1).then_some(())
    })
    .await;
    a.child.kill().expect("SIGKILL the server");
    a.child.wait().unwrap();
    assert_eq!(version_in_db(&db, &id), version, "A died before moving");

    let b = spawn_server(db.url(), &env).await;
    wait_for("the game to go on through B", || async {
        let doc = document(&client, &b.base, &id).await;
        (doc["version"].as_i64().unwrap() > version).then_some(())
    })
    .await;
    drop(b);
}
