//! Game records and chance anyone can check (issue 36): the commitment from creation on, the
//! reveal only once the game is over, `GET …/record`, its verification by the engine and by
//! the Python verifier written from `docs/fairness.md`, and tampered records refused at the
//! right move.

use std::path::PathBuf;

use rand_chacha::ChaCha8Rng;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::helpers::{assert_problem, json_of, spawn_app, Game, TestApp};
use crate::sse::Reader;
use engine::record::{self, Record};

/// The seats of a game of `type_`: as few as it takes, each sending its own entropy.
fn seats_of(type_: &str) -> Vec<Value> {
    let names = if type_ == "tyros" {
        &["Ann", "Bob", "Cy"][..]
    } else {
        &["Ann", "Bob"][..]
    };
    names
        .iter()
        .map(|n| json!({ "name": n, "entropy": entropy_of(n, type_) }))
        .collect()
}

fn entropy_of(name: &str, type_: &str) -> String {
    format!("{}-{type_}-entropy", name.to_lowercase())
}

/// Creates a game of `type_` with [`seats_of`] (or seeded).
async fn create(app: &TestApp, type_: &str, seed: Option<u64>) -> Game {
    let seats = seats_of(type_);
    let mut body = json!({ "type": type_, "seats": seats });
    if let Some(seed) = seed {
        body["seed"] = json!(seed);
    }
    let (status, created) = json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(&body)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    Game {
        id: created["game_id"].as_str().unwrap().to_string(),
        tokens: created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_string())
            .collect(),
    }
}

/// Plays up to `moves` random moves, then the seats resign from seat 0 on until one is left
/// (the server's bot plays on for a seat that resigns while two others remain).
async fn play_then_resign(app: &TestApp, game: &Game, moves: usize) {
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(7);
    for _ in 0..moves {
        if !app.play_one(game, &mut rng).await {
            return;
        }
    }
    for seat in 0..game.tokens.len() - 1 {
        resign(app, &game.id, seat, &game.tokens[seat]).await;
    }
}

