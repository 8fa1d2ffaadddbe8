//! Players across two `server` processes on one database: a player's stream hears every
//! awaited move of its 50 games whichever process committed it, none lost or repeated across
//! a forced reconnect to the other process; a rated game raced to its end by both processes
//! is rated once; 20 concurrent seekers on both processes make exactly 5 games.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use tokio::sync::Barrier;

mod common;
use common::{start_server_with, wait_for, Server};

async fn two_servers(db: &db::testing::TestDb) -> (Server, Server) {
    let url = db.url().to_string();
    tokio::task::spawn_blocking(move || {
        let env = [("BOT_THREADS", "0"), ("NO_RATE_LIMITS", "true")];
        (
            start_server_with(&url, "warn", None, &env),
            start_server_with(&url, "warn", None, &env),
        )
    })
    .await
    .unwrap()
}

async fn post(
    client: &Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Value) {
    let mut req = client.post(url).json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

async fn get(client: &Client, url: String, token: Option<&str>) -> Value {
    let mut req = client.get(url);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    req.send().await.unwrap().json().await.unwrap()
}

/// Creates a player; its id and token.
async fn player(client: &Client, base: &str, name: &str) -> (String, String) {
    let (status, body) = post(
        client,
        format!("{base}/v1/players"),
        None,
        json!({ "name": name }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    (
        body["player_id"].as_str().unwrap().to_string(),
        body["token"].as_str().unwrap().to_string(),
    )
}

/// Plays the seat of `token` in game `id` through `base` until the game no longer waits for
/// it; the game document after the last action (or as read, if none was due).
async fn play_turn(client: &Client, base: &str, id: &str, token: &str, seed: u64) -> Value {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut doc = get(client, format!("{base}/v1/games/{id}"), Some(token)).await;
    let seat = doc["seat"].clone();
    for _ in 0..200 {
        let waits = doc["active_seats"].as_array().unwrap().contains(&seat);
        if !waits || doc["status"] != "active" {
            return doc;
        }
        let listed = doc["legal_actions"].as_array().unwrap();
        let templates = doc["action_templates"].as_array().unwrap();
        let action = if !listed.is_empty() && (templates.is_empty() || rng.random_bool(0.8)) {
            listed[rng.random_range(0..listed.len())].clone()
        } else {
            let t: engine::ActionTemplate =
                serde_json::from_value(templates[rng.random_range(0..templates.len())].clone())
                    .unwrap();
            t.instantiate(&mut rng)
        };
        let (status, body) = post(
            client,
            format!("{base}/v1/games/{id}/actions"),
            Some(token),
            json!({ "action": action, "expected_version": doc["version"] }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{action}: {body}");
        doc = body["game"].clone();
    }
    panic!("seat {seat} kept the turn for 200 actions");
}

/// A player's stream, message by message.
struct Stream {
    res: reqwest::Response,
    buffer: String,
}

impl Stream {
    async fn open(client: &Client, base: &str, token: &str, last: Option<i64>) -> Stream {
        let mut req = client
            .get(format!("{base}/v1/players/me/stream"))
            .bearer_auth(token);
        if let Some(last) = last {
            req = req.header("last-event-id", last.to_string());
        }
        let res = req.send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        Stream {
            res,
            buffer: String::new(),
        }
    }

    /// The next message: (event, id, data). A guard, not a timing assertion.
    async fn next(&mut self) -> (String, i64, Value) {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let (mut event, mut id, mut data) = (String::new(), -1, Value::Null);
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event: ") {
                        event = v.to_string();
                    } else if let Some(v) = line.strip_prefix("id: ") {
                        id = v.parse().unwrap();
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data = serde_json::from_str(v).unwrap();
                    }
                }
                if !event.is_empty() {
                    return (event, id, data);
                }
                continue;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(60), self.res.chunk())
                .await
                .expect("the stream stays silent")
                .unwrap()
                .expect("the stream ended");
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }
}

/// The turn notices expected for Ann (seat 0) after `doc` was committed by someone else.
fn expect_turn(expected: &mut BTreeSet<(String, i64)>, id: &str, doc: &Value) {
    if doc["status"] == "active" && doc["active_seats"].as_array().unwrap().contains(&json!(0)) {
        expected.insert((id.to_string(), doc["version"].as_i64().unwrap()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_with_50_games_hears_each_awaited_move_once_across_processes_and_a_reconnect() {
    let db = tokio::task::spawn_blocking(db::testing::TestDb::new)
        .await
        .unwrap();
    let (a, b) = two_servers(&db).await;
    let client = Client::new();
    let (_, ann) = player(&client, &a.base, "Ann").await;
    let mut stream = Stream::open(&client, &b.base, &ann, None).await;

    // 50 games created through A with Ann in seat 0 and an anonymous opponent.
    let mut games: Vec<(String, String)> = Vec::new();
    let mut expected = BTreeSet::new();
    for i in 0..50u64 {
        let (status, created) = post(
            &client,
            format!("{}/v1/games", a.base),
            Some(&ann),
            json!({"type": "tycoon", "seats": [{"me": true}, {"name": "Opp"}], "seed": i}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let id = created["game_id"].as_str().unwrap().to_string();
        let doc = get(&client, format!("{}/v1/games/{id}", a.base), None).await;
        expect_turn(&mut expected, &id, &doc);
        games.push((
            id,
            created["seats"][1]["token"].as_str().unwrap().to_string(),
        ));
    }
    // Phase 1, stream on B: Ann moves through A, her opponent through B.
    for (i, (id, opp)) in games.iter().enumerate() {
        play_turn(&client, &a.base, id, &ann, i as u64).await;
        let doc = play_turn(&client, &b.base, id, opp, i as u64).await;
        expect_turn(&mut expected, id, &doc);
    }
    let mut received: Vec<(String, i64, Value)> = Vec::new();
    let mut turns = BTreeMap::new();
    let mut collect = |received: &mut Vec<(String, i64, Value)>, m: (String, i64, Value)| {
        if m.0 == "turn" {
            *turns
                .entry((
                    m.2["game_id"].as_str().unwrap().to_string(),
                    m.2["version"].as_i64().unwrap(),
                ))
                .or_insert(0) += 1;
        }
        received.push(m);
    };
    let phase_one = expected.len();
    while received.iter().filter(|m| m.0 == "turn").count() < phase_one {
        let m = stream.next().await;
        collect(&mut received, m);
    }
    // Forced reconnect: the connection drops; moves go on while nobody listens.
    let last = received.last().unwrap().1;
    drop(stream);
    for (i, (id, opp)) in games.iter().enumerate().take(25) {
        play_turn(&client, &b.base, id, &ann, 100 + i as u64).await;
        let doc = play_turn(&client, &a.base, id, opp, 100 + i as u64).await;
        expect_turn(&mut expected, id, &doc);
    }
    // Resumed on the other process from the last id seen; more moves while it listens.
    let mut stream = Stream::open(&client, &a.base, &ann, Some(last)).await;
    for (i, (id, opp)) in games.iter().enumerate().skip(25) {
        play_turn(&client, &a.base, id, &ann, 200 + i as u64).await;
        let doc = play_turn(&client, &b.base, id, opp, 200 + i as u64).await;
        expect_turn(&mut expected, id, &doc);
    }
    while received.iter().filter(|m| m.0 == "turn").count() < expected.len() {
        let m = stream.next().await;
        collect(&mut received, m);
    }

    let got: BTreeSet<(String, i64)> = turns.keys().cloned().collect();
    assert_eq!(got, expected, "one turn per awaited move, none lost");
    assert!(turns.values().all(|&n| n == 1), "none repeated: {turns:?}");
    let ids: Vec<i64> = received.iter().map(|m| m.1).collect();
    assert_eq!(
        ids,
        (1..=ids.len() as i64).collect::<Vec<_>>(),
        "every notice once, in order"
    );
    let started = received.iter().filter(|m| m.0 == "game_started").count();
    assert_eq!(started, 50);
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_raced_to_its_end_by_two_processes_is_rated_once() {
    let db = tokio::task::spawn_blocking(db::testing::TestDb::new)
        .await
        .unwrap();
    let (a, b) = two_servers(&db).await;
    let client = Client::new();
    let (ann_id, ann) = player(&client, &a.base, "Ann").await;
    let (bob_id, bob) = player(&client, &b.base, "Bob").await;
    let rounds = 6;
    for _ in 0..rounds {
        let (_, created) = post(
            &client,
            format!("{}/v1/games", a.base),
            Some(&ann),
            json!({"type": "tycoon", "rated": true, "seats": [{"me": true}, {"open": true}]}),
        )
        .await;
        let id = created["game_id"].as_str().unwrap().to_string();
        let (status, _) = post(
            &client,
            format!("{}/v1/games/{id}/seats", b.base),
            Some(&bob),
            json!({}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        // Both seats resign at once, each through its own process: either ends the game.
        let barrier = Arc::new(Barrier::new(2));
        let race = |base: String, token: String, seat: u8| {
            let (client, barrier, id) = (client.clone(), barrier.clone(), id.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                post(
                    &client,
                    format!("{base}/v1/games/{id}/seats/{seat}/resign"),
                    Some(&token),
                    json!({}),
                )
                .await
            })
        };
        let one = race(a.base.clone(), ann.clone(), 0);
        let two = race(b.base.clone(), bob.clone(), 1);
        let (one, two) = (one.await.unwrap(), two.await.unwrap());
        let mut statuses = [one.0, two.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CONFLICT],
            "{one:?} {two:?}"
        );
    }
    for (id, base) in [(&ann_id, &a.base), (&bob_id, &b.base)] {
        let profile = get(&client, format!("{base}/v1/players/{id}"), None).await;
        assert_eq!(profile["ratings"][0]["games"], rounds, "{profile}");
        assert_eq!(profile["games_played"], rounds);
        assert_eq!(profile["rating_history"].as_array().unwrap().len(), rounds);
    }
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_concurrent_seekers_on_two_processes_make_exactly_five_four_seat_games() {
    let db = tokio::task::spawn_blocking(db::testing::TestDb::new)
        .await
        .unwrap();
    let (a, b) = two_servers(&db).await;
    let client = Client::new();
    let mut players = Vec::new();
    for i in 0..20 {
        players.push(player(&client, &a.base, &format!("Seeker {i}")).await);
    }
    let barrier = Arc::new(Barrier::new(20));
    let seeks: Vec<_> = players
        .iter()
        .enumerate()
        .map(|(i, (_, token))| {
            let base = if i % 2 == 0 {
                a.base.clone()
            } else {
                b.base.clone()
            };
            let (client, barrier, token) = (client.clone(), barrier.clone(), token.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                let (status, seek) = post(
                    &client,
                    format!("{base}/v1/seeks"),
                    Some(&token),
                    json!({"type": "tycoon", "seats": 4}),
                )
                .await;
                assert_eq!(status, StatusCode::CREATED, "{seek}");
                seek["seek_id"].as_str().unwrap().to_string()
            })
        })
        .collect();
    let mut ids = Vec::new();
    for s in seeks {
        ids.push(s.await.unwrap());
    }
    let mut games: BTreeMap<String, Vec<(String, i64)>> = BTreeMap::new();
    for (seek, (player, _)) in ids.iter().zip(&players) {
        let s = wait_for("every seek to be matched", || async {
            let s = get(&client, format!("{}/v1/seeks/{seek}", b.base), None).await;
            (s["status"] == "matched").then_some(s)
        })
        .await;
        assert_eq!(s["player_id"], player.as_str());
        games
            .entry(s["game_id"].as_str().unwrap().to_string())
            .or_default()
            .push((player.clone(), s["seat"].as_i64().unwrap()));
    }
    assert_eq!(games.len(), 5, "{games:?}");
    for (game, seated) in &games {
        let doc = get(&client, format!("{}/v1/games/{game}", a.base), None).await;
        let players_in_doc: BTreeSet<String> = doc["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["player_id"].as_str().unwrap().to_string())
            .collect();
        let sought: BTreeSet<String> = seated.iter().map(|(p, _)| p.clone()).collect();
        assert_eq!(players_in_doc, sought, "the game seats exactly its seekers");
        assert_eq!(sought.len(), 4);
        for (p, seat) in seated {
            assert_eq!(doc["seats"][*seat as usize]["player_id"], p.as_str());
        }
    }
    let everyone: BTreeSet<&String> = games.values().flatten().map(|(p, _)| p).collect();
    assert_eq!(everyone.len(), 20, "each player in exactly one game");
    drop((a, b));
}
