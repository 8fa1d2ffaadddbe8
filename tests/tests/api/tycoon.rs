//! Tycoon through the service: whole games by clients that only use `legal-actions`, checked
//! against the engine's own replay of the log; time travel checked against what was seen during
//! play; the secrecy of the draw piles and the seed; rules versions (a game keeps the rules it
//! was created under).

use std::collections::BTreeSet;

use diesel::prelude::*;
use diesel::sql_types::{Bytea, Uuid as SqlUuid};
use rand_chacha::ChaCha8Rng;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{
    assert_replay_matches_the_store, assert_states_as_seen, spawn_app, stored_snapshot, Game,
    TestApp,
};

// ---- Whole games and time travel ----

async fn play_and_check(players: usize, seed: u64) -> (TestApp, Game) {
    let app = spawn_app().await;
    let game = app.create_game(players, seed).await;
    let seen = app.play_to_end(&game, seed, 5_000).await;

    assert_replay_matches_the_store(&app, &game, "tycoon").await;
    assert_states_as_seen(&app, &game, &seen, 1).await;
    (app, game)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_player_game_played_over_http_ends_as_the_engine_replay_says() {
    let (app, game) = play_and_check(2, 11).await;
    // Once over, the deck order is revealed to everyone.
    let events = app.all_events(&game, None).await;
    assert!(events
        .iter()
        .any(|e| e["event"]["type"] == "deck_shuffled" && e["event"]["order"].is_array()));
    // Every seq has a state, and none past the end.
    let version = app.version(&game).await;
    for seq in [1, version / 2, version] {
        let (status, _) = app
            .get_json(&format!("/v1/games/{}/states/{seq}", game.id), None)
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, body) = app
        .get_json(
            &format!("/v1/games/{}/states/{}", game.id, version + 1),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["code"], "no_such_state");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_player_game_played_over_http_ends_as_the_engine_replay_says() {
    play_and_check(3, 22).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_player_game_played_over_http_ends_as_the_engine_replay_says() {
    play_and_check(4, 33).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_on_a_finished_game_are_refused_and_the_full_log_streams_as_ndjson() {
    let (app, game) = play_and_check(2, 44).await;
    let version = app.version(&game).await;
    let (status, body) = app
        .act(
            &game,
            0,
            &serde_json::json!({ "action": { "type": "end_turn" } }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "game_over");

    let res = app
        .req(
            reqwest::Method::GET,
            &format!("/v1/games/{}/events", game.id),
            None,
        )
        .header("accept", "application/x-ndjson")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/x-ndjson");
    let text = res.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as i64, version);
    assert_eq!(lines.last().unwrap()["seq"], version);
    // The export has an address of its own; each line names the game type.
    let export = app
        .req(
            Method::GET,
            &format!("/v1/games/{}/events.ndjson", game.id),
            None,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(export.headers()["content-type"], "application/x-ndjson");
    assert_eq!(export.text().await.unwrap(), text);
    assert!(lines.iter().all(|l| l["type"] == "tycoon"));

    // Paged reads carry a Link to the next page.
    let res = app
        .req(
            reqwest::Method::GET,
            &format!("/v1/games/{}/events?after=0&limit=5", game.id),
            None,
        )
        .send()
        .await
        .unwrap();
    let link = res.headers()["link"].to_str().unwrap().to_string();
    assert!(
        link.contains("after=5") && link.ends_with("rel=\"next\""),
        "{link}"
    );
}

// ---- Hidden information: the draw piles' order and the seed ----

#[derive(QueryableByName)]
struct Seed {
    #[diesel(sql_type = Bytea)]
    rng_seed: Vec<u8>,
}

fn face_down_tickets(snapshot: &Value) -> BTreeSet<String> {
    snapshot["decks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["draw"].as_array().unwrap().iter())
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

/// Every string anywhere in `v`.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out);
        }),
        _ => {}
    }
}

/// Everything each viewer can read now.
async fn everything_visible(app: &TestApp, game: &Game) -> Vec<(String, Value)> {
    let mut viewers: Vec<Option<&str>> = vec![None];
    viewers.extend(game.tokens.iter().map(|t| Some(t.as_str())));
    let version = app.version(game).await;
    let mut out = Vec::new();
    for (i, token) in viewers.into_iter().enumerate() {
        for path in [
            format!("/v1/games/{}", game.id),
            format!("/v1/games/{}/legal-actions", game.id),
            format!("/v1/games/{}/events?limit=1000", game.id),
            format!("/v1/games/{}/states/{version}", game.id),
            format!("/v1/games/{}/states/1", game.id),
            "/v1/games".to_string(),
        ] {
            let (_, body) = app.get_json(&path, token).await;
            out.push((format!("viewer {i} {path}"), body));
        }
        let stream = app
            .req(Method::GET, &format!("/v1/games/{}/events", game.id), token)
            .header("accept", "application/x-ndjson")
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        out.push((format!("viewer {i} ndjson"), Value::String(stream)));
    }
    // Errors too: a rule violation by a seat that is not active.
    let (_, err) = app
        .act(game, 1, &json!({ "action": { "type": "end_turn" } }))
        .await;
    out.push(("error".into(), err));
    out
}

fn assert_nothing_hidden_leaks(app: &TestApp, game: &Game, seen: &[(String, Value)]) {
    let snapshot = stored_snapshot(app, game);
    let secret = face_down_tickets(&snapshot);
    assert!(!secret.is_empty(), "the test needs face-down cards");
    let mut conn = app.db.conn();
    let id: uuid::Uuid = game.id.parse().unwrap();
    let seed = diesel::sql_query("SELECT rng_seed FROM games WHERE id = $1")
        .bind::<SqlUuid, _>(id)
        .get_result::<Seed>(&mut conn)
        .unwrap()
        .rng_seed;
    let seed_hex: String = seed.iter().map(|b| format!("{b:02x}")).collect();
    for (what, body) in seen {
        let mut all = Vec::new();
        strings(body, &mut all);
        let text = body.to_string();
        for s in &all {
            assert!(!secret.contains(s), "{what} shows face-down ticket {s}");
            assert_ne!(s, "order", "{what} carries a deck order");
        }
        if let Value::String(ndjson) = body {
            for t in &secret {
                assert!(
                    !ndjson.contains(&format!("\"{t}\"")),
                    "{what} shows face-down ticket {t}"
                );
            }
            assert!(!ndjson.contains("\"order\""), "{what} carries a deck order");
        }
        assert!(!text.contains(&seed_hex), "{what} shows the seed");
        assert!(!text.contains("rng_seed"), "{what} names the seed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_viewer_sees_the_deck_order_or_the_seed_before_the_game_ends() {
    let app = spawn_app().await;
    let game = app.create_game(3, 99).await;
    let seen = everything_visible(&app, &game).await;
    assert_nothing_hidden_leaks(&app, &game, &seen);

    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(99);
    for _ in 0..40 {
        assert!(
            app.play_one(&game, &mut rng).await,
            "the game ended too early for the test"
        );
    }
    let seen = everything_visible(&app, &game).await;
    assert_nothing_hidden_leaks(&app, &game, &seen);
}

// ---- Rules versions ----

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_catalogue_shows_rules_version_2_and_its_first_built_default() {
    let app = spawn_app().await;
    let (status, body) = app.get_json("/v1/game-types", None).await;
    assert_eq!(status, StatusCode::OK);
    let tycoon = body["game_types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["type"] == "tycoon")
        .unwrap_or_else(|| panic!("tycoon missing from {body}"))
        .clone();
    assert_eq!(tycoon["rules_version"], 2, "{tycoon}");
    assert_eq!(tycoon["default_config"]["tie_break"], "first_built");
    // A game created now is version 2 and reads a config without tie_break as first_built.
    let game = app.create_game(2, 1).await;
    let doc = app.document(&game, None).await;
    assert_eq!(doc["rules_version"], 2);
    assert_eq!(
        stored_snapshot(&app, &game)["config"]["tie_break"],
        "first_built"
    );
}

/// The version-1 game of the test below: its seed (for chance and for the chooser,
/// `tests::choose`), its players, and the payday whose majority ties the two readings break
/// differently. Found by playing the engine as the server does; the test checks they differ.
const V1_GAME: (u64, usize, u64) = (1125, 4, 1);

/// Creates an open version-1 Tycoon game with config `{}` straight through the store, as the
/// server stored such games before rules version 2.
fn store_version_1_game(app: &TestApp, seed: u64, players: usize) -> uuid::Uuid {
    let id = uuid::Uuid::new_v4();
    db::store::create_game(
        &mut app.db.conn(),
        db::store::NewGame {
            id,
            game_type: "tycoon".into(),
            rules_version: 1,
            config: json!({}),
            rng_seed: db::RngSeed(engine::chance::new_seed(1, Some(seed))),
            seats: vec![db::store::NewSeat::Open; players],
            initial: None,
            bot_game_limit: None,
            clock: None,
            open_ttl: std::time::Duration::from_secs(86_400),
            rated: false,
            chance_version: 1,
            chance_seeded: false,
            entropies: Vec::new(),
            imported_from: None,
        },
    )
    .expect("store a version-1 game");
    id
}

/// Plays seeded random moves (as `play_one` does) until payday `phase` is held; returns its
/// seq and event.
async fn play_to_payday(app: &TestApp, game: &Game, seed: u64, phase: u64) -> (i64, Value) {
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(seed);
    for _ in 0..5_000 {
        let doc = app.document(game, None).await;
        assert_eq!(
            doc["status"], "active",
            "the game ended before payday {phase}"
        );
        let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
        let legal = app.legal(game, seat).await;
        let action = tests::choose(
            &mut rng,
            legal["actions"].as_array().unwrap(),
            legal["templates"].as_array().unwrap(),
        );
        let (status, body) = app
            .act(
                game,
                seat,
                &json!({ "action": action, "expected_version": legal["version"] }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{action} refused: {body}");
        for e in body["events"].as_array().unwrap() {
            if e["event"]["type"] == "payday_held" && e["event"]["phase"] == phase {
                return (e["seq"].as_i64().unwrap(), e["event"].clone());
            }
        }
    }
    panic!("no payday {phase} within 5000 moves");
}

/// The incomes the state before event `seq` pays under each tie-break: (`earliest_on_track`,
/// `first_built`), worked out by the engine from the stored (unredacted) log.
fn incomes_by_reading(app: &TestApp, id: uuid::Uuid, seq: i64) -> (Value, Value) {
    use engine::tycoon::{payday, Event, TieBreak, Tycoon};
    use engine::Game as _;
    let rows = db::store::events_up_to(&mut app.db.conn(), id, seq - 1).unwrap();
    let events: Vec<Event> = rows
        .into_iter()
        .map(|r| serde_json::from_value(r.event).unwrap())
        .collect();
    let mut state = Tycoon::replay(&events);
    state.config.tie_break = TieBreak::EarliestOnTrack;
    let earliest = json!(payday::incomes(&state));
    state.config.tie_break = TieBreak::FirstBuilt;
    (earliest, json!(payday::incomes(&state)))
}

/// Issue 10: games created under rules version 1 keep paying majority ties as before
/// (`earliest_on_track`), whatever the new default, both when an open game starts after the
/// upgrade (its stored config `{}` is read as version 1) and when a stored snapshot written
/// before `tie_break` existed is loaded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_1_game_keeps_paying_majority_ties_by_earliest_on_track() {
    let app = spawn_app().await;
    let (seed, players, payday_phase) = V1_GAME;
    let id = store_version_1_game(&app, seed, players);
    let mut tokens = Vec::new();
    for i in 0..players {
        let (status, body) = crate::helpers::json_of(
            app.req(Method::POST, &format!("/v1/games/{id}/seats"), None)
                .json(&json!({ "name": format!("Player {i}") }))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        tokens.push(body["token"].as_str().unwrap().to_string());
    }
    let game = Game {
        id: id.to_string(),
        tokens,
    };
    let doc = app.document(&game, None).await;
    assert_eq!(
        (doc["status"].as_str(), doc["rules_version"].as_i64()),
        (Some("active"), Some(1))
    );
    // Started after the upgrade, set up as version 1.
    let snapshot = stored_snapshot(&app, &game);
    assert_eq!(snapshot["config"]["tie_break"], "earliest_on_track");
    // A snapshot stored before the option existed has no tie_break: it still reads as version 1.
    diesel::sql_query(
        "UPDATE games SET snapshot = (snapshot::jsonb #- '{config,tie_break}')::json WHERE id = $1",
    )
    .bind::<SqlUuid, _>(id)
    .execute(&mut app.db.conn())
    .unwrap();
    assert!(stored_snapshot(&app, &game)["config"]
        .get("tie_break")
        .is_none());

    let (seq, payday) = play_to_payday(&app, &game, seed, payday_phase).await;
    let (earliest, first_built) = incomes_by_reading(&app, id, seq);
    assert_ne!(
        earliest, first_built,
        "the readings must differ at this payday"
    );
    assert_eq!(payday["incomes"], earliest, "version 1 pays as before");
}
