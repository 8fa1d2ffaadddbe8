//! Whole games over HTTP by clients that only use `legal-actions`, checked against the engine's
//! own replay of the log; time travel checked against what was seen during play.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{spawn_app, Game, TestApp};

async fn play_and_check(players: usize, seed: u64) -> (TestApp, Game) {
    let app = spawn_app().await;
    let game = app.create_game(players, seed).await;
    let seen = app.play_to_end(&game, seed, 5_000).await;

    let doc = app.document(&game, None).await;
    assert_eq!(doc["status"], "finished");
    let outcome = doc["outcome"].clone();
    assert!(outcome.is_object(), "{doc}");

    // Once finished, the log is shown unredacted: the engine's fold of it must give the same end.
    let events = app.all_events(&game, None).await;
    assert_eq!(events.len() as i64, doc["version"].as_i64().unwrap());
    for (i, e) in events.iter().enumerate() {
        assert_eq!(
            e["seq"].as_i64().unwrap(),
            i as i64 + 1,
            "seq numbers are consecutive"
        );
    }
    let raw: Vec<Value> = events.iter().map(|e| e["event"].clone()).collect();
    let replayed = engine::registry::find("tycoon")
        .unwrap()
        .replay(&raw)
        .unwrap();
    let engine_outcome = replayed.outcome().expect("the replayed game is over");
    let winners: Vec<u64> = engine_outcome
        .winners
        .iter()
        .map(|s| u64::from(s.0))
        .collect();
    assert_eq!(outcome["winners"], serde_json::json!(winners));
    assert_eq!(outcome["scores"], serde_json::json!(engine_outcome.scores));

    // Time travel: every version seen during play is reproduced by states/{seq}.
    for (version, view) in &seen {
        let (status, state) = app
            .get_json(&format!("/v1/games/{}/states/{version}", game.id), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{state}");
        assert_eq!(
            &state["view"], view,
            "state at seq {version} differs from play"
        );
    }
    (app, game)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_player_game_played_over_http_ends_as_the_engine_replay_says() {
    let (app, game) = play_and_check(2, 11).await;
    // Folding all stored events gives exactly the stored snapshot.
    let snapshot = crate::helpers::stored_snapshot(&app, &game);
    let raw: Vec<Value> = app
        .all_events(&game, None)
        .await
        .iter()
        .map(|e| e["event"].clone())
        .collect();
    let folded = engine::registry::find("tycoon")
        .unwrap()
        .replay(&raw)
        .unwrap();
    assert_eq!(folded.to_json(), snapshot);
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
