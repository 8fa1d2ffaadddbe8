//! Tycoon in the browser: created in the lobby, the second seat joined from the lobby by
//! another browser (a phone), played to the end by clicking cities, tickets and buttons
//! (some moves with the keyboard), one page reloaded mid-game; the phone's layout, the prompt
//! bar, the worded log and axe-core's verdict checked on the way; and a game against a bot
//! ending in a rematch.

use reqwest::Method;
use serde_json::Value;

use super::{api_document, Browser, Chromedriver, Table, BROWSER_SLOTS};
use crate::helpers::{spawn_app, Game, TestApp};

/// Picks a move that brings the game to its end quickly: build whenever possible, settle
/// loans, fly (to a different city each turn), buy a ticket when there is nothing to fly
/// with, borrow when broke.
fn choose_tycoon(offered: &[Value], turns: usize) -> usize {
    let of = |kind: &str| -> Vec<usize> {
        (0..offered.len())
            .filter(|&i| offered[i]["type"] == kind)
            .collect()
    };
    for kind in ["build_hotel", "renovate_hotel"] {
        if let Some(&i) = of(kind).first() {
            return i;
        }
    }
    let settle = of("settle_loan");
    if let Some(&i) = settle
        .iter()
        .find(|&&i| offered[i]["decision"] == "repay")
        .or(settle.first())
    {
        return i;
    }
    let fly = of("fly");
    if !fly.is_empty() {
        return fly[turns % fly.len()];
    }
    for kind in ["end_turn", "buy_ticket", "take_loan", "pass"] {
        if let Some(&i) = of(kind).first() {
            return i;
        }
    }
    0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_seat_tycoon_game_is_created_in_the_lobby_and_played_to_the_end_by_clicking() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "tycoon-ann", (1280, 1000)).await;
    let bob = Browser::open(&driver, &app, "tycoon-bob", (390, 844)).await;

    // Ann creates a game whose second seat is open.
    ann.begin_new_game("Ann", "tycoon", "step_mode", 2).await;
    ann.select("#seat-kind-1", "open").await;
    ann.create_new_game().await;
    ann.wait_until(
        "the list shows the new game",
        "return !!document.querySelector('#game-rows tr[data-game]');",
        vec![],
    )
    .await;
    ann.screenshot("lobby-created").await;
    ann.assert_accessible("the lobby with a created game").await;
    let id = ann.open_created_game().await;
    let doc = api_document(&app, &id).await;
    assert_eq!(doc["status"], "open");
    assert_eq!(doc["seats"][0]["name"], "Ann");
    ann.assert_accessible("a game waiting for a player").await;

    // Bob, on a phone, joins the open seat from the lobby.
    bob.goto("/").await;
    bob.wait_ready().await;
    bob.fill("#player-name", "Bob").await;
    let join = format!("button.join[data-game='{id}'][data-seat='1']");
    bob.wait_until(
        "the open seat is offered",
        "return !!document.querySelector(arguments[0]);",
        vec![Value::String(join.clone())],
    )
    .await;
    bob.assert_fits_width("the lobby").await;
    bob.screenshot("lobby-phone").await;
    bob.assert_accessible("the lobby on a phone").await;
    bob.click(&join).await;
    bob.wait_ready().await;
    bob.wait_until(
        "Bob's page plays seat 2",
        "return document.body.dataset.seat === '1' && document.body.dataset.status === 'active';",
        vec![],
    )
    .await;
    bob.assert_fits_width("the game page").await;
    assert_eq!(api_document(&app, &id).await["seats"][1]["name"], "Bob");

    // The prompt bar says what the game waits for, with the facts to decide on.
    let prompt = ann.prompt().await;
    assert!(
        prompt.contains("Your turn")
            && prompt.contains("Plane at home")
            && prompt.contains("Cash 15M"),
        "Ann's prompt: {prompt:?}"
    );
    ann.assert_accessible("a Tycoon game in play").await;

    let mut table = Table::new(&app, &id, &[&ann, &bob]).await;
    table.keyboard_every = 7;
    let mut phone_checked = false;
    while table.step(choose_tycoon).await {
        // On a turn of Bob's whose moves include flights, so that the board's cities are
        // checked too: the page is first waited for (other moves replay at a reading pace).
        if !phone_checked {
            let doc = api_document(&app, &id).await;
            if doc["status"] == "active" && doc["active_seats"] == serde_json::json!([1]) {
                let state = bob.wait_for_version(doc["version"].as_i64().unwrap()).await;
                if state.actions.iter().any(|a| a.contains(r#""type":"fly""#)) {
                    assert!(
                        bob.board_buttons().await > 0,
                        "Bob may fly, but the board offers no city to click"
                    );
                    bob.assert_phone_layout("the Tycoon page on Bob's turn")
                        .await;
                    bob.assert_accessible("Tycoon on a phone").await;
                    phone_checked = true;
                }
            }
        }
        if table.moves == 15 {
            // A reload keeps the seat: the token is in local storage, the choice in the tab.
            bob.client.refresh().await.unwrap();
            bob.wait_ready().await;
            let seat = bob.js("return document.body.dataset.seat;", vec![]).await;
            assert_eq!(
                seat, "1",
                "after a reload Bob's page no longer plays his seat"
            );
        }
        if table.moves == 60 {
            ann.screenshot("tycoon-playing").await;
            bob.screenshot("tycoon-playing").await;
        }
    }

    let doc = api_document(&app, &id).await;
    assert_eq!(doc["status"], "finished");
    let scores: Vec<i64> = doc["outcome"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    let last = doc["version"].as_i64().unwrap();
    assert!(phone_checked, "Bob never had a city to fly to");
    for page in [&ann, &bob] {
        page.wait_for_version(last).await;
        assert_eq!(page.shown_scores().await, scores);
        page.assert_log_in_words().await;
    }
    // The finished game offers its record, which verifies offline; both seats, taken in
    // the page, added their own entropy to the chance.
    let link = ann
        .js(
            "const a = document.getElementById('download-record'); \
             return [a.getAttribute('href'), a.getAttribute('download')];",
            vec![],
        )
        .await;
    assert_eq!(link[0], format!("/v1/games/{id}/record"), "{link}");
    assert_eq!(link[1], format!("tycoon-{id}.json"), "{link}");
    let record: Value = app
        .req(Method::GET, link[0].as_str().unwrap(), None)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let entropies = record["chance"]["reveal"]["entropies"].as_array().unwrap();
    assert!(
        entropies
            .iter()
            .all(|e| e.as_str().is_some_and(|e| e.len() == 32)),
        "{entropies:?}"
    );
    let record: engine::record::Record = serde_json::from_value(record).unwrap();
    engine::record::verify(&record).unwrap();
    ann.screenshot("tycoon-finished").await;
    bob.screenshot("tycoon-finished").await;
    ann.close().await;
    bob.close().await;
}

/// The lobby's bot seats: a game against one of the server's bots, played to the end in one
/// browser. The page follows the bot's moves over the push stream and offers the person's
/// moves when it is their turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tycoon_game_against_a_bot_from_the_lobby_is_played_to_the_end() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "tycoon-bot-ann", (1280, 1000)).await;

    ann.begin_new_game("Ann", "tycoon", "step_mode", 2).await;
    ann.select("#seat-kind-1", "bot-greedy").await;
    ann.create_new_game().await;
    let id = ann.open_created_game().await;
    let doc = api_document(&app, &id).await;
    assert_eq!(
        doc["status"], "active",
        "a person and a bot: nobody to wait for"
    );
    assert_eq!(doc["seats"][1]["kind"], "bot");
    assert_eq!(doc["seats"][1]["bot"]["level"], "greedy");
    assert_eq!(
        ann.js("return document.body.dataset.seat;", vec![]).await,
        "0"
    );

    let mut table = Table::with_bots(&app, &id, &[Some(&ann), None]).await;
    while table.step(choose_tycoon).await {
        if table.moves == 30 {
            ann.screenshot("tycoon-bot-playing").await;
        }
    }
    let doc = api_document(&app, &id).await;
    assert_eq!(doc["status"], "finished");
    let bot_moves = app
        .get_json(&format!("/v1/games/{id}/events?after=0&limit=1000"), None)
        .await
        .1["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["seat"] == 1)
        .count();
    assert!(bot_moves > 0, "the bot never moved");
    let scores: Vec<i64> = doc["outcome"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    ann.wait_for_version(doc["version"].as_i64().unwrap()).await;
    assert_eq!(ann.shown_scores().await, scores);
    ann.assert_log_in_words().await;
    ann.screenshot("tycoon-bot-finished").await;

    // A rematch: the same seats (Ann, the greedy bot), a new game, opened as Ann.
    ann.click("#rematch").await;
    ann.wait_until(
        "the rematch is created",
        "return !!document.getElementById('open-rematch');",
        vec![],
    )
    .await;
    ann.click("#open-rematch").await;
    ann.wait_ready().await;
    let rematch = super::game_page::game_id_of(&ann).await;
    assert_ne!(rematch, id);
    let again = api_document(&app, &rematch).await;
    assert_eq!(again["type"], "tycoon");
    assert_eq!(again["seats"][0]["name"], "Ann");
    assert_eq!(again["seats"][1]["bot"]["level"], "greedy");
    assert_eq!(
        ann.js("return document.body.dataset.seat;", vec![]).await,
        "0",
        "the rematch page does not play Ann's seat"
    );

    // The lobby remembers the seats chosen for Tycoon, and lists Ann's games by name.
    ann.goto("/").await;
    ann.wait_ready().await;
    assert_eq!(
        ann.js(
            "return document.getElementById('seat-kind-1').value;",
            vec![]
        )
        .await,
        "bot-greedy"
    );
    ann.wait_until(
        "the lobby lists Ann's games with their titles and seats",
        "return [...document.querySelectorAll('#my-games li')].some((li) => li.textContent.includes('Tycoon') && li.textContent.includes('Ann'));",
        vec![],
    )
    .await;
    ann.close().await;
}

/// What the page draws of the world map: the map's frame, each city marker's centre, each
/// route's ends (`data-route` "a b"), whether two places on the world fall on land, and the
/// city panels. The layout and board files are passed in, so that the expected places come
/// from the data and not from the page.
const WORLD_MAP: &str = "const layout = arguments[0];
  const svg = document.querySelector('#board svg.board.tycoon');
  const frame = svg.querySelector('.world-map .map-frame');
  const land = svg.querySelector('.world-map .land');
  const box = ['x', 'y', 'width', 'height'].map((a) => Number(frame.getAttribute(a)));
  const markers = Object.fromEntries([...svg.querySelectorAll('[data-city-marker]')].map((g) => {
    const c = g.querySelector('circle');
    return [g.dataset.cityMarker, [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]];
  }));
  const routes = [...svg.querySelectorAll('line.map-route')].map((l) =>
    [l.dataset.route, ['x1', 'y1', 'x2', 'y2'].map((a) => Number(l.getAttribute(a)))]);
  // A place on the world, through the drawing's own projection, tested against the land.
  const onLand = (lon, lat) => {
    const f = layout.map;
    const pt = svg.createSVGPoint();
    pt.x = box[0] + (lon - f.west) / (f.east - f.west) * box[2];
    pt.y = box[1] + (f.north - lat) / (f.north - f.south) * box[3];
    const screen = pt.matrixTransform(svg.getScreenCTM());
    return land.isPointInFill(screen.matrixTransform(land.getScreenCTM().inverse()));
  };
  return { box, markers, routes, landLength: land.getAttribute('d').length,
           cairoOnLand: onLand(31.2, 30.0), mexicoOnLand: onLand(-99.1, 19.4),
           atlanticOnLand: onLand(-30, 30),
           panels: [...svg.querySelectorAll('g.city[data-city]')].map((g) => g.dataset.city).sort() };";

/// Issue 38: the board looks like the printed one, a world map with the nine cities and the
/// routes between them, the city panels below it as usable as before. Each city's marker sits
/// where the layout file (engine/rules/tycoon-layout.json) puts it, every route of the board
/// data (orthogonal neighbours on the grid) is a line between two markers, the coastline lies
/// where the projection says (Cairo on land, the mid-Atlantic at sea); on a phone nothing is
/// wider than the screen; axe finds nothing serious.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tycoon_board_is_a_world_map_with_the_cities_where_the_layout_puts_them() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app
        .create_game_of("tycoon", 2, 5, serde_json::json!({}))
        .await;
    let layout: Value =
        serde_json::from_str(include_str!("../../../../engine/rules/tycoon-layout.json")).unwrap();
    let board: Value =
        serde_json::from_str(include_str!("../../../../engine/rules/tycoon-board.json")).unwrap();
    let cities = board["cities"].as_array().unwrap();
    let version = super::game_page::seat_document(&app, &game.id, &game.tokens[0]).await["version"]
        .as_i64()
        .unwrap();
    let driver = Chromedriver::start().await;
    for (size, name) in [
        ((1280, 900), "tycoon-map"),
        ((390, 844), "tycoon-map-phone"),
    ] {
        let page = Browser::open(&driver, &app, name, size).await;
        page.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
            .await;
        page.wait_for_version(version).await;
        let got = page.js(WORLD_MAP, vec![layout.clone()]).await;
        let b: Vec<f64> = got["box"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let map = &layout["map"];
        let f = |k: &str| map[k].as_f64().unwrap();
        let mut expected_panels: Vec<&str> =
            cities.iter().map(|c| c["id"].as_str().unwrap()).collect();
        expected_panels.sort_unstable();
        assert_eq!(got["panels"], serde_json::json!(expected_panels), "{got}");
        for city in cities {
            let id = city["id"].as_str().unwrap();
            let at = &layout["cities"][id];
            let x =
                b[0] + (at["lon"].as_f64().unwrap() - f("west")) / (f("east") - f("west")) * b[2];
            let y = b[1]
                + (f("north") - at["lat"].as_f64().unwrap()) / (f("north") - f("south")) * b[3];
            let marker = &got["markers"][id];
            assert!(
                (marker[0].as_f64().unwrap() - x).abs() < 0.5
                    && (marker[1].as_f64().unwrap() - y).abs() < 0.5,
                "{id}'s marker is at {marker}, the layout puts it at ({x}, {y})"
            );
        }
        // Every pair of grid neighbours is a route between their markers, and nothing else is.
        let mut pairs = Vec::new();
        for a in cities {
            for c in cities {
                let (ar, ac) = (a["row"].as_i64().unwrap(), a["col"].as_i64().unwrap());
                let (cr, cc) = (c["row"].as_i64().unwrap(), c["col"].as_i64().unwrap());
                if (cr == ar && cc == ac + 1) || (cc == ac && cr == ar + 1) {
                    pairs.push((a["id"].as_str().unwrap(), c["id"].as_str().unwrap()));
                }
            }
        }
        let routes = got["routes"].as_array().unwrap();
        assert_eq!(routes.len(), pairs.len(), "{got}");
        assert_eq!(pairs.len(), 12, "a 3 x 3 grid has 12 routes");
        for (a, c) in pairs {
            let line = routes
                .iter()
                .find(|r| r[0] == format!("{a} {c}"))
                .unwrap_or_else(|| panic!("no route {a}–{c}: {got}"));
            assert_eq!(line[1][0], got["markers"][a][0], "{a}–{c}");
            assert_eq!(line[1][1], got["markers"][a][1], "{a}–{c}");
            assert_eq!(line[1][2], got["markers"][c][0], "{a}–{c}");
            assert_eq!(line[1][3], got["markers"][c][1], "{a}–{c}");
        }
        assert!(got["landLength"].as_u64().unwrap() > 1000, "{got}");
        assert_eq!(got["cairoOnLand"], true, "{got}");
        assert_eq!(got["mexicoOnLand"], true, "{got}");
        assert_eq!(got["atlanticOnLand"], false, "{got}");
        page.assert_fits_width("the Tycoon map").await;
        page.assert_accessible("the Tycoon world map").await;
        page.screenshot("board").await;
        page.close().await;
    }

    // The first flight from home: its arrow comes up to the city from the map's lower edge,
    // where the home banks lie below the map.
    let (to, version) = fly_from_home(&app, &game).await;
    let page = Browser::open(&driver, &app, "tycoon-first-flight", (1280, 900)).await;
    page.goto(&format!("/games/{}", game.id)).await;
    page.wait_for_version(version).await;
    let got = page
        .js(
            "const svg = document.querySelector('#board svg.board.tycoon');
             const frame = svg.querySelector('.world-map .map-frame');
             const line = svg.querySelector('.world-map line.route-flown');
             const c = svg.querySelector(`[data-city-marker='${arguments[0]}'] circle`);
             const n = (el, a) => Number(el.getAttribute(a));
             return { flight: line?.dataset.flight ?? null,
                      line: line ? ['x1', 'y1', 'x2', 'y2'].map((a) => n(line, a)) : null,
                      bottom: n(frame, 'y') + n(frame, 'height'),
                      marker: [n(c, 'cx'), n(c, 'cy')] };",
            vec![Value::from(to.clone())],
        )
        .await;
    assert_eq!(got["flight"], format!("home {to}"), "{got}");
    let (line, marker) = (&got["line"], &got["marker"]);
    assert_eq!(
        [&line[0], &line[1], &line[2], &line[3]],
        [&marker[0], &got["bottom"], &marker[0], &marker[1]],
        "straight up from the map's lower edge to {to}'s marker: {got}"
    );
    page.close().await;
}

/// Plays `game` from its start until a plane leaves the home banks; the city it flew to and
/// the game's version after that move.
async fn fly_from_home(app: &TestApp, game: &Game) -> (String, i64) {
    for _ in 0..20 {
        let doc = app.document(game, None).await;
        let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
        let legal = app.legal(game, seat).await;
        let actions = legal["actions"].as_array().unwrap();
        let action = actions
            .iter()
            .find(|a| a["type"] == "fly")
            .or(actions.first())
            .expect("a listed action");
        let (status, body) = app
            .act(
                game,
                seat,
                &serde_json::json!({"action": action, "expected_version": legal["version"]}),
            )
            .await;
        assert_eq!(status, reqwest::StatusCode::OK, "{action}: {body}");
        let flew = body["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["event"]["type"] == "flew" && e["event"]["from"].is_null());
        if let Some(flew) = flew {
            let to = flew["event"]["to"].as_str().unwrap().to_string();
            return (to, body["game"]["version"].as_i64().unwrap());
        }
    }
    panic!("no plane left the home banks in 20 moves");
}
