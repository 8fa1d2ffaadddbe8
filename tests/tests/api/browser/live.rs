//! The push stream in the browser: a page following a game with `?updates=stream` shows the
//! opponent's moves, made by another client through the API, without a reload and without
//! falling back to the long poll, and a burst of them one move at a time at the reader's pace
//! (skippable); behind a proxy that cuts its connections, the stream resumes from the last
//! event id, a stream that keeps failing hands over to the long poll and the page returns to
//! the stream once it works again, and with the server out of reach the page says it is
//! offline and pauses its moves until the server is back: each time without losing or
//! repeating an event and without a reload.

use serde_json::{json, Value};

use super::proxy::{Proxy, Streams};
use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{spawn_app, Game, TestApp};

/// Whether a status line counts moves in words ("· 7 moves ·"), not events ("move 32").
fn counts_moves(line: &str) -> bool {
    let counted = line.split(" · ").any(|part| {
        part.strip_suffix(" moves")
            .or_else(|| part.strip_suffix(" move"))
            .is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n > 0))
    });
    counted && !line.contains("· move ")
}

/// Makes one move through the API (the first legal action of the seat the game waits for);
/// returns that seat.
async fn move_through_the_api(app: &TestApp, game: &Game) -> usize {
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
    seat
}

/// Makes `moves` moves through the API; returns the version after them.
async fn moves_through_the_api(app: &TestApp, game: &Game, moves: usize) -> i64 {
    for _ in 0..moves {
        move_through_the_api(app, game).await;
    }
    app.version(game).await
}

/// Opens `game` on `page` as seat 0 (`{base}/games/{id}{query}#token=…`; `base` empty for the
/// server itself), waits until it is ready and marks it with what a reload would wipe.
async fn open_as_seat_0(page: &Browser, base: &str, game: &Game, query: &str) {
    page.goto(&format!(
        "{base}/games/{}{query}#token={}",
        game.id, game.tokens[0]
    ))
    .await;
    page.wait_ready().await;
    page.js("window.notReloaded = true;", vec![]).await;
}

/// Asserts that `page` was not reloaded since [`open_as_seat_0`] and follows the game with
/// `transport` (`body[data-updates]`).
async fn assert_follows_unreloaded(page: &Browser, transport: &str) {
    let got = page
        .js(
            "return [window.notReloaded === true, document.body.dataset.updates];",
            vec![],
        )
        .await;
    assert_eq!(
        got,
        json!([true, transport]),
        "the page reloaded, or follows the game another way"
    );
}

