//! The server's time in the browser: a seat's clock counts down to the server's deadline even
//! when the page got some of its answers from the browser's cache (the game types may be kept
//! for an hour, and their `Date` is as old as the copy), so a clock never shows more time than
//! the seat has.

use std::time::Duration;

use serde_json::{json, Value};

use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::spawn_app;

/// How long the page waits between caching the game types and opening the game: the error it
/// would make with the cached `Date`, far beyond the second a clock may be off.
const CACHED_FOR: Duration = Duration::from_secs(6);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_agrees_with_the_servers_deadline_after_answers_from_the_cache() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "server-time", (1280, 900)).await;
    // The lobby fetches the game types (`max-age=3600`): the game page later gets them from the
    // cache, with the `Date` of this moment.
    page.goto("/").await;
    page.wait_ready().await;
    tokio::time::sleep(CACHED_FOR).await;

    let res = app
        .req(reqwest::Method::POST, "/v1/games", None)
        .json(
            &json!({"type": "tycoon", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                       "clock": {"kind": "per_move", "seconds": 60}}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::CREATED);
    let created: Value = res.json().await.unwrap();
    let id = created["game_id"].as_str().unwrap();
    page.goto(&format!("/games/{id}")).await;
    page.wait_ready().await;
    // The clock's next tick after the page has all its answers (the game types are the last),
    // noted with this machine's time at that moment: a tick may come late on a loaded machine,
    // so the text is compared with the time left when it was written, not when it is read.
    tokio::time::sleep(Duration::from_millis(500)).await;
    page.js(
        "const time = document.querySelector('#players .clock.running .time');
         if (!time) return;
         new MutationObserver(() => {
           window.tickSeen ??= { text: time.textContent, at: Date.now() };
         }).observe(time, { childList: true, characterData: true, subtree: true });",
        vec![],
    )
    .await;
    page.wait_until(
        "the running clock ticks",
        "return window.tickSeen !== undefined;",
        vec![],
    )
    .await;
    // This machine's clock is the server's: the time left is the deadline less the tick's time.
    let shown = page
        .js(
            "const clock = document.querySelector('#players .clock.running');
             const [m, s] = window.tickSeen.text.split(':').map(Number);
             return { shown: m * 60 + s, left: (Date.parse(clock.dataset.deadline) - window.tickSeen.at) / 1000,
                      text: window.tickSeen.text };",
            vec![],
        )
        .await;
    let (on_page, left) = (
        shown["shown"].as_f64().unwrap(),
        shown["left"].as_f64().unwrap(),
    );
    // The text rounds up (0 to 1 s over) and the page's estimate of the server's time is good
    // to about half a round trip beyond the `Date`'s second; a cached `Date` would put it
    // `CACHED_FOR` over.
    assert!(
        (-1.0..=2.0).contains(&(on_page - left)),
        "the clock shows {} ({on_page} s) with {left:.1} s left to the server's deadline",
        shown["text"]
    );
    page.close().await;
}
