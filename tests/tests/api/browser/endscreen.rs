//! The end screen (issue 38): after a finished game of each type, the player's page shows the
//! places and scores, "Play again", "Download record" and charts of the game drawn from its
//! log (an SVG image with a title and a description and a table of its numbers per chart,
//! one line per seat, along rounds or turns as the game counts them), in English and in
//! German, and axe-core finds no serious problem in it. A game called off gets an end screen
//! that says so, without scores, charts or a rematch of its seats.
//!
//! The games are played by random moves through the API (Tycoon to its end by its rules; the
//! others for a while, then the other seats resign), so the charts have several points.

use reqwest::Method;
use serde_json::json;

use super::{api_document, Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{json_of, spawn_app, spawn_app_with, Game, TestApp};

/// The games, with a seat count each plays with, and the charts each must show (a money or
/// points chart, and one of holdings; a chart of holdings nobody had, such as cities none of
/// the random players founded, is left out).
const GAMES: [(&str, usize, &[&str]); 4] = [
    ("tycoon", 2, &["cash", "net-worth", "hotels"]),
    ("acquire", 2, &["cash", "net-worth"]),
    ("monopoly", 2, &["cash", "net-worth", "properties"]),
    ("tyros", 3, &["points", "ships"]),
];

/// A finished game of `game`: played to its end (Tycoon), or for `moves` random moves and then
/// ended by every seat but the first resigning.
async fn finished_game(app: &TestApp, game: &str, players: usize, seed: u64) -> Game {
    let created = app.create_game_of(game, players, seed, json!({})).await;
    let mut rng: rand_chacha::ChaCha8Rng = rand::SeedableRng::seed_from_u64(seed);
    if game == "tycoon" {
        app.play_to_end(&created, seed, 3000).await;
        return created;
    }
    // Tyros's rounds are long (every seat acts in several phases): more moves for a few.
    let moves = if game == "tyros" { 240 } else { 60 };
    for _ in 0..moves {
        if !app.play_one(&created, &mut rng).await {
            return created;
        }
    }
    for seat in 1..players {
        let res = app
            .req(
                Method::POST,
                &format!("/v1/games/{}/seats/{seat}/resign", created.id),
                Some(&created.tokens[seat]),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "seat {seat} resigns");
    }
    created
}

/// The words of `keys` in the catalogue of `lang`, as the page imports it.
async fn catalogue(page: &Browser, lang: &str, keys: &[&str]) -> Vec<String> {
    let got = page
        .js(
            "return (async () => {
               const src = document.querySelector('script[type=module]').src;
               const root = src.slice(0, src.indexOf('/src/') + '/src/'.length);
               const words = (await import(root + 'i18n/' + arguments[0] + '.js')).default;
               return arguments[1].map((k) => words[k] ?? null);
             })();",
            vec![json!(lang), json!(keys)],
        )
        .await;
    got.as_array()
        .unwrap()
        .iter()
        .zip(keys)
        .map(|(w, k)| {
            w.as_str()
                .unwrap_or_else(|| panic!("the {lang} catalogue has {k}"))
                .to_string()
        })
        .collect()
}

