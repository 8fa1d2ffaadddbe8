//! The client in German, French and English: the language follows the browser's preference
//! (`Accept-Language`, as `navigator.languages` reports it), the menu in the header switches it
//! and the choice is remembered; every page type (the lobby, the game page of each game, the
//! players' pages and the tournaments) shows the catalogue's words of that language, sets
//! `<html lang>`, and axe-core finds no serious problem in any of the three.
//!
//! The page's words are checked against the catalogue files themselves (imported in the page),
//! so that a reworded catalogue needs no change here; a few literal words make sure that the
//! catalogue is the language it claims to be.

use serde_json::{json, Value};

use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{json_of, spawn_app, TestApp};

/// The games, with a seat count each plays with.
const GAMES: [(&str, usize); 4] = [("tycoon", 2), ("acquire", 2), ("monopoly", 2), ("tyros", 3)];

/// What must read in `lang` on the page shown: `<html lang>`, the site's name, and each
/// `[selector, key]` pair's text as the catalogue of `lang` has it.
async fn assert_words(page: &Browser, lang: &str, what: &str, checks: &[(&str, &str)]) {
    let got = page
        .js(
            "return (async () => {
               const src = document.querySelector('script[type=module]').src;
               const root = src.slice(0, src.indexOf('/src/') + '/src/'.length);
               const words = (await import(root + 'i18n/' + arguments[0] + '.js')).default;

               const text = (css) => document.querySelector(css)?.textContent.trim() ?? null;
               return {
                 lang: document.documentElement.lang,
                 menu: document.getElementById('language')?.value ?? null,
                 checks: arguments[1].map(([css, key]) => [css, text(css), words[key] ?? null]),
               };
             })();",
            vec![json!(lang), json!(checks)],
        )
        .await;
    assert_eq!(got["lang"], lang, "{what}: <html lang>");
    assert_eq!(
        got["menu"], lang,
        "{what}: the language menu shows the language"
    );
    for check in got["checks"].as_array().unwrap() {
        assert!(
            check[2].is_string(),
            "{what}: the {lang} catalogue has a word for {}",
            check[0]
        );
        assert_eq!(check[1], check[2], "{what}: {} in {lang}", check[0]);
    }
}

