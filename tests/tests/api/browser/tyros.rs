//! Tyros in the browser: a three-seat game created in the lobby, the other seats handed over
//! by their links (one to a phone), a few dozen moves by clicking fields and buttons (payments
//! and keeps through the card forms), and at every move no page shows another seat's tiles or
//! cards: each page draws its own hand as the API gives it and only counts for the others. A
//! short game against two bots is played to the end, its log read in full.

use serde_json::{json, Value};

use super::game_page::{seat_document, wait_for_api_version};
use super::hosted::{template_move, waiting_on_templates};
use super::{api_document, Browser, Chromedriver, Table, BROWSER_SLOTS};
use crate::helpers::{spawn_app, TestApp};

/// Moves played by clicking (template moves not counted).
const MOVES: usize = 40;

/// Places tiles, founds cities, sails and builds now and then, and otherwise ends the turn.
fn choose_tyros(offered: &[Value], turns: usize) -> usize {
    let first = |kind: &str| (0..offered.len()).find(|&i| offered[i]["type"] == kind);
    first("place_tile")
        .or_else(|| first("found_city"))
        .or_else(|| first("move").filter(|_| turns % 3 != 2))
        .or_else(|| first("build_ship").filter(|_| turns.is_multiple_of(2)))
        .or_else(|| first("end_turn"))
        .or_else(|| first("pass"))
        .or_else(|| first("reject_trade"))
        .unwrap_or(0)
}

/// What a page shows of each seat's hand: its own-hand line (`[data-hand]`) and, per seat,
/// the player panel's "Tiles" and "Cards" entries.
async fn shown_hands(page: &Browser) -> Value {
    page.js(
        "const entry = (seat, key) => {
           const dt = [...document.querySelectorAll(`#players [data-seat='${seat}'] dt`)]
             .find((d) => d.textContent === key);
           return dt ? dt.nextElementSibling.textContent : null;
         };
         const seats = [...document.querySelectorAll('#players [data-seat]')].map((s) => Number(s.dataset.seat));
         return {
           own: [...document.querySelectorAll('[data-hand]')].map((e) => [e.dataset.hand, e.textContent]),
           panels: seats.map((s) => [entry(s, 'Tiles'), entry(s, 'Cards')]),
         };",
        vec![],
    )
    .await
}