/// Opens the end screen of `game` as its first seat and checks it in `lang`.
async fn check_end_screen(
    page: &Browser,
    app: &TestApp,
    game: &Game,
    kind: &str,
    charts: &[&str],
    lang: &str,
) {
    let what = format!("the end screen of {kind} in {lang}");
    page.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    page.wait_ready().await;
    page.wait_until(
        &format!("{what}: its charts are drawn"),
        "const c = document.getElementById('end-charts'); return !!c && c.dataset.ready === 'true';",
        vec![],
    )
    .await;
    let doc = api_document(app, &game.id).await;
    assert_eq!(doc["status"], "finished", "{what}");
    let words = catalogue(
        page,
        lang,
        &[
            "end.title",
            "end.playAgain",
            "game.downloadRecord",
            "end.charts",
            "end.chart.table",
        ],
    )
    .await;
    let shown = page
        .js(
            "const text = (css) => document.querySelector(css)?.textContent.trim() ?? null;
             const rows = [...document.querySelectorAll('#scores tr[data-seat]')];
             const charts = [...document.querySelectorAll('#end-charts figure.chart')].map((f) => {
               const svg = f.querySelector('svg[role=img]');
               const ids = (svg?.getAttribute('aria-labelledby') ?? '').split(' ');
               return {
                 id: f.id,
                 caption: f.querySelector('figcaption')?.textContent ?? '',
                 points: Number(f.dataset.points),
                 lines: f.querySelectorAll('polyline').length,
                 labelled: ids.length === 2 && ids.every((id) => !!document.getElementById(id)?.textContent),
                 tableRows: f.querySelectorAll('table tbody tr').length,
                 summary: f.querySelector('details > summary')?.textContent ?? '',
               };
             });
             return {
               visible: !document.getElementById('outcome').hidden,
               title: text('#outcome-title'),
               places: rows.map((r) => Number(r.dataset.place)),
               seats: rows.map((r) => Number(r.dataset.seat)),
               again: text('#rematch'),
               record: document.getElementById('download-record')?.getAttribute('href') ?? null,
               recordText: text('#download-record'),
               chartsTitle: text('#end-charts-title'),
               charts,
             };",
            vec![],
        )
        .await;
    assert_eq!(shown["visible"], true, "{what}: {shown}");
    assert_eq!(shown["title"], json!(words[0]), "{what}: the heading");
    let places: Vec<u64> = shown["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect();
    let want: Vec<u64> = {
        let mut by_place: Vec<(u64, u64)> = doc["outcome"]["places"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(seat, p)| (p.as_u64().unwrap(), seat as u64))
            .collect();
        by_place.sort();
        by_place.into_iter().map(|(p, _)| p).collect()
    };
    assert_eq!(places, want, "{what}: the places, first first: {shown}");
    assert_eq!(shown["again"], json!(words[1]), "{what}: play again");
    assert_eq!(
        shown["record"],
        json!(format!("/v1/games/{}/record", game.id)),
        "{what}: the record's link"
    );
    assert_eq!(shown["recordText"], json!(words[2]), "{what}");
    assert_eq!(shown["chartsTitle"], json!(words[3]), "{what}");
    let drawn = shown["charts"].as_array().unwrap();
    for id in charts {
        let chart = drawn
            .iter()
            .find(|c| c["id"] == format!("chart-{id}"))
            .unwrap_or_else(|| panic!("{what}: no chart {id}: {shown}"));
        let players = doc["seats"].as_array().unwrap().len() as u64;
        assert_eq!(
            chart["lines"],
            json!(players),
            "{what}: a line per seat in {id}"
        );
        assert!(
            chart["points"].as_u64().unwrap() >= 2,
            "{what}: {id} has points along the game: {chart}"
        );
        assert_eq!(
            chart["tableRows"], chart["points"],
            "{what}: {id}'s table has a row per point"
        );
        assert_eq!(chart["labelled"], true, "{what}: {id} is a labelled image");
        assert_eq!(chart["summary"], json!(words[4]), "{what}");
    }
    page.assert_accessible_within(Some("#outcome"), &what).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_screen_of_every_game_shows_places_scores_and_charts_in_english_and_german() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let mut games = Vec::new();
    for (i, (kind, players, charts)) in GAMES.into_iter().enumerate() {
        games.push((
            finished_game(&app, kind, players, 60 + i as u64).await,
            kind,
            charts,
        ));
    }
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "end-en", (1280, 1000)).await;
    let anna =
        Browser::open_speaking(&driver, &app, "end-de", (1280, 1000), Some("de-DE,de")).await;
    for (game, kind, charts) in &games {
        check_end_screen(&ann, &app, game, kind, charts, "en").await;
        check_end_screen(&anna, &app, game, kind, charts, "de").await;
    }
    ann.screenshot("end-screen").await;
    anna.screenshot("end-screen").await;
    ann.assert_accessible("the end screen of tyros").await;

    // A German chart in German words: Tyros's points along its rounds.
    let caption = anna
        .js(
            "return document.querySelector('#chart-points figcaption')?.textContent ?? '';",
            vec![],
        )
        .await;
    assert_eq!(caption, "Punkte");

    // The same on a phone: the end screen comes first and fits the screen.
    let phone = Browser::open(&driver, &app, "end-phone", (390, 844)).await;
    let (game, kind, charts) = &games[2];
    check_end_screen(&phone, &app, game, kind, charts, "en").await;
    phone.assert_fits_width("the end screen on a phone").await;
    phone.screenshot("end-screen").await;
    phone.close().await;

    // A game called off before anyone moved: the screen says so, offers no rematch.
    let created = app.create_game_of("acquire", 2, 70, json!({})).await;
    let res = app
        .req(
            Method::POST,
            &format!("/v1/games/{}/abort", created.id),
            Some(&created.tokens[0]),
        )
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    ann.goto(&format!(
        "/games/{}#token={}",
        created.id, created.tokens[0]
    ))
    .await;
    ann.wait_ready().await;
    let words = catalogue(&ann, "en", &["end.title.aborted", "end.reason.aborted"]).await;
    let shown = ann
        .js(
            "return {
               visible: !document.getElementById('outcome').hidden,
               title: document.getElementById('outcome-title').textContent,
               reason: document.getElementById('end-reason')?.textContent ?? null,
               rematch: !!document.getElementById('rematch'),
               charts: !!document.getElementById('end-charts'),
               lobby: document.getElementById('end-lobby')?.getAttribute('href') ?? null,
             };",
            vec![],
        )
        .await;
    assert_eq!(
        shown,
        json!({"visible": true, "title": words[0], "reason": words[1], "rematch": false, "charts": false, "lobby": "/"}),
        "the end screen of a game called off"
    );
    ann.assert_accessible_within(Some("#outcome"), "the end screen of a game called off")
        .await;

    ann.close().await;
    anna.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_screen_of_a_rated_game_shows_each_players_rating_change() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let post = |path: String, token: String, body: serde_json::Value| {
        let app = &app;
        async move {
            let (status, body) = json_of(
                app.req(Method::POST, &path, Some(&token))
                    .json(&body)
                    .send()
                    .await
                    .unwrap(),
            )
            .await;
            assert!(status.is_success(), "{path}: {status} {body}");
            body
        }
    };
    // Ann creates a rated game, Bob joins and resigns: Ann wins, both ratings change.
    let rated = post(
        "/v1/games".into(),
        ann.token.clone(),
        json!({"type": "tycoon", "rated": true, "seats": [{"me": true}, {"open": true}]}),
    )
    .await;
    let id = rated["game_id"].as_str().unwrap().to_string();
    post(
        format!("/v1/games/{id}/seats"),
        bob.token.clone(),
        json!({}),
    )
    .await;
    post(
        format!("/v1/games/{id}/seats/1/resign"),
        bob.token.clone(),
        json!({}),
    )
    .await;

    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "end-rated", (1280, 1000)).await;
    page.js(
        "localStorage.setItem('boardgames.player.v1', JSON.stringify(arguments[0]));",
        vec![json!({ "player_id": ann.id, "name": "Ann", "token": ann.token })],
    )
    .await;
    page.goto(&format!("/games/{id}")).await;
    page.wait_ready().await;
    page.wait_until(
        "the rating changes are shown",
        "return document.querySelectorAll('#ratings table tbody tr').length === 2;",
        vec![],
    )
    .await;
    let rows = page
        .js(
            "return [...document.querySelectorAll('#ratings tbody tr')].map((r) =>
               [Number(r.dataset.seat), r.querySelector('td:last-child').className, r.querySelector('td:last-child').textContent]);",
            vec![],
        )
        .await;
    let rows = rows.as_array().unwrap();
    let ann_row = rows.iter().find(|r| r[0] == 0).expect("Ann's row");
    let bob_row = rows.iter().find(|r| r[0] == 1).expect("Bob's row");
    assert!(
        ann_row[1].as_str().unwrap().contains("gain")
            && ann_row[2].as_str().unwrap().starts_with('+'),
        "Ann gains: {rows:?}"
    );
    assert!(
        bob_row[1].as_str().unwrap().contains("loss")
            && bob_row[2].as_str().unwrap().starts_with('-'),
        "Bob loses: {rows:?}"
    );
    page.assert_accessible_within(Some("#outcome"), "the end screen of a rated game")
        .await;
    page.screenshot("end-rated").await;
    page.close().await;
}

