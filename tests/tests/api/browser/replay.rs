//! The replay of a finished game: open a position by its link, step back to the first event
//! with the buttons and the keyboard, and find each position's view and explanation; step a
//! whole turn forward and back; axe-core finds nothing serious on the replay.

use serde_json::{json, Value};

use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::spawn_app;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_steps_back_to_the_first_event_and_shows_each_position() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game(2, 11).await;
    app.play_to_end(&game, 11, 2000).await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "replay", (1280, 1000)).await;

    let start = 6;
    page.goto(&format!("/games/{}?seq={start}", game.id)).await;
    page.wait_ready().await;
    let mut seq = start;
    while seq >= 1 {
        page.wait_until(
            &format!("the replay shows event {seq}"),
            "return document.body.dataset.replay === String(arguments[0]) &&
                    !!document.querySelector('#board svg') &&
                    location.search === '?seq=' + arguments[0];",
            vec![json!(seq)],
        )
        .await;
        // The panel shows the view as of `seq`: Ann's cash then, from the API.
        let (_, state) = app
            .get_json(&format!("/v1/games/{}/states/{seq}", game.id), None)
            .await;
        let shown = page
            .js(
                "const dl = document.querySelector('#players [data-seat=\"0\"] dl');
                 const cash = dl && [...dl.querySelectorAll('dt')].find((dt) => dt.textContent === 'Cash');
                 return [cash ? cash.nextElementSibling.textContent : null,
                         document.getElementById('replay-explanation').textContent,
                         document.querySelectorAll('#log li').length];",
                vec![],
            )
            .await;
        let cash = state["view"]["players"][0]["cash"].as_i64().unwrap();
        assert_eq!(shown[0], Value::String(format!("{cash}M")), "cash at {seq}");
        let explanation = shown[1].as_str().unwrap();
        assert!(
            explanation.starts_with(&format!("Event {seq} of ")) && explanation.len() > 20,
            "{explanation}"
        );
        assert_eq!(shown[2], json!(seq), "the log runs up to the event shown");
        if seq == start {
            page.screenshot("replay").await;
            page.assert_accessible("a replay").await;
        }
        if seq == 1 {
            assert!(
                explanation.contains("The game starts with 2 players"),
                "{explanation}"
            );
            break;
        }
        // Back one event: by button, and every other time with the left arrow key.
        if seq % 2 == 0 {
            page.click("#replay-back").await;
        } else {
            page.js("document.activeElement?.blur();", vec![]).await;
            let body = page
                .client
                .find(fantoccini::Locator::Css("body"))
                .await
                .unwrap();
            body.send_keys(&fantoccini::key::Key::Left.to_string())
                .await
                .unwrap();
        }
        seq -= 1;
    }
    // A turn at a time: forward to the next turn's start, and back to this one's.
    let turns: Vec<i64> = app
        .all_events(&game, None)
        .await
        .iter()
        .filter(|e| e["event"]["type"] == "turn_started")
        .map(|e| e["seq"].as_i64().unwrap())
        .collect();
    for (button, want) in [
        ("#replay-turn-forward", turns[0]),
        ("#replay-turn-forward", turns[1]),
        ("#replay-turn-back", turns[0]),
    ] {
        page.click(button).await;
        page.wait_until(
            &format!("{button} shows event {want}"),
            "return document.body.dataset.replay === String(arguments[0]);",
            vec![json!(want)],
        )
        .await;
    }
    // From the first event to the last and back to the live game.
    page.click("#replay-last").await;
    let last = app.version(&game).await;
    page.wait_until(
        "the replay shows the last event",
        "return document.body.dataset.replay === String(arguments[0]);",
        vec![json!(last)],
    )
    .await;
    page.click("#replay-live").await;
    page.wait_until(
        "the live game is shown",
        "return document.body.dataset.replay === '' && !document.getElementById('outcome').hidden;",
        vec![],
    )
    .await;
    page.close().await;
}
