//! When the database goes away, requests get 503 with `Retry-After`, never a 500.

use reqwest::{Method, StatusCode};

use crate::helpers::{assert_problem, spawn_app};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_get_503_with_retry_after_when_the_database_is_gone() {
    let app = spawn_app().await;
    let game = app.create_game(2, 1).await;
    let crate::helpers::TestApp { base, client, db } = app;
    // Dropping the test database ends every connection to it and makes new ones fail.
    tokio::task::spawn_blocking(move || drop(db)).await.unwrap();
    for path in ["/readyz".to_string(), format!("/v1/games/{}", game.id)] {
        let res = client
            .request(Method::GET, format!("{base}{path}"))
            .send()
            .await
            .unwrap();
        assert_eq!(
            res.headers()
                .get("retry-after")
                .map(|v| v.to_str().unwrap()),
            Some("1")
        );
        assert_problem(res, StatusCode::SERVICE_UNAVAILABLE, "unavailable").await;
    }
}
