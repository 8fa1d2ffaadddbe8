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
