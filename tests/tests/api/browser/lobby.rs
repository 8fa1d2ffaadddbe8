//! The lobby's list: pages of games, and the filters by game type and status (an aborted game
//! listed as such).

use reqwest::Method;
use serde_json::{json, Value};

use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{spawn_app, TestApp};

/// Waits until the list shows `rows` games; returns their ids.
async fn rows(page: &Browser, rows: usize) -> Vec<String> {
    page.wait_until(
        &format!("the list shows {rows} games"),
        "return document.querySelectorAll('#game-rows tr[data-game]').length === arguments[0];",
        vec![json!(rows)],
    )
    .await;
    let ids = page
        .js(
            "return [...document.querySelectorAll('#game-rows tr[data-game]')].map((r) => r.dataset.game);",
            vec![],
        )
        .await;
    ids.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// Creates a game through the API; returns its id.
async fn create(app: &TestApp, body: Value) -> String {
    let res = app
        .req(Method::POST, "/v1/games", None)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::CREATED);
    res.json::<Value>().await.unwrap()["game_id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_pages_through_the_games_and_filters_them_by_type_and_status() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    for seed in 0..17 {
        app.create_game(2, seed).await;
    }
    let acquire = create(
        &app,
        json!({"type": "acquire", "seats": [{"name": "A"}, {"name": "B"}]}),
    )
    .await;
    // A game called off before anyone moved, through the API as any client may.
    let (called_off, token) = {
        let res = app
            .req(Method::POST, "/v1/games", None)
            .json(&json!({"type": "tycoon", "seats": [{"name": "D"}, {"name": "E"}]}))
            .send()
            .await
            .unwrap();
        let created: Value = res.json().await.unwrap();
        (
            created["game_id"].as_str().unwrap().to_string(),
            created["seats"][0]["token"].as_str().unwrap().to_string(),
        )
    };
    let res = app
        .req(
            Method::POST,
            &format!("/v1/games/{called_off}/abort"),
            Some(&token),
        )
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.text().await.unwrap());
    let open = create(
        &app,
        json!({"type": "tycoon", "seats": [{"name": "C"}, {"open": true}]}),
    )
    .await;

    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "lobby", (1280, 1000)).await;
    page.goto("/").await;
    page.wait_ready().await;
    let first = rows(&page, 15).await;
    // 20 games: 15 on the first page, 5 on the second.
    assert_eq!(first[0], open, "newest first");
    page.click("#page-next").await;
    let second = rows(&page, 5).await;
    assert!(second.iter().all(|id| !first.contains(id)));
    page.click("#page-prev").await;
    assert_eq!(rows(&page, 15).await, first);

    page.select("#filter-type", "acquire").await;
    assert_eq!(rows(&page, 1).await, [acquire]);
    assert_eq!(
        page.js("return location.search;", vec![]).await,
        "?type=acquire"
    );
    page.select("#filter-type", "").await;
    page.select("#filter-status", "aborted").await;
    assert_eq!(rows(&page, 1).await, std::slice::from_ref(&called_off));
    let said = page
        .js(
            "return document.querySelector('#game-rows tr[data-game] .status').textContent;",
            vec![],
        )
        .await;
    assert_eq!(said, "Aborted", "the list words the status");
    page.select("#filter-status", "open").await;
    assert_eq!(rows(&page, 1).await, std::slice::from_ref(&open));
    page.wait_until(
        "the open seat can be joined",
        "return !!document.querySelector('button.join[data-seat=\"1\"]');",
        vec![],
    )
    .await;
    // The filters survive a reload: they are in the address.
    page.client.refresh().await.unwrap();
    page.wait_ready().await;
    assert_eq!(rows(&page, 1).await, [open]);
    page.close().await;
}

/// Tyros under a per-move clock (docs/games/tyros.md, "Endless bank swaps"): the new-game form
/// ticks "One bank trade per round" for a per-move clock and unticks it for the others, until
/// the creator sets the box by hand; the game is created with what the box shows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tyros_table_with_a_per_move_clock_starts_with_one_bank_trade_per_round() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "lobby-tyros", (1280, 1000)).await;
    page.begin_new_game("Ann", "tyros", "bank_trade_once_per_round", 3)
        .await;
    let ticked = || async {
        page.js(
            "return document.getElementById('config-bank_trade_once_per_round').checked;",
            vec![],
        )
        .await
    };
    page.select("#new-clock", "none").await;
    assert!(!ticked().await.as_bool().unwrap());
    page.select("#new-clock", "day").await;
    assert!(
        ticked().await.as_bool().unwrap(),
        "a per-move clock ticks it"
    );
    page.select("#new-clock", "blitz").await;
    assert!(
        !ticked().await.as_bool().unwrap(),
        "a clock for the whole game does not"
    );
    page.select("#new-clock", "three-days").await;
    assert!(ticked().await.as_bool().unwrap());
    // The option lives under "More options": the creator unfolds them to change it.
    page.click("#more-options > summary").await;
    page.click("#config-bank_trade_once_per_round").await;
    page.select("#new-clock", "day").await;
    assert!(
        !ticked().await.as_bool().unwrap(),
        "the creator's own choice stands"
    );
    page.click("#config-bank_trade_once_per_round").await;
    page.create_new_game().await;
    let game = page.open_created_game().await;
    let res = app
        .req(
            Method::GET,
            &format!("/v1/games/{game}/events?limit=1"),
            None,
        )
        .send()
        .await
        .unwrap();
    // The first event starts the game with its config.
    let page_of_events: Value = res.json().await.unwrap();
    let started = &page_of_events["events"][0]["event"];
    assert_eq!(started["type"], "game_started", "{started}");
    assert_eq!(started["config"]["bank_trade_once_per_round"], true);
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_fits_a_phone_without_scrolling_sideways() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    for seed in 0..3 {
        app.create_game(2, seed).await;
    }
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "lobby-phone", (390, 844)).await;
    page.goto("/").await;
    page.wait_ready().await;
    rows(&page, 3).await;
    // The list's hidden "Replay" heading scrolls with the list, not the page.
    page.assert_fits_width("the lobby on a phone").await;
    page.close().await;
}