/// An open game nobody joined before its deadline ends as `expired`: its page says so in the
/// reader's language, shows no places, scores, charts, ratings, record or replay (nothing was
/// played), offers the lobby's open games of its type and a new game instead, fits a phone's
/// width and axe-core finds no serious problem in it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_screen_of_an_expired_game_says_so_and_offers_a_new_game() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app_with(|s| s.open_game_ttl = std::time::Duration::from_secs(1).into()).await;
    let (status, open) = json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(&json!({"type": "tycoon", "seats": [{"name": "Ann"}, {"open": true}]}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(status.is_success(), "{open}");
    let id = open["game_id"].as_str().unwrap().to_string();
    let token = open["seats"][0]["token"].as_str().unwrap().to_string();
    // A long poll hears of its end.
    let (_, polled) = app
        .get_json(&format!("/v1/games/{id}?wait=20&after_version=0"), None)
        .await;
    assert_eq!(polled["status"], "expired", "{polled}");

    let driver = Chromedriver::start().await;
    for (lang, accept) in [("en", None), ("de", Some("de-DE,de"))] {
        let page = Browser::open_speaking(
            &driver,
            &app,
            &format!("end-expired-{lang}"),
            (390, 844),
            accept,
        )
        .await;
        page.goto(&format!("/games/{id}#token={token}")).await;
        page.wait_ready().await;
        page.wait_until(
            "the end screen is shown",
            "return document.body.dataset.endScreen === 'expired';",
            vec![],
        )
        .await;
        let words = catalogue(
            &page,
            lang,
            &[
                "end.title.expired",
                "end.reason.expired",
                "end.toLobby",
                "end.newGame",
            ],
        )
        .await;
        if lang == "de" {
            // Literal words, so that the German catalogue is German.
            assert_eq!(words[0], "Partie verfallen");
        }
        let shown = page
            .js(
                "const text = (id) => document.getElementById(id)?.textContent ?? null;
                 const any = (css) => !!document.querySelector(css);
                 return {
                   visible: !document.getElementById('outcome').hidden,
                   title: text('outcome-title'),
                   reason: text('end-reason'),
                   lobby: [text('end-lobby'), document.getElementById('end-lobby')?.getAttribute('href') ?? null],
                   again: [text('end-new'), document.getElementById('end-new')?.getAttribute('href') ?? null],
                   scores: any('#outcome table, #outcome .place, #outcome .total'),
                   charts: any('#end-charts, #outcome svg'),
                   ratings: any('#ratings'),
                   rematch: any('#rematch, #outcome .rematch'),
                   record: any('#download-record'),
                   replay: any('#replay-start'),
                   join: any('button.join'),
                 };",
                vec![],
            )
            .await;
        assert_eq!(
            shown,
            json!({
                "visible": true,
                "title": words[0],
                "reason": words[1],
                "lobby": [words[2], "/?type=tycoon&status=open"],
                "again": [words[3], "/#create"],
                "scores": false,
                "charts": false,
                "ratings": false,
                "rematch": false,
                "record": false,
                "replay": false,
                "join": false,
            }),
            "the end screen of an expired game in {lang}"
        );
        page.assert_fits_width(&format!("the expired game's page in {lang}"))
            .await;
        page.assert_accessible(&format!("the expired game's page in {lang}"))
            .await;
        page.close().await;
    }
}
