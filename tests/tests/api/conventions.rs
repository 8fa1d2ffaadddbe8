//! HTTP conventions a browser or a careful client relies on: CORS (preflights and exposed
//! headers), HEAD wherever GET is, rate limits with their headers and 429.

use api::middleware::rate_limit::Budget;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{assert_problem, spawn_app, spawn_app_with};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_preflight_from_any_origin_is_answered_and_responses_expose_our_headers() {
    let app = spawn_app().await;
    let game = app.create_game(2, 5).await;
    let actions = format!("/v1/games/{}/actions", game.id);
    let res = app
        .req(Method::OPTIONS, &actions, None)
        .header("origin", "https://bots.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization, content-type, idempotency-key, if-match",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let h = res.headers();
    assert_eq!(h["access-control-allow-origin"], "*");
    let methods = h["access-control-allow-methods"].to_str().unwrap();
    assert!(
        methods.contains("POST") && methods.contains("GET"),
        "{methods}"
    );
    // Header names are case-insensitive (actix-cors writes them in lower case).
    let allowed = h["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase();
    for name in [
        "Authorization",
        "Content-Type",
        "If-Match",
        "If-None-Match",
        "Idempotency-Key",
    ] {
        assert!(
            allowed.contains(&name.to_ascii_lowercase()),
            "{name} not allowed: {allowed}"
        );
    }

    let res = app
        .req(Method::GET, &format!("/v1/games/{}", game.id), None)
        .header("origin", "https://bots.example")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["access-control-allow-origin"], "*");
    let exposed = res.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase();
    for name in [
        "ETag",
        "Link",
        "Retry-After",
        "X-Request-Id",
        "Idempotency-Replayed",
        "RateLimit-Remaining",
    ] {
        assert!(
            exposed.contains(&name.to_ascii_lowercase()),
            "{name} not exposed: {exposed}"
        );
    }
    // Issue 39: a page may cancel a seek (DELETE): the preflight allows it.
    let res = app
        .req(
            Method::OPTIONS,
            "/v1/seeks/0b6f3c5e-2a41-4c1b-9d7e-5f0a8e2c1d34",
            None,
        )
        .header("origin", "https://bots.example")
        .header("access-control-request-method", "DELETE")
        .header("access-control-request-headers", "authorization")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let methods = res.headers()["access-control-allow-methods"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(methods.contains("DELETE"), "{methods}");
    // A preflight for a method the API has nowhere is refused with a problem document.
    let res = app
        .req(Method::OPTIONS, &actions, None)
        .header("origin", "https://bots.example")
        .header("access-control-request-method", "PATCH")
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::BAD_REQUEST, "bad_request").await;
    // A request without Origin is no CORS request: no CORS headers, and a bare OPTIONS is
    // still a 405.
    let res = app
        .req(Method::OPTIONS, &actions, None)
        .send()
        .await
        .unwrap();
    assert!(res.headers().get("access-control-allow-origin").is_none());
    assert_problem(res, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_listed_origins_are_allowed_when_a_list_is_configured() {
    let app = spawn_app_with(|s| s.cors_origins = "https://app.example".into()).await;
    let get = |origin: &'static str| {
        app.req(Method::GET, "/v1/game-types", None)
            .header("origin", origin)
            .send()
    };
    let res = get("https://app.example").await.unwrap();
    assert_eq!(
        res.headers()["access-control-allow-origin"],
        "https://app.example"
    );
    let res = get("https://evil.example").await.unwrap();
    assert!(res.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn head_is_answered_wherever_get_is_without_a_body() {
    let app = spawn_app().await;
    let game = app.create_game(2, 6).await;
    for path in [
        format!("/v1/games/{}", game.id),
        format!("/v1/games/{}/events", game.id),
        "/v1/game-types".to_string(),
        "/healthz".to_string(),
        "/openapi.json".to_string(),
        "/docs/".to_string(),
    ] {
        let get = app.req(Method::GET, &path, None).send().await.unwrap();
        let head = app.req(Method::HEAD, &path, None).send().await.unwrap();
        assert_eq!(head.status(), get.status(), "{path}");
        assert_eq!(head.status(), StatusCode::OK, "{path}");
        assert_eq!(
            head.headers().get("etag"),
            get.headers().get("etag"),
            "{path}"
        );
        assert_eq!(head.bytes().await.unwrap().len(), 0, "{path}");
    }
    // A route without GET still answers HEAD with 405, listing HEAD where GET is.
    let res = app
        .req(
            Method::HEAD,
            &format!("/v1/games/{}/actions", game.id),
            None,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    let res = app
        .req(Method::DELETE, &format!("/v1/games/{}", game.id), None)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["allow"], "GET, HEAD");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_its_budget_a_client_gets_429_with_retry_after_and_ratelimit_headers() {
    let budget = |burst, per_second| Budget { burst, per_second };
    let app = spawn_app_with(|s| {
        s.no_rate_limits = false;
        s.rate_limit_token = budget(3, 0.01);
        s.rate_limit_address = budget(100, 0.01);
        s.rate_limit_lobby = budget(2, 0.01);
    })
    .await;
    let game = app.create_game(2, 7).await;
    let token = &game.tokens[0];
    let path = format!("/v1/games/{}", game.id);
    let mut remaining = Vec::new();
    for _ in 0..3 {
        let res = app
            .req(Method::GET, &path, Some(token))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["ratelimit-limit"], "3");
        remaining.push(
            res.headers()["ratelimit-remaining"]
                .to_str()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(remaining, ["2", "1", "0"]);
    let res = app
        .req(Method::GET, &path, Some(token))
        .send()
        .await
        .unwrap();
    let retry_after: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry_after >= 1);
    assert_eq!(res.headers()["ratelimit-remaining"], "0");
    // Issue 39: the two headers agree (Reset said when the whole burst was back).
    assert_eq!(
        res.headers()["ratelimit-reset"],
        retry_after.to_string().as_str()
    );
    assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
    // Another seat has its own budget; a spectator is counted by address.
    let res = app
        .req(Method::GET, &path, Some(&game.tokens[1]))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let res = app.req(Method::GET, &path, None).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["ratelimit-limit"], "100");
    // Creating games has its own, tighter budget per address: two were allowed (one above).
    let create = json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "name": "B" }] });
    let res = app
        .req(Method::POST, "/v1/games", None)
        .json(&create)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let res = app
        .req(Method::POST, "/v1/games", None)
        .json(&create)
        .send()
        .await
        .unwrap();
    assert!(res.headers().contains_key("retry-after"));
    assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "rate_limited").await;
}

