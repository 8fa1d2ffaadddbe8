//! A tournament run by two `server` processes on one database, one of them killed with
//! `kill -9` while the rounds go on: every round is paired once, every player sits once per
//! round, every result is recorded once, and the tournament ends with its standings.

use std::collections::BTreeSet;

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

mod common;
use common::{spawn_server, spawn_two_servers, test_db, wait_for};

async fn send(
    client: &Client,
    method: reqwest::Method,
    url: String,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = client.request(method, url);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_a_process_during_a_tournament_leaves_each_step_done_once() {
    let db = test_db().await;
    let env = [("BOT_THREADS", "0"), ("NO_RATE_LIMITS", "true")];
    let (a, b) = spawn_two_servers(db.url(), &env).await;
    let client = Client::new();
    let mut players = Vec::new();
    for i in 0..8 {
        let (status, p) = send(
            &client,
            reqwest::Method::POST,
            format!("{}/v1/players", a.base),
            None,
            Some(json!({"name": format!("Player {i}")})),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        players.push((
            p["player_id"].as_str().unwrap().to_string(),
            p["token"].as_str().unwrap().to_string(),
        ));
    }
    let starts = (chrono::Utc::now() + chrono::Duration::seconds(1)).to_rfc3339();
    let (status, t) = send(
        &client,
        reqwest::Method::POST,
        format!("{}/v1/tournaments", a.base),
        Some(&players[0].1),
        Some(
            json!({"name": "Kill", "type": "tycoon", "clock": {"kind": "per_move", "seconds": 600},
                    "format": "swiss", "rounds": 3, "table_size": 4, "starts_at": starts}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let id = t["tournament_id"].as_str().unwrap().to_string();
    for (_, token) in &players {
        let (status, _) = send(
            &client,
            reqwest::Method::POST,
            format!("{}/v1/tournaments/{id}/players", b.base),
            Some(token),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let mut a = Some(a);
    for round in 1..=3 {
        let rounds = wait_for(&format!("round {round}"), || async {
            let (_, r) = send(
                &client,
                reqwest::Method::GET,
                format!("{}/v1/tournaments/{id}/rounds", b.base),
                None,
                None,
            )
            .await;
            (r["rounds"].as_array().map_or(0, Vec::len) >= round).then_some(r)
        })
        .await;
        let this = &rounds["rounds"][round - 1];
        for table in this["tables"].as_array().unwrap() {
            let game = table["game_id"].as_str().unwrap();
            for seat in table["seats"].as_array().unwrap() {
                let player = seat["player_id"].as_str().unwrap();
                let token = &players.iter().find(|(p, _)| p == player).unwrap().1;
                let url = format!("{}/v1/games/{game}/seats/{}/resign", b.base, seat["seat"]);
                let (status, body) =
                    send(&client, reqwest::Method::POST, url, Some(token), None).await;
                assert!(
                    status == StatusCode::OK || body["code"] == "game_over",
                    "{status} {body}"
                );
            }
        }
        if round == 1 {
            // The round is over: one of the processes is about to score it and pair the
            // next. Kill one of them now; the other takes every step from here.
            let mut killed = a.take().unwrap();
            killed.child.kill().expect("SIGKILL the server");
            let _ = killed.child.wait();
        }
        if round == 2 {
            // A new process joins the survivor, as a restarted one would.
            a = Some(spawn_server(db.url(), &env).await);
        }
    }
    let done = wait_for("the tournament's end", || async {
        let (_, t) = send(
            &client,
            reqwest::Method::GET,
            format!("{}/v1/tournaments/{id}", b.base),
            None,
            None,
        )
        .await;
        (t["status"] == "finished").then_some(t)
    })
    .await;
    for s in done["standings"].as_array().unwrap() {
        assert_eq!(s["games"], 3, "one game per round each: {s}");
    }
    let (_, rounds) = send(
        &client,
        reqwest::Method::GET,
        format!("{}/v1/tournaments/{id}/rounds", b.base),
        None,
        None,
    )
    .await;
    let rounds = rounds["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3, "three rounds paired, each once");
    for round in rounds {
        let mut seated = BTreeSet::new();
        for table in round["tables"].as_array().unwrap() {
            for seat in table["seats"].as_array().unwrap() {
                assert!(seated.insert(seat["player_id"].as_str().unwrap().to_string()));
                assert!(seat["points"].is_i64(), "scored once: {seat}");
            }
        }
        assert_eq!(seated.len(), 8);
    }
    // Each player sat in exactly three games.
    for (_, token) in &players {
        let (_, games) = send(
            &client,
            reqwest::Method::GET,
            format!("{}/v1/players/me/games", b.base),
            Some(token),
            None,
        )
        .await;
        assert_eq!(games["games"].as_array().unwrap().len(), 3);
    }
}