/// `{orange: 2, joker: 1}` as the page writes it: `2 orange, 1 joker`.
fn cards_text(cards: &Value) -> String {
    let parts: Vec<String> = ["orange", "yellow", "green", "violet", "joker"]
        .iter()
        .filter_map(|k| {
            cards[k]
                .as_u64()
                .filter(|&n| n > 0)
                .map(|n| format!("{n} {k}"))
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// Asserts that `page` (playing `viewer`) shows its own hand exactly as the API gives it to
/// that seat and only the counts of everyone else's.
async fn assert_only_own_hand(app: &TestApp, id: &str, page: &Browser, viewer: usize, token: &str) {
    let mine = seat_document(app, id, token).await;
    let players = mine["view"]["players"].as_array().unwrap();
    let shown = shown_hands(page).await;
    let own = shown["own"].as_array().unwrap();
    assert_eq!(
        own.len(),
        1,
        "{}: not exactly one own hand: {shown}",
        page.name
    );
    assert_eq!(own[0][0], viewer.to_string(), "{}: {shown}", page.name);
    let me = &players[viewer];
    let tiles: Vec<String> = me["tiles"]
        .as_array()
        .expect("a seat sees its own tiles")
        .iter()
        .map(|t| t.to_string())
        .collect();
    let tiles = if tiles.is_empty() {
        "none".to_string()
    } else {
        tiles.join(", ")
    };
    let own_text = own[0][1].as_str().unwrap();
    assert!(
        own_text.contains(&format!("Your tiles: {tiles}."))
            && own_text.contains(&format!("Your cards: {}.", cards_text(&me["cards"]))),
        "{}: own hand shown as {own_text:?}, the API says tiles {tiles}, cards {}",
        page.name,
        me["cards"]
    );
    for (seat, p) in players.iter().enumerate() {
        if seat == viewer {
            continue;
        }
        assert!(
            p["tiles"].is_null() && p["cards"].is_null(),
            "the API shows seat {seat}'s hand to seat {viewer}"
        );
        let want = json!([
            format!("{} in hand", p["tiles_in_hand"]),
            format!("{} in hand", p["cards_in_hand"])
        ]);
        assert_eq!(
            shown["panels"][seat], want,
            "{}: seat {seat}'s panel shows more than counts",
            page.name
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tyros_is_played_by_clicking_fields_and_no_page_shows_another_hand() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "tyros-ann", (1280, 1300)).await;
    let bob = Browser::open(&driver, &app, "tyros-bob", (1024, 900)).await;
    let cara = Browser::open(&driver, &app, "tyros-cara", (390, 844)).await;

    ann.begin_new_game("Ann", "tyros", "pirates", 3).await;
    ann.fill("#seat-name-1", "Bob").await;
    ann.fill("#seat-name-2", "Cara").await;
    let links = ann.create_new_game().await;
    let id = ann.open_created_game().await;
    for (page, seat) in [(&bob, 1), (&cara, 2)] {
        page.goto(&links[seat]).await;
        page.wait_ready().await;
        assert_eq!(
            page.js("return document.body.dataset.seat;", vec![]).await,
            seat.to_string()
        );
    }

    cara.assert_fits_width("the Tyros page").await;
    let pages = [&ann, &bob, &cara];
    let mut table = Table::new(&app, &id, &pages).await;
    let tokens = table.tokens();
    let mut forms = 0;
    let mut phone_checked = false;
    while table.moves < MOVES {
        let doc = api_document(&app, &id).await;
        if doc["status"] == "finished" {
            break;
        }
        let version = doc["version"].as_i64().unwrap();
        for (seat, page) in pages.iter().enumerate() {
            page.wait_for_version(version).await;
            assert_only_own_hand(&app, &id, page, seat, &tokens[seat]).await;
        }
        let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
        // On a turn whose moves include the board's own, so that those are checked too.
        if !phone_checked && seat == 2 && cara.board_buttons().await > 0 {
            cara.assert_phone_layout("the Tyros page on Cara's turn")
                .await;
            cara.assert_accessible("Tyros on a phone").await;
            phone_checked = true;
        }
        let seat_doc = seat_document(&app, &id, &tokens[seat]).await;
        if waiting_on_templates(&seat_doc) {
            assert!(
                template_move(&app, &id, pages[seat], &tokens[seat], None).await,
                "seat {seat} is offered only templates the test cannot fill: {}",
                seat_doc["action_templates"]
            );
            forms += 1;
            continue;
        }
        table.step(choose_tyros).await;
        if table.moves == 25 {
            ann.screenshot("tyros-playing").await;
            cara.screenshot("tyros-playing").await;
        }
    }
    assert!(phone_checked, "Cara never had a field to act on");
    // A spectator sees no hand at all.
    let doc = api_document(&app, &id).await;
    let watcher = Browser::open(&driver, &app, "tyros-spectator", (1280, 1000)).await;
    watcher.goto(&format!("/games/{id}")).await;
    watcher
        .wait_for_version(doc["version"].as_i64().unwrap())
        .await;
    let shown = shown_hands(&watcher).await;
    assert_eq!(shown["own"], json!([]), "a spectator's page shows a hand");
    for (seat, p) in doc["view"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        assert_eq!(
            shown["panels"][seat],
            json!([
                format!("{} in hand", p["tiles_in_hand"]),
                format!("{} in hand", p["cards_in_hand"])
            ])
        );
    }
    // The action-card variant is off (the default): no panel speaks of action cards,
    // although the view marks every one of them used.
    let action_cards = watcher
        .js(
            "return [...document.querySelectorAll('#players dt')].some((d) => d.textContent === 'Action cards');",
            vec![],
        )
        .await;
    assert_eq!(
        action_cards, false,
        "action cards shown in a game without them"
    );
    println!(
        "tyros: {} clicked moves, {forms} through forms",
        table.moves
    );
    for page in [ann, bob, cara, watcher] {
        page.close().await;
    }
}

/// What `page`'s player panels say about action cards, per seat: the statuses as a sorted
/// list, or `null` where a panel has no such entry.
async fn shown_action_cards(page: &Browser) -> Value {
    page.js(
        "return [...document.querySelectorAll('#players [data-seat]')].map((s) => {
           const dt = [...s.querySelectorAll('dt')].find((d) => d.textContent === 'Action cards');
           return dt ? dt.nextElementSibling.textContent.split(', ').sort() : null;
         });",
        vec![],
    )
    .await
}

/// The same from the API's view: `favourable wind available`, sorted.
fn action_cards_of(doc: &Value) -> Value {
    doc["view"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let mut cards: Vec<String> = p["action_cards"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, st)| format!("{} {}", k.replace('_', " "), st.as_str().unwrap()))
                .collect();
            cards.sort();
            json!(cards)
        })
        .collect()
}

