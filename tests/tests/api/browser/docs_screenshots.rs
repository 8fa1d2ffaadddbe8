//! The screenshots of `docs/web-client.md`, taken afresh: the lobby and a Monopoly game in
//! English and German, on a desktop (1280 × 900) and a phone (390 × 844), a square's help with
//! a move's preview, and the end screen of a finished Tycoon game. Ignored in the suite (it
//! writes into `docs/screenshots/`); run it to refresh them:
//! `cargo test -p tests --test api browser::docs_screenshots -- --ignored`.

use std::path::PathBuf;

use serde_json::json;

use super::help::play_until_seat_0_may;
use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::spawn_app;

/// Where the docs keep their screenshots.
fn docs_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/screenshots"))
}

impl Browser {
    /// Saves what the window shows, scrolled to `css` (the top of the page with `None`), as
    /// `docs/screenshots/<name>.png`.
    async fn doc_shot(&self, name: &str, css: Option<&str>) {
        self.js(
            "const e = arguments[0] && document.querySelector(arguments[0]);
             if (e) e.scrollIntoView({ block: 'start' }); else window.scrollTo(0, 0);",
            vec![json!(css)],
        )
        .await;
        let png = self.client.screenshot().await.expect("a screenshot");
        std::fs::write(docs_dir().join(format!("{name}.png")), png).expect("docs/screenshots");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes docs/screenshots/; run by hand to refresh the docs"]
async fn docs_screenshots() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game_of("monopoly", 3, 7, json!({})).await;
    let prefer = [
        "pay_debt",
        "roll",
        "buy_property",
        "end_turn",
        "pass_auction",
    ];
    let (buy, mine) =
        play_until_seat_0_may(&app, &game, &prefer, |a| a["type"] == "buy_property").await;
    let version = mine["version"].as_i64().unwrap();
    let finished = app.create_game_of("tycoon", 2, 8, json!({})).await;
    app.play_to_end(&finished, 8, 3000).await;

    let driver = Chromedriver::start().await;
    for (lang, accept) in [("en", "en-US,en"), ("de", "de-DE,de")] {
        for (size, suffix) in [((1280, 900), ""), ((390, 844), "-phone")] {
            let page = Browser::open_speaking(
                &driver,
                &app,
                &format!("docs-{lang}{suffix}"),
                size,
                Some(accept),
            )
            .await;
            page.goto("/").await;
            page.wait_ready().await;
            page.doc_shot(&format!("lobby-{lang}{suffix}"), None).await;
            page.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
                .await;
            page.wait_for_version(version).await;
            page.doc_shot(&format!("game-{lang}{suffix}"), None).await;
            page.close().await;
        }
    }

    // The help of a square with the preview of buying it, and the end screen.
    let ann =
        Browser::open_speaking(&driver, &app, "docs-help", (1280, 900), Some("en-US,en")).await;
    ann.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    ann.wait_for_version(version).await;
    ann.js(
        "const spot = [...document.querySelectorAll('#board [data-actions]')]
           .find((e) => JSON.parse(e.dataset.actions).some((a) => a.type === arguments[0]))
           ?.closest('[data-help]');
         spot?.scrollIntoView({ block: 'center' });
         (spot?.querySelector('[role=button]') ?? spot)?.focus({ preventScroll: true });",
        vec![buy["type"].clone()],
    )
    .await;
    ann.wait_until(
        "the help of the square shows",
        "return !document.getElementById('board-help').hidden;",
        vec![],
    )
    .await;
    let png = ann.client.screenshot().await.expect("a screenshot");
    std::fs::write(docs_dir().join("help-en.png"), png).expect("docs/screenshots");
    ann.goto(&format!("/games/{}", finished.id)).await;
    ann.wait_until(
        "the end screen shows with its charts",
        "return !document.getElementById('outcome').hidden && !!document.querySelector('#outcome figure svg');",
        vec![],
    )
    .await;
    ann.doc_shot("endscreen-en", Some("#outcome")).await;
    ann.close().await;
}
