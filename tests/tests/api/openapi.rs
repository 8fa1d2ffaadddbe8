//! The committed OpenAPI document is the generated one.

#[test]
fn the_committed_openapi_json_equals_the_generated_document() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json");
    let committed = std::fs::read_to_string(path).expect("openapi/openapi.json exists");
    let generated = api::openapi::document_json();
    assert!(
        committed == generated,
        "openapi/openapi.json is stale: run `cargo run -p api --bin openapi > openapi/openapi.json`"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_served_document_and_docs_page_are_available() {
    let app = crate::helpers::spawn_app().await;
    let (status, doc) = app.get_json("/openapi.json", None).await;
    assert_eq!(status, reqwest::StatusCode::OK);
    for path in [
        "/v1/game-types",
        "/v1/games",
        "/v1/games/{id}",
        "/v1/games/{id}/seats",
        "/v1/games/{id}/start",
        "/v1/games/{id}/legal-actions",
        "/v1/games/{id}/actions",
        "/v1/games/{id}/events",
        "/v1/games/{id}/states/{seq}",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} undocumented");
    }
    assert!(doc["components"]["schemas"]["TycoonAction"].is_object());
    let res = app
        .req(reqwest::Method::GET, "/docs/", None)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    let (status, health) = app.get_json("/healthz", None).await;
    assert_eq!(
        (status, health["status"].as_str()),
        (reqwest::StatusCode::OK, Some("ok"))
    );
    let (status, _) = app.get_json("/readyz", None).await;
    assert_eq!(status, reqwest::StatusCode::OK);
    let metrics = app
        .req(reqwest::Method::GET, "/metrics", None)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("http_requests_total{method=\"GET\",route=\"/readyz\",status=\"200\"} 1"),
        "{metrics}"
    );
    assert!(metrics.contains("db_pool_max_size"));
}

#[test]
fn every_operation_on_games_documents_the_503_with_retry_after() {
    let doc: serde_json::Value = serde_json::from_str(&api::openapi::document_json()).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    let mut checked = 0;
    for (path, item) in paths.iter().filter(|(p, _)| p.starts_with("/v1/games")) {
        for (method, operation) in item.as_object().unwrap() {
            let unavailable = &operation["responses"]["503"];
            assert!(
                unavailable["headers"]["Retry-After"].is_object(),
                "{method} {path}: {unavailable}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} operations under /v1/games");
}

fn document() -> serde_json::Value {
    serde_json::from_str(&api::openapi::document_json()).unwrap()
}

/// Every operation has a one-line summary and a description; the document names its contact
/// and licence (what generators and documentation tools show first).
#[test]
fn every_operation_has_a_one_line_summary_and_a_description() {
    let doc = document();
    assert!(doc["info"]["contact"]["name"].is_string());
    assert_eq!(doc["info"]["license"]["identifier"], "MIT");
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let summary = op["summary"].as_str().unwrap_or_default();
            assert!(
                !summary.is_empty() && !summary.contains('\n') && summary.len() <= 80,
                "{method} {path}: summary {summary:?}"
            );
            assert!(
                op["description"]
                    .as_str()
                    .is_some_and(|d| d.len() > summary.len()),
                "{method} {path} has no description"
            );
        }
    }
}

/// Anonymous access is the document's default ("anonymous, or a seat token"); only the
/// operations that need a seat or a player say so. Generators then give anonymous calls a
/// plain client (openapi-python-client asks for an authenticated one wherever an operation
/// lists any requirement, even an empty one).
#[test]
fn only_operations_that_need_a_seat_or_a_player_declare_a_security_requirement() {
    let doc = document();
    assert_eq!(doc["security"], serde_json::json!([{}, {"seat_token": []}]));
    let mut needing = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(s) = op.get("security") else {
                continue;
            };
            let scheme = if path.starts_with("/v1/players/me") || path.starts_with("/v1/seeks") {
                "player_token"
            } else {
                "seat_token"
            };
            assert_eq!(*s, serde_json::json!([{ scheme: [] }]), "{method} {path}");
            needing.push(format!("{method} {path}"));
        }
    }
    needing.sort();
    assert_eq!(
        needing,
        [
            "delete /v1/seeks/{id}",
            "get /v1/players/me",
            "get /v1/players/me/games",
            "get /v1/players/me/stream",
            "post /v1/games/{id}/abort",
            "post /v1/games/{id}/actions",
            "post /v1/games/{id}/actions/dry-run",
            "post /v1/games/{id}/seats/{seat}/reclaim",
            "post /v1/games/{id}/seats/{seat}/resign",
            "post /v1/games/{id}/start",
            "post /v1/players/me/token",
            "post /v1/seeks",
        ]
    );
}

/// The event log's JSON answer is one type (`EventPage`); the NDJSON export is an operation of
/// its own, so a typed client never gets a union of a page and a line.
#[test]
fn the_event_page_and_the_ndjson_export_are_separate_operations() {
    let doc = document();
    let page = &doc["paths"]["/v1/games/{id}/events"]["get"]["responses"]["200"]["content"];
    assert_eq!(page.as_object().unwrap().len(), 1, "{page}");
    assert_eq!(
        page["application/json"]["schema"]["$ref"],
        "#/components/schemas/EventPage"
    );
    let export =
        &doc["paths"]["/v1/games/{id}/events.ndjson"]["get"]["responses"]["200"]["content"];
    assert_eq!(
        export["application/x-ndjson"]["schema"]["$ref"],
        "#/components/schemas/LoggedEvent"
    );
    // Stream messages: told apart by `event`, their data typed per game.
    let sse = &doc["components"]["schemas"]["ServerSentEvent"];
    assert_eq!(sse["discriminator"]["propertyName"], "event", "{sse}");
    let logged = &doc["components"]["schemas"]["LoggedEvent"];
    assert_eq!(logged["discriminator"]["propertyName"], "type", "{logged}");
}