/// A person against two of the server's bots (greedy and mcts), created in the lobby with the action-card
/// variant on and four tiles placed per round (so that the tile pile runs out in a few rounds
/// and the game ends, TR-END-1), played to the end: every page shows only its own hand, the
/// panels show the action cards as the API has them, and the final scores are the API's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_tyros_game_against_two_bots_is_played_to_the_end() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "tyros-bots-ann", (1280, 1300)).await;

    ann.begin_new_game("Ann", "tyros", "action_cards", 3).await;
    // The thinking bots: they trade with the bank at most once a round and make no offers,
    // so the rounds end and the person is never stopped by an offer to answer.
    ann.select("#seat-kind-1", "bot-greedy").await;
    ann.select("#seat-kind-2", "bot-mcts").await;
    ann.click("#config-action_cards").await;
    // A house rule, under "More options": a number per player count.
    ann.click("#more-options > summary").await;
    ann.fill("#config-tiles_per_round-3", "4").await;
    ann.create_new_game().await;
    let id = ann.open_created_game().await;
    let started = &app
        .get_json(&format!("/v1/games/{id}/events?limit=1"), None)
        .await
        .1["events"][0]["event"];
    assert_eq!(started["type"], "game_started");
    assert_eq!(started["config"]["action_cards"], true);
    assert_eq!(started["config"]["tiles_per_round"]["3"], 4);

    let mut table = Table::with_bots(&app, &id, &[Some(&ann), None, None]).await;
    // Some fields and buttons by keyboard (focus and Enter).
    table.keyboard_every = 5;
    let token = table.token(0).unwrap().to_string();
    let mut forms = 0;
    let mut offers_told = 0;
    loop {
        let doc = api_document(&app, &id).await;
        if doc["status"] == "finished" {
            break;
        }
        let version = doc["version"].as_i64().unwrap();
        let active = doc["active_seats"].as_array().unwrap();
        if active.iter().any(|s| s != 0) {
            // A bot is waited for (also alongside Ann, as in a round's keep): its move first.
            wait_for_api_version(&app, &id, version).await;
            continue;
        }
        ann.wait_for_version(version).await;
        assert_only_own_hand(&app, &id, &ann, 0, &token).await;
        let offer = &doc["view"]["offer"];
        if offer["to"] == 0 {
            // A bot's offer to Ann: its terms from her side, in the prompt and on the button.
            let (give, get) = (cards_text(&offer["get"]), cards_text(&offer["give"]));
            let terms = format!("you give {give}, you get {get}");
            let prompt = ann.prompt().await;
            assert!(
                prompt.contains(&terms),
                "the prompt {prompt:?} lacks {terms:?}"
            );
            let accept = ann
                .js(
                    "return [...document.querySelectorAll('#action-list [data-action]')]
                       .filter((b) => JSON.parse(b.dataset.action).type === 'accept_trade')
                       .map((b) => b.textContent);",
                    vec![],
                )
                .await;
            for label in accept.as_array().unwrap() {
                assert!(
                    label.as_str().unwrap().contains(&terms),
                    "accept says {label}"
                );
            }
            offers_told += 1;
        }
        assert_eq!(
            shown_action_cards(&ann).await,
            action_cards_of(&doc),
            "the panels' action cards at version {version}"
        );
        if waiting_on_templates(&seat_document(&app, &id, &token).await) {
            assert!(template_move(&app, &id, &ann, &token, None).await);
            forms += 1;
            continue;
        }
        table.step(choose_tyros).await;
        if table.moves == 20 {
            ann.screenshot("tyros-bots-playing").await;
        }
    }
    let doc = api_document(&app, &id).await;
    let scores: Vec<i64> = doc["outcome"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    ann.wait_for_version(doc["version"].as_i64().unwrap()).await;
    assert_eq!(ann.shown_scores().await, scores);
    let lines = ann.assert_log_in_words().await;
    ann.assert_accessible("a finished Tyros game").await;
    ann.screenshot("tyros-bots-finished").await;
    println!(
        "tyros against bots: {} clicked moves, {forms} through forms, {offers_told} offers told, {} events, {lines} log lines",
        table.moves, doc["version"]
    );
    ann.close().await;
}

