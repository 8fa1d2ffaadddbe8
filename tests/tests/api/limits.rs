//! Limits that hold against a hostile client (loopback only, bounded): every way around a
//! budget that a client found once is a test here. Each server below has budgets small
//! enough to spend in a few requests and refills slow enough (one request per 100 s) that
//! nothing refills during a test.

use std::sync::Arc;

use api::middleware::rate_limit::Budget;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, spawn_app_with, TestApp};

fn budget(burst: u32) -> Budget {
    Budget {
        burst,
        per_second: 0.01,
    }
}

/// A server with rate limits on: `token`, `address` and `lobby` requests per client.
async fn limited(token: u32, address: u32, lobby: u32) -> TestApp {
    spawn_app_with(|s| {
        s.no_rate_limits = false;
        s.rate_limit_token = budget(token);
        s.rate_limit_address = budget(address);
        s.rate_limit_lobby = budget(lobby);
    })
    .await
}

fn two_seats() -> Value {
    json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "name": "B" }] })
}

fn random_bearer(i: usize) -> String {
    format!("{:064x}", 0x5eed_0000_u64 + i as u64)
}

async fn status_of(req: reqwest::RequestBuilder) -> StatusCode {
    req.send().await.unwrap().status()
}

/// Bypass 1 and 2 of issue 23: `POST /v1/%67ames` and `…/seat%73` are routed like
/// `/v1/games` and `…/seats`, but the limiter compared the raw path and let them through on
/// the general budget. Limits now see the path the router sees.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn percent_encoded_paths_draw_from_the_lobby_budget_like_plain_ones() {
    let app = limited(100, 100, 2).await;
    let created = app
        .req(Method::POST, "/v1/games", None)
        .json(&json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "open": true }, { "open": true }] }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    let id = created.json::<Value>().await.unwrap()["game_id"]
        .as_str()
        .unwrap()
        .to_string();
    // The second lobby request, spelled with an encoded letter: still the lobby's.
    let join = app
        .req(Method::POST, &format!("/v1/games/{id}/seat%73"), None)
        .json(&json!({ "name": "B" }))
        .send()
        .await
        .unwrap();
    assert_eq!(
        join.status(),
        StatusCode::CREATED,
        "the encoded path routes"
    );
    assert_eq!(join.headers()["ratelimit-limit"], "2");
    for path in ["/v1/%67ames", "/v1/g%61mes", "/v1/games"] {
        let res = app
            .req(Method::POST, path, None)
            .json(&two_seats())
            .send()
            .await
            .unwrap();
        assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    }
    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/seat%73"), None)
        .json(&json!({ "name": "C" }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    // A bearer token changes nothing about the lobby budget, known or not.
    let res = app
        .req(Method::POST, "/v1/%67ames", Some(&random_bearer(1)))
        .json(&two_seats())
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
}

/// Bypass 1 and 3: a made-up bearer token got a fresh budget of its own per request. A token
/// that is no seat's is no identity: such requests spend the address's budget.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_bearer_tokens_spend_the_address_budget() {
    let app = limited(100, 4, 100).await;
    let game = app.create_game(2, 3).await;
    let paths = [
        "/v1/game-types".to_string(),
        format!("/v1/games/{}", game.id),
        format!("/v1/games/{}/stream", game.id),
        "/v1/game-types".to_string(),
    ];
    for (i, path) in paths.iter().enumerate() {
        let res = app
            .req(Method::GET, path, Some(&random_bearer(i)))
            .send()
            .await
            .unwrap();
        assert_eq!(res.headers()["ratelimit-limit"], "4", "{path}");
        let expected = if path.ends_with("game-types") {
            StatusCode::OK
        } else {
            StatusCode::UNAUTHORIZED
        };
        assert_eq!(res.status(), expected, "{path}");
    }
    for path in [
        "/v1/game-types".to_string(),
        format!("/v1/games/{}/stream", game.id),
    ] {
        let res = app
            .req(Method::GET, &path, Some(&random_bearer(99)))
            .send()
            .await
            .unwrap();
        assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
        let res = app.req(Method::GET, &path, None).send().await.unwrap();
        assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    }
    // A real seat token still has its own budget (this process made it, so it knows it).
    let res = app
        .req(
            Method::GET,
            &format!("/v1/games/{}", game.id),
            Some(&game.tokens[0]),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

/// The same for player tokens: a made-up `pl_` token spends the address budget; a player's
/// real token has the player budget (this process made it, so it knows it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn made_up_player_tokens_spend_the_address_budget() {
    let app = spawn_app_with(|s| {
        s.no_rate_limits = false;
        s.rate_limit_address = budget(3);
        s.rate_limit_player = budget(50);
        s.rate_limit_lobby = budget(100);
    })
    .await;
    let token = app.create_player("Ann").await.token;
    for i in 0..3 {
        let res = app
            .req(
                Method::GET,
                "/v1/game-types",
                Some(&format!("pl_{}", random_bearer(i))),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(res.headers()["ratelimit-limit"], "3");
    }
    let res = app
        .req(
            Method::GET,
            "/v1/game-types",
            Some(&format!("pl_{}", random_bearer(9))),
        )
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    let res = app
        .req(Method::GET, "/v1/players/me", Some(&token))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["ratelimit-limit"], "50");
}

/// Bypass 4: `Bearer` with 2 to 10 spaces, or `bearer`, each got a fresh budget for the same
/// token, while `BEARER` was refused. The header is parsed once, as RFC 9110 defines it
/// (the scheme is case-insensitive, one or more spaces before the token), and a token has
/// one budget however it is spelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_token_has_one_budget_however_its_authorization_header_is_spelled() {
    let app = limited(3, 100, 100).await;
    let game = app.create_game(2, 4).await;
    let token = &game.tokens[0];
    let path = format!("/v1/games/{}", game.id);
    let get = |authorization: String| {
        app.client
            .get(format!("{}{path}", app.base))
            .header("authorization", authorization)
    };
    let spellings = [
        format!("Bearer {token}"),
        format!("bearer  {token}"),
        format!("BEARER          {token}"),
    ];
    for spelling in &spellings {
        let res = get(spelling.clone()).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{spelling:?}");
        assert_eq!(res.headers()["ratelimit-limit"], "3", "{spelling:?}");
    }
    for spelling in [format!("beaRER   {token}"), format!("Bearer {token}")] {
        let res = get(spelling).send().await.unwrap();
        assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    }
    // What RFC 9110 does not allow is malformed, whatever the token: a tab is no space, and
    // a token68 has no inner spaces.
    for malformed in [
        format!("Bearer\t{token}"),
        format!("Bearer {token} x"),
        "Bearer".into(),
    ] {
        let res = app
            .client
            .get(format!("{}/v1/games/{}", app.base, game.id))
            .header("authorization", malformed.clone())
            .send()
            .await
            .unwrap();
        let body = assert_problem(res, StatusCode::UNAUTHORIZED, "invalid_token").await;
        assert!(
            body["detail"].as_str().unwrap().contains("Bearer"),
            "{malformed:?}: {body}"
        );
    }
}

