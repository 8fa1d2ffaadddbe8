//! Tournaments in the browser (issue 37): Ann finds the tournament pages from the lobby,
//! organises a two-round Swiss of Tycoon at tables of two (the table sizes offered are the
//! game's seat counts from the catalogue) and joins it; Bob and Cid join through the API and
//! appear in her page's players without a reload; she starts it, and round 1's table and bye
//! and the standings are shown as the API has them; Bob's "Your games" on a phone tells him
//! of his round from his player stream, with the game's or the bye's words; Ann opens her
//! game from the tournament page and plays its seat with her player token. axe-core on every
//! new page, and on a phone (390 px) none of them needs sideways scrolling.

use reqwest::Method;
use serde_json::{json, Value};

use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{json_of, spawn_app, Player, TestApp};

/// Signs `browser` in as `player` (what `/me` keeps after a sign-up).
async fn sign_in(browser: &Browser, app: &TestApp, player: &Player, name: &str) {
    browser.goto(&format!("{}/favicon.ico", app.base)).await;
    browser
        .js(
            "localStorage.setItem('boardgames.player.v1', JSON.stringify(arguments[0]));",
            vec![json!({ "player_id": player.id, "name": name, "token": player.token })],
        )
        .await;
}

/// The page's notices follow the player's stream (a round's notice is only sent live).
async fn wait_for_notices(browser: &Browser) {
    browser
        .wait_until(
            "the page's tournament notices follow the player's stream",
            "return document.body.dataset.tournamentNotices === 'live';",
            vec![],
        )
        .await;
}