/// Waits until `page` shows `version` with its log holding exactly the events the API gives
/// the page's seat (each seq once, none missing), the page not reloaded and following the
/// game with `transport` (`body[data-updates]`), the "interrupted" notice gone.
async fn page_follows(app: &TestApp, game: &Game, page: &Browser, version: i64, transport: &str) {
    page.wait_until(
        &format!("the page shows version {version}"),
        "return Number(document.body.dataset.version) === arguments[0]
                && !document.body.dataset.busy;",
        vec![json!(version)],
    )
    .await;
    let want: Vec<Value> = app
        .all_events(game, Some(&game.tokens[0]))
        .await
        .iter()
        .map(|e| e["seq"].clone())
        .collect();
    assert_eq!(want.last(), Some(&json!(version)));
    page.wait_until(
        "the log holds every event once and the connection notice is gone",
        "return JSON.stringify([...document.querySelectorAll('#log li[data-seq]')].map((li) => Number(li.dataset.seq)))
                 === JSON.stringify(arguments[0])
               && document.getElementById('connection').hidden;",
        vec![json!(want)],
    )
    .await;
    assert_follows_unreloaded(page, transport).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stream_transport_delivers_the_opponents_moves_without_a_reload() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game(2, 5).await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "stream", (1024, 800)).await;
    open_as_seat_0(&page, "", &game, "?updates=stream").await;
    assert_eq!(
        page.js("return document.body.dataset.seat;", vec![]).await,
        "0"
    );
    // The status line counts the players' moves, not the game's events (its start, the
    // shuffles): none yet.
    let status = || {
        page.js(
            "return document.getElementById('game-status').textContent;",
            vec![],
        )
    };
    let before = status().await;
    assert!(
        before.as_str().unwrap().contains("no moves yet"),
        "{before}"
    );

    let mut opponent_moves = 0;
    for _ in 0..300 {
        if opponent_moves == 3 {
            break;
        }
        if move_through_the_api(&app, &game).await == 1 {
            opponent_moves += 1;
        }
        let now = app.version(&game).await;
        page.wait_until(
            &format!("the page shows version {now} from the stream"),
            "return Number(document.body.dataset.version) === arguments[0];",
            vec![json!(now)],
        )
        .await;
    }
    assert_eq!(opponent_moves, 3, "the opponent never got to move");
    let after = status().await;
    assert!(
        counts_moves(after.as_str().unwrap()),
        "the status line after some moves: {after}"
    );
    assert_follows_unreloaded(&page, "stream").await;

    // At the reader's pace, a burst of other players' moves is shown one move at a time,
    // and "Skip to now" shows the game as it is at once.
    page.set_pace(&app.base, "normal").await;
    page.goto(&format!("/games/{}", game.id)).await;
    page.wait_ready().await;
    let version = moves_through_the_api(&app, &game, 5).await;
    page.wait_until(
        "the page plays the burst of moves back",
        "return document.body.dataset.playback === 'true'
                && /Showing .* move \\(\\d+ of \\d+\\)/.test(document.getElementById('pacing').textContent);",
        vec![],
    )
    .await;
    page.click("#skip-playback").await;
    page.wait_until(
        "the page shows the game as it is now",
        "return Number(document.body.dataset.version) === arguments[0] && document.body.dataset.playback === '';",
        vec![json!(version)],
    )
    .await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_stream_resumes_from_the_last_event_id_and_a_failing_one_falls_back_to_polling() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game(2, 11).await;
    let proxy = Proxy::start(&app.base).await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "stream-cut", (1024, 800)).await;
    open_as_seat_0(&page, &proxy.base, &game, "").await;
    let version = moves_through_the_api(&app, &game, 2).await;
    page_follows(&app, &game, &page, version, "stream").await;
    assert!(
        !proxy.stream_requests().is_empty(),
        "the page followed the game without its stream"
    );

    // Every connection dropped; the page's next stream request is held until moves were made
    // without it, and must resume after the last event it had.
    proxy.set_streams(Streams::Hold);
    let before = proxy.stream_requests().len();
    proxy.cut();
    let mut held = None;
    for _ in 0..super::MAX_POLLS {
        if let Some(seen) = proxy.stream_requests().get(before) {
            held = Some(seen.clone());
            break;
        }
        tokio::time::sleep(super::POLL).await;
    }
    let held = held.expect("the page did not reopen its stream after the cut");
    assert_eq!(
        held.last_event_id,
        Some(version.to_string()),
        "the stream is not resumed from the last event received"
    );
    let version = moves_through_the_api(&app, &game, 3).await;
    proxy.set_streams(Streams::Pass);
    page_follows(&app, &game, &page, version, "stream").await;

    // Now every stream request is closed unanswered: after a few attempts the page follows
    // the game by long polling, through the same proxy.
    proxy.set_streams(Streams::Close);
    proxy.cut();
    page.wait_until(
        "the page falls back to the long poll",
        "return document.body.dataset.updates === 'poll';",
        vec![],
    )
    .await;
    let version = moves_through_the_api(&app, &game, 3).await;
    page_follows(&app, &game, &page, version, "poll").await;
    assert!(
        proxy.seen().iter().any(|r| r.target.contains("wait=")),
        "no long poll went through the proxy"
    );
    page.screenshot("stream-fallback").await;

    // Once streams work again, the page goes back to the stream by itself.
    proxy.set_streams(Streams::Pass);
    page.wait_until(
        "the page returns to the stream",
        "return document.body.dataset.updates === 'stream';",
        vec![],
    )
    .await;
    let version = moves_through_the_api(&app, &game, 2).await;
    page_follows(&app, &game, &page, version, "stream").await;
    page.close().await;
}

/// With the server out of reach the page says it is offline and its moves cannot be used;
/// once the server answers again the notice goes, the moves come back and the page follows
/// the game on the stream, with the moves made meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_pauses_the_moves_and_recovery_returns_to_the_stream() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game(2, 7).await;
    let proxy = Proxy::start(&app.base).await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "offline", (1024, 800)).await;
    page.set_pace(&proxy.base, "instant").await;
    open_as_seat_0(&page, &proxy.base, &game, "").await;
    // Seat 0 is the page's: its moves are on offer.
    assert_eq!(app.document(&game, None).await["active_seats"][0], 0);
    page.wait_until(
        "the page offers its moves",
        "return document.querySelectorAll('#action-list button:not(:disabled)').length > 0;",
        vec![],
    )
    .await;

    proxy.set_down(true);
    page.wait_until(
        "the page says it is offline and its moves cannot be used",
        "return document.body.dataset.offline === 'true'
                && !document.getElementById('connection').hidden
                && document.querySelectorAll('#action-list button').length > 0
                && [...document.querySelectorAll('#action-list button')].every((b) => b.disabled);",
        vec![],
    )
    .await;
    page.screenshot("offline").await;
    page.assert_accessible("a game page while offline").await;
    // The opponent cannot move before seat 0 does: seat 0's move is made through the API.
    let version = moves_through_the_api(&app, &game, 2).await;

    proxy.set_down(false);
    page.wait_until(
        "the page is back online, on the stream",
        "return document.body.dataset.offline === 'false'
                && document.getElementById('connection').hidden
                && document.body.dataset.updates === 'stream';",
        vec![],
    )
    .await;
    page_follows(&app, &game, &page, version, "stream").await;
    page.close().await;
}