/// Seat `seat` of game `id` resigns with `token`.
async fn resign(app: &TestApp, id: &str, seat: usize, token: &str) {
    let res = app
        .req(
            Method::POST,
            &format!("/v1/games/{id}/seats/{seat}/resign"),
            Some(token),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

async fn record_of(app: &TestApp, game: &Game, token: Option<&str>) -> (StatusCode, Value) {
    app.get_json(&format!("/v1/games/{}/record", game.id), token)
        .await
}

/// The server's secret seed of `game`, hex, read from the database.
fn stored_seed(app: &TestApp, game: &Game) -> String {
    use diesel::prelude::*;
    #[derive(QueryableByName)]
    struct Seed {
        #[diesel(sql_type = diesel::sql_types::Bytea)]
        rng_seed: Vec<u8>,
    }
    let id: uuid::Uuid = game.id.parse().unwrap();
    let seed: Seed = diesel::sql_query("SELECT rng_seed FROM games WHERE id = $1")
        .bind::<diesel::sql_types::Uuid, _>(id)
        .get_result(&mut app.db.conn())
        .unwrap();
    hex::encode(seed.rng_seed)
}

/// Runs the Python verifier written from docs/fairness.md on `records`.
fn python_verifier(records: &[Value]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<PathBuf> = records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let path = dir.path().join(format!("record-{i}.json"));
            std::fs::write(&path, serde_json::to_vec(r).unwrap()).unwrap();
            path
        })
        .collect();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fairness/verify_chance.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .args(&paths)
        .output()
        .expect("python3 runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// Every game type: the commitment shows from creation, nothing secret before the end, and
/// the finished game's record verifies in the engine and in the Python verifier.
#[tokio::test]
async fn every_game_types_record_verifies_in_the_engine_and_from_the_documented_derivation() {
    let app = spawn_app().await;
    let mut records = Vec::new();
    for type_ in ["tycoon", "acquire", "monopoly", "tyros"] {
        for seed in [None, Some(11)] {
            let game = create(&app, type_, seed).await;
            let secret = stored_seed(&app, &game);
            let doc = app.document(&game, None).await;
            let commitment = doc["chance"]["commitment"].as_str().unwrap().to_string();
            assert_eq!(
                commitment,
                hex::encode(Sha256::digest(hex::decode(&secret).unwrap())),
                "the commitment is SHA-256 of the server's seed"
            );
            assert_eq!(doc["chance"]["version"], 2);
            assert_eq!(doc["chance"]["seeded"], seed.is_some());
            assert_eq!(doc["chance"]["reveal"], Value::Null);
            // A spectator gets no record of a running game; a seat gets its own.
            let (status, problem) = record_of(&app, &game, None).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{problem}");
            assert_eq!(problem["code"], "record_not_public");
            let (status, own) = record_of(&app, &game, Some(&game.tokens[1])).await;
            assert_eq!(status, StatusCode::OK, "{own}");
            assert_eq!(own["chance"]["reveal"], Value::Null);

            play_then_resign(&app, &game, 30).await;
            let doc = app.document(&game, None).await;
            assert_eq!(doc["status"], "finished", "{doc}");
            assert_eq!(doc["chance"]["commitment"], commitment.as_str());
            let reveal = &doc["chance"]["reveal"];
            assert_eq!(reveal["server_seed"], secret.as_str());
            let entropies: Vec<Value> = seats_of(type_)
                .into_iter()
                .map(|s| {
                    if seed.is_some() {
                        Value::Null
                    } else {
                        s["entropy"].clone()
                    }
                })
                .collect();
            assert_eq!(reveal["entropies"], json!(entropies));

            let (status, recorded) = record_of(&app, &game, None).await;
            assert_eq!(status, StatusCode::OK, "{recorded}");
            assert_eq!(recorded["type"], type_);
            assert_eq!(recorded["table"]["status"], "finished");
            assert!(
                recorded["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|m| m["lifecycle"]
                        .as_array()
                        .is_some_and(|l| l.iter().any(|e| e["type"] == "seat_resigned"))),
                "the resignation is in the record"
            );
            let parsed: Record = serde_json::from_value(recorded.clone()).unwrap();
            let verified = record::verify(&parsed).unwrap_or_else(|e| panic!("{type_}: {e}"));
            assert_eq!(verified.version, doc["version"].as_i64().unwrap());
            assert_eq!(
                verified.state.to_json(),
                crate::helpers::stored_snapshot(&app, &game),
                "{type_}: the record replays to the stored state"
            );
            records.push(recorded);
        }
    }
    let (ok, out) = python_verifier(&records);
    assert!(ok, "{out}");
    assert_eq!(
        out.matches("chance verified").count(),
        records.len(),
        "{out}"
    );
}

/// The Python verifier follows the chance past the setup: a whole Tycoon game reshuffles its
/// decks' discards, and a long Monopoly game rolls for moves and for utilities' rents, each
/// checked against the stream of its move. A changed reshuffle is caught.
#[tokio::test]
async fn the_python_verifier_checks_later_reshuffles_and_every_roll() {
    let app = spawn_app().await;
    let tycoon = create(&app, "tycoon", None).await;
    app.play_to_end(&tycoon, 5, 5_000).await;
    let (_, tycoon) = record_of(&app, &tycoon, None).await;
    let reshuffles = |r: &Value| -> usize {
        r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["events"].as_array().unwrap())
            .filter(|e| e["type"] == "deck_shuffled")
            .count()
    };
    assert!(reshuffles(&tycoon) > 0, "a whole game reshuffles a deck");

    let monopoly = create(&app, "monopoly", None).await;
    play_then_resign(&app, &monopoly, 300).await;
    let (_, monopoly) = record_of(&app, &monopoly, None).await;
    let (ok, out) = python_verifier(&[tycoon.clone(), monopoly]);
    assert!(ok, "{out}");

    let mut changed = tycoon;
    let shuffle = changed["moves"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|m| m["events"].as_array_mut().unwrap())
        .find(|e| e["type"] == "deck_shuffled" && e["order"].as_array().unwrap().len() > 1)
        .expect("a reshuffle of two tickets or more");
    shuffle["order"].as_array_mut().unwrap().swap(0, 1);
    let (ok, out) = python_verifier(&[changed]);
    assert!(!ok, "{out}");
    assert!(out.contains("shuffle mismatch"), "{out}");
}

/// A record with an action changed, an outcome of chance changed, or a reveal that does not
/// match its commitment is refused at the right move with the right code; the Python verifier
/// refuses the tampered reveal and dice too.
#[tokio::test]
async fn a_tampered_record_is_refused_at_the_first_move_that_does_not_hold() {
    let app = spawn_app().await;
    let game = create(&app, "monopoly", None).await;
    play_then_resign(&app, &game, 12).await;
    let (_, good) = record_of(&app, &game, None).await;
    let record: Record = serde_json::from_value(good.clone()).unwrap();
    record::verify(&record).unwrap();

    let roll = record
        .moves
        .iter()
        .position(|m| m.action.as_ref().is_some_and(|a| a["type"] == "roll"))
        .expect("someone rolled");

    // A die changed: the events no longer follow from the revealed chance.
    let mut dice = record.clone();
    let rolled = dice.moves[roll]
        .events
        .iter_mut()
        .find(|e| e["type"] == "dice_rolled")
        .unwrap();
    let first = rolled["dice"][0].as_u64().unwrap();
    rolled["dice"][0] = json!(first % 6 + 1);
    let err = record::verify(&dice).err().unwrap();
    assert_eq!((err.index, err.code), (Some(roll), "events_mismatch"));
    let (ok, out) = python_verifier(&[serde_json::to_value(&dice).unwrap()]);
    assert!(!ok, "{out}");

    // An action changed into one the rules refuse there.
    let mut action = record.clone();
    action.moves[roll].action = Some(json!({ "type": "end_turn" }));
    let err = action_error(&action);
    assert_eq!(err.index, Some(roll));
    assert!(err.rule.is_some() || err.code == "events_mismatch", "{err}");

    // A reveal that does not hash to the commitment.
    let mut reveal = record.clone();
    let r = reveal.chance.reveal.as_mut().unwrap();
    r.server_seed = hex::encode([9u8; 32]);
    let err = record::verify(&reveal).err().unwrap();
    assert_eq!((err.index, err.code), (None, "reveal_mismatch"));
    let (ok, out) = python_verifier(&[serde_json::to_value(&reveal).unwrap()]);
    assert!(!ok && out.contains("commitment"), "{out}");

    // Another seat's entropy: the key no longer derives.
    let mut entropy = record.clone();
    entropy.chance.reveal.as_mut().unwrap().entropies[0] = Some("mine".into());
    let err = record::verify(&entropy).err().unwrap();
    assert_eq!((err.index, err.code), (None, "reveal_mismatch"));
}

fn action_error(record: &Record) -> record::RecordError {
    record::verify(record)
        .err()
        .expect("a changed action is refused")
}

/// Nothing secret before the end: neither the server's seed nor a seat's entropy in the
/// document, the list, the events, the legal actions or a seat's record.
#[tokio::test]
async fn no_seed_or_entropy_shows_anywhere_before_the_game_is_over() {
    let app = spawn_app().await;
    let game = create(&app, "tyros", None).await;
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(3);
    for _ in 0..5 {
        app.play_one(&game, &mut rng).await;
    }
    let secret = stored_seed(&app, &game);
    let id = &game.id;
    let mut seen = Vec::new();
    for token in [
        None,
        Some(game.tokens[0].as_str()),
        Some(game.tokens[1].as_str()),
    ] {
        for path in [
            format!("/v1/games/{id}"),
            format!("/v1/games/{id}/events"),
            format!("/v1/games/{id}/legal-actions"),
            format!("/v1/games/{id}/record"),
            "/v1/games".to_string(),
        ] {
            let (_, body) = app.get_json(&path, token).await;
            seen.push(body.to_string());
        }
    }
    for text in &seen {
        assert!(!text.contains(&secret), "the seed leaked: {text}");
        for seat in seats_of("tyros") {
            let entropy = seat["entropy"].as_str().unwrap();
            assert!(!text.contains(entropy), "an entropy leaked: {text}");
        }
    }
}

/// The event stream's final `version` message reveals the chance, as the document does; no
/// `version` message says anything of it while the game runs.
#[tokio::test]
async fn the_streams_final_message_reveals_the_chance() {
    let app = spawn_app().await;
    let game = create(&app, "tycoon", None).await;
    let stream = |after: i64| {
        app.req(
            Method::GET,
            &format!("/v1/games/{}/stream?after={after}", game.id),
            None,
        )
        .send()
    };
    let mut running = Reader::new(stream(0).await.unwrap());
    let batch = running.batch().await;
    let last = batch.last().unwrap();
    assert_eq!(last.data["status"], "active");
    assert!(last.data.get("chance_reveal").is_none(), "{:?}", last.data);

    play_then_resign(&app, &game, 4).await;
    let doc = app.document(&game, None).await;
    assert_eq!(doc["status"], "finished");
    let version = doc["version"].as_i64().unwrap();
    let mut finished = Reader::new(stream(version - 1).await.unwrap());
    let batch = finished.batch().await;
    let last = batch.last().unwrap();
    assert_eq!(last.data["status"], "finished");
    assert_eq!(last.data["chance_reveal"], doc["chance"]["reveal"]);
    assert_eq!(
        last.data["chance_reveal"]["entropies"][0],
        entropy_of("Ann", "tycoon")
    );
    finished.ended().await;
    // The follower that was there all along hears the same at the end.
    loop {
        let batch = running.batch().await;
        let last = batch.last().unwrap();
        if last.data["status"] == "finished" {
            assert_eq!(last.data["chance_reveal"], doc["chance"]["reveal"]);
            break;
        }
        assert!(last.data.get("chance_reveal").is_none(), "{:?}", last.data);
    }
}

/// A rated game takes no seed (its chance would be known in advance), and entropy goes with a
/// person's seat only and is bounded.
#[tokio::test]
async fn rated_games_refuse_a_seed_and_entropy_is_checked() {
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let res = app
        .req(Method::POST, "/v1/games", Some(&ann.token))
        .json(&json!({ "type": "tycoon", "rated": true, "seed": 1,
                        "seats": [{ "me": true }, { "open": true }] }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::UNPROCESSABLE_ENTITY, "seeded_rated_game").await;
    for seat in [
        json!({ "bot": "random", "entropy": "x" }),
        json!({ "open": true, "entropy": "x" }),
    ] {
        let res = app
            .req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": "tycoon", "seats": [{ "name": "Ann" }, seat] }))
            .send()
            .await
            .unwrap();
        assert_problem(res, StatusCode::UNPROCESSABLE_ENTITY, "invalid_seat").await;
    }
    let res = app
        .req(Method::POST, "/v1/games", None)
        .json(&json!({ "type": "tycoon",
                        "seats": [{ "name": "Ann", "entropy": "x".repeat(129) }, { "name": "Bob" }] }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::UNPROCESSABLE_ENTITY, "invalid_entropy").await;
}

/// A seat taken later adds its entropy too: it is part of the key the record reveals.
#[tokio::test]
async fn a_joining_seat_adds_its_entropy_to_the_chance() {
    let app = spawn_app().await;
    let (status, created) = json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": "acquire",
                            "seats": [{ "name": "Ann", "entropy": "a1" }, { "open": true }] }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let id = created["game_id"].as_str().unwrap().to_string();
    let (status, joined) = json_of(
        app.req(Method::POST, &format!("/v1/games/{id}/seats"), None)
            .json(&json!({ "name": "Bob", "entropy": "b2" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{joined}");
    let game = Game {
        id,
        tokens: vec![
            created["seats"][0]["token"].as_str().unwrap().to_string(),
            joined["token"].as_str().unwrap().to_string(),
        ],
    };
    play_then_resign(&app, &game, 4).await;
    let (_, recorded) = record_of(&app, &game, None).await;
    assert_eq!(
        recorded["chance"]["reveal"]["entropies"],
        json!(["a1", "b2"])
    );
    let parsed: Record = serde_json::from_value(recorded).unwrap();
    record::verify(&parsed).unwrap();
}

/// Imports `record`; the answer.
async fn import(app: &TestApp, record: &Value) -> (StatusCode, Value) {
    json_of(
        app.req(Method::POST, "/v1/records", None)
            .json(record)
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// Games `a` and `b` show the same state (view and status) at every seq up to `version`.
async fn assert_same_states(app: &TestApp, a: &Game, b: &Game, version: i64, type_: &str) {
    for seq in 1..=version {
        let (_, x) = app
            .get_json(&format!("/v1/games/{}/states/{seq}", a.id), None)
            .await;
        let (_, y) = app
            .get_json(&format!("/v1/games/{}/states/{seq}", b.id), None)
            .await;
        assert_eq!(x["view"], y["view"], "{type_} at seq {seq}");
        assert_eq!(x["status"], y["status"], "{type_} at seq {seq}");
    }
}

/// The number of games stored.
async fn game_count(app: &TestApp) -> usize {
    let (_, list) = app.get_json("/v1/games?limit=100", None).await;
    list["games"].as_array().unwrap().len()
}

/// Export, import, export again: for every game type the imported game is the recorded one,
/// state for state at every seq, and it says where it comes from.
#[tokio::test]
async fn an_exported_record_imports_as_the_same_game_at_every_seq() {
    let app = spawn_app().await;
    for type_ in ["tycoon", "acquire", "monopoly", "tyros"] {
        let game = create(&app, type_, None).await;
        play_then_resign(&app, &game, 20).await;
        let (_, original) = record_of(&app, &game, None).await;
        let (status, imported) = import(&app, &original).await;
        assert_eq!(status, StatusCode::CREATED, "{type_}: {imported}");
        assert_eq!(imported["imported_from"], game.id.as_str());
        assert_eq!(imported["status"], "finished");
        let copy = Game {
            id: imported["game_id"].as_str().unwrap().to_string(),
            tokens: Vec::new(),
        };
        let doc = app.document(&copy, None).await;
        assert_eq!(doc["imported_from"], game.id.as_str());
        assert_eq!(doc["rated"], false);
        let (_, again) = record_of(&app, &copy, None).await;
        for field in [
            "type",
            "rules_version",
            "game_id",
            "config",
            "seat_count",
            "chance",
            "setup",
        ] {
            assert_eq!(again[field], original[field], "{type_}: {field}");
        }
        let strip = |r: &Value| -> Vec<Value> {
            r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| json!([m["seat"], m["action"], m["events"], m["lifecycle"]]))
                .collect()
        };
        assert_eq!(strip(&again), strip(&original), "{type_}: moves");
        assert_eq!(
            again["table"]["outcome"], original["table"]["outcome"],
            "{type_}"
        );
        let version = doc["version"].as_i64().unwrap();
        assert_same_states(&app, &game, &copy, version, type_).await;
    }
}

/// A record that does not verify is refused with where it fails, and nothing is stored.
#[tokio::test]
async fn a_record_that_does_not_verify_is_refused_and_nothing_is_stored() {
    let app = spawn_app().await;
    let game = create(&app, "tycoon", None).await;
    play_then_resign(&app, &game, 10).await;
    let (_, good) = record_of(&app, &game, None).await;
    let before = game_count(&app).await;

    let mut changed = good.clone();
    let last = changed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .rposition(|m| !m["events"].as_array().unwrap().is_empty())
        .unwrap();
    changed["moves"][last]["events"] = json!([]);
    let (status, problem) = import(&app, &changed).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{problem}");
    assert_eq!(problem["code"], "invalid_record");
    assert_eq!(problem["record"]["move_index"], last);
    assert_eq!(problem["record"]["reason"], "events_mismatch");

    let mut refused = good.clone();
    refused["moves"][0]["seat"] = json!(1);
    let (status, problem) = import(&app, &refused).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{problem}");
    assert_eq!(problem["record"]["move_index"], 0);
    assert_eq!(problem["record"]["reason"], "not_your_turn");
    assert!(problem["record"]["rule"].as_str().is_some(), "{problem}");

    let mut unrevealed = good.clone();
    unrevealed["chance"]["reveal"] = Value::Null;
    let (status, problem) = import(&app, &unrevealed).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{problem}");
    assert_eq!(problem["record"]["reason"], "record_without_reveal");
    assert_eq!(problem["record"]["move_index"], Value::Null);

    let mut unknown = good.clone();
    unknown["extra"] = json!(1);
    let (status, problem) = import(&app, &unknown).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{problem}");

    assert_eq!(game_count(&app).await, before, "nothing was stored");
    let (status, _) = import(&app, &good).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(game_count(&app).await, before + 1);
}

/// A game played at a table (chance version 0): its record names every outcome and leaves
/// out the events; it imports as the same game at every seq, and the imported game's own
/// record names the outcomes again and verifies. A changed outcome is refused at its move.
#[tokio::test]
async fn a_tables_record_imports_from_its_named_outcomes() {
    let app = spawn_app().await;
    for type_ in ["tycoon", "acquire", "monopoly", "tyros"] {
        let game = create(&app, type_, None).await;
        play_then_resign(&app, &game, 20).await;
        let (_, original) = record_of(&app, &game, None).await;
        let parsed: Record = serde_json::from_value(original.clone()).unwrap();
        let mut table = record::at_the_table(&parsed).unwrap();
        table.setup.clear();
        for step in &mut table.moves {
            step.events.clear();
        }
        let table = serde_json::to_value(&table).unwrap();

        let before = game_count(&app).await;
        let mut changed = table.clone();
        let pile = changed["setup_chance"][0].as_array_mut().unwrap();
        pile.swap(0, 1);
        pile[0] = pile[1].clone();
        let (status, problem) = import(&app, &changed).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{problem}");
        assert_eq!(problem["record"]["reason"], "chance_outcome_invalid");
        assert_eq!(problem["record"]["move_index"], Value::Null);
        assert_eq!(
            game_count(&app).await,
            before,
            "{type_}: nothing was stored"
        );

        let (status, imported) = import(&app, &table).await;
        assert_eq!(status, StatusCode::CREATED, "{type_}: {imported}");
        let copy = Game {
            id: imported["game_id"].as_str().unwrap().to_string(),
            tokens: Vec::new(),
        };
        let doc = app.document(&copy, None).await;
        assert_eq!(
            doc["chance"],
            json!({"version": 0, "seeded": false, "commitment": null, "reveal": null}),
            "{type_}"
        );
        let (_, again) = record_of(&app, &copy, None).await;
        assert_eq!(again["setup_chance"], table["setup_chance"], "{type_}");
        let named = |r: &Value| -> Vec<Value> {
            r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.get("chance").cloned().unwrap_or(json!([])))
                .collect()
        };
        assert_eq!(named(&again), named(&table), "{type_}");
        assert_eq!(again["setup"], original["setup"], "{type_}");
        let again: Record = serde_json::from_value(again).unwrap();
        record::verify(&again).unwrap();

        let version = doc["version"].as_i64().unwrap();
        assert_same_states(&app, &game, &copy, version, type_).await;
    }
}

/// A player's records as NDJSON: one verified record per finished game, filtered, paged.
#[tokio::test]
async fn a_players_records_export_as_ndjson_filtered_and_paged() {
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    for rated in [true, false] {
        let (status, created) = json_of(
            app.req(Method::POST, "/v1/games", Some(&ann.token))
                .json(&json!({ "type": "tycoon", "rated": rated,
                                "seats": [{ "me": true, "entropy": "ann" }, { "open": true }] }))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let id = created["game_id"].as_str().unwrap().to_string();
        let res = app
            .req(
                Method::POST,
                &format!("/v1/games/{id}/seats"),
                Some(&bob.token),
            )
            .json(&json!({ "entropy": "bob" }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        resign(&app, &id, 1, &bob.token).await;
    }
    let lines = |text: &str| -> Vec<Record> {
        text.lines()
            .map(|l| serde_json::from_str(l).expect("each line is a record"))
            .collect()
    };
    let export = |query: &str| {
        let url = format!("/v1/players/{}/records{query}", ann.id);
        let req = app.req(Method::GET, &url, None);
        async move {
            let res = req.send().await.unwrap();
            assert_eq!(res.status(), StatusCode::OK);
            assert_eq!(res.headers()["content-type"], "application/x-ndjson");
            let link = res
                .headers()
                .get("link")
                .map(|l| l.to_str().unwrap().to_string());
            (res.text().await.unwrap(), link)
        }
    };
    let (all, link) = export("").await;
    let all = lines(&all);
    assert_eq!(all.len(), 2);
    assert!(link.is_none());
    for record in &all {
        record::verify(record).unwrap();
        assert_eq!(
            record.chance.reveal.as_ref().unwrap().entropies,
            vec![Some("ann".to_string()), Some("bob".to_string())]
        );
    }
    let (rated, _) = export("?rated=true").await;
    let rated = lines(&rated);
    assert_eq!(rated.len(), 1);
    assert_eq!(rated[0].table["rated"], true);
    assert!(lines(&export("?type=acquire").await.0).is_empty());
    assert!(lines(&export("?since=2999-01-01T00:00:00Z").await.0).is_empty());
    let (first, link) = export("?limit=1").await;
    assert_eq!(lines(&first).len(), 1);
    let next = link.expect("a next page");
    let next = next
        .trim_start_matches('<')
        .split('>')
        .next()
        .unwrap()
        .to_string();
    let res = app.req(Method::GET, &next, None).send().await.unwrap();
    let second = lines(&res.text().await.unwrap());
    assert_eq!(second.len(), 1);
    assert_ne!(second[0].game_id, lines(&first)[0].game_id);

    let (status, problem) = app
        .get_json(&format!("/v1/players/{}/records?type=chess", ann.id), None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{problem}");
    let (status, _) = app
        .get_json(
            &format!("/v1/players/{}/records", uuid::Uuid::new_v4()),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A seek's entropy goes with the seat it takes: the matched game reveals both seekers'.
#[tokio::test]
async fn seekers_add_their_entropy_to_the_game_they_are_matched_into() {
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let seek = |entropy: &str| json!({ "type": "acquire", "seats": 2, "entropy": entropy });
    let mut answers = Vec::new();
    for (player, entropy) in [(&ann, "ann-seek"), (&bob, "bob-seek")] {
        let (status, answer) = json_of(
            app.req(Method::POST, "/v1/seeks", Some(&player.token))
                .json(&seek(entropy))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        assert!(
            !answer.to_string().contains(entropy),
            "the seek keeps it: {answer}"
        );
        answers.push(answer);
    }
    let game_id = answers[1]["game_id"].as_str().unwrap().to_string();
    let bob_seat = answers[1]["seat"].as_u64().unwrap() as usize;
    resign(&app, &game_id, bob_seat, &bob.token).await;
    let (_, recorded) = app
        .get_json(&format!("/v1/games/{game_id}/record"), None)
        .await;
    let mut expected = [json!("ann-seek"), json!("ann-seek")];
    expected[bob_seat] = json!("bob-seek");
    assert_eq!(recorded["chance"]["reveal"]["entropies"], json!(expected));
    let parsed: Record = serde_json::from_value(recorded).unwrap();
    record::verify(&parsed).unwrap();
}