/// A problem's `type` URI leads somewhere: a page per code (what it means, which rule, what
/// to do), made from the same lists as the document's codes, and an index of them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn problem_type_uris_answer_with_a_page_per_code() {
    let app = spawn_app().await;
    let res = app
        .req(Method::GET, "/v1/games/not-a-uuid", None)
        .send()
        .await
        .unwrap();
    let problem = assert_problem(res, StatusCode::BAD_REQUEST, "invalid_id").await;
    let page = app
        .req(Method::GET, problem["type"].as_str().unwrap(), None)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(page.headers()["content-type"], "text/html; charset=utf-8");
    let text = page.text().await.unwrap();
    for part in [
        "<code>invalid_id</code>",
        "What it means",
        "Which rule",
        "What to do",
    ] {
        assert!(text.contains(part), "{part}: {text}");
    }
    let doc: serde_json::Value = serde_json::from_str(&api::openapi::document_json()).unwrap();
    let listed = doc["components"]["schemas"]["Problem"]["properties"]["code"]["description"]
        .as_str()
        .unwrap()
        .to_string();
    let index = app
        .req(Method::GET, "/problems/", None)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    // Issue 39: the index answers without the slash too (it was 404).
    let bare = app
        .req(Method::GET, "/problems", None)
        .send()
        .await
        .unwrap();
    assert_eq!(bare.status(), StatusCode::OK);
    assert_eq!(bare.text().await.unwrap(), index);
    for code in api::problems::codes() {
        assert!(
            listed.contains(&format!("`{code}`")),
            "{code} not in the document"
        );
        assert!(
            index.contains(&format!("/problems/{code}\"")),
            "{code} not in the index"
        );
    }
    let res = app
        .req(Method::GET, "/problems/tycoon.ticket_not_in_hand", None)
        .send()
        .await
        .unwrap();
    assert!(res.text().await.unwrap().contains("engine/rules/tycoon.md"));
    let res = app
        .req(Method::GET, "/problems/no_such_code", None)
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::NOT_FOUND, "not_found").await;
}
