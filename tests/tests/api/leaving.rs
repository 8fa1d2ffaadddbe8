//! Games that end without their rules (issue 21): resigning (the other seat wins in a
//! two-seat game; with more, the server's bot plays on and the seat ranks last), aborting
//! before anyone moved, open games expiring. Every refusal is problem+json and writes
//! nothing.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::clocks::{create, wait_status};
use crate::helpers::{assert_problem, json_of, spawn_app, spawn_app_with, Game, TestApp};

async fn post(app: &TestApp, path: &str, token: Option<&str>) -> reqwest::Response {
    app.req(Method::POST, path, token).send().await.unwrap()
}

fn resign_path(game: &Game, seat: usize) -> String {
    format!("/v1/games/{}/seats/{seat}/resign", game.id)
}

#[tokio::test]
async fn resigning_a_two_seat_game_ends_it_and_the_other_seat_wins() {
    let app = spawn_app().await;
    let (game, _) = create(&app, "tycoon", 2, json!({}), json!({ "kind": "none" })).await;
    let before = app.version(&game).await;

    // Refusals first: each writes nothing.
    let res = post(&app, &resign_path(&game, 0), Some(&game.tokens[1])).await;
    assert_problem(res, StatusCode::FORBIDDEN, "not_your_seat").await;
    let res = post(&app, &resign_path(&game, 0), None).await;
    assert_problem(res, StatusCode::UNAUTHORIZED, "missing_token").await;
    let res = post(
        &app,
        &format!("/v1/games/{}/seats/first/resign", game.id),
        Some(&game.tokens[0]),
    )
    .await;
    assert_problem(res, StatusCode::BAD_REQUEST, "invalid_seat_number").await;
    let (other, _) = create(&app, "tycoon", 2, json!({}), json!({ "kind": "none" })).await;
    let res = post(&app, &resign_path(&game, 0), Some(&other.tokens[0])).await;
    assert_problem(res, StatusCode::FORBIDDEN, "token_for_other_game").await;
    assert_eq!(app.version(&game).await, before);

    let (status, body) =
        json_of(post(&app, &resign_path(&game, 0), Some(&game.tokens[0])).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let events = body["events"].as_array().unwrap();
    assert_eq!(events.len(), 1, "{body}");
    assert_eq!(
        events[0]["event"],
        json!({ "type": "seat_resigned", "seat": 0 })
    );
    assert_eq!(events[0]["seat"], 0);
    let doc = &body["game"];
    assert_eq!(doc["status"], "finished");
    assert_eq!(doc["active_seats"], json!([]));
    assert_eq!(doc["legal_actions"], json!([]));
    assert_eq!(
        doc["outcome"],
        json!({
            "winners": [1],
            "scores": [],
            "places": [2, 1],
            "left": [{ "seat": 0, "reason": "resigned", "seq": before + 1 }],
            "ended_by": "resignation"
        })
    );
    assert_eq!(doc["seats"][0]["status"], "resigned");
    assert_eq!(doc["seats"][1]["status"], "playing");

    // Over: resigning again (either seat) or acting is refused, and nothing is written.
    let version = app.version(&game).await;
    let res = post(&app, &resign_path(&game, 0), Some(&game.tokens[0])).await;
    assert_problem(res, StatusCode::CONFLICT, "game_over").await;
    let res = post(&app, &resign_path(&game, 1), Some(&game.tokens[1])).await;
    assert_problem(res, StatusCode::CONFLICT, "game_over").await;
    let (status, body) = app
        .act(&game, 1, &json!({ "action": { "type": "end_turn" } }))
        .await;
    assert_eq!(
        (status, &body["code"]),
        (StatusCode::CONFLICT, &json!("game_over")),
        "{body}"
    );
    assert_eq!(app.version(&game).await, version);

    // Finished games stay replayable: the state after the resignation has its outcome.
    let (status, state) = app
        .get_json(&format!("/v1/games/{}/states/{version}", game.id), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["status"], "finished");
    assert_eq!(state["outcome"], doc["outcome"]);
    let (_, state) = app
        .get_json(
            &format!("/v1/games/{}/states/{}", game.id, version - 1),
            None,
        )
        .await;
    assert_eq!(
        (&state["status"], &state["outcome"]),
        (&json!("active"), &Value::Null)
    );
}

#[tokio::test]
async fn resigning_a_four_seat_game_lets_a_bot_play_on_and_ranks_the_seat_last() {
    let app = spawn_app().await;
    // Ann and three of the server's bots: once Ann resigns, bots play every seat to the end.
    let (status, body) = json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": "tycoon", "seed": 4, "seats": [
                { "name": "Ann" }, { "bot": "random" }, { "bot": "random" }, { "bot": "random" }
            ] }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let game = Game {
        id: body["game_id"].as_str().unwrap().to_string(),
        tokens: vec![body["seats"][0]["token"].as_str().unwrap().to_string()],
    };
    let version = app.version(&game).await;
    let (status, body) =
        json_of(post(&app, &resign_path(&game, 0), Some(&game.tokens[0])).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let written: Vec<&Value> = body["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["event"])
        .collect();
    assert_eq!(
        written,
        [
            &json!({ "type": "seat_resigned", "seat": 0 }),
            &json!({ "type": "bot_took_over", "seat": 0, "level": "greedy" })
        ]
    );
    let seat = &body["game"]["seats"][0];
    assert_eq!(
        (&seat["status"], &seat["kind"], &seat["bot"]["level"]),
        (&json!("resigned"), &json!("human"), &json!("greedy"))
    );
    assert_eq!(body["game"]["legal_actions"], json!([]));
    let res = post(&app, &resign_path(&game, 0), Some(&game.tokens[0])).await;
    let res_status = res.status();
    let problem = json_of(res).await.1;
    assert_eq!(res_status, StatusCode::CONFLICT, "{problem}");
    assert!(
        ["seat_resigned", "game_over"].contains(&problem["code"].as_str().unwrap()),
        "{problem}"
    );
    let res = post(
        &app,
        &format!("/v1/games/{}/seats/0/reclaim", game.id),
        Some(&game.tokens[0]),
    )
    .await;
    let problem = json_of(res).await.1;
    assert!(
        ["seat_resigned", "game_over"].contains(&problem["code"].as_str().unwrap()),
        "{problem}"
    );

    let doc = wait_status(&app, &game, "finished").await;
    let outcome = &doc["outcome"];
    assert_eq!(outcome["ended_by"], "rules", "{outcome}");
    assert_eq!(outcome["places"][0], 4, "whatever its score: {outcome}");
    assert_eq!(
        outcome["left"],
        json!([{ "seat": 0, "reason": "resigned", "seq": version + 1 }])
    );
    assert!(!outcome["winners"].as_array().unwrap().contains(&json!(0)));
    // The other seats are ranked by the rules: the winners first.
    for w in outcome["winners"].as_array().unwrap() {
        assert_eq!(outcome["places"][w.as_u64().unwrap() as usize], 1);
    }
    // The bot played seat 0 after the resignation.
    let log = app.all_events(&game, None).await;
    assert!(log
        .iter()
        .any(|e| e["seq"].as_i64().unwrap() > version + 2 && e["seat"] == 0));
}

#[tokio::test]
async fn a_game_is_aborted_by_a_seated_player_before_anyone_moved_and_never_after() {
    let app = spawn_app().await;
    let (game, _) = create(
        &app,
        "acquire",
        3,
        json!({}),
        json!({ "kind": "per_move", "seconds": 600 }),
    )
    .await;
    let path = format!("/v1/games/{}/abort", game.id);
    let res = post(&app, &path, None).await;
    assert_problem(res, StatusCode::UNAUTHORIZED, "missing_token").await;

    let (status, body) = json_of(post(&app, &path, Some(&game.tokens[2])).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["game"]["status"], "aborted");
    assert_eq!(body["game"]["outcome"], Value::Null, "no winner");
    assert_eq!(body["game"]["active_seats"], json!([]));
    assert_eq!(
        body["events"][0]["event"],
        json!({ "type": "game_aborted", "seat": 2 })
    );
    for seat in body["game"]["seats"].as_array().unwrap() {
        assert_eq!(seat["clock"]["running"], false, "nothing runs: {seat}");
    }
    let res = post(&app, &path, Some(&game.tokens[0])).await;
    assert_problem(res, StatusCode::CONFLICT, "game_over").await;
    let (status, body) = app
        .act(&game, 0, &json!({ "action": { "type": "pass" } }))
        .await;
    assert_eq!(
        (status, &body["code"]),
        (StatusCode::CONFLICT, &json!("game_over")),
        "{body}"
    );
    let (_, listed) = app.get_json("/v1/games?status=aborted", None).await;
    assert_eq!(listed["games"][0]["game_id"], json!(game.id));
    assert!(listed["games"][0]["finished_at"].is_string());

    // Once a seat has moved, it is too late: resign instead.
    let (moved, _) = create(&app, "tycoon", 2, json!({}), json!({ "kind": "none" })).await;
    let legal = app.legal(&moved, 0).await;
    let (status, body) = app
        .act(
            &moved,
            0,
            &json!({ "action": legal["actions"][0], "expected_version": legal["version"] }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let version = app.version(&moved).await;
    let res = post(
        &app,
        &format!("/v1/games/{}/abort", moved.id),
        Some(&moved.tokens[1]),
    )
    .await;
    assert_problem(res, StatusCode::CONFLICT, "too_late_to_abort").await;
    assert_eq!(app.version(&moved).await, version, "nothing written");

    // An open game is aborted by a seated player; it never started, so no event.
    let (status, open) = json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": "tycoon", "seats": [{ "name": "Ann" }, { "open": true }] }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = open["game_id"].as_str().unwrap();
    let ann = open["seats"][0]["token"].as_str().unwrap();
    let (status, body) =
        json_of(post(&app, &format!("/v1/games/{id}/abort"), Some(ann)).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        (&body["game"]["status"], &body["game"]["version"]),
        (&json!("aborted"), &json!(0))
    );
    assert_eq!(body["events"], json!([]));
    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/seats"), None)
        .json(&json!({ "name": "Bob" }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "game_over").await;
}

#[tokio::test]
async fn an_open_game_expires_when_its_seats_are_not_taken_in_time() {
    let app = spawn_app_with(|s| s.open_game_ttl = std::time::Duration::from_secs(1).into()).await;
    let (status, open) = json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": "tycoon", "seats": [{ "name": "Ann" }, { "open": true }] }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let game = Game {
        id: open["game_id"].as_str().unwrap().to_string(),
        tokens: vec![open["seats"][0]["token"].as_str().unwrap().to_string()],
    };
    // A long poll on the open game hears of its end (the version stays 0).
    let (status, polled) = app
        .get_json(
            &format!("/v1/games/{}?wait=20&after_version=0", game.id),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{polled}");
    assert_eq!(polled["status"], "expired", "{polled}");
    let doc = app.document(&game, Some(&game.tokens[0])).await;
    assert_eq!(
        (&doc["version"], &doc["outcome"]),
        (&json!(0), &Value::Null)
    );
    assert!(doc["seats"][0]["clock"].is_null());
    let (_, listed) = app.get_json("/v1/games?status=expired", None).await;
    assert_eq!(listed["games"][0]["game_id"], json!(game.id));
    assert!(listed["games"][0]["finished_at"].is_string());
    let (_, listed) = app.get_json("/v1/games?status=open", None).await;
    assert_eq!(listed["games"], json!([]));
    let res = app
        .req(Method::POST, &format!("/v1/games/{}/seats", game.id), None)
        .json(&json!({ "name": "Late" }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "game_over").await;
    // Its stream has nothing to send.
    let res = app
        .req(Method::GET, &format!("/v1/games/{}/stream", game.id), None)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);

    // A game whose seats fill in time starts and does not expire.
    let (status, open) = json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": "tycoon", "seats": [{ "name": "Ann" }, { "open": true }] }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = open["game_id"].as_str().unwrap().to_string();
    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/seats"), None)
        .json(&json!({ "name": "Bob" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    // Its expiry went with the start (a game without a clock has no deadline at all).
    let id: uuid::Uuid = id.parse().unwrap();
    assert_eq!(deadline_rows(&app, id), 0);
    assert_eq!(
        app.get_json(&format!("/v1/games/{id}"), None).await.1["status"],
        "active"
    );
}

/// How many deadlines game `id` has in the queue, by SQL.
fn deadline_rows(app: &TestApp, id: uuid::Uuid) -> i64 {
    use db::schema::game_deadlines;
    use diesel::prelude::*;
    game_deadlines::table
        .filter(game_deadlines::game_id.eq(id))
        .count()
        .get_result(&mut app.db.conn())
        .unwrap()
}
