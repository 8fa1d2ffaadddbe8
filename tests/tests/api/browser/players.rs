//! Players in the browser (issue 22), on a phone: signing up with a name (a taken one refused
//! with the server's words), "Play" seeking a rated game that a second player, created through
//! the API, completes; the matched game opening by itself and played with the player's token
//! (no seat token), a move made by clicking; "Your games" saying whose turn it is and turning
//! to "your turn" from the player's stream without a reload; the result on the profile and
//! the leaderboard; the key taken to a second browser by its link, where the lobby's "I play
//! this seat" and an open seat on a game page are taken for the player, and stopped there by a
//! new key. axe-core and the phone's layout (nothing wider than the screen, 44-pixel targets) are
//! checked on every page.

use reqwest::Method;
use serde_json::{json, Value};

use super::game_page::{seat_document, wait_for_api_version};
use super::{api_document, Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{json_of, spawn_app, TestApp};

/// The smallest size of a touch target, in CSS pixels.
const TARGET: f64 = 44.0;

/// A Tycoon move that brings the turn to its end soon: end the turn, else fly, else buy a
/// ticket, else the first offered.
fn quick(actions: &[Value]) -> Value {
    ["end_turn", "fly", "buy_ticket"]
        .iter()
        .find_map(|kind| actions.iter().find(|a| a["type"] == *kind))
        .unwrap_or(&actions[0])
        .clone()
}

/// Plays the token's seat of `game` until the game no longer waits for it.
async fn play_turn(app: &TestApp, game: &str, token: &str) {
    let mut doc = seat_document(app, game, token).await;
    let seat = doc["seat"].clone();
    for _ in 0..100 {
        let waits = doc["active_seats"].as_array().unwrap().contains(&seat);
        if !waits || doc["status"] != "active" {
            return;
        }
        let action = quick(doc["legal_actions"].as_array().unwrap());
        let (status, body) = json_of(
            app.req(
                Method::POST,
                &format!("/v1/games/{game}/actions"),
                Some(token),
            )
            .json(&json!({ "action": action, "expected_version": doc["version"] }))
            .send()
            .await
            .unwrap(),
        )
        .await;
        assert!(status.is_success(), "{status} {body}");
        doc = body["game"].clone();
    }
    panic!("seat {seat} kept the turn for 100 moves");
}

impl Browser {
    /// The players' pages on a phone: nothing wider than the screen, and every control (the
    /// site's links, buttons, fields, disclosures, the games of "Your games", the leaderboard's
    /// tabs) at least 44 pixels high and wide. Links inside sentences are exempt, as WCAG's
    /// target-size criterion exempts them.
    async fn assert_players_layout(&self, what: &str) {
        self.assert_fits_width(what).await;
        let small = self
            .js(
                "const target = (e) => (e.type === 'checkbox' || e.type === 'radio') ? (e.closest('label') ?? e.parentElement) : e;
                 return [...document.querySelectorAll(
                     'header a, main button, main input, main select, main summary, .game-link, .type-tabs a')]
                   .filter((e) => e.getClientRects().length > 0)
                   .map((e) => [e, target(e).getBoundingClientRect()])
                   .filter(([, r]) => r.width < arguments[0] - 0.5 || r.height < arguments[0] - 0.5)
                   .map(([e, r]) => `${e.tagName}#${e.id} ${e.textContent.trim().slice(0, 30)} ${Math.round(r.width)}x${Math.round(r.height)}`);",
                vec![json!(TARGET)],
            )
            .await;
        assert_eq!(
            small,
            json!([]),
            "{}: {what}: touch targets under {TARGET} px",
            self.name
        );
    }

    /// Waits until "Your games" lists `game` as `turn` (`mine`, `theirs`, `none`) with `words`;
    /// returns the row's text.
    async fn wait_for_row(&self, game: &str, turn: &str, words: &str) -> String {
        self.wait_until(
            &format!("Your games lists {game} as {turn} ({words})"),
            "const li = document.querySelector(`#player-games li[data-game='${arguments[0]}']`);
             return !!li && li.dataset.turn === arguments[1] && li.textContent.includes(arguments[2]);",
            vec![json!(game), json!(turn), json!(words)],
        )
        .await;
        self.js(
            "return document.querySelector(`#player-games li[data-game='${arguments[0]}']`).textContent;",
            vec![json!(game)],
        )
        .await
        .as_str()
        .unwrap()
        .to_string()
    }

    /// The player's key this browser keeps.
    async fn player_token(&self) -> String {
        let token = self
            .js(
                "return JSON.parse(localStorage.getItem('boardgames.player.v1')).token;",
                vec![],
            )
            .await;
        token.as_str().expect("a kept key").to_string()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_signs_up_seeks_plays_and_finds_the_result_on_profile_and_leaderboard() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let bob = app.create_player("Bob").await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "player", (390, 844)).await;

    // Signing up: a taken name is refused in plain words (not the server's "Unicode case
    // folding"), then Ann is in.
    page.goto("/me").await;
    page.wait_ready().await;
    page.assert_players_layout("the sign-up").await;
    page.assert_accessible("the sign-up").await;
    page.fill("#signup-name", "bob").await;
    page.click("#signup").await;
    page.wait_until(
        "the taken name is refused",
        "const e = document.getElementById('page-error'); return !e.hidden && e.textContent.includes('taken') && !e.textContent.includes('folding');",
        vec![],
    )
    .await;
    page.fill("#signup-name", "Ann").await;
    page.click("#signup").await;
    page.wait_until(
        "Ann is signed up and her stream is live",
        "return document.body.dataset.stream === 'live' && !!document.getElementById('welcome');",
        vec![],
    )
    .await;
    let token = page.player_token().await;
    assert!(token.starts_with("pl_"), "{token}");
    let (_, me) = app.get_json("/v1/players/me", Some(&token)).await;
    assert_eq!(me["name"], "Ann");
    let ann_id = me["player_id"].as_str().unwrap().to_string();

    // "Play": a rated two-seat Tycoon game; nobody else waits yet.
    page.select("#seek-type", "tycoon").await;
    page.select("#seek-seats", "2").await;
    page.select("#seek-clock", "none").await;
    page.click("#seek-rated").await;
    page.click("#play").await;
    page.wait_until(
        "the page looks for opponents",
        "return !!document.getElementById('seeking') && document.getElementById('play').disabled;",
        vec![],
    )
    .await;
    let seek = page
        .js(
            "return JSON.parse(localStorage.getItem('boardgames.player.seek.v1')).seek_id;",
            vec![],
        )
        .await;
    let (_, waiting) = app
        .get_json(&format!("/v1/seeks/{}", seek.as_str().unwrap()), None)
        .await;
    assert_eq!(waiting["status"], "waiting", "{waiting}");
    assert_eq!(waiting["rated"], true, "{waiting}");
    page.assert_players_layout("your games, looking for opponents")
        .await;

    // Bob's seek completes the table: Ann's page opens the game by itself.
    let (status, matched) = json_of(
        app.req(Method::POST, "/v1/seeks", Some(&bob.token))
            .json(&json!({"type": "tycoon", "seats": 2, "rated": true, "clock": {"kind": "none"}}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(status.is_success(), "{status} {matched}");
    assert_eq!(matched["status"], "matched", "{matched}");
    let game = matched["game_id"].as_str().unwrap().to_string();
    let ann_seat = 1 - matched["seat"].as_i64().unwrap();
    page.wait_until(
        "the matched game opens",
        "return location.pathname === `/games/${arguments[0]}` && document.body.dataset.ready === 'true';",
        vec![json!(game)],
    )
    .await;
    let shown = page
        .js(
            "return [document.body.dataset.seat,
                     JSON.parse(localStorage.getItem('boardgames.seats.v1'))[arguments[0]].map((s) => s.token.slice(0, 3))];",
            vec![json!(game)],
        )
        .await;
    assert_eq!(
        shown,
        json!([ann_seat.to_string(), ["pl_"]]),
        "the page plays Ann's seat with her player token, and holds no seat token"
    );

    // Ann moves by clicking, when it is her turn, with her player token.
    let first = seat_document(&app, &game, &token).await;
    if !first["active_seats"]
        .as_array()
        .unwrap()
        .contains(&json!(ann_seat))
    {
        play_turn(&app, &game, &bob.token).await;
    }
    let doc = seat_document(&app, &game, &token).await;
    let version = doc["version"].as_i64().unwrap();
    let state = page.wait_for_version(version).await;
    assert!(state.your_turn, "the page says it is Ann's turn");
    let mut offered = state.actions.clone();
    let mut legal: Vec<String> = doc["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.to_string())
        .collect();
    offered.sort();
    legal.sort();
    assert_eq!(
        offered, legal,
        "the page offers exactly Ann's legal actions"
    );
    let action = quick(doc["legal_actions"].as_array().unwrap());
    page.perform(&action.to_string(), false).await;
    wait_for_api_version(&app, &game, version).await;
    let (_, log) = app
        .get_json(
            &format!("/v1/games/{game}/events?after={version}"),
            Some(&token),
        )
        .await;
    assert_eq!(
        log["events"][0]["seat"],
        json!(ann_seat),
        "the click acted for Ann's seat: {log}"
    );

    // Her turn ends on another device; "Your games" says the game waits for Bob.
    play_turn(&app, &game, &token).await;
    page.goto("/me").await;
    page.wait_ready().await;
    page.wait_for_row(&game, "theirs", "Waiting for Bob").await;
    page.wait_until(
        "the stream is live",
        "return document.body.dataset.stream === 'live';",
        vec![],
    )
    .await;
    page.js("window.notReloaded = true;", vec![]).await;

    // Bob plays: the player's stream turns the row to "Your turn" without a reload.
    play_turn(&app, &game, &bob.token).await;
    let row = page.wait_for_row(&game, "mine", "Your turn").await;
    assert!(row.contains("against Bob"), "{row}");
    let said = page
        .js(
            "return [window.notReloaded === true, document.getElementById('turn-count').textContent, document.title];",
            vec![],
        )
        .await;
    assert_eq!(
        said,
        json!([true, "1 to play", "(1) Board games: your games"])
    );
    page.screenshot("players-your-turn").await;
    page.assert_players_layout("your games, your turn").await;
    page.assert_accessible("your games").await;

    // Bob resigns: the game is over, Ann won; the row says so.
    let (status, body) = json_of(
        app.req(
            Method::POST,
            &format!("/v1/games/{game}/seats/{}/resign", 1 - ann_seat),
            Some(&bob.token),
        )
        .send()
        .await
        .unwrap(),
    )
    .await;
    assert!(status.is_success(), "{status} {body}");
    page.wait_for_row(&game, "none", "Finished").await;

    // Her profile: one game, won, its rating change; the figures are the API's.
    page.click("#my-profile").await;
    page.wait_until(
        "the profile is shown",
        "return location.pathname === `/players/${arguments[0]}` && document.body.dataset.ready === 'true';",
        vec![json!(ann_id)],
    )
    .await;
    let (_, profile) = app.get_json(&format!("/v1/players/{ann_id}"), None).await;
    let rating = profile["ratings"][0]["conservative"].as_f64().unwrap();
    let shown = page
        .js(
            "const cells = (sel) => [...document.querySelectorAll(sel)].map((c) => c.textContent);
             return [document.getElementById('profile-summary').textContent,
                     cells('#ratings tr[data-type=tycoon] td'),
                     cells(`#rating-history tr[data-game='${arguments[0]}'] td`)];",
            vec![json!(game)],
        )
        .await;
    assert!(
        shown[0]
            .as_str()
            .unwrap()
            .contains("1 game finished, 1 won"),
        "{shown}"
    );
    let per_type = &shown[1];
    assert_eq!(per_type[0], "1", "played: {shown}");
    assert_eq!(per_type[1], "1", "won: {shown}");
    assert!(
        per_type[2]
            .as_str()
            .unwrap()
            .starts_with(&format!("{rating:.1}")),
        "the rating {rating} as the API has it: {shown}"
    );
    let change = &shown[2];
    assert_eq!(change[2], "1st", "{shown}");
    assert_eq!(change[4], format!("+{rating:.1}"), "from 0.0: {shown}");
    page.screenshot("players-profile").await;
    page.assert_players_layout("the profile").await;
    page.assert_accessible("the profile").await;

    // The leaderboard: Ann above Bob, her row marked.
    page.click("#nav-leaderboards").await;
    page.wait_until(
        "Tycoon's leaderboard is shown",
        "return location.pathname === '/leaderboards/tycoon' && document.body.dataset.ready === 'true'
                && document.querySelectorAll('#leaderboard-rows tr[data-player]').length === 2;",
        vec![],
    )
    .await;
    let rows = page
        .js(
            "return [...document.querySelectorAll('#leaderboard-rows tr[data-player]')]
               .map((r) => [r.dataset.player, r.classList.contains('you')]);",
            vec![],
        )
        .await;
    assert_eq!(rows, json!([[ann_id, true], [bob.id, false]]));
    page.screenshot("players-leaderboard").await;
    page.assert_players_layout("the leaderboard").await;
    page.assert_accessible("the leaderboard").await;

    // Her key goes to a second browser by its link; a new key made here stops it there.
    page.goto("/me").await;
    page.wait_ready().await;
    let link = page
        .js(
            "return document.getElementById('device-link').value;",
            vec![],
        )
        .await;
    let link = link.as_str().unwrap().to_string();
    let other = Browser::open(&driver, &app, "player-laptop", (1280, 900)).await;
    other.goto(&link).await;
    other.wait_ready().await;
    other
        .wait_until(
            "the second browser plays as Ann, the key gone from its address",
            "return document.body.dataset.stream === 'live' && location.hash === ''
                    && document.getElementById('key-title').textContent.includes('Ann');",
            vec![],
        )
        .await;
    other.wait_for_row(&game, "none", "Finished").await;
    other.screenshot("players-desktop").await;

    // Signed in, the lobby's "I play this seat" takes the seat for the player...
    other.begin_new_game("Ann", "tycoon", "step_mode", 2).await;
    other.select("#seat-kind-1", "open").await;
    other.create_new_game().await;
    let created = other.open_created_game().await;
    let doc = api_document(&app, &created).await;
    assert_eq!(doc["seats"][0]["player_id"], json!(ann_id), "{doc}");
    assert_eq!(
        other.js("return document.body.dataset.seat;", vec![]).await,
        "0"
    );
    other.goto("/me").await;
    other
        .wait_until(
            "the second browser's list is live again",
            "return document.body.dataset.stream === 'live';",
            vec![],
        )
        .await;
    // ... and so does an open seat taken on the game page.
    let (status, bobs) = json_of(
        app.req(Method::POST, "/v1/games", Some(&bob.token))
            .json(&json!({"type": "tycoon", "seats": [{"me": true}, {"open": true}]}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(status.is_success(), "{status} {bobs}");
    let bobs = bobs["game_id"].as_str().unwrap().to_string();
    page.goto(&format!("/games/{bobs}")).await;
    page.wait_ready().await;
    page.wait_until(
        "the open seat is offered to Ann",
        "return !!document.getElementById('join-as') && !!document.querySelector(\"button.join[data-seat='1']\");",
        vec![],
    )
    .await;
    page.click("button.join[data-seat='1']").await;
    page.wait_until(
        "Ann plays the seat she took",
        "return document.body.dataset.seat === '1';",
        vec![],
    )
    .await;
    let doc = api_document(&app, &bobs).await;
    assert_eq!(doc["seats"][1]["player_id"], json!(ann_id), "{doc}");
    assert_eq!(doc["status"], "active", "{doc}");
    page.goto("/me").await;
    page.wait_ready().await;
    page.click("#rotate > summary").await;
    page.click("#new-key").await;
    page.wait_until(
        "the new key is kept",
        "return JSON.parse(localStorage.getItem('boardgames.player.v1')).token !== arguments[0];",
        vec![json!(token)],
    )
    .await;
    other
        .wait_until(
            "the old key stops working in the second browser",
            "return !!document.getElementById('signup-form') && !document.getElementById('page-error').hidden;",
            vec![],
        )
        .await;
    let new_token = page.player_token().await;
    let (status, _) = app.get_json("/v1/players/me", Some(&token)).await;
    assert_eq!(status, reqwest::StatusCode::UNAUTHORIZED);
    let (status, _) = app.get_json("/v1/players/me", Some(&new_token)).await;
    assert_eq!(status, reqwest::StatusCode::OK);
    other.close().await;
    page.close().await;
}
