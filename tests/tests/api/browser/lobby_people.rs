//! The lobby with people in it (issue 38): the names of the players at each table, the
//! reader's own tables first, filters by rated and clock kept in the address, and inviting a
//! player by name (a challenge the invited player finds on their page); on a phone (390 px)
//! none of it scrolls sideways, and axe-core finds no serious problem.

use reqwest::Method;
use serde_json::{json, Value};

use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{json_of, spawn_app, Player, TestApp};

/// Sends `body` to `path` with `token`; the answer's JSON, which must be a success.
async fn post(app: &TestApp, path: &str, token: Option<&str>, body: Value) -> Value {
    let (status, answer) = json_of(
        app.req(Method::POST, path, token)
            .json(&body)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(status.is_success(), "{path}: {status} {answer}");
    answer
}

/// A game created through the API; its id.
async fn game(app: &TestApp, token: Option<&str>, body: Value) -> String {
    post(app, "/v1/games", token, body).await["game_id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Signs `page` in as `player` (what `/me` keeps after a sign-up).
async fn sign_in(page: &Browser, app: &TestApp, player: &Player, name: &str) {
    page.goto(&format!("{}/favicon.ico", app.base)).await;
    page.js(
        "localStorage.setItem('boardgames.player.v1', JSON.stringify(arguments[0]));",
        vec![json!({ "player_id": player.id, "name": name, "token": player.token })],
    )
    .await;
}

/// Waits until the list shows `n` games with their players; returns their ids in order.
async fn rows(page: &Browser, n: usize) -> Vec<String> {
    page.wait_until(
        &format!("the list shows {n} games"),
        "return document.querySelectorAll('#game-rows tr[data-game]').length === arguments[0];",
        vec![json!(n)],
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

/// The names shown at a listed table.
async fn names_at(page: &Browser, game: &str) -> Vec<String> {
    let names = page
        .js(
            "return [...document.querySelectorAll(`#game-rows tr[data-game=\"${arguments[0]}\"] .seat-name`)].map((n) => n.textContent);",
            vec![json!(game)],
        )
        .await;
    names
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_names_the_players_at_each_table_and_lists_your_own_first() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let eve = app.create_player("Eve").await;
    // Eve's game is the oldest: newest first alone would list it last.
    let evesgame = game(
        &app,
        Some(&eve.token),
        json!({"type": "tycoon", "seats": [{"me": true}, {"open": true}]}),
    )
    .await;
    let annbob = game(
        &app,
        None,
        json!({"type": "acquire", "seats": [{"name": "Ann"}, {"name": "Bob"}]}),
    )
    .await;
    let withbot = game(
        &app,
        None,
        json!({"type": "tycoon", "seats": [{"name": "Cy"}, {"bot": "greedy"}]}),
    )
    .await;

    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "lobby-people", (390, 844)).await;
    page.goto("/").await;
    page.wait_ready().await;
    let before = rows(&page, 3).await;
    assert_eq!(
        before,
        [withbot.clone(), annbob.clone(), evesgame.clone()],
        "newest first for a stranger"
    );
    assert_eq!(names_at(&page, &annbob).await, ["Ann", "Bob"]);
    let cy = names_at(&page, &withbot).await;
    assert_eq!(cy.len(), 2, "{cy:?}");
    assert_eq!(cy[0], "Cy");
    assert_eq!(names_at(&page, &evesgame).await, ["Eve"]);
    // Eve's name links to her profile.
    let link = page
        .js(
            "return document.querySelector(`#game-rows tr[data-game=\"${arguments[0]}\"] a.seat-name`).getAttribute('href');",
            vec![json!(evesgame)],
        )
        .await;
    assert_eq!(link, json!(format!("/players/{}", eve.id)));
    page.wait_until(
        "the open seat can be joined",
        "return !!document.querySelector('button.join[data-seat=\"1\"]');",
        vec![],
    )
    .await;
    // No count of events passed off as moves.
    let headings = page
        .js(
            "return document.querySelectorAll('table.games thead th').length;",
            vec![],
        )
        .await;
    assert_eq!(headings, json!(5));
    page.assert_fits_width("the lobby with names on a phone")
        .await;
    page.assert_accessible("the lobby with names").await;

    sign_in(&page, &app, &eve, "Eve").await;
    page.goto("/").await;
    page.wait_ready().await;
    let after = rows(&page, 3).await;
    assert_eq!(
        after,
        [evesgame.clone(), withbot, annbob],
        "Eve's own table first"
    );
    let mine = page
        .js(
            "return document.querySelector('#game-rows tr[data-game]').dataset.mine;",
            vec![],
        )
        .await;
    assert_eq!(mine, json!("true"));
    page.assert_fits_width("the lobby signed in on a phone")
        .await;
    page.assert_accessible("the lobby signed in").await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_filters_by_rated_and_clock_and_keeps_them_in_the_address() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let plain = game(
        &app,
        None,
        json!({"type": "tycoon", "seats": [{"name": "A"}, {"name": "B"}]}),
    )
    .await;
    let daily = game(
        &app,
        None,
        json!({"type": "tycoon", "seats": [{"name": "C"}, {"name": "D"}],
               "clock": {"kind": "per_move", "seconds": 86400}}),
    )
    .await;
    // A rated game: Ann challenges Bob to one, Bob accepts.
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let sent = post(
        &app,
        "/v1/challenges",
        Some(&ann.token),
        json!({"type": "tycoon", "players": [bob.id], "rated": true,
               "clock": {"kind": "fischer", "initial": 900, "increment": 10}}),
    )
    .await;
    let accepted = post(
        &app,
        &format!(
            "/v1/challenges/{}/accept",
            sent["challenge_id"].as_str().unwrap()
        ),
        Some(&bob.token),
        json!({}),
    )
    .await;
    let rated = accepted["game_id"].as_str().unwrap().to_string();

    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "lobby-filters", (390, 844)).await;
    page.goto("/").await;
    page.wait_ready().await;
    assert_eq!(
        rows(&page, 3).await,
        [rated.clone(), daily.clone(), plain.clone()]
    );

    page.select("#filter-rated", "yes").await;
    assert_eq!(rows(&page, 1).await, std::slice::from_ref(&rated));
    assert_eq!(
        page.js("return location.search;", vec![]).await,
        "?rated=yes"
    );
    page.select("#filter-rated", "no").await;
    assert_eq!(rows(&page, 2).await, [daily.clone(), plain.clone()]);
    page.select("#filter-clock", "per_move").await;
    assert_eq!(rows(&page, 1).await, std::slice::from_ref(&daily));
    assert_eq!(
        page.js("return location.search;", vec![]).await,
        "?rated=no&clock=per_move"
    );
    page.select("#filter-rated", "").await;
    page.select("#filter-clock", "none").await;
    assert_eq!(rows(&page, 1).await, std::slice::from_ref(&plain));
    page.select("#filter-clock", "fischer").await;
    page.select("#filter-type", "tycoon").await;
    assert_eq!(rows(&page, 1).await, std::slice::from_ref(&rated));
    // The filters survive a reload, and show in their selects.
    page.client.refresh().await.unwrap();
    page.wait_ready().await;
    assert_eq!(rows(&page, 1).await, [rated]);
    let shown = page
        .js(
            "return ['filter-type', 'filter-rated', 'filter-clock'].map((id) => document.getElementById(id).value);",
            vec![],
        )
        .await;
    assert_eq!(shown, json!(["tycoon", "", "fischer"]));
    // A filter that matches nothing says so.
    page.select("#filter-rated", "no").await;
    page.wait_until(
        "the list says it is empty",
        "return document.querySelectorAll('#game-rows tr[data-game]').length === 0 && document.getElementById('game-rows').textContent.length > 0;",
        vec![],
    )
    .await;
    page.assert_fits_width("the lobby's filters on a phone")
        .await;
    page.assert_accessible("the lobby's filters").await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_invites_another_by_name_from_the_lobby() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "lobby-invite", (390, 844)).await;

    // Nobody signed in: how to sign in, or to use an open seat's link.
    page.goto("/").await;
    page.wait_ready().await;
    page.wait_until(
        "the invitation says how to sign in",
        "return !!document.querySelector('#invite-sign-in a[href=\"/me\"]');",
        vec![],
    )
    .await;

    sign_in(&page, &app, &ann, "Ann").await;
    page.goto("/").await;
    page.wait_ready().await;
    page.fill("#invite-name", "Bob").await;
    page.click("#invite-go").await;
    page.wait_until(
        "the challenge form opens",
        "return !!document.getElementById('challenge-send');",
        vec![],
    )
    .await;
    page.select("#challenge-type", "acquire").await;
    page.assert_fits_width("the invitation on a phone").await;
    page.assert_accessible("the invitation").await;
    page.click("#challenge-send").await;
    page.wait_until(
        "the challenge is sent",
        "return !!document.getElementById('invite-see');",
        vec![],
    )
    .await;
    // Bob finds it among his challenges: from Ann, for Acquire, waiting for him.
    let (status, got) = app
        .get_json("/v1/challenges?role=received", Some(&bob.token))
        .await;
    assert!(status.is_success(), "{status} {got}");
    let list = got["challenges"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{got}");
    assert_eq!(list[0]["type"], "acquire");
    assert_eq!(list[0]["status"], "pending");
    assert_eq!(list[0]["challenger_id"], json!(ann.id));

    // An unknown name is refused, in words, beside the form.
    page.fill("#invite-name", "Nobody Here").await;
    page.click("#invite-go").await;
    page.wait_until(
        "the form is for the new name",
        "return document.getElementById('challenge-send')?.textContent.includes('Nobody Here');",
        vec![],
    )
    .await;
    page.click("#challenge-send").await;
    page.wait_until(
        "the refusal is shown",
        "return !document.getElementById('page-error').hidden;",
        vec![],
    )
    .await;
    page.close().await;
}
