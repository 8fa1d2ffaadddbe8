//! Acquire (Hotel-König) through the service: whole games by clients that only use
//! `legal-actions`, and the secrecy of the tiles (each hand is seen only by its seat, the draw
//! pile by nobody) in every document, event, state and error.

use std::collections::BTreeSet;

use crate::helpers::{self, spawn_app, stored_snapshot, Game, TestApp};
use rand_chacha::ChaCha8Rng;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

async fn create_acquire(app: &TestApp, players: usize, seed: u64) -> Game {
    create_acquire_with(app, players, seed, json!({})).await
}

async fn create_acquire_with(app: &TestApp, players: usize, seed: u64, config: Value) -> Game {
    let seats: Vec<Value> = (0..players)
        .map(|i| json!({ "name": format!("Player {i}") }))
        .collect();
    let (status, body) = helpers::json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": "acquire", "seats": seats, "seed": seed, "config": config }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    Game {
        id: body["game_id"].as_str().unwrap().to_string(),
        tokens: body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_string())
            .collect(),
    }
}

fn tiles(list: &Value) -> BTreeSet<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

/// Every string anywhere in `v`, keys included.
fn strings(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.insert(k.clone());
            strings(x, out);
        }),
        _ => {}
    }
}

/// Everything `token` can read about the game now, errors included.
async fn visible_to(app: &TestApp, game: &Game, token: Option<&str>) -> BTreeSet<String> {
    let version = app.version(game).await;
    let mut seen = BTreeSet::new();
    for path in [
        format!("/v1/games/{}", game.id),
        format!("/v1/games/{}/legal-actions", game.id),
        format!("/v1/games/{}/events?limit=1000", game.id),
        format!("/v1/games/{}/states/{version}", game.id),
        format!("/v1/games/{}/states/{}", game.id, (version / 2).max(1)),
        "/v1/games".to_string(),
    ] {
        let (_, body) = app.get_json(&path, token).await;
        strings(&body, &mut seen);
    }
    let ndjson = app
        .req(Method::GET, &format!("/v1/games/{}/events", game.id), token)
        .header("accept", "application/x-ndjson")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for line in ndjson.lines() {
        strings(&serde_json::from_str(line).unwrap(), &mut seen);
    }
    if token.is_some() {
        // A refused action: placing a tile the seat does not hold, and a malformed one.
        let res = app
            .req(
                Method::POST,
                &format!("/v1/games/{}/actions", game.id),
                token,
            )
            .json(&json!({ "action": { "type": "place_tile", "tile": "12I" } }))
            .send()
            .await
            .unwrap();
        strings(&helpers::json_of(res).await.1, &mut seen);
    }
    seen
}

/// No viewer sees a tile it may not: other seats' hands and the draw pile.
async fn assert_tiles_stay_secret(app: &TestApp, game: &Game) {
    let snapshot = stored_snapshot(app, game);
    let bag = tiles(&snapshot["bag"]);
    assert!(!bag.is_empty(), "the check needs tiles still in the bag");
    let hands: Vec<BTreeSet<String>> = snapshot["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| tiles(&p["hand"]))
        .collect();
    let mut viewers: Vec<(Option<usize>, Option<&str>)> = vec![(None, None)];
    viewers.extend(
        game.tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (Some(i), Some(t.as_str()))),
    );
    for (seat, token) in viewers {
        let seen = visible_to(app, game, token).await;
        for tile in &bag {
            assert!(
                !seen.contains(tile),
                "viewer {seat:?} sees {tile} from the draw pile"
            );
        }
        for (owner, hand) in hands.iter().enumerate() {
            if Some(owner) == seat {
                continue;
            }
            // A tile legitimately named in the refused request (12I) is echoed only if held.
            for tile in hand {
                assert!(
                    !seen.contains(tile),
                    "viewer {seat:?} sees seat {owner}'s tile {tile}"
                );
            }
        }
        if let Some(me) = seat {
            // The seat sees its own hand.
            let (_, doc) = app.get_json(&format!("/v1/games/{}", game.id), token).await;
            let mut mine = BTreeSet::new();
            strings(&doc["view"], &mut mine);
            assert!(
                hands[me].iter().all(|t| mine.contains(t)),
                "seat {me} must see its own hand"
            );
        }
    }
}

async fn play_and_check(players: usize, seed: u64) {
    let app = spawn_app().await;
    let game = create_acquire(&app, players, seed).await;
    assert_tiles_stay_secret(&app, &game).await;

    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(seed);
    let mut moves = 0;
    while app.play_one(&game, &mut rng).await {
        moves += 1;
        assert!(moves < 5_000, "the game did not end");
        if moves == 25 {
            assert_tiles_stay_secret(&app, &game).await;
        }
    }
    helpers::assert_replay_matches_the_store(&app, &game, "acquire").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_player_acquire_game_over_http_keeps_tiles_secret_and_ends_as_the_engine_says() {
    play_and_check(2, 5).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_six_player_acquire_game_over_http_keeps_tiles_secret_and_ends_as_the_engine_says() {
    play_and_check(6, 6).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acquire_is_in_the_catalogue_with_its_seat_range() {
    let app = spawn_app().await;
    let (status, body) = app.get_json("/v1/game-types", None).await;
    assert_eq!(status, StatusCode::OK);
    let acquire = body["game_types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["type"] == "acquire")
        .unwrap_or_else(|| panic!("acquire missing from {body}"))
        .clone();
    assert_eq!(acquire["min_seats"], 2, "{acquire}");
    assert_eq!(acquire["max_seats"], 6, "{acquire}");
}

/// AQ-INFO-3 (`hidden_holdings`): until the end, no spectator's `states/{seq}` (nor the game
/// document) shows a player's cash or share totals, at any seq, and a seat sees only its own.
/// It is a memory rule, not secrecy: each purchase stays in the event log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_holdings_keeps_every_players_totals_out_of_a_spectators_states() {
    let app = spawn_app().await;
    let game = create_acquire_with(&app, 3, 8, json!({ "hidden_holdings": true })).await;
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(8);
    for _ in 0..60 {
        assert!(app.play_one(&game, &mut rng).await, "the game ended early");
    }
    let log = app.all_events(&game, None).await;
    let bought = log
        .iter()
        .filter(|e| e["event"]["type"] == "share_bought")
        .count();
    assert!(bought > 0, "the check needs purchases: {log:?}");
    assert!(
        log.iter()
            .all(|e| e["event"]["type"] != "final_scoring_started"),
        "the check needs a game in progress"
    );
    let hidden = |what: &str, view: &Value, own: Option<u64>| {
        for p in view["players"].as_array().unwrap() {
            let mine = p["seat"].as_u64() == own;
            for total in ["cash", "shares"] {
                assert_eq!(p[total].is_null(), !mine, "{what}: {total} of {p}");
            }
        }
    };
    let version = app.version(&game).await;
    for seq in 1..=version {
        let (status, state) = app
            .get_json(&format!("/v1/games/{}/states/{seq}", game.id), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{state}");
        hidden(&format!("spectator's state {seq}"), &state["view"], None);
    }
    hidden(
        "spectator's document",
        &app.document(&game, None).await["view"],
        None,
    );
    let (_, state) = app
        .get_json(
            &format!("/v1/games/{}/states/{version}", game.id),
            Some(&game.tokens[0]),
        )
        .await;
    hidden("seat 0's state", &state["view"], Some(0));
}
