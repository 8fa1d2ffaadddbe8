//! Other players' moves at the reader's pace: the "Showing …'s move" notice goes away once the
//! moves are shown (it is hidden, not just emptied), and the paused dock keeps its contrast;
//! and while the server's bot stands in for the viewer's seat and its moves are played back,
//! "Take my seat back" works, the banner does not wait for the viewer, and the taken-back seat
//! is the viewer's at once (no replay of the stand-in's moves first); a spectator of bots that
//! move faster than the pace keeps up with the game, its banner never ahead of its board.

use serde_json::{json, Value};

use super::{Browser, Chromedriver, BROWSER_SLOTS, POLL};
use crate::helpers::{spawn_app, spawn_app_with, Game, TestApp};

/// Makes `moves` moves through the API (each the first legal action of the seat the game waits
/// for); returns the version after them.
async fn moves_through_the_api(app: &TestApp, game: &Game, moves: usize) -> i64 {
    for _ in 0..moves {
        let doc = app.document(game, None).await;
        let seat = doc["active_seats"][0].as_u64().expect("a seat to act") as usize;
        let action = app.legal(game, seat).await["actions"][0].clone();
        let version = doc["version"].as_i64().unwrap();
        let (status, body) = app
            .act(
                game,
                seat,
                &json!({ "action": action, "expected_version": version }),
            )
            .await;
        assert!(status.is_success(), "{body}");
    }
    app.version(game).await
}

