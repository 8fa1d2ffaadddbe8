//! Turn notifications (issue 38): while it is the player's turn the tab's title and icon say
//! so; when it becomes the player's turn while the tab is hidden, a browser notification says
//! so (in a Chromium that allowed the site's notifications), and it closes once the tab is
//! seen again; the offer to notify is made once and remembered; a running clock under a
//! minute is warned about in the dock and the title.
//!
//! The tab is hidden by overriding `document.visibilityState` and announcing the change, as
//! the browser does when another tab comes in front (headless Chromium has no tabs in front).
//! The page's notifications are observed by wrapping `window.Notification`: the page still
//! shows real ones.

use serde_json::{json, Value};

use super::{api_document, Browser, Chromedriver, BROWSER_SLOTS};
use reqwest::Method;

use crate::helpers::{json_of, spawn_app, TestApp};

/// Counts the notifications the page shows (and which were closed) in `window.__notes`.
const SPY: &str = "const Real = window.Notification;
   window.__notes = [];
   window.Notification = class extends Real {
     constructor(title, options) {
       super(title, options);
       this.__note = { title, body: options?.body ?? '', closed: false };
       window.__notes.push(this.__note);
     }
     close() { this.__note.closed = true; super.close(); }
   };";

/// `hidden`: the tab as if another were in front of it, or back in front.
async fn set_hidden(page: &Browser, hidden: bool) {
    page.js(
        "if (arguments[0]) {
           Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
           Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
         } else {
           delete document.visibilityState;
           delete document.hidden;
         }
         document.dispatchEvent(new Event('visibilitychange'));",
        vec![json!(hidden)],
    )
    .await;
}

/// Plays random moves through the API until the game waits for `seat`.
async fn play_until_waiting_for(app: &TestApp, game: &crate::helpers::Game, seat: u64) {
    let mut rng: rand_chacha::ChaCha8Rng = rand::SeedableRng::seed_from_u64(9);
    for _ in 0..200 {
        let doc = api_document(app, &game.id).await;
        if doc["active_seats"] == json!([seat]) {
            return;
        }
        assert!(app.play_one(game, &mut rng).await, "the game ended");
    }
    panic!("the game never waited for seat {seat}");
}

