//! Conditional GETs and long polls (in one process; two processes: api/tests/).

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{spawn_app, wait_for};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn if_none_match_with_the_current_etag_gives_304_and_etags_differ_per_viewer() {
    let app = spawn_app().await;
    let game = app.create_game(2, 3).await;
    let url = format!("/v1/games/{}", game.id);
    let res = app.req(Method::GET, &url, None).send().await.unwrap();
    let spectator_tag = res.headers()["etag"].to_str().unwrap().to_string();
    let res = app
        .req(Method::GET, &url, Some(&game.tokens[0]))
        .send()
        .await
        .unwrap();
    let seat_tag = res.headers()["etag"].to_str().unwrap().to_string();
    assert_ne!(spectator_tag, seat_tag);
    let res = app
        .req(Method::GET, &url, None)
        .header("if-none-match", &spectator_tag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    // The seat's tag is not the spectator's: a full answer.
    let res = app
        .req(Method::GET, &url, None)
        .header("if-none-match", &seat_tag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_poll_returns_the_new_version_when_an_action_lands() {
    let app = std::sync::Arc::new(spawn_app().await);
    let game = app.create_game(2, 4).await;
    let url = format!("/v1/games/{}?wait=30", game.id);
    let res = app
        .req(Method::GET, &format!("/v1/games/{}", game.id), None)
        .send()
        .await
        .unwrap();
    let tag = res.headers()["etag"].to_str().unwrap().to_string();
    let version = app.version(&game).await;

    let poll = {
        let app = app.clone();
        let tag = tag.clone();
        tokio::spawn(async move {
            app.req(Method::GET, &url, None)
                .header("if-none-match", tag)
                .send()
                .await
                .unwrap()
        })
    };
    // Act only once the poll waits (it subscribes to changes before it counts as waiting), so
    // the answer can only come from the wake-up.
    wait_for("the long poll to wait", || async {
        (app.gauge("long_polls_waiting").await == 1).then_some(())
    })
    .await;
    let legal = app.legal(&game, 0).await;
    let (status, body) = app
        .act(&game, 0, &json!({ "action": legal["actions"][0] }))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let res = poll.await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let doc: serde_json::Value = res.json().await.unwrap();
    assert!(doc["version"].as_i64().unwrap() > version);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_poll_without_change_answers_304_or_the_same_version() {
    let app = spawn_app().await;
    let game = app.create_game(2, 5).await;
    let res = app
        .req(Method::GET, &format!("/v1/games/{}", game.id), None)
        .send()
        .await
        .unwrap();
    let tag = res.headers()["etag"].to_str().unwrap().to_string();
    let version = app.version(&game).await;
    let res = app
        .req(Method::GET, &format!("/v1/games/{}?wait=1", game.id), None)
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    let (status, doc) = app
        .get_json(
            &format!("/v1/games/{}?wait=1&after_version={version}", game.id),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc["version"], version);
    // A poll for a version the game is already past answers at once with the current one.
    let (status, doc) = app
        .get_json(
            &format!("/v1/games/{}?wait=30&after_version=0", game.id),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc["version"], version);
}