/// Whether the pacing notice takes any room on the page (what a reader sees).
const PACING_SHOWN: &str = "const p = document.getElementById('pacing');
     return getComputedStyle(p).display !== 'none' && p.getClientRects().length > 0;";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pacing_notice_goes_away_once_the_moves_are_shown() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game(2, 5).await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "pacing", (1024, 800)).await;
    page.set_pace(&app.base, "normal").await;
    page.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    page.wait_ready().await;
    assert_eq!(page.js(PACING_SHOWN, vec![]).await, false);

    let version = moves_through_the_api(&app, &game, 5).await;
    page.wait_until(
        "the page plays the burst of moves back",
        &format!(
            "return document.body.dataset.playback === 'true' && (() => {{ {PACING_SHOWN} }})();"
        ),
        vec![],
    )
    .await;
    // The paused dock keeps its contrast (a faded hint fell to 3.74:1).
    page.assert_accessible_within(Some("#dock"), "the dock during a playback")
        .await;
    page.wait_until(
        "the page shows the game as it is now",
        "return Number(document.body.dataset.version) === arguments[0] && document.body.dataset.playback === '';",
        vec![json!(version)],
    )
    .await;
    assert_eq!(
        page.js(PACING_SHOWN, vec![]).await,
        false,
        "the notice of the playback stays after it"
    );

    // At once ("instant"): no notice at all, on the viewer's turn or another's.
    page.set_pace(&app.base, "instant").await;
    page.goto(&format!("/games/{}", game.id)).await;
    page.wait_ready().await;
    let version = moves_through_the_api(&app, &game, 3).await;
    page.wait_for_version(version).await;
    assert_eq!(page.js(PACING_SHOWN, vec![]).await, false);
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_is_taken_back_while_the_stand_ins_moves_play_back() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    // The bots move a few times a second: faster than the page shows moves at its pace.
    let app = spawn_app_with(|s| s.bot_move_delay_ms = 250).await;
    let res = app
        .req(reqwest::Method::POST, "/v1/games", None)
        .json(
            &json!({"type": "tycoon", "seats": [{"name": "Ann"}, {"bot": "greedy"}], "seed": 7,
                       "clock": {"kind": "per_move", "seconds": 3}}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::CREATED);
    let created: Value = res.json().await.unwrap();
    let id = created["game_id"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "pacing-reclaim", (1280, 1000)).await;
    ann.set_pace(&app.base, "normal").await;
    ann.goto(&format!("/games/{id}#token={token}")).await;
    ann.wait_ready().await;

    // Ann's clock runs out; the stand-in's moves are played back, and meanwhile the dock offers
    // her seat back with a button that works, under a banner that does not wait for her.
    ann.wait_until(
        "the stand-in's moves play back with the seat on offer",
        "const b = document.getElementById('reclaim');
         return document.body.dataset.playback === 'true' && !!b && !b.disabled;",
        vec![],
    )
    .await;
    let banner = ann
        .js(
            "return document.getElementById('turn-banner').textContent;",
            vec![],
        )
        .await;
    let banner = banner.as_str().unwrap();
    assert!(
        !banner.contains("Waiting for Ann") && banner.contains("bot plays your seat"),
        "the banner on Ann's page while a bot plays her seat: {banner:?}"
    );
    ann.screenshot("reclaim-during-playback").await;
    // The dock is redrawn with each move played back: click again if the button was replaced
    // under the click.
    let mut reclaimed = None;
    for _ in 0..super::MAX_POLLS {
        if let Ok(button) = ann.client.find(fantoccini::Locator::Id("reclaim")).await {
            let _ = button.click().await;
        }
        let (_, page) = app
            .get_json(&format!("/v1/games/{id}/events?after=0&limit=1000"), None)
            .await;
        reclaimed = page["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["event"]["type"] == "seat_reclaimed")
            .and_then(|e| e["seq"].as_i64());
        if reclaimed.is_some() {
            break;
        }
        tokio::time::sleep(POLL).await;
    }
    let reclaimed = reclaimed.expect("Ann's click took her seat back");
    // The page shows the game from the reclaim on at once: no stand-in move is replayed first
    // (at 0.7 s each, a minute of them would hold Ann's controls while her clock runs). A
    // hundred polls are a few seconds: far more than showing one answer takes.
    let mut shown = Value::Null;
    for _ in 0..100 {
        shown = ann
            .js(
                "return [Number(document.body.dataset.version), document.body.dataset.playback];",
                vec![],
            )
            .await;
        if shown[0].as_i64().unwrap() >= reclaimed && shown[1] == "" {
            break;
        }
        tokio::time::sleep(POLL).await;
    }
    assert!(
        shown[0].as_i64().unwrap() >= reclaimed && shown[1] == "",
        "the page still plays the stand-in's moves back after Ann took her seat back (it shows \
         {shown}, the reclaim is event {reclaimed})"
    );
    ann.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_keeps_up_with_bots_that_move_faster_than_the_pace() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app_with(|s| s.bot_move_delay_ms = 100).await;
    let res = app
        .req(reqwest::Method::POST, "/v1/games", None)
        .json(
            &json!({"type": "tycoon", "seats": [{"bot": "greedy"}, {"bot": "greedy"}], "seed": 3}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::CREATED);
    let id = res.json::<Value>().await.unwrap()["game_id"]
        .as_str()
        .unwrap()
        .to_string();
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "pacing-spectator", (1280, 1000)).await;
    page.set_pace(&app.base, "normal").await;
    page.goto(&format!("/games/{id}")).await;
    page.wait_ready().await;

    // While the bots play and until the page shows the end, the banner tells the position the
    // board shows: never "Game over" while moves before the end are still played back. The
    // bots' moves come faster than the pace: the page catches up instead of replaying them
    // all (a minute and more behind), and shows the end soon after it came.
    let mut played_back = false;
    let mut version = None;
    for _ in 0..super::MAX_POLLS {
        if version.is_none() {
            let doc = super::api_document(&app, &id).await;
            if doc["status"] == "finished" {
                version = doc["version"].as_i64();
            }
        }
        let shown = page
            .js(
                "return [document.body.dataset.playback, document.getElementById('turn-banner').textContent,
                         Number(document.body.dataset.version)];",
                vec![],
            )
            .await;
        played_back |= shown[0] == "true";
        let over = shown[1].as_str().unwrap().starts_with("Game over");
        assert!(
            !(shown[0] == "true" && over),
            "the banner runs ahead of the board: {shown}"
        );
        if version.is_some() && shown[2].as_i64() == version && shown[0] == "" && over {
            break;
        }
        tokio::time::sleep(POLL).await;
    }
    assert!(played_back, "the bots' moves were never played back");
    let shown = page
        .js("return Number(document.body.dataset.version);", vec![])
        .await;
    assert!(
        version.is_some() && shown.as_i64() == version,
        "the spectator's page shows version {shown} of the finished game's {version:?}"
    );
    let moves = app
        .get_json(&format!("/v1/games/{id}/events?after=0&limit=1000"), None)
        .await
        .1["events"]
        .as_array()
        .unwrap()
        .len();
    println!("pacing: a bot game of {moves} events followed by a spectator");
    page.close().await;
}
