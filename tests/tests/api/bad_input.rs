//! Bad input of every kind gets its 4xx problem+json, never a 500, and writes nothing.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{assert_problem, spawn_app, stored_event_count};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_action_requests_get_problem_json_and_leave_the_game_unchanged() {
    let app = spawn_app().await;
    let game = app.create_game(2, 12).await;
    let version = app.version(&game).await;
    let events = stored_event_count(&app, &game);
    let url = format!("/v1/games/{}/actions", game.id);
    let token = game.tokens[0].as_str();
    let post = |body: &'static str, ct: &'static str| {
        app.req(Method::POST, &url, Some(token))
            .header("content-type", ct)
            .body(body)
            .send()
    };

    let cases: Vec<(&str, &str, StatusCode, &str)> = vec![
        (
            "{\"action\": ",
            "application/json",
            StatusCode::BAD_REQUEST,
            "malformed_json",
        ),
        (
            "not json",
            "application/json",
            StatusCode::BAD_REQUEST,
            "malformed_json",
        ),
        (
            "{\"action\": {\"type\": \"end_turn\"}, \"expected_version\": \"x\"}",
            "application/json",
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            "{\"action\": {\"type\": \"end_turn\"}, \"expected_verison\": 3}",
            "application/json",
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            "{}",
            "application/json",
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            "{\"action\": {\"type\": \"teleport\"}}",
            "application/json",
            StatusCode::BAD_REQUEST,
            "invalid_action",
        ),
        (
            "{\"action\": {\"type\": \"buy_ticket\", \"ticket\": 7}}",
            "application/json",
            StatusCode::BAD_REQUEST,
            "invalid_action",
        ),
        (
            "{\"action\": {\"type\": \"end_turn\", \"x\": 1}}",
            "application/json",
            StatusCode::BAD_REQUEST,
            "invalid_action",
        ),
        (
            "{\"action\": [\"end_turn\"]}",
            "application/json",
            StatusCode::BAD_REQUEST,
            "invalid_action",
        ),
        (
            "{\"action\": {\"type\": \"buy_ticket\", \"ticket\": \"S99\", \"ticket\": \"S01\"}}",
            "application/json",
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            "{\"action\": {\"type\": \"end_turn\"}}",
            "application/json",
            StatusCode::UNPROCESSABLE_ENTITY,
            "tycoon.main_action_required",
        ),
        (
            "{\"action\": {\"type\": \"end_turn\"}}",
            "text/plain",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
        ),
    ];
    for (body, ct, status, code) in cases {
        let res = post(body, ct).await.unwrap();
        assert_problem(res, status, code).await;
    }

    let huge = format!(
        "{{\"action\": {{\"type\": \"end_turn\", \"pad\": \"{}\"}}}}",
        "x".repeat(70 * 1024)
    );
    let res = app
        .req(Method::POST, &url, Some(token))
        .header("content-type", "application/json")
        .body(huge)
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::PAYLOAD_TOO_LARGE, "body_too_large").await;

    // Version guards: stale expected_version 409, stale If-Match 412, both with the version.
    let legal = app.legal(&game, 0).await;
    let (status, body) = app
        .act(
            &game,
            0,
            &json!({ "action": legal["actions"][0], "expected_version": version - 1 }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        (body["code"].as_str(), body["current_version"].as_i64()),
        (Some("version_conflict"), Some(version))
    );
    let res = app
        .req(Method::POST, &url, Some(token))
        .header("if-match", format!("\"v{}-seat0\"", version - 1))
        .json(&json!({ "action": legal["actions"][0] }))
        .send()
        .await
        .unwrap();
    let body = assert_problem(res, StatusCode::PRECONDITION_FAILED, "precondition_failed").await;
    assert_eq!(body["current_version"], version);
    let res = app
        .req(Method::POST, &url, Some(token))
        .header("idempotency-key", "")
        .json(&json!({ "action": legal["actions"][0] }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::BAD_REQUEST, "invalid_idempotency_key").await;

    // A dry run accepts a legal action and writes nothing.
    let res = app
        .req(Method::POST, &format!("{url}/dry-run"), Some(token))
        .json(&json!({ "action": legal["actions"][0], "expected_version": version }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let dry: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        (dry["accepted"].as_bool(), dry["version"].as_i64()),
        (Some(true), Some(version))
    );
    let res = app
        .req(Method::POST, &format!("{url}/dry-run"), Some(token))
        .json(&json!({ "action": { "type": "end_turn" } }))
        .send()
        .await
        .unwrap();
    assert_problem(
        res,
        StatusCode::UNPROCESSABLE_ENTITY,
        "tycoon.main_action_required",
    )
    .await;
    // The old `?dry_run=true` is refused rather than applied: the operation takes no query.
    let res = app
        .req(Method::POST, &format!("{url}?dry_run=true"), Some(token))
        .json(&json!({ "action": legal["actions"][0] }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::BAD_REQUEST, "invalid_query").await;
    let res = app
        .req(Method::POST, &format!("{url}/dry-run"), Some(token))
        .json(&json!({ "action": { "type": "end_turn", "typo": 1 } }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::BAD_REQUEST, "invalid_action").await;

    assert_eq!(app.version(&game).await, version);
    assert_eq!(stored_event_count(&app, &game), events);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_creations_ids_queries_and_routes_get_problem_json() {
    let app = spawn_app().await;
    let create =
        |body: serde_json::Value| app.req(Method::POST, "/v1/games", None).json(&body).send();
    let cases = vec![
        (
            json!({ "type": "chess", "seats": [{ "name": "A" }, { "name": "B" }] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_game_type",
        ),
        (
            json!({ "type": "tycoon", "seats": [{ "name": "A" }] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_seat_count",
        ),
        (
            json!({ "type": "tycoon", "seats": [{ "name": "A" }, {}] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_seat",
        ),
        (
            json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "name": " " }] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_name",
        ),
        (
            json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "name": "B" }], "config": { "step_mode": "warp" } }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_config",
        ),
        (
            json!({ "type": "acquire", "seats": [{ "name": "A" }, { "name": "B" }], "config": { "warp": true } }),
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "name": "B" }], "config": ["up_to"] }),
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            json!(["tycoon", null, [{ "name": "a" }, { "name": "b" }], 5]),
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "name": "B", "colour": "red" }] }),
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            json!({ "type": "tycoon", "seats": "two" }),
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "name": "B" }], "seed": -1 }),
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
    ];
    for (body, status, code) in cases {
        assert_problem(create(body).await.unwrap(), status, code).await;
    }
    let (_, list) = app.get_json("/v1/games", None).await;
    assert_eq!(list["games"], json!([]), "nothing was created");

    for (path, status, code) in [
        (
            "/v1/games/not-a-uuid",
            StatusCode::BAD_REQUEST,
            "invalid_id",
        ),
        (
            "/v1/games/00000000-0000-0000-0000-000000000000",
            StatusCode::NOT_FOUND,
            "game_not_found",
        ),
        (
            "/v1/games/00000000-0000-0000-0000-000000000000/events",
            StatusCode::NOT_FOUND,
            "game_not_found",
        ),
        (
            "/v1/games/00000000-0000-0000-0000-000000000000/states/x",
            StatusCode::BAD_REQUEST,
            "invalid_seq",
        ),
        (
            "/v1/games?limit=-3",
            StatusCode::BAD_REQUEST,
            "invalid_query",
        ),
        (
            "/v1/games?status=paused",
            StatusCode::BAD_REQUEST,
            "invalid_query",
        ),
        (
            "/v1/games?cursor=garbage",
            StatusCode::BAD_REQUEST,
            "invalid_cursor",
        ),
        ("/v1/nothing-here", StatusCode::NOT_FOUND, "not_found"),
    ] {
        let res = app.req(Method::GET, path, None).send().await.unwrap();
        assert_problem(res, status, code).await;
    }
    let game = app.create_game(2, 1).await;
    let res = app
        .req(
            Method::GET,
            &format!("/v1/games/{}?wait=soon", game.id),
            None,
        )
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::BAD_REQUEST, "invalid_query").await;
    let res = app
        .req(Method::POST, &format!("/v1/games/{}/seats", game.id), None)
        .json(&json!({ "name": "Late" }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "game_already_started").await;
}