/// The first line of the game page's log: how the game started, in words.
async fn first_log_line(page: &Browser) -> String {
    page.js(
        "return document.querySelector('#log li')?.textContent ?? '';",
        vec![],
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

/// Visits every page type in `lang`: its words, its log in that language, and axe-core.
/// `start` is the log's first line's beginning in that language.
async fn every_page(page: &Browser, app: &TestApp, lang: &str, start: &str) {
    page.goto("/").await;
    page.wait_ready().await;
    assert_words(
        page,
        lang,
        "the lobby",
        &[
            ("header.top h1 a", "site.name"),
            ("#create-game", "lobby.create"),
            ("#games-title", "lobby.games"),
            ("#filter-status option[value=open]", "lobby.status.open"),
        ],
    )
    .await;
    page.assert_accessible(&format!("the lobby in {lang}"))
        .await;

    for (seed, (game, players)) in GAMES.into_iter().enumerate() {
        let created = app
            .create_game_of(game, players, 40 + seed as u64, json!({}))
            .await;
        page.goto(&format!(
            "/games/{}#token={}",
            created.id, created.tokens[0]
        ))
        .await;
        page.wait_ready().await;
        page.wait_until(
            "the log is shown",
            "return document.querySelectorAll('#log li').length > 0;",
            vec![],
        )
        .await;
        let what = format!("the {game} page in {lang}");
        assert_words(
            page,
            lang,
            &what,
            &[
                ("#log-title", "game.log"),
                ("#players-title", "game.players"),
                ("#rules > summary", "game.howToPlay"),
                ("#rules-text h3", "rules.goal"),
                ("#menu > summary", "menu.title"),
            ],
        )
        .await;
        let line = first_log_line(page).await;
        assert!(
            line.contains(start),
            "{what}: the log's first line is not in {lang}: {line:?}"
        );
        page.assert_log_in_words().await;
        page.assert_accessible(&what).await;
    }

    // The game options under "More options", by option name and value.
    page.goto("/").await;
    page.wait_ready().await;
    page.select("#new-type", "tyros").await;
    page.wait_until(
        "the Tyros options are shown",
        "return !!document.getElementById('config-jokers_wild');",
        vec![],
    )
    .await;
    assert_words(
        page,
        lang,
        "the lobby's more options",
        &[
            (
                "label[for=config-jokers_wild]",
                "cfg.tyros.jokers_wild.title",
            ),
            (
                "#config-setup option[value=random]",
                "cfg.tyros.setup.choice.random",
            ),
            ("#filter-rated option[value=no]", "people.filter.ratedNo"),
            ("#invite-title", "people.invite.title"),
        ],
    )
    .await;

    page.goto("/leaderboards").await;
    page.wait_ready().await;
    assert_words(
        page,
        lang,
        "the leaderboards",
        &[
            ("#nav-leaderboards", "nav.leaderboards"),
            ("#nav-me", "nav.me"),
            ("#leaderboard .hint", "board.hint"),
            ("#board-next", "board.lower"),
        ],
    )
    .await;
    page.assert_accessible(&format!("the leaderboards in {lang}"))
        .await;

    page.goto("/import").await;
    page.wait_ready().await;
    assert_words(
        page,
        lang,
        "the import page",
        &[
            ("#import-title", "imp.heading"),
            ("label[for=import-file]", "imp.file"),
        ],
    )
    .await;
    page.assert_accessible(&format!("the import page in {lang}"))
        .await;

    page.goto("/me").await;
    page.wait_ready().await;
    assert_words(
        page,
        lang,
        "your games",
        &[
            ("#nav-me", "nav.me"),
            ("#join-title", "me.joinTitle"),
            ("#signup", "me.signup"),
        ],
    )
    .await;
    page.assert_accessible(&format!("your games in {lang}"))
        .await;

    // Signed in: the player's games, challenges and play; a profile; a tournament.
    let who = app.create_player(&format!("Polyglot {lang}")).await;
    let other = app.create_player(&format!("Rival {lang}")).await;
    page.js(
        "localStorage.setItem('boardgames.player.v1', JSON.stringify(arguments[0]));",
        vec![
            json!({ "player_id": who.id, "name": format!("Polyglot {lang}"), "token": who.token }),
        ],
    )
    .await;
    let (status, body) = json_of(
        app.req(reqwest::Method::POST, "/v1/challenges", Some(&other.token))
            .json(&json!({"type": "tycoon", "players": [who.id]}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(status.is_success(), "{status} {body}");
    page.goto("/me").await;
    page.wait_ready().await;
    page.wait_until(
        "the challenge is listed",
        "return !!document.querySelector('#challenge-list li[data-challenge]');",
        vec![],
    )
    .await;
    assert_words(
        page,
        lang,
        "your games, signed in",
        &[
            // The titles carry a count ("1 to answer"): their words are checked in the hint.
            ("#challenges > p.hint", "chal.hint"),
            ("#challenge-settings > summary", "chal.whom"),
            ("#challenge-list .accept-challenge", "chal.accept"),
            ("#challenge-list .decline > summary", "chal.declineMore"),
            ("#play-title", "me.play"),
            ("#device > summary", "me.device"),
        ],
    )
    .await;
    page.assert_accessible(&format!("your games and challenges in {lang}"))
        .await;

    page.goto(&format!("/players/{}", who.id)).await;
    page.wait_ready().await;
    assert_words(
        page,
        lang,
        "a profile",
        &[
            ("#history-title", "prof.history"),
            ("#history p", "prof.noRated"),
            ("#profile .hint", "prof.ratingHint"),
        ],
    )
    .await;
    // The date in the page's language, whatever the browser's own.
    let dated = page
        .js(
            "const today = new Intl.DateTimeFormat(document.documentElement.lang, { year: 'numeric', month: 'short', day: 'numeric' }).format(new Date());
             return document.getElementById('profile-summary').textContent.includes(today);",
            vec![],
        )
        .await;
    assert_eq!(dated, json!(true), "a profile's date in {lang}");
    page.assert_accessible(&format!("a profile in {lang}"))
        .await;

    page.goto("/tournaments").await;
    page.wait_ready().await;
    assert_words(
        page,
        lang,
        "the tournaments",
        &[
            ("header.top nav a[aria-current=page]", "nav.tournaments"),
            ("#organise-title", "tour.organise"),
            ("label[for=t-table-size]", "tour.tableSize"),
            ("#t-create", "tour.create"),
        ],
    )
    .await;
    page.assert_accessible(&format!("the tournaments in {lang}"))
        .await;

    let starts = (chrono::Utc::now() + chrono::Duration::hours(1)).to_rfc3339();
    let (status, created) = json_of(
        app.req(reqwest::Method::POST, "/v1/tournaments", Some(&who.token))
            .json(&json!({"name": "Cup", "type": "tycoon",
                          "clock": {"kind": "per_move", "seconds": 86400},
                          "format": "swiss", "rounds": 2, "table_size": 2, "starts_at": starts}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(status.is_success(), "{status} {created}");
    page.goto(&format!(
        "/tournaments/{}",
        created["tournament_id"].as_str().unwrap()
    ))
    .await;
    page.wait_ready().await;
    assert_words(
        page,
        lang,
        "a tournament",
        &[
            ("#rounds-title", "tour.rounds"),
            ("#rounds .empty", "tour.pairedAtStart"),
            ("#t-join", "tour.join"),
            ("#t-start", "tour.startNow"),
        ],
    )
    .await;
    page.assert_accessible(&format!("a tournament in {lang}"))
        .await;
    // Signed out again, for the pages visited after this one.
    page.js("localStorage.removeItem('boardgames.player.v1');", vec![])
        .await;
}

/// Chooses `lang` in the header's menu and waits for the page to come back in it.
async fn switch_to(page: &Browser, lang: &str) {
    page.select("#language", lang).await;
    page.wait_until(
        &format!("the page reloads in {lang}"),
        "return document.documentElement.lang === arguments[0] && document.body.dataset.ready === 'true';",
        vec![json!(lang)],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_that_prefers_german_gets_every_page_in_german() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let page = Browser::open_speaking(&driver, &app, "Grete", (1280, 900), Some("de-DE,de")).await;
    every_page(&page, &app, "de", "Das Spiel beginnt").await;
    // Literal words, so that the German catalogue is German.
    page.goto("/").await;
    page.wait_ready().await;
    let create = page
        .js(
            "return document.getElementById('create-game').textContent;",
            vec![],
        )
        .await;
    assert_eq!(create, Value::from("Partie anlegen"));
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_menu_switches_to_french_and_the_choice_is_remembered_over_the_browsers_preference() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let page = Browser::open_speaking(&driver, &app, "Gaston", (1280, 900), Some("de-DE,de")).await;
    page.goto("/").await;
    page.wait_ready().await;
    switch_to(&page, "fr").await;
    let create = page
        .js(
            "return document.getElementById('create-game').textContent;",
            vec![],
        )
        .await;
    assert_eq!(create, Value::from("Créer la partie"));
    // Remembered: every page after this one is French, though the browser prefers German.
    every_page(&page, &app, "fr", "La partie commence").await;
    // And back to English from a game page's header.
    switch_to(&page, "en").await;
    let nav = page
        .js(
            "return document.querySelector('header.top nav a').textContent;",
            vec![],
        )
        .await;
    assert_eq!(nav, Value::from("Lobby"));
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn english_stays_the_default_for_a_browser_that_prefers_neither_german_nor_french() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let page = Browser::open_speaking(&driver, &app, "Inès", (1280, 900), Some("es-ES,es")).await;
    every_page(&page, &app, "en", "The game starts").await;
    page.close().await;
}
