//! The push stream in the browser: a page following a game with `?updates=stream` shows the
//! opponent's moves, made by another client through the API, without a reload and without
//! falling back to the long poll.

use serde_json::json;

use super::{Browser, Chromedriver, ONE_AT_A_TIME};
use crate::helpers::spawn_app;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stream_transport_delivers_the_opponents_moves_without_a_reload() {
    let _one = ONE_AT_A_TIME.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game(2, 5).await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "stream", (1024, 800)).await;
    page.goto(&format!(
        "/games/{}?updates=stream#token={}",
        game.id, game.tokens[0]
    ))
    .await;
    page.wait_ready().await;
    assert_eq!(
        page.js("return document.body.dataset.seat;", vec![]).await,
        "0"
    );
    // A mark that a reload would wipe.
    page.js("window.notReloaded = true;", vec![]).await;

    let mut opponent_moves = 0;
    for _ in 0..300 {
        if opponent_moves == 3 {
            break;
        }
        let doc = app.document(&game, None).await;
        let seat = doc["active_seats"][0].as_u64().expect("a seat to act") as usize;
        let legal = app.legal(&game, seat).await;
        let action = legal["actions"][0].clone();
        let version = doc["version"].as_i64().unwrap();
        let (status, body) = app
            .act(
                &game,
                seat,
                &json!({ "action": action, "expected_version": version }),
            )
            .await;
        assert!(status.is_success(), "{body}");
        if seat == 1 {
            opponent_moves += 1;
        }
        let now = app.version(&game).await;
        page.wait_until(
            &format!("the page shows version {now} from the stream"),
            "return Number(document.body.dataset.version) === arguments[0];",
            vec![json!(now)],
        )
        .await;
    }
    assert_eq!(opponent_moves, 3, "the opponent never got to move");
    let got = page
        .js(
            "return [window.notReloaded === true, document.body.dataset.updates];",
            vec![],
        )
        .await;
    assert_eq!(
        got,
        json!([true, "stream"]),
        "the page reloaded or fell back to the long poll"
    );
    page.close().await;
}