/// Unknown query parameters are refused like unknown body fields, naming the parameter, on
/// every documented operation (they used to be ignored: `?foo=1` answered 200).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_query_parameters_are_refused_naming_the_parameter() {
    let app = spawn_app().await;
    let game = app.create_game(2, 21).await;
    let id = &game.id;
    for (method, path) in [
        (Method::GET, "/v1/game-types?foo=1".to_string()),
        (Method::GET, "/v1/games?limit=2&foo=1".to_string()),
        (Method::GET, format!("/v1/games/{id}?wait=0&foo=1")),
        (Method::HEAD, format!("/v1/games/{id}?foo=1")),
        (Method::GET, format!("/v1/games/{id}/legal-actions?foo=1")),
        (Method::GET, format!("/v1/games/{id}/events?after=0&foo=1")),
        (Method::GET, format!("/v1/games/{id}/states/1?foo=1")),
        (Method::GET, format!("/v1/games/{id}/stream?foo=1")),
        (Method::POST, format!("/v1/games/{id}/actions?foo=1")),
        (Method::GET, "/healthz?foo=1".to_string()),
    ] {
        let res = app
            .req(method.clone(), &path, Some(&game.tokens[0]))
            .json(&json!({ "action": { "type": "end_turn" } }))
            .send()
            .await
            .unwrap();
        if method == Method::HEAD {
            assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{path}");
            continue;
        }
        let body = assert_problem(res, StatusCode::BAD_REQUEST, "invalid_query").await;
        assert!(
            body["detail"].as_str().unwrap().contains("\"foo\""),
            "{path}: {body}"
        );
    }
    // Known parameters still work, and nothing was applied.
    let (status, _) = app.get_json(&format!("/v1/games/{id}?wait=0"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(app.version(&game).await, 6);
}

/// Issue 39: a POST (or DELETE) that takes no body refuses one, as strict input refuses any
/// unknown field (resign with `{"really":true}` used to resign), and changes nothing; no body
/// or `{}` (what the web client sends) is taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_on_bodiless_requests_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let game = app.create_game(2, 31).await;
    let id = &game.id;
    let ann = app.create_player("Ann").await;
    let (status, seek) = crate::helpers::json_of(
        app.req(Method::POST, "/v1/seeks", Some(&ann.token))
            .json(&json!({"type": "tycoon", "seats": 2}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    let seek_path = format!("/v1/seeks/{}", seek["seek_id"].as_str().unwrap());
    let requests = [
        (
            Method::POST,
            format!("/v1/games/{id}/seats/0/resign"),
            &game.tokens[0],
        ),
        (
            Method::POST,
            format!("/v1/games/{id}/seats/0/reclaim"),
            &game.tokens[0],
        ),
        (
            Method::POST,
            format!("/v1/games/{id}/abort"),
            &game.tokens[0],
        ),
        (
            Method::POST,
            format!("/v1/games/{id}/start"),
            &game.tokens[0],
        ),
        (Method::POST, "/v1/players/me/token".to_string(), &ann.token),
        (Method::DELETE, seek_path.clone(), &ann.token),
    ];
    let events = stored_event_count(&app, &game);
    for body in [
        json!({"really": true}),
        json!({"x": 1}),
        json!([]),
        json!("yes"),
    ] {
        for (method, path, token) in &requests {
            let res = app
                .req(method.clone(), path, Some(token))
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_problem(res, StatusCode::BAD_REQUEST, "invalid_body").await;
        }
    }
    assert_eq!(stored_event_count(&app, &game), events, "nothing written");
    let (_, doc) = app
        .get_json(&format!("/v1/games/{id}"), Some(&game.tokens[0]))
        .await;
    assert_eq!(doc["status"], "active");
    assert_eq!(doc["seats"][0]["status"], "playing", "{doc}");
    // The old player token still works, and the seek still waits.
    let (status, me) = app.get_json("/v1/players/me", Some(&ann.token)).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    let (_, still) = app.get_json(&seek_path, None).await;
    assert_eq!(still["status"], "waiting", "{still}");

    // `{}` and no body at all are what a body-less request may carry.
    let res = app
        .req(Method::DELETE, &seek_path, Some(&ann.token))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .req(
            Method::POST,
            &format!("/v1/games/{id}/seats/0/resign"),
            Some(&game.tokens[0]),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

/// Issue 39: a query parameter given twice was answered with the raw text "Query deserialize
/// error: duplicate field `limit`", and an unknown game type with an empty list while an
/// unknown status was a 400; both are `invalid_query` problems now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_parameters_and_unknown_game_types_are_invalid_queries() {
    let app = spawn_app().await;
    let game = app.create_game(2, 41).await;
    for path in [
        "/v1/games?limit=2&limit=3".to_string(),
        format!("/v1/games/{}/events?after=1&after=2", game.id),
        "/v1/games?type=chess".to_string(),
        "/v1/games?type=%00".to_string(),
        "/v1/games?status=bogus".to_string(),
    ] {
        let res = app.req(Method::GET, &path, None).send().await.unwrap();
        let body = assert_problem(res, StatusCode::BAD_REQUEST, "invalid_query").await;
        assert!(
            !body["detail"].as_str().unwrap().is_empty(),
            "{path}: {body}"
        );
    }
    let res = app
        .req(Method::GET, "/v1/games?type=tycoon", None)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}
