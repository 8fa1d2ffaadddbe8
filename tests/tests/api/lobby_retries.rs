//! `Idempotency-Key` on the requests that create something: a retried creation, join, player
//! or seek gets the first answer again, tokens included, instead of a second game, seat,
//! player or seek, and the database never holds a token.

use std::sync::Arc;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, json_of, spawn_app, TestApp};

const KEY: &str = "0b6f3c5e-2a41-4c1b-9d7e-5f0a8e2c1d34";

async fn post(app: &TestApp, path: &str, key: &str, body: &Value) -> reqwest::Response {
    app.req(Method::POST, path, None)
        .header("idempotency-key", key)
        .json(body)
        .send()
        .await
        .unwrap()
}

fn games_in_database(app: &TestApp) -> i64 {
    use diesel::prelude::*;
    db::schema::games::table
        .count()
        .get_result(&mut app.db.conn())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_creation_gets_the_same_game_and_tokens_and_makes_no_second_game() {
    let app = spawn_app().await;
    let body = json!({ "type": "tycoon", "seats": [{ "name": "Ann" }, { "name": "Bob" }, { "open": true }] });
    let first = post(&app, "/v1/games", KEY, &body).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    assert!(first.headers().get("idempotency-replayed").is_none());
    let location = first.headers()["location"].clone();
    let (_, first) = json_of(first).await;
    let again = post(&app, "/v1/games", KEY, &body).await;
    assert_eq!(again.status(), StatusCode::CREATED);
    assert_eq!(again.headers()["idempotency-replayed"], "true");
    assert_eq!(again.headers()["location"], location);
    let (_, again) = json_of(again).await;
    assert_eq!(again, first, "the same answer, tokens included");
    assert_eq!(games_in_database(&app), 1);

    // The replayed tokens are the seats' own.
    let id = first["game_id"].as_str().unwrap();
    let token = again["seats"][1]["token"].as_str().unwrap();
    let (status, doc) = app.get_json(&format!("/v1/games/{id}"), Some(token)).await;
    assert_eq!((status, doc["seat"].as_i64()), (StatusCode::OK, Some(1)));

    // The database holds neither the key nor a token.
    let stored: Vec<String> = {
        use diesel::prelude::*;
        db::schema::lobby_idempotency_keys::table
            .select(diesel::dsl::sql::<diesel::sql_types::Text>(
                "response_body::text",
            ))
            .load(&mut app.db.conn())
            .unwrap()
    };
    assert_eq!(stored.len(), 1);
    assert!(
        !stored[0].contains(token) && !stored[0].contains(KEY),
        "{stored:?}"
    );

    // Another body under the same key is a client bug.
    let other = json!({ "type": "tycoon", "seats": [{ "name": "Ann" }, { "name": "Eve" }] });
    let res = post(&app, "/v1/games", KEY, &other).await;
    assert_problem(
        res,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    )
    .await;
    // A key stands for tokens: a short one is refused.
    let res = post(&app, "/v1/games", "retry-1", &body).await;
    assert_problem(res, StatusCode::BAD_REQUEST, "invalid_idempotency_key").await;
    assert_eq!(games_in_database(&app), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_retries_of_one_creation_make_one_game() {
    let app = Arc::new(spawn_app().await);
    let body = json!({ "type": "acquire", "seats": [{ "name": "Ann" }, { "name": "Bob" }] });
    let barrier = Arc::new(tokio::sync::Barrier::new(4));
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let (app, barrier, body) = (app.clone(), barrier.clone(), body.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                let res = post(&app, "/v1/games", KEY, &body).await;
                json_of(res).await
            })
        })
        .collect();
    let mut answers = Vec::new();
    for t in tasks {
        let (status, body) = t.await.unwrap();
        assert_eq!(status, StatusCode::CREATED, "{body}");
        answers.push(body);
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    assert_eq!(games_in_database(&app), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_join_gets_the_same_seat_and_token() {
    let app = spawn_app().await;
    let res = post(
        &app,
        "/v1/games",
        "creation-key-0123456789",
        &json!({ "type": "tycoon", "seats": [{ "name": "Ann" }, { "open": true }, { "open": true }] }),
    )
    .await;
    let (_, created) = json_of(res).await;
    let path = format!("/v1/games/{}/seats", created["game_id"].as_str().unwrap());
    let join = json!({ "name": "Bob" });
    let (status, first) = json_of(post(&app, &path, KEY, &join).await).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let again = post(&app, &path, KEY, &join).await;
    assert_eq!(again.headers()["idempotency-replayed"], "true");
    let (_, again) = json_of(again).await;
    assert_eq!(again, first);
    // One seat was taken: the last one is still open for someone else.
    let (status, other) = json_of(post(&app, &path, "another-key-0123456789", &join).await).await;
    assert_eq!(
        (status, other["seat"].as_i64()),
        (StatusCode::CREATED, Some(2)),
        "{other}"
    );
    assert_eq!(other["status"], "active");
    // The same key on another game is another request.
    let bot = json!({ "bot": "random" });
    let res = post(&app, &path, KEY, &bot).await;
    assert_problem(
        res,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    )
    .await;
}

/// A POST with a key and a bearer token.
async fn post_as(
    app: &TestApp,
    path: &str,
    token: &str,
    key: &str,
    body: &Value,
) -> reqwest::Response {
    app.req(Method::POST, path, Some(token))
        .header("idempotency-key", key)
        .json(body)
        .send()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_their_seats_and_seeks_are_created_once_per_key() {
    let app = spawn_app().await;
    // A retried player creation gets the same player and token, not `name_taken`.
    let ann = json!({ "name": "Ann" });
    let (status, first) = json_of(post(&app, "/v1/players", KEY, &ann).await).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    let again = post(&app, "/v1/players", KEY, &ann).await;
    assert_eq!(again.headers()["idempotency-replayed"], "true");
    let (_, again) = json_of(again).await;
    assert_eq!(again, first, "the same player and token");
    let token = first["token"].as_str().unwrap();
    let (status, me) = app.get_json("/v1/players/me", Some(token)).await;
    assert_eq!((status, &me["name"]), (StatusCode::OK, &json!("Ann")));
    let res = post(&app, "/v1/players", "another-key-0123456789", &ann).await;
    assert_problem(res, StatusCode::CONFLICT, "name_taken").await;

    // Its seat at creation and its join: once each.
    let open =
        json!({ "type": "tycoon", "seats": [{ "me": true }, { "open": true }, { "open": true }] });
    let (status, game) =
        json_of(post_as(&app, "/v1/games", token, "game-key-0123456789", &open).await).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let again = post_as(&app, "/v1/games", token, "game-key-0123456789", &open).await;
    assert_eq!(again.headers()["idempotency-replayed"], "true");
    assert_eq!(json_of(again).await.1, game);
    let (_, bob) = json_of(
        post(
            &app,
            "/v1/players",
            "bob-key-0123456789",
            &json!({ "name": "Bob" }),
        )
        .await,
    )
    .await;
    let bob = bob["token"].as_str().unwrap();
    let path = format!("/v1/games/{}/seats", game["game_id"].as_str().unwrap());
    let (status, joined) = json_of(post_as(&app, &path, bob, KEY, &json!({})).await).await;
    assert_eq!(
        (status, joined["seat"].as_i64()),
        (StatusCode::CREATED, Some(1)),
        "{joined}"
    );
    let again = post_as(&app, &path, bob, KEY, &json!({})).await;
    assert_eq!(again.headers()["idempotency-replayed"], "true");
    assert_eq!(json_of(again).await.1, joined);
    // The same key and body from another player is another request.
    let res = post_as(&app, &path, token, KEY, &json!({})).await;
    assert_problem(
        res,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    )
    .await;

    // A retried seek is the same seek, not a second one in the pool.
    let seek = json!({ "type": "acquire", "seats": 3 });
    let (status, first) =
        json_of(post_as(&app, "/v1/seeks", token, "seek-key-0123456789", &seek).await).await;
    assert_eq!(
        (status, &first["status"]),
        (StatusCode::CREATED, &json!("waiting")),
        "{first}"
    );
    let again = post_as(&app, "/v1/seeks", token, "seek-key-0123456789", &seek).await;
    assert_eq!(again.headers()["idempotency-replayed"], "true");
    assert_eq!(json_of(again).await.1, first);
    let seeks: i64 = {
        use diesel::prelude::*;
        db::schema::seeks::table
            .count()
            .get_result(&mut app.db.conn())
            .unwrap()
    };
    assert_eq!(seeks, 1);

    // A retried rotation, with the old token that no longer works otherwise, gets the same
    // new token.
    let rotate = "/v1/players/me/token";
    let (status, rotated) =
        json_of(post_as(&app, rotate, token, "rotate-key-0123456789", &json!({})).await).await;
    assert_eq!(status, StatusCode::OK, "{rotated}");
    let again = post_as(&app, rotate, token, "rotate-key-0123456789", &json!({})).await;
    assert_eq!(again.headers()["idempotency-replayed"], "true");
    assert_eq!(json_of(again).await.1, rotated);
    let (status, _) = app.get_json("/v1/players/me", Some(token)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let new = rotated["token"].as_str().unwrap();
    let (status, me) = app.get_json("/v1/players/me", Some(new)).await;
    assert_eq!((status, &me["name"]), (StatusCode::OK, &json!("Ann")));
}

/// Issue 39: the tokens of a keyed request are an HMAC under the deployment's secret, not a
/// hash of the key and public parts, so whoever sees a key (a proxy's or a client's log)
/// cannot compute them. The secret lives in the database: a second process on the same
/// database answers a retry with the same tokens; another deployment's differ.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keyed_tokens_cannot_be_computed_from_the_key() {
    let app = spawn_app().await;
    let body = json!({ "type": "tycoon", "seats": [{ "name": "Ann" }, { "name": "Bob" }] });
    let (status, created) = json_of(post(&app, "/v1/games", KEY, &body).await).await;
    assert_eq!(status, StatusCode::CREATED);
    let id: uuid::Uuid = created["game_id"].as_str().unwrap().parse().unwrap();
    let token = created["seats"][0]["token"].as_str().unwrap();
    // What the token was before: SHA-256 of a public constant, the key and the seat's parts.
    let from_the_key: String = db::token::fingerprint(&[
        b"board-game-server seat token",
        KEY.as_bytes(),
        b"POST /v1/games",
        id.as_bytes(),
        &0i32.to_be_bytes(),
    ])
    .iter()
    .map(|b| format!("{b:02x}"))
    .collect();
    assert_ne!(token, from_the_key);

    let second = api::Application::build(api::Settings::for_tests(app.db.url()))
        .await
        .expect("a second process on the same database");
    let second_base = format!("http://{}", second.address());
    tokio::spawn(second.run());
    let again = app
        .client
        .post(format!("{second_base}/v1/games"))
        .header("idempotency-key", KEY)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(again.headers()["idempotency-replayed"], "true");
    let (_, again) = json_of(again).await;
    assert_eq!(again["seats"][0]["token"], token, "the same secret");

    let elsewhere = spawn_app().await;
    let (_, other) = json_of(post(&elsewhere, "/v1/games", KEY, &body).await).await;
    assert_ne!(
        other["seats"][0]["token"], token,
        "another deployment's secret"
    );
}
