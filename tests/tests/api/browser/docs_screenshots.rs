//! The screenshots of `docs/web-client.md`, taken afresh: the lobby and a Monopoly game in
//! English and German, on a desktop (1280 × 900) and a phone (390 × 844), a square's help with
//! a move's preview, the end screen of a finished Tycoon game, each game's board in play
//! (Tycoon on its world map, Acquire, a Monopoly auction, Tyros on the Mediterranean) and the
//! replay of a finished game. Ignored in the suite (it
//! writes into `docs/screenshots/`); run it to refresh them:
//! `cargo test -p tests --test api browser::docs_screenshots -- --ignored`.

use std::cell::Cell;
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

    // The replay of the finished game, some way in.
    ann.goto(&format!("/games/{}?seq=40", finished.id)).await;
    ann.wait_until(
        "the replay shows event 40",
        "return document.body.dataset.replay === '40' && !!document.querySelector('#board svg');",
        vec![],
    )
    .await;
    ann.doc_shot("replay", None).await;
    ann.close().await;

    // Each game's board in play, as seat 0 sees it when a move of the kind `wanted` is
    // offered after some moves: the board drawn, the prompt bar, the moves.
    for (name, game_type, players, config, prefer, wanted, after) in [
        (
            "tycoon",
            "tycoon",
            2,
            json!({}),
            &["build_hotel", "fly", "end_turn", "buy_ticket", "pass"][..],
            "fly",
            60,
        ),
        (
            "acquire",
            "acquire",
            3,
            json!({}),
            &["place_tile", "end_turn"][..],
            "place_tile",
            40,
        ),
        (
            "monopoly",
            "monopoly",
            3,
            json!({}),
            &["pay_debt", "roll", "decline_property", "end_turn"][..],
            "pass_auction",
            10,
        ),
        (
            "tyros",
            "tyros",
            3,
            json!({ "action_cards": true }),
            &["place_tile", "found_city", "move", "end_turn"][..],
            "move",
            120,
        ),
    ] {
        let game = app.create_game_of(game_type, players, 5, config).await;
        let seen = Cell::new(0);
        let (_, mine) = play_until_seat_0_may(&app, &game, prefer, |a| {
            seen.set(seen.get() + 1);
            seen.get() > after && a["type"] == wanted
        })
        .await;
        let page = Browser::open_speaking(
            &driver,
            &app,
            &format!("docs-{name}"),
            (1280, 900),
            Some("en-US,en"),
        )
        .await;
        page.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
            .await;
        page.wait_for_version(mine["version"].as_i64().unwrap())
            .await;
        page.doc_shot(name, None).await;
        if name == "tycoon" || name == "tyros" {
            let phone = Browser::open_speaking(
                &driver,
                &app,
                &format!("docs-{name}-phone"),
                (390, 844),
                Some("en-US,en"),
            )
            .await;
            phone
                .goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
                .await;
            phone
                .wait_for_version(mine["version"].as_i64().unwrap())
                .await;
            phone.doc_shot(&format!("{name}-phone"), None).await;
            phone.close().await;
        }
        page.close().await;
    }
}
