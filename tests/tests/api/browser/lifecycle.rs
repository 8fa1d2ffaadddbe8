//! Clocks and leaving a game in the browser: a game created in the lobby with a clock shows each
//! seat's time, counting down for the seat the game waits for (from the server's time, also on a
//! device whose clock is off); a player resigns from the menu, asked first, and the outcome and
//! the log say so; a game nobody moved in is called off; a seat whose clock ran out
//! is played by the server's bot until its player takes it back from the dock; an open game
//! nobody joined is listed as expired.

use serde_json::{json, Value};

use super::{api_document, Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{spawn_app_with, TestApp};

/// Opens the menu and answers yes to the command `id` asks about.
async fn menu_command(page: &Browser, id: &str) {
    open_menu_command(page, id).await;
    page.click("dialog.chooser[open] #confirm-yes").await;
}

/// Opens the menu, chooses the command `id` and waits for its question.
async fn open_menu_command(page: &Browser, id: &str) {
    page.click("#menu > summary").await;
    page.wait_until(
        &format!("the menu offers {id}"),
        "return !!document.getElementById(arguments[0]);",
        vec![json!(id)],
    )
    .await;
    page.click(&format!("#{id}")).await;
    page.wait_until(
        "the command asks to be sure",
        "return !!document.querySelector('dialog.chooser[open] #confirm-yes');",
        vec![],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_resignation_calling_off_and_taking_a_seat_back() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    // Open games expire after a second here; every other game of this test has all its seats.
    let app = spawn_app_with(|s| s.open_game_ttl = std::time::Duration::from_secs(1).into()).await;
    let forgotten = create(
        &app,
        json!({"type": "acquire", "seats": [{"name": "Cy"}, {"open": true}]}),
    )
    .await["game_id"]
        .as_str()
        .unwrap()
        .to_string();
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "lifecycle-ann", (1280, 1000)).await;

    // A game with a live clock, from the lobby; Ann holds both seats.
    ann.begin_new_game("Ann", "tycoon", "step_mode", 2).await;
    ann.fill("#seat-name-1", "Bob").await;
    ann.select("#new-clock", "blitz").await;
    ann.create_new_game().await;
    let id = ann.open_created_game().await;
    let doc = api_document(&app, &id).await;
    assert_eq!(doc["clock"]["kind"], "fischer");
    ann.wait_until(
        "Ann's clock runs and Bob's stands",
        "const clock = (seat) => document.querySelector(`#players [data-seat='${seat}'] .clock`);
         return clock(0) && clock(0).classList.contains('running') && /^Clock [45]:\\d\\d$/.test(clock(0).textContent)
             && clock(1) && !clock(1).classList.contains('running') && clock(1).textContent === 'Clock 5:00'
             && /^Your time ?Clock [45]:\\d\\d$/.test(document.getElementById('dock-clocks').textContent);",
        vec![],
    )
    .await;
    ann.wait_until(
        "Ann's clock counts down",
        "return /Clock 4:5\\d/.test(document.querySelector(\"#players [data-seat='0'] .clock\").textContent);",
        vec![],
    )
    .await;
    ann.screenshot("clock").await;

    // Nobody has moved: the game may be called off, once Ann says she is sure.
    open_menu_command(&ann, "menu-abort").await;
    ann.click("dialog.chooser[open] .cancel").await;
    ann.wait_until(
        "cancelling closes the question",
        "return !document.querySelector('dialog.chooser');",
        vec![],
    )
    .await;
    assert_eq!(api_document(&app, &id).await["status"], "active");
    menu_command(&ann, "menu-abort").await;
    ann.wait_until(
        "the game is called off",
        "return document.body.dataset.status === 'aborted';",
        vec![],
    )
    .await;
    assert_eq!(api_document(&app, &id).await["status"], "aborted");

    // Another game, on a device whose clock is ten minutes slow: after Ann's move the running
    // clock counts down from the server's time, not the device's. Then she resigns (cancelling
    // once); Bob wins and the log says why.
    let created = create(
        &app,
        json!({"type": "tycoon", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 3,
               "clock": {"kind": "fischer", "initial": 300, "increment": 5}}),
    )
    .await;
    let game = created["game_id"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap();
    ann.goto(&format!("/games/{game}#token={token}")).await;
    ann.wait_ready().await;
    ann.js(
        "const real = Date.now; Date.now = () => real() - 600000;",
        vec![],
    )
    .await;
    let doc = api_document(&app, &game).await;
    let action = doc_first_action(&app, &game, token).await;
    ann.perform(&action.to_string(), false).await;
    ann.wait_for_version(doc["version"].as_i64().unwrap() + 1)
        .await;
    ann.wait_until(
        "the running clock counts from the server's time",
        "const clock = document.querySelector('#players .clock.running');
         return !!clock && /Clock [45]:\\d\\d/.test(clock.textContent);",
        vec![],
    )
    .await;
    open_menu_command(&ann, "menu-resign").await;
    ann.assert_accessible("a game with clocks, asking to resign")
        .await;
    ann.click("dialog.chooser[open] .cancel").await;
    assert_eq!(api_document(&app, &game).await["status"], "active");
    menu_command(&ann, "menu-resign").await;
    ann.wait_until(
        "the outcome names the winner and who resigned",
        "const rows = [...document.querySelectorAll('#scores tr[data-seat]')];
         return rows.length === 2 && rows[0].dataset.seat === '1' && rows[0].textContent.includes('winner')
             && rows[1].textContent.includes('resigned');",
        vec![],
    )
    .await;
    let last = ann
        .js(
            "return [...document.querySelectorAll('#log li')].at(-1).textContent;",
            vec![],
        )
        .await;
    assert!(last.as_str().unwrap().ends_with("Ann resigned."), "{last}");
    ann.assert_log_in_words().await;

    // A clock of a second a move: the bot stands in for Ann, and she takes her seat back.
    let created = create(
        &app,
        json!({"type": "tycoon", "seats": [{"name": "Ann"}, {"name": "Bob"}],
               "clock": {"kind": "per_move", "seconds": 1}}),
    )
    .await;
    let game = created["game_id"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap();
    ann.goto(&format!("/games/{game}#token={token}")).await;
    ann.wait_ready().await;
    ann.wait_until(
        "the dock offers Ann her seat back",
        "return !!document.getElementById('reclaim') && document.getElementById('prompt').textContent.includes('clock ran out');",
        vec![],
    )
    .await;
    // The bot keeps moving and the dock is redrawn with each move, so a click can land on a
    // button that is being replaced (on a loaded machine, many times running): click the
    // current button until the log says she is back.
    const BACK: &str = "return [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('Ann is back and plays again.'));";
    let mut back = false;
    for _ in 0..super::MAX_POLLS {
        if ann.js(BACK, vec![]).await == json!(true) {
            back = true;
            break;
        }
        if let Ok(button) = ann.client.find(fantoccini::Locator::Id("reclaim")).await {
            let _ = button.click().await;
        }
        tokio::time::sleep(super::POLL).await;
    }
    assert!(
        back,
        "the log never said Ann is back after she clicked to take her seat back"
    );
    ann.assert_log_in_words().await;

    // The open game nobody joined has expired: the lobby lists it as such.
    for _ in 0..super::MAX_POLLS {
        if api_document(&app, &forgotten).await["status"] == "expired" {
            break;
        }
        tokio::time::sleep(super::POLL).await;
    }
    ann.goto("/?status=expired").await;
    ann.wait_ready().await;
    ann.wait_until(
        "the lobby lists the forgotten game as expired",
        "const rows = [...document.querySelectorAll('#game-rows tr[data-game]')];
         return rows.length === 1 && rows[0].dataset.game === arguments[0]
             && rows[0].querySelector('.status').textContent === 'Expired';",
        vec![json!(forgotten)],
    )
    .await;
    ann.close().await;
}

/// Creates a game through the API; returns the answer.
async fn create(app: &TestApp, body: Value) -> Value {
    let res = app
        .req(reqwest::Method::POST, "/v1/games", None)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::CREATED);
    res.json().await.unwrap()
}

/// The first legal action of the seat of `token`.
async fn doc_first_action(app: &TestApp, game: &str, token: &str) -> Value {
    let (_, legal) = app
        .get_json(&format!("/v1/games/{game}/legal-actions"), Some(token))
        .await;
    legal["actions"][0].clone()
}