/// What the page draws of the Mediterranean: the drawing's size, the map under the grid (its
/// box), each cell's rectangle, what a click at each cell's centre hits, and whether a place
/// on the world (drawn through the layout's frame) falls on the land drawn.
const MED_MAP: &str = "const layout = arguments[0];
  const svg = document.querySelector('#board svg.board.tyros');
  const [, , width, height] = svg.getAttribute('viewBox').split(' ').map(Number);
  const map = svg.querySelector('svg.med-map');
  const land = map.querySelector('.land');
  const num = (e, a) => Number(e.getAttribute(a));
  const cells = Object.fromEntries([...svg.querySelectorAll('g.tyros-field[data-cell]')].map((g) => {
    const r = g.querySelector('rect.tyros-cell');
    return [g.dataset.cell, [num(r, 'x') - 2, num(r, 'y') - 2, num(r, 'width') + 4, num(r, 'height') + 4]];
  }));
  const f = layout.map;
  const at = (lon, lat) => [(lon - f.west) / (f.east - f.west) * width, (f.north - lat) / (f.north - f.south) * height];
  const toScreen = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(svg.getScreenCTM()); };
  const onLand = (x, y) => land.isPointInFill(toScreen(x, y).matrixTransform(land.getScreenCTM().inverse()));
  const hits = {};
  for (const [id, [x, y, w, h]] of Object.entries(cells)) {
    svg.querySelector(`[data-cell='${id}']`).scrollIntoView({ block: 'center', inline: 'center' });
    const s = toScreen(x + w / 2, y + h / 2);
    hits[id] = document.elementFromPoint(s.x, s.y)?.closest('[data-cell]')?.dataset.cell ?? null;
  }
  const landmarks = Object.fromEntries(Object.entries(layout.landmarks).map(([id, l]) => [id, at(l.lon, l.lat)]));
  const centre = (id) => [cells[id][0] + cells[id][2] / 2, cells[id][1] + cells[id][3] / 2];
  return { width, height, map: ['x', 'y', 'width', 'height'].map((a) => num(map, a)), cells, hits, landmarks,
           desertOnLand: onLand(...centre('DES')), seaOnLand: onLand(...centre('SEA')),
           landLength: land.getAttribute('d').length };";

/// Issue 38: the board is the Mediterranean divided into the 5 x 7 grid, as printed. The map
/// under the grid fills it exactly (the layout file's frame, engine/rules/tyros-layout.json,
/// is the grid's outline), the cells sit in their rows and columns over it and still take the
/// click, Tyre lies in the Tyros cell and the layout's desert and sea in theirs, and the land
/// drawn agrees: the desert cell is land, the sea cell is sea. On a phone nothing is wider than
/// the screen; axe finds nothing serious.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tyros_grid_lies_over_the_mediterranean_where_the_layout_puts_it() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game_of("tyros", 3, 5, json!({})).await;
    let layout: Value =
        serde_json::from_str(include_str!("../../../../engine/rules/tyros-layout.json")).unwrap();
    let grid: Value =
        serde_json::from_str(include_str!("../../../../engine/rules/tyros-map.json")).unwrap();
    let version = seat_document(&app, &game.id, &game.tokens[0]).await["version"]
        .as_i64()
        .unwrap();
    let driver = Chromedriver::start().await;
    for (size, name) in [((1280, 900), "tyros-map"), ((390, 844), "tyros-map-phone")] {
        let page = Browser::open(&driver, &app, name, size).await;
        page.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
            .await;
        page.wait_for_version(version).await;
        let got = page.js(MED_MAP, vec![layout.clone()]).await;
        let (w, h) = (
            got["width"].as_f64().unwrap(),
            got["height"].as_f64().unwrap(),
        );
        let map: Vec<f64> = got["map"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(map, [0.0, 0.0, w, h], "the map fills the grid: {got}");
        let rows = grid["grid"]["cells"].as_array().unwrap();
        let (cell_w, cell_h) = (w / 7.0, h / 5.0);
        for (r, row) in rows.iter().enumerate() {
            for (c, id) in row.as_array().unwrap().iter().enumerate() {
                let id = id.as_str().unwrap();
                let cell = &got["cells"][id];
                let at = [c as f64 * cell_w, r as f64 * cell_h, cell_w, cell_h];
                for k in 0..4 {
                    assert!(
                        (cell[k].as_f64().unwrap() - at[k]).abs() < 0.01,
                        "cell {id} is drawn at {cell}, its row and column put it at {at:?}"
                    );
                }
                assert_eq!(
                    got["hits"][id], id,
                    "a click on cell {id} reaches another: {got}"
                );
            }
        }
        for (id, place) in got["landmarks"].as_object().unwrap() {
            let cell = &got["cells"][id];
            let (x, y) = (place[0].as_f64().unwrap(), place[1].as_f64().unwrap());
            let inside = |k: usize, v: f64| {
                v >= cell[k].as_f64().unwrap()
                    && v <= cell[k].as_f64().unwrap() + cell[k + 2].as_f64().unwrap()
            };
            assert!(
                inside(0, x) && inside(1, y),
                "{id}'s landmark ({x}, {y}) is outside its cell {cell}"
            );
        }
        assert_eq!(got["desertOnLand"], true, "{got}");
        assert_eq!(got["seaOnLand"], false, "{got}");
        assert!(got["landLength"].as_u64().unwrap() > 1000, "{got}");
        page.assert_fits_width("the Tyros map").await;
        page.assert_accessible("the Tyros map").await;
        page.screenshot("board").await;
        page.close().await;
    }
}
