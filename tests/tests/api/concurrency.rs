//! Races and retries: optimistic locking and idempotency keys.

use std::sync::Arc;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio::sync::Barrier;

use crate::helpers::{json_of, spawn_app, stored_event_count};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_clients_racing_on_one_expected_version_produce_one_winner() {
    let app = Arc::new(spawn_app().await);
    let game = app.create_game(2, 5).await;
    let legal = app.legal(&game, 0).await;
    let version = legal["version"].as_i64().unwrap();
    let action = legal["actions"][0].clone();
    let before = stored_event_count(&app, &game);

    let barrier = Arc::new(Barrier::new(20));
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (app, game, barrier) = (app.clone(), game.clone(), barrier.clone());
        let body = json!({ "action": action, "expected_version": version });
        tasks.push(tokio::spawn(async move {
            let req = app
                .req(
                    Method::POST,
                    &format!("/v1/games/{}/actions", game.id),
                    Some(&game.tokens[0]),
                )
                .json(&body);
            barrier.wait().await;
            json_of(req.send().await.unwrap()).await
        }));
    }
    let mut winners = Vec::new();
    let mut conflicts = 0;
    for t in tasks {
        let (status, body) = t.await.unwrap();
        match status {
            StatusCode::OK => winners.push(body),
            StatusCode::CONFLICT => {
                assert_eq!(body["code"], "version_conflict", "{body}");
                conflicts += 1;
            }
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one request wins");
    assert_eq!(conflicts, 19);
    let new_events = winners[0]["events"].as_array().unwrap().len() as i64;
    let new_version = winners[0]["game"]["version"].as_i64().unwrap();
    assert_eq!(new_version, version + new_events);
    assert_eq!(
        stored_event_count(&app, &game),
        before + new_events,
        "one action's events"
    );
    assert_eq!(app.version(&game).await, new_version);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn losers_of_a_race_learn_the_current_version() {
    let app = spawn_app().await;
    let game = app.create_game(2, 6).await;
    let legal = app.legal(&game, 0).await;
    let version = legal["version"].as_i64().unwrap();
    let body = json!({ "action": legal["actions"][0], "expected_version": version });
    let (status, won) = app.act(&game, 0, &body).await;
    assert_eq!(status, StatusCode::OK, "{won}");
    let (status, lost) = app.act(&game, 0, &body).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(lost["code"], "version_conflict", "{lost}");
    assert_eq!(lost["current_version"], won["game"]["version"]);
}

async fn post_with_key(
    app: &crate::helpers::TestApp,
    game: &crate::helpers::Game,
    key: &str,
    body: &Value,
) -> (StatusCode, Option<String>, String) {
    let res = app
        .req(
            Method::POST,
            &format!("/v1/games/{}/actions", game.id),
            Some(&game.tokens[0]),
        )
        .header("idempotency-key", key)
        .json(body)
        .send()
        .await
        .unwrap();
    let status = res.status();
    let replayed = res
        .headers()
        .get("idempotency-replayed")
        .map(|v| v.to_str().unwrap().to_string());
    (status, replayed, res.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_retried_ten_times_with_one_idempotency_key_is_applied_once() {
    let app = spawn_app().await;
    let game = app.create_game(3, 7).await;
    let legal = app.legal(&game, 0).await;
    let body = json!({ "action": legal["actions"][0], "expected_version": legal["version"] });
    let before = stored_event_count(&app, &game);

    let (status, replayed, first) = post_with_key(&app, &game, "retry-1", &body).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(replayed, None);
    let after = stored_event_count(&app, &game);
    assert!(after > before);
    for _ in 0..9 {
        let (status, replayed, again) = post_with_key(&app, &game, "retry-1", &body).await;
        assert_eq!(status, StatusCode::OK, "{again}");
        assert_eq!(replayed.as_deref(), Some("true"));
        assert_eq!(again, first, "a replay is byte-for-byte the first response");
    }
    assert_eq!(
        stored_event_count(&app, &game),
        after,
        "events of one action only"
    );

    // The same key with another body is a client bug.
    let other = json!({ "action": { "type": "end_turn" } });
    let (status, _, problem) = post_with_key(&app, &game, "retry-1", &other).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{problem}");
    assert!(problem.contains("idempotency_key_reused"), "{problem}");
    assert_eq!(stored_event_count(&app, &game), after);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_retries_with_one_idempotency_key_are_applied_once() {
    let app = Arc::new(spawn_app().await);
    let game = app.create_game(2, 8).await;
    let legal = app.legal(&game, 0).await;
    let body = json!({ "action": legal["actions"][0], "expected_version": legal["version"] });
    let before = stored_event_count(&app, &game);
    let barrier = Arc::new(Barrier::new(10));
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (app, game, barrier, body) = (app.clone(), game.clone(), barrier.clone(), body.clone());
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            post_with_key(&app, &game, "concurrent", &body).await
        }));
    }
    let mut bodies = Vec::new();
    for t in tasks {
        let (status, _, text) = t.await.unwrap();
        // A retry that overlaps the first may be told to retry (409 in flight); none may apply twice.
        assert!(
            status == StatusCode::OK || status == StatusCode::CONFLICT,
            "{status} {text}"
        );
        if status == StatusCode::OK {
            bodies.push(text);
        }
    }
    assert!(!bodies.is_empty());
    assert!(bodies.iter().all(|b| *b == bodies[0]));
    let applied: Value = serde_json::from_str(&bodies[0]).unwrap();
    let n = applied["events"].as_array().unwrap().len() as i64;
    assert_eq!(stored_event_count(&app, &game), before + n);
}