/// Bypass 5: behind a reverse proxy every client shares the proxy's address. With
/// `--trusted-proxies`, the client address comes from the one forwarding header the operator
/// names (`--client-address-header`, `x-forwarded-for` by default), but only on requests from
/// those proxies; anyone else's forwarding headers are ignored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_address_budget() {
    let app = spawn_app_with(|s| {
        s.no_rate_limits = false;
        s.rate_limit_address = budget(2);
        s.trusted_proxies = "127.0.0.0/8, ::1".parse().unwrap();
    })
    .await;
    let get = |name: &'static str, value: &'static str| {
        app.req(Method::GET, "/v1/game-types", None)
            .header(name, value)
    };
    for _ in 0..2 {
        assert_eq!(
            status_of(get("x-forwarded-for", "203.0.113.7")).await,
            StatusCode::OK
        );
    }
    let res = get("x-forwarded-for", "203.0.113.7").send().await.unwrap();
    assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    // The same client through a second proxy hop.
    let res = get("x-forwarded-for", "203.0.113.7, 127.0.0.5")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    // Another client behind the same proxy has its own budget.
    assert_eq!(
        status_of(get("x-forwarded-for", "198.51.100.9")).await,
        StatusCode::OK
    );
    // A client claiming a forged chain cannot pick its address: the rightmost address a
    // trusted proxy did not add is the client.
    let res = get("x-forwarded-for", "198.51.100.10, 203.0.113.7")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    // Issue 39: the proxy writes X-Forwarded-For and passes the client's own `Forwarded`
    // through (nginx's usual set-up); a `Forwarded` of the client's choosing buys nothing.
    for i in 0..20 {
        let res = app
            .req(Method::GET, "/v1/game-types", None)
            .header("x-forwarded-for", "203.0.113.7")
            .header("forwarded", format!("for=192.0.2.{i}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS, "attempt {i}");
    }

    // Behind a proxy that writes `Forwarded`, only that header is read.
    let rfc = spawn_app_with(|s| {
        s.no_rate_limits = false;
        s.rate_limit_address = budget(2);
        s.trusted_proxies = "127.0.0.0/8, ::1".parse().unwrap();
        s.client_address_header = api::middleware::client_address::ForwardingHeader::Forwarded;
    })
    .await;
    let get = |value: String| {
        rfc.req(Method::GET, "/v1/game-types", None)
            .header("forwarded", "for=203.0.113.7;proto=https")
            .header("x-forwarded-for", value)
    };
    for i in 0..2 {
        assert_eq!(
            status_of(get(format!("198.51.100.{i}"))).await,
            StatusCode::OK
        );
    }
    for i in 2..10 {
        assert_eq!(
            status_of(get(format!("198.51.100.{i}"))).await,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
    assert_eq!(
        status_of(
            rfc.req(Method::GET, "/v1/game-types", None)
                .header("forwarded", "for=\"[2001:db8::1]:4711\"")
        )
        .await,
        StatusCode::OK
    );

    // Without trusted proxies the headers mean nothing: one address, one budget.
    let untrusting = limited(100, 2, 100).await;
    for i in 0..3 {
        let res = untrusting
            .req(Method::GET, "/v1/game-types", None)
            .header("x-forwarded-for", format!("198.51.100.{i}"))
            .header("forwarded", format!("for=198.51.100.{i}"))
            .send()
            .await
            .unwrap();
        let expected = if i < 2 {
            StatusCode::OK
        } else {
            StatusCode::TOO_MANY_REQUESTS
        };
        assert_eq!(res.status(), expected);
    }
}

/// `--bot-max-games` is exact under concurrent creators: the count and the insert are one
/// transaction, serialized with every other start of a game of bots only (before, 8 creators
/// made 13 games under a limit of 10). This process moves no bots, so every game stays
/// running.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_bot_game_limit_holds_under_concurrent_creators() {
    const LIMIT: usize = 3;
    const CREATORS: usize = 16;
    let app = Arc::new(
        spawn_app_with(|s| {
            s.bot_threads = 0;
            s.bot_max_games = LIMIT as u32;
            s.workers = Some(4);
        })
        .await,
    );
    let bots_only = json!({ "type": "tyros", "seats": [{ "bot": "random" }, { "bot": "random" }, { "bot": "random" }] });
    // A table of bots filled by a join counts as well.
    let open = app
        .req(Method::POST, "/v1/games", None)
        .json(&json!({ "type": "tycoon", "seats": [{ "bot": "random" }, { "open": true }] }))
        .send()
        .await
        .unwrap();
    let open_id = open.json::<Value>().await.unwrap()["game_id"]
        .as_str()
        .unwrap()
        .to_string();
    let barrier = Arc::new(tokio::sync::Barrier::new(CREATORS + 1));
    let mut tasks = Vec::new();
    for i in 0..=CREATORS {
        let (app, barrier, body, open_id) = (
            app.clone(),
            barrier.clone(),
            bots_only.clone(),
            open_id.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let req = if i == CREATORS {
                app.req(Method::POST, &format!("/v1/games/{open_id}/seats"), None)
                    .json(&json!({ "bot": "greedy" }))
            } else {
                app.req(Method::POST, "/v1/games", None).json(&body)
            };
            barrier.wait().await;
            req.send().await.unwrap().status()
        }));
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    let created = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!(
        (created, refused),
        (LIMIT, CREATORS + 1 - LIMIT),
        "{statuses:?}"
    );
    let running: i64 = {
        let mut conn = app.db.conn();
        db::store::active_bot_only_games(&mut conn).unwrap()
    };
    assert_eq!(running, LIMIT as i64);
}

/// A game whose people have all been replaced by the server's bots after their clocks ran out
/// runs unattended like one created with bots only, so it counts against `--bot-max-games`
/// (it did not: only seats given to a bot at creation or by a join counted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_people_bots_stand_in_for_counts_as_a_game_of_bots() {
    // No bot thread: the stand-in never moves, so the game stays running as it is.
    let app = spawn_app_with(|s| {
        s.bot_threads = 0;
        s.bot_max_games = 1;
    })
    .await;
    let created = app
        .req(Method::POST, "/v1/games", None)
        .json(&json!({
            "type": "tycoon",
            "seats": [{ "name": "A" }, { "bot": "random" }],
            "clock": { "kind": "per_move", "seconds": 1, "bot": "random" },
            "seed": 21,
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    let body: Value = created.json().await.unwrap();
    let game = crate::helpers::Game {
        id: body["game_id"].as_str().unwrap().to_string(),
        tokens: vec![body["seats"][0]["token"].as_str().unwrap().to_string()],
    };
    let running = |app: &TestApp| {
        let mut conn = app.db.conn();
        db::store::active_bot_only_games(&mut conn).unwrap()
    };
    // While A plays seat 0, the game is no game of bots. Her clock is one second, so a slow
    // machine may find her taken over already: the count is judged only if the document read
    // after it still shows her playing (a count of 1 must come with the takeover).
    let before = running(&app);
    let doc = app.document(&game, None).await;
    if doc["seats"][0]["status"] != "taken_over" {
        assert_eq!(before, 0, "A plays seat 0: {}", doc["seats"][0]);
    }
    crate::helpers::wait_for("seat 0 to be taken over", || async {
        let doc = app.document(&game, None).await;
        (doc["seats"][0]["status"] == "taken_over").then_some(())
    })
    .await;
    assert_eq!(running(&app), 1, "bots play every seat now");
    let res = app
        .req(Method::POST, "/v1/games", None)
        .json(&json!({ "type": "tycoon", "seats": [{ "bot": "random" }, { "bot": "random" }] }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "bot_game_limit").await;
}