/// The title, the icon's state and the notifications seen so far.
async fn signals(page: &Browser) -> Value {
    page.js(
        "const icon = document.querySelector('link[rel=icon]');
         return { title: document.title, turnIcon: icon.dataset.turn === 'true',
                  turnIconFile: icon.href.endsWith('/favicon-turn.svg'),
                  notes: window.__notes ?? null };",
        vec![],
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_tab_is_notified_of_the_players_turn_and_the_title_and_icon_show_it() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game_of("tycoon", 2, 21, json!({})).await;
    let first = api_document(&app, &game.id).await["active_seats"][0]
        .as_u64()
        .unwrap();
    let other = 1 - first;
    let driver = Chromedriver::start().await;
    let bob = Browser::open_allowing_notifications(&driver, &app, "notify-bob", (1280, 900)).await;
    bob.goto(&format!(
        "/games/{}#token={}",
        game.id, game.tokens[other as usize]
    ))
    .await;
    bob.wait_ready().await;
    let allowed = bob.js("return Notification.permission;", vec![]).await;
    assert_eq!(allowed, "granted", "the browser allowed notifications");
    assert_eq!(
        bob.js("return !!document.getElementById('notify-offer');", vec![])
            .await,
        false,
        "nothing to offer once allowed"
    );
    let before = signals(&bob).await;
    assert!(
        !before["title"].as_str().unwrap().starts_with('●')
            && before["turnIcon"] == false
            && before["turnIconFile"] == false,
        "not Bob's turn: {before}"
    );
    bob.js(SPY, vec![]).await;
    set_hidden(&bob, true).await;

    // The other seat plays until the game waits for Bob: his hidden tab is notified, once.
    play_until_waiting_for(&app, &game, other).await;
    bob.wait_until(
        "Bob's hidden tab shows a notification",
        "return (window.__notes ?? []).length > 0;",
        vec![],
    )
    .await;
    let now = signals(&bob).await;
    let notes = now["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "one notification: {now}");
    assert!(
        notes[0]["title"]
            .as_str()
            .unwrap()
            .starts_with("Your turn in "),
        "{now}"
    );
    assert!(
        notes[0]["body"].as_str().unwrap().contains("Player"),
        "the notification names the seat: {now}"
    );
    assert!(
        now["title"].as_str().unwrap().starts_with("● Your turn · "),
        "the title says it is Bob's turn: {now}"
    );
    assert_eq!(now["turnIcon"], true, "{now}");
    assert_eq!(now["turnIconFile"], true, "the icon has its dot: {now}");

    // Back in front: the notification closes; the title and icon stay until Bob has moved.
    set_hidden(&bob, false).await;
    let seen = signals(&bob).await;
    assert_eq!(seen["notes"][0]["closed"], true, "{seen}");
    assert_eq!(seen["turnIcon"], true, "{seen}");
    bob.screenshot("your-turn").await;

    // Bob plays his turn out (through the API, as from another device): not his turn any more.
    let waiting_for_bob = |doc: &Value| doc["active_seats"] == json!([other]);
    let mut rng: rand_chacha::ChaCha8Rng = rand::SeedableRng::seed_from_u64(10);
    while waiting_for_bob(&api_document(&app, &game.id).await) {
        assert!(app.play_one(&game, &mut rng).await);
    }
    bob.wait_until(
        "the title and icon are the game's again",
        "const icon = document.querySelector('link[rel=icon]');
         return !document.title.startsWith('●') && icon.dataset.turn === 'false'
             && icon.getAttribute('href').endsWith('/favicon.svg');",
        vec![],
    )
    .await;
    assert_eq!(
        signals(&bob).await["notes"].as_array().unwrap().len(),
        1,
        "no notification while the tab is in front"
    );
    bob.close().await;

    // A browser that was not asked yet: the offer, once; "No, thanks" is remembered.
    let cy = Browser::open(&driver, &app, "notify-cy", (1280, 900)).await;
    let page = format!("/games/{}#token={}", game.id, game.tokens[first as usize]);
    cy.goto(&page).await;
    cy.wait_ready().await;
    let permission = cy.js("return Notification.permission;", vec![]).await;
    assert_eq!(permission, "default", "a fresh profile was not asked yet");
    {
        cy.wait_until(
            "the page offers to notify",
            "return !!document.getElementById('notify-allow');",
            vec![],
        )
        .await;
        cy.assert_accessible_within(Some("#dock"), "the offer to notify")
            .await;
        cy.click("#notify-no").await;
        cy.wait_until(
            "the offer is gone",
            "return !document.getElementById('notify-offer');",
            vec![],
        )
        .await;
        cy.goto(&format!("/games/{}", game.id)).await;
        cy.goto(&page).await;
        cy.wait_ready().await;
        assert_eq!(
            cy.js("return !!document.getElementById('notify-offer');", vec![])
                .await,
            false,
            "the offer is made once"
        );
    }
    cy.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_clock_under_a_minute_is_warned_about() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    // Under a minute a move from the start: the warning shows at once (the bot would take the
    // seat over after 58 s; the test looks long before).
    let (status, created) = json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(
                &json!({"type": "acquire", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 4,
                          "clock": {"kind": "per_move", "seconds": 58}}),
            )
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["game_id"].as_str().unwrap();
    let doc = api_document(&app, id).await;
    let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
    let token = created["seats"][seat]["token"].as_str().unwrap();
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "low-time", (1280, 900)).await;
    ann.goto(&format!("/games/{id}#token={token}")).await;
    ann.wait_ready().await;
    ann.wait_until(
        "the low-time warning shows",
        "const box = document.getElementById('low-time');
         return !box.hidden && /Your clock is running low: 0:\\d\\d left\\./.test(box.textContent)
             && box.getAttribute('role') === 'alert' && document.title.startsWith('⚠ Your turn · ');",
        vec![],
    )
    .await;
    ann.assert_accessible_within(Some("#dock"), "the low-time warning")
        .await;
    ann.screenshot("low-time").await;
    ann.close().await;
}