async fn rounds(app: &TestApp, id: &str) -> Vec<Value> {
    let (status, body) = app
        .get_json(&format!("/v1/tournaments/{id}/rounds"), None)
        .await;
    assert!(status.is_success(), "{status} {body}");
    body["rounds"].as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_tournament_is_organised_joined_started_and_its_games_opened_in_the_browser() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let cid = app.create_player("Cid").await;
    let driver = Chromedriver::start().await;
    let desk = Browser::open(&driver, &app, "tournament-ann", (1280, 900)).await;
    sign_in(&desk, &app, &ann, "Ann").await;

    // From the lobby to the tournament pages.
    desk.goto("/").await;
    desk.wait_ready().await;
    desk.click("header nav a[href='/tournaments']").await;
    desk.wait_until(
        "the tournament list opens",
        "return location.pathname === '/tournaments' && document.body.dataset.ready === 'true' && !!document.getElementById('tournament-form');",
        vec![],
    )
    .await;

    // The table sizes offered are Tycoon's seat counts, as the catalogue has them.
    let (_, types) = app.get_json("/v1/game-types", None).await;
    let tycoon = types["game_types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["type"] == "tycoon")
        .unwrap()
        .clone();
    desk.select("#t-type", "tycoon").await;
    let sizes = desk
        .js(
            "return [...document.querySelectorAll('#t-table-size option')].map((o) => Number(o.value));",
            vec![],
        )
        .await;
    let expected: Vec<i64> =
        (tycoon["min_seats"].as_i64().unwrap()..=tycoon["max_seats"].as_i64().unwrap()).collect();
    assert_eq!(sizes, json!(expected), "Tycoon's table sizes");
    desk.assert_accessible("the tournament list with its form")
        .await;

    // Organise: a two-round Swiss at tables of two, byes for whoever is left over.
    desk.fill("#t-name", "Tuesday Tycoon").await;
    desk.click("#t-format-swiss").await;
    desk.fill("#t-rounds", "2").await;
    desk.select("#t-table-size", "2").await;
    desk.select("#t-clock", "day").await;
    desk.click("#t-fill-byes").await;
    desk.click("#t-create").await;
    desk.wait_until(
        "the new tournament's page opens",
        "return location.pathname.startsWith('/tournaments/') && !!document.querySelector('#tournament[data-status=waiting]');",
        vec![],
    )
    .await;
    let path = desk.js("return location.pathname;", vec![]).await;
    let id = path.as_str().unwrap()["/tournaments/".len()..].to_string();
    let (status, created) = app.get_json(&format!("/v1/tournaments/{id}"), None).await;
    assert!(status.is_success(), "{status} {created}");
    assert_eq!(created["name"], "Tuesday Tycoon");
    assert_eq!(created["type"], "tycoon");
    assert_eq!(created["format"], "swiss");
    assert_eq!(created["rounds"], 2);
    assert_eq!(created["table_size"], 2);
    assert_eq!(created["fill_with_bots"], false);
    assert_eq!(created["organiser_id"], ann.id.as_str());
    assert_eq!(
        (&created["clock"]["kind"], &created["clock"]["seconds"]),
        (&json!("per_move"), &json!(86400)),
        "{created}"
    );
    assert_eq!(created["status"], "waiting");

    // Ann joins by the button; Bob and Cid through the API, and her page shows them.
    desk.click("#t-join").await;
    desk.wait_until(
        "Ann is in",
        "return !!document.querySelector(`#standings tr[data-player='${arguments[0]}']`) && !!document.getElementById('t-leave');",
        vec![json!(ann.id)],
    )
    .await;
    for p in [&bob, &cid] {
        let (status, body) = json_of(
            app.req(
                Method::POST,
                &format!("/v1/tournaments/{id}/players"),
                Some(&p.token),
            )
            .send()
            .await
            .unwrap(),
        )
        .await;
        assert!(status.is_success(), "{status} {body}");
    }
    desk.wait_until(
        "the three players are listed without a reload",
        "return document.querySelectorAll('#standings tbody tr').length === 3;",
        vec![],
    )
    .await;
    desk.assert_accessible("a tournament waiting for its start")
        .await;

    // Bob waits on "Your games" on his phone.
    let phone = Browser::open(&driver, &app, "tournament-bob", (390, 844)).await;
    sign_in(&phone, &app, &bob, "Bob").await;
    phone.goto("/me").await;
    phone.wait_ready().await;
    phone
        .wait_until(
            "Bob's stream is live (the notices hear the one \"Your games\" follows)",
            "return document.body.dataset.stream === 'live';",
            vec![],
        )
        .await;
    wait_for_notices(&desk).await;

    // Ann starts it: round 1 is one table of two and a bye.
    desk.click("#t-start").await;
    desk.wait_until(
        "round 1 is shown",
        "return !!document.querySelector('#tournament[data-status=running]') && !!document.querySelector('#rounds section[data-round=\"1\"]');",
        vec![],
    )
    .await;
    let all = rounds(&app, &id).await;
    assert_eq!(all.len(), 1, "{all:?}");
    let tables = all[0]["tables"].as_array().unwrap().clone();
    let shown = desk
        .js(
            "return [...document.querySelectorAll('#rounds section[data-round=\"1\"] ul.tables > li')].map((li) => ({
                 table: Number(li.dataset.table),
                 bye: li.classList.contains('bye'),
                 href: li.querySelector('a.game-link')?.getAttribute('href') ?? null,
                 text: li.textContent,
             }));",
            vec![],
        )
        .await;
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), tables.len(), "{shown:?} {tables:?}");
    let names = [(&ann, "Ann"), (&bob, "Bob"), (&cid, "Cid")];
    let name_of = |id: &str| names.iter().find(|(p, _)| p.id == id).unwrap().1;
    let mut byes = 0;
    for table in &tables {
        let n = table["table"].as_i64().unwrap();
        let li = shown
            .iter()
            .find(|li| li["table"] == n)
            .unwrap_or_else(|| panic!("table {n} is not shown: {shown:?}"));
        let text = li["text"].as_str().unwrap();
        for seat in table["seats"].as_array().unwrap() {
            let who = name_of(seat["player_id"].as_str().unwrap());
            assert!(text.contains(who), "table {n} names {who}: {text}");
        }
        match table["game_id"].as_str() {
            Some(game) => {
                assert_eq!(li["bye"], false);
                assert_eq!(li["href"], json!(format!("/games/{game}")));
            }
            None => {
                byes += 1;
                assert_eq!(li["bye"], true, "{li}");
                assert!(text.contains("Bye"), "{text}");
            }
        }
    }
    assert_eq!(byes, 1, "three players at tables of two: one bye");

    // The standings: every player, in the API's order.
    let (_, running) = app.get_json(&format!("/v1/tournaments/{id}"), None).await;
    let api_order: Vec<Value> = running["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player_id"].clone())
        .collect();
    let page_order = desk
        .js(
            "return [...document.querySelectorAll('#standings tbody tr')].map((tr) => tr.dataset.player);",
            vec![],
        )
        .await;
    assert_eq!(page_order, json!(api_order));
    desk.screenshot("tournament").await;
    desk.assert_accessible("a running tournament").await;

    // Bob's phone tells him of his round, from his stream.
    let bob_table = tables
        .iter()
        .find(|t| {
            t["seats"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["player_id"] == bob.id.as_str())
        })
        .unwrap();
    phone
        .wait_until(
            "Bob's page tells him of round 1",
            "return !!document.querySelector(`.tournament-notice[data-tournament='${arguments[0]}']`);",
            vec![json!(id)],
        )
        .await;
    let notice = phone
        .js(
            "const n = document.querySelector('.tournament-notice');
             return { text: n.textContent, href: n.querySelector('a.notice-game')?.getAttribute('href') ?? null };",
            vec![],
        )
        .await;
    let text = notice["text"].as_str().unwrap();
    assert!(text.contains("Round 1 of Tuesday Tycoon"), "{text}");
    match bob_table["game_id"].as_str() {
        Some(game) => assert_eq!(notice["href"], json!(format!("/games/{game}"))),
        None => assert!(text.contains("bye"), "{text}"),
    }
    phone
        .assert_fits_width("Your games with a round's notice")
        .await;
    phone
        .assert_accessible("Your games with a round's notice")
        .await;
    phone.screenshot("tournament-notice").await;

    // On the phone, the tournament and the list fit the screen.
    phone.goto(&format!("/tournaments/{id}")).await;
    phone
        .wait_until(
            "the tournament opens on the phone",
            "return !!document.querySelector('#rounds section[data-round=\"1\"]');",
            vec![],
        )
        .await;
    phone.assert_fits_width("a running tournament").await;
    phone
        .assert_accessible("a running tournament on a phone")
        .await;
    phone.screenshot("tournament").await;
    phone.goto("/tournaments").await;
    phone
        .wait_until(
            "the list opens on the phone",
            "return !!document.querySelector(`#tournament-list li[data-tournament='${arguments[0]}'][data-status=running]`) && !!document.getElementById('tournament-form');",
            vec![json!(id)],
        )
        .await;
    phone
        .assert_fits_width("the tournament list and its form")
        .await;
    phone
        .assert_accessible("the tournament list on a phone")
        .await;
    phone.screenshot("tournaments").await;
    phone.close().await;

    // Ann opens a game from the tournament page: hers when she has one.
    let game_table = tables
        .iter()
        .find(|t| {
            t["game_id"].is_string()
                && t["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|s| s["player_id"] == ann.id.as_str())
        })
        .or_else(|| tables.iter().find(|t| t["game_id"].is_string()))
        .unwrap();
    let game = game_table["game_id"].as_str().unwrap().to_string();
    let ann_seat = game_table["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["player_id"] == ann.id.as_str())
        .map(|s| s["seat"].clone());
    desk.click(&format!(
        "#rounds li[data-table='{}'] a.game-link",
        game_table["table"]
    ))
    .await;
    desk.wait_until(
        "the game opens",
        "return location.pathname === `/games/${arguments[0]}` && document.body.dataset.ready === 'true';",
        vec![json!(game)],
    )
    .await;
    if let Some(seat) = ann_seat {
        let held = desk.js("return document.body.dataset.seat;", vec![]).await;
        assert_eq!(
            held,
            json!(seat.to_string()),
            "the game page plays Ann's seat"
        );
    }
    desk.close().await;
}
