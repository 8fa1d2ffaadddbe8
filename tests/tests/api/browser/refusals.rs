//! The server's refusals in the reader's language: the server words every refusal in English
//! (`detail`), with a stable `code`; a German or French page shows the catalogue's sentence for
//! the code (`problem.<code>` in `web/static/src/i18n/de.js` and `fr.js`, chosen by
//! `web/static/src/problems.js`) with the server's words in a line of their own under it
//! (visible on a phone, where no `title` shows), while an English page shows the server's own
//! words alone. The refusals are real ones: a seat taken by
//! someone else just before the click (in the lobby and on the game page), and a sign-up with
//! a name another player has.

use reqwest::Method;
use serde_json::{json, Value};

use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{json_of, spawn_app, TestApp};

/// What an error box shows: its text, the server's words under it (`detail`, with their
/// `lang`), the code it shows, and the catalogue's sentence of `key` in `lang` (with `{name}`
/// filled in from `name`).
async fn error_box(page: &Browser, css: &str, lang: &str, key: &str, name: &str) -> Value {
    page.wait_until(
        &format!("{css} shows a refusal"),
        "const box = document.querySelector(arguments[0]); return !!box && !box.hidden && box.textContent.trim() !== '';",
        vec![json!(css)],
    )
    .await;
    page.js(
        "return (async () => {
           const src = document.querySelector('script[type=module]').src;
           const root = src.slice(0, src.indexOf('/src/') + '/src/'.length);
           const words = (await import(root + 'i18n/' + arguments[1] + '.js')).default;
           const box = document.querySelector(arguments[0]);
           const detail = box.querySelector('.problem-detail');
           const shown = (el) => !!el && el.getClientRects().length > 0;
           return {
             text: box.querySelector('.problem-text')?.textContent.trim() ?? null,
             detail: shown(detail) ? detail.textContent.trim() : null,
             detail_lang: detail?.lang ?? null,
             code: box.dataset.code ?? null,
             expected: (words[arguments[2]] ?? '').replace('{name}', arguments[3]),
           };
         })();",
        vec![json!(css), json!(lang), json!(key), json!(name)],
    )
    .await
}

/// An open Tycoon game of three seats, the first one taken: taking the second leaves the game
/// open, so that a second claim of it is refused as `seat_taken`.
async fn open_game(app: &TestApp) -> String {
    let (status, body) = json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(&json!({"type": "tycoon", "seats": [{"name": "Cy"}, {"open": true}, {"open": true}]}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(status.is_success(), "{body}");
    body["game_id"].as_str().unwrap().to_string()
}

/// In the lobby, someone takes seat 2 of an open game just before the reader clicks its join
/// button: the lobby's error box shows the refusal. Returns the box (see [`error_box`]).
async fn seat_taken_in_the_lobby(page: &Browser, app: &TestApp, lang: &str) -> Value {
    let game = open_game(app).await;
    page.goto("/").await;
    page.wait_ready().await;
    let button = format!("button.join[data-game=\"{game}\"][data-seat=\"1\"]");
    page.wait_until(
        "the open seat can be joined",
        "return !!document.querySelector(arguments[0]);",
        vec![json!(button)],
    )
    .await;
    take_and_click(page, &game, &button).await;
    error_box(page, "#lobby-error", lang, "problem.seat_taken", "").await
}

/// Someone takes seat 2 of `game`, and the reader clicks `button` (its join button) at once: in
/// one go, so that the page cannot redraw in between.
async fn take_and_click(page: &Browser, game: &str, button: &str) {
    page.js(
        "return (async () => {
           const button = document.querySelector(arguments[0]);
           const res = await fetch('/v1/games/' + arguments[1] + '/seats', {
             method: 'POST',
             headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
             body: JSON.stringify({ name: 'Quick', seat: 1 }),
           });
           if (!res.ok) throw new Error('the seat was not taken: ' + res.status);
           button.click();
         })();",
        vec![json!(button), json!(game)],
    )
    .await;
}

/// The catalogue's sentence is shown, the server's English shown under it.
fn assert_translated(got: &Value, what: &str) {
    assert!(
        got["expected"].as_str().is_some_and(|s| !s.is_empty()),
        "{what}: the catalogue has the sentence: {got}"
    );
    assert_eq!(got["text"], got["expected"], "{what}: {got}");
    let detail = got["detail"].as_str().unwrap_or_default();
    assert!(
        !detail.is_empty() && detail != got["text"],
        "{what}: the server's own words are shown under it: {got}"
    );
    assert_eq!(got["detail_lang"], "en", "{what}: marked as English: {got}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_shown_in_the_readers_language() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let page = Browser::open_speaking(&driver, &app, "Grete", (1280, 900), Some("de-DE,de")).await;

    // German: a seat someone took just now.
    let got = seat_taken_in_the_lobby(&page, &app, "de").await;
    assert_eq!(got["code"], "seat_taken", "{got}");
    assert_translated(&got, "a taken seat in German");
    assert_eq!(got["text"], "Jemand hat diesen Platz gerade genommen.");

    // German: a sign-up with a name another player has (the server compares names after case
    // folding, so "grete" is "Grete").
    app.create_player("Grete").await;
    page.goto("/me").await;
    page.wait_ready().await;
    page.fill("#signup-name", "grete").await;
    page.click("#signup").await;
    let got = error_box(&page, "#page-error", "de", "me.nameTaken", "grete").await;
    assert_eq!(
        got["text"], got["expected"],
        "a taken name in German: {got}"
    );
    assert!(
        got["text"]
            .as_str()
            .unwrap()
            .starts_with("Der Name „grete“ ist vergeben"),
        "{got}"
    );

    // German, on the game page: the seat taken just before the click, worded as a refusal.
    let game = open_game(&app).await;
    page.goto(&format!("/games/{game}")).await;
    page.wait_ready().await;
    let button = "button.join[data-seat=\"1\"]";
    page.wait_until(
        "the open seat can be taken",
        "return !!document.querySelector(arguments[0]);",
        vec![json!(button)],
    )
    .await;
    take_and_click(&page, &game, button).await;
    let got = error_box(&page, "#game-error", "de", "problem.seat_taken", "").await;
    assert_eq!(got["code"], "seat_taken", "{got}");
    assert_eq!(
        got["text"], "Abgelehnt: Jemand hat diesen Platz gerade genommen.",
        "a taken seat on the German game page: {got}"
    );
    assert!(
        got["detail"].as_str().is_some_and(|t| !t.is_empty()),
        "the server's words under it: {got}"
    );

    // French: the taken seat again.
    page.js("localStorage.setItem('boardgames.lang', 'fr');", vec![])
        .await;
    let got = seat_taken_in_the_lobby(&page, &app, "fr").await;
    assert_eq!(got["code"], "seat_taken", "{got}");
    assert_translated(&got, "a taken seat in French");
    assert_eq!(got["text"], "Quelqu’un vient de prendre cette place.");

    // English: the server's own words, which are English already.
    page.js("localStorage.setItem('boardgames.lang', 'en');", vec![])
        .await;
    let got = seat_taken_in_the_lobby(&page, &app, "en").await;
    assert_eq!(got["code"], "seat_taken", "{got}");
    assert_ne!(
        got["text"], got["expected"],
        "English shows the server's detail: {got}"
    );
    assert!(got["detail"].is_null(), "no second line in English: {got}");
    page.close().await;
}
