//! Bots across server processes on one database (issue 14): a bot turn is moved by exactly
//! one process, and a process killed while its bot thinks loses the game nothing.

use std::collections::BTreeSet;

use serde_json::{json, Value};

mod common;
use common::{start_server_with, wait_for};

/// Creates a game whose every seat is a bot on the server at `base`; its id.
async fn create_bot_game(client: &reqwest::Client, base: &str, seats: Value) -> String {
    let res = client
        .post(format!("{base}/v1/games"))
        .json(&json!({ "type": "tycoon", "seats": seats }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::CREATED);
    let body: Value = res.json().await.unwrap();
    body["game_id"].as_str().unwrap().to_string()
}

async fn document(client: &reqwest::Client, base: &str, id: &str) -> Value {
    client
        .get(format!("{base}/v1/games/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The whole event log of a finished game.
async fn events(client: &reqwest::Client, base: &str, id: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut after = 0;
    loop {
        let page: Value = client
            .get(format!(
                "{base}/v1/games/{id}/events?after={after}&limit=1000"
            ))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        out.extend(page["events"].as_array().unwrap().iter().cloned());
        match page["next_after"].as_i64() {
            Some(next) => after = next,
            None => return out,
        }
    }
}

/// The sum of `bot_moves_total` with `result` on the server at `base`.
async fn bot_moves(client: &reqwest::Client, base: &str, result: &str) -> u64 {
    let text = client
        .get(format!("{base}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let label = format!("result=\"{result}\"");
    text.lines()
        .filter(|l| l.starts_with("bot_moves_total{") && l.contains(&label))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_never_both_move_the_same_bot_turn() {
    let db = tokio::task::spawn_blocking(db::testing::TestDb::new)
        .await
        .unwrap();
    let url = db.url().to_string();
    let env = [("BOT_THREADS", "2")];
    let (a, b) = tokio::task::spawn_blocking(move || {
        (
            start_server_with(&url, "warn", None, &env),
            start_server_with(&url, "warn", None, &env),
        )
    })
    .await
    .unwrap();
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
    let db = tokio::task::spawn_blocking(db::testing::TestDb::new)
        .await
        .unwrap();
    let url = db.url().to_string();
    // A long think (3 s) and a lease just above it: the kill lands in the think, and the
    // turn is free again soon after.
    let env = [("BOT_MAX_BUDGET_MS", "3000"), ("BOT_LEASE_SECS", "4")];
    let url_a = url.clone();
    let mut a = tokio::task::spawn_blocking(move || start_server_with(&url_a, "warn", None, &env))
        .await
        .unwrap();
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
    assert_eq!(document_from_db(&db, &id), version, "A died before moving");

    let b = tokio::task::spawn_blocking(move || start_server_with(&url, "warn", None, &env))
        .await
        .unwrap();
    wait_for("the game to go on through B", || async {
        let doc = document(&client, &b.base, &id).await;
        (doc["version"].as_i64().unwrap() > version).then_some(())
    })
    .await;
    drop(b);
}

/// The game's version read from the database (no server is up to ask).
fn document_from_db(db: &db::testing::TestDb, id: &str) -> i64 {
    let mut conn = db.conn();
    db::store::get_game(&mut conn, id.parse().unwrap())
        .unwrap()
        .version
}
