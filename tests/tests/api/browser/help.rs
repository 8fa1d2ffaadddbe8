//! The boards' help in the browser (`web/static/src/boards/help.js`): for a space of each game the help shows
//! on hover and on keyboard focus (named by `aria-describedby`, shifting nothing), one move per
//! game shows its preview with the right cost before it is made, and on a phone a long press
//! on a square shows its help, which a tap elsewhere hides; axe finds nothing serious with the
//! help shown.

use std::time::Duration;

use fantoccini::actions::{InputSource, MouseActions, PointerAction, TouchActions};
use fantoccini::Locator;
use serde_json::{json, Value};

use super::game_page::{seat_document, template_values};
use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{spawn_app, Game, TestApp};

/// English numbers as the page writes them: 1,440.
fn grouped(n: i64) -> String {
    let digits = n.abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// Plays through the API (each seat the game waits for: the first listed action of `prefer`,
/// else its first listed action, else its first template it can fill) until seat 0 is offered
/// an action that `wanted` picks; returns that action and seat 0's document then.
pub(super) async fn play_until_seat_0_may(
    app: &TestApp,
    game: &Game,
    prefer: &[&str],
    wanted: impl Fn(&Value) -> bool,
) -> (Value, Value) {
    for _ in 0..800 {
        let mine = seat_document(app, &game.id, &game.tokens[0]).await;
        assert_eq!(mine["status"], "active", "the game ended too early");
        if let Some(a) = mine["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| wanted(a))
        {
            return (a.clone(), mine);
        }
        let seat = mine["active_seats"].as_array().unwrap()[0]
            .as_u64()
            .unwrap() as usize;
        let doc = seat_document(app, &game.id, &game.tokens[seat]).await;
        let listed = doc["legal_actions"].as_array().cloned().unwrap_or_default();
        let action = prefer
            .iter()
            .find_map(|k| listed.iter().find(|a| a["type"] == *k).cloned())
            .or_else(|| listed.first().cloned())
            .or_else(|| {
                doc["action_templates"].as_array()?.iter().find_map(|t| {
                    let mut action = t["fixed"].as_object().cloned().unwrap_or_default();
                    action.extend(template_values(t)?);
                    action.insert("type".into(), t["type"].clone());
                    Some(Value::Object(action))
                })
            })
            .unwrap_or_else(|| panic!("seat {seat} has nothing to do: {doc}"));
        let (status, body) = app.act(game, seat, &json!({ "action": action })).await;
        assert!(status.is_success(), "{action} by seat {seat}: {body}");
    }
    panic!("seat 0 was not offered the move in 800 moves");
}

/// What the tooltip shows now (`null` while it is hidden), and what names it.
const TIP: &str = "const tip = document.getElementById('board-help');
     return { shown: !tip.hidden, text: tip.innerText,
              described: [...document.querySelectorAll('[aria-describedby=board-help]')].length,
              focusDescribed: document.activeElement?.getAttribute('aria-describedby') ?? null };";

impl Browser {
    /// Waits until the help shows text containing every one of `parts`; returns its text.
    async fn wait_for_help(&self, what: &str, parts: &[&str]) -> String {
        self.wait_until(
            &format!("{what}: the help shows {parts:?}"),
            "const tip = document.getElementById('board-help');
             return tip && !tip.hidden && arguments[0].every((p) => tip.innerText.includes(p));",
            vec![json!(parts)],
        )
        .await;
        self.js(TIP, vec![]).await["text"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Marks the element `css` (scrolled into the middle of the window) `data-test-help`.
    async fn mark_help(&self, css: &str) {
        let found = self
            .js(
                "document.querySelectorAll('[data-test-help]').forEach((e) => e.removeAttribute('data-test-help'));
                 const e = document.querySelector(arguments[0]);
                 if (!e) return false;
                 e.scrollIntoView({ block: 'center', inline: 'center' });
                 e.setAttribute('data-test-help', '');
                 return true;",
                vec![json!(css)],
            )
            .await;
        assert_eq!(found, true, "{}: no {css}", self.name);
    }

    /// Moves the mouse over `css`.
    async fn hover(&self, css: &str) {
        self.mark_help(css).await;
        let el = self
            .client
            .find(Locator::Css("[data-test-help]"))
            .await
            .expect(css);
        let mouse = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element: el,
            duration: None,
            x: 0.0,
            y: 0.0,
        });
        self.client
            .perform_actions(mouse)
            .await
            .unwrap_or_else(|e| panic!("{}: hover over {css}: {e}", self.name));
    }

    /// The position of the board and the height of the page: what a layout shift would move.
    async fn layout(&self) -> Value {
        self.js(
            "const r = document.getElementById('board').getBoundingClientRect();
             return [Math.round(r.top + scrollY), Math.round(r.height), document.documentElement.scrollHeight];",
            vec![],
        )
        .await
    }

    /// [`Self::layout`] once it holds still for half a second: on a loaded machine parts of
    /// the page below the board (the log, the chat) may still be arriving, and their growth is
    /// not the help's doing.
    async fn settled_layout(&self) -> Value {
        let mut last = self.layout().await;
        for _ in 0..40 {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            let now = self.layout().await;
            if now == last {
                return now;
            }
            last = now;
        }
        panic!("the page's layout never held still: {last}");
    }
}

/// Marks `data-test-control` the element of the page that offers `action` (a drawn button or
/// a control in the dock), comparing actions field by field (the page keeps the server's order
/// of fields, serde its own).
const MARK_CONTROL: &str = "
    const canon = (v) => Array.isArray(v) ? v.map(canon)
      : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v;
    const want = JSON.stringify(canon(arguments[0]));
    const offers = (e) => {
      const list = e.dataset.action ? [JSON.parse(e.dataset.action)] : JSON.parse(e.dataset.actions);
      return list.some((a) => JSON.stringify(canon(a)) === want);
    };
    const e = [...document.querySelectorAll('main [data-action], main [data-actions]')].find(offers);
    if (!e) return false;
    e.setAttribute('data-test-control', '');
    return true;";

/// One game's check: the help of `space` on hover (with `space_words`) and on keyboard focus,
/// no layout shift, axe with the help shown, and the preview of `action` saying `preview`.
async fn check_board(
    page: &Browser,
    what: &str,
    space: &str,
    space_words: &[&str],
    action: &Value,
    preview: &[&str],
) {
    let before = page.settled_layout().await;
    page.hover(space).await;
    page.wait_for_help(&format!("{what}: hover"), space_words)
        .await;
    assert_eq!(
        page.layout().await,
        before,
        "{what}: showing the help moved the page"
    );
    let shown = page.js(TIP, vec![]).await;
    assert_eq!(shown["described"], 1, "{what}: {shown}");

    // The keyboard reaches the same help: the spot (or its button) takes the focus.
    page.js(
        "document.activeElement?.blur();
         const spot = document.querySelector(arguments[0]).closest('[data-help]');
         const target = spot.matches('[tabindex]') ? spot : spot.querySelector('[role=button]');
         target.focus();",
        vec![json!(space)],
    )
    .await;
    page.wait_for_help(&format!("{what}: focus"), space_words)
        .await;
    let shown = page.js(TIP, vec![]).await;
    assert_eq!(shown["focusDescribed"], "board-help", "{what}: {shown}");
    page.assert_accessible(&format!("{what} with the help shown"))
        .await;
    page.js("document.activeElement?.blur();", vec![]).await;

    // The move's preview, before it is made.
    let found = page.js(MARK_CONTROL, vec![action.clone()]).await;
    assert_eq!(found, true, "{what}: no control offers {action}");
    page.hover("[data-test-control]").await;
    let text = page
        .wait_for_help(&format!("{what}: preview of {action}"), preview)
        .await;
    page.screenshot(&format!("help-{what}")).await;
    assert!(!text.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn monopoly_help_on_a_square_and_the_price_of_a_street_before_buying_it() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game_of("monopoly", 2, 7, json!({})).await;
    let prefer = [
        "pay_debt",
        "roll",
        "end_turn",
        "pass_auction",
        "decline_property",
    ];
    let (buy, mine) =
        play_until_seat_0_may(&app, &game, &prefer, |a| a["type"] == "buy_property").await;
    let board: Value =
        serde_json::from_str(include_str!("../../../../engine/rules/monopoly-board.json")).unwrap();
    let me = &mine["view"]["players"][0];
    let square = &board["squares"][me["position"].as_u64().unwrap() as usize];
    let price = square["price"].as_i64().unwrap();
    let cash = me["cash"].as_i64().unwrap();
    let costs = format!("Costs M {}", grouped(price));
    let after = format!("Your cash after: M {}", grouped(cash - price));

    let driver = Chromedriver::start().await;
    let ann = Browser::open_speaking(
        &driver,
        &app,
        "help-monopoly",
        (1280, 900),
        Some("en-US,en"),
    )
    .await;
    ann.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    ann.wait_for_version(mine["version"].as_i64().unwrap())
        .await;
    check_board(
        &ann,
        "monopoly",
        "#board [data-square='1']",
        &["Badstraße", "Price M 60", "Rent M 2"],
        &buy,
        &[&costs, &after, square["name"].as_str().unwrap()],
    )
    .await;
    ann.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tycoon_help_on_a_city_and_the_price_of_a_ticket_before_buying_it() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game_of("tycoon", 2, 3, json!({})).await;
    let (buy, mine) = play_until_seat_0_may(&app, &game, &["pass", "end_turn"], |a| {
        a["type"] == "buy_ticket"
    })
    .await;
    let board: Value =
        serde_json::from_str(include_str!("../../../../engine/rules/tycoon-board.json")).unwrap();
    let ticket = ["scheduled_tickets", "charter_tickets"]
        .iter()
        .flat_map(|deck| board[deck].as_array().unwrap().iter())
        .find(|t| t["id"] == buy["ticket"])
        .expect("the ticket in the data file");
    let price = ticket["price"].as_i64().unwrap();
    let cash = mine["view"]["players"][0]["cash"].as_i64().unwrap();
    let costs = format!("Costs {}M", grouped(price));
    let after = format!("Your cash after: {}M", grouped(cash - price));

    let driver = Chromedriver::start().await;
    let ann =
        Browser::open_speaking(&driver, &app, "help-tycoon", (1280, 900), Some("en-US,en")).await;
    ann.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    ann.wait_for_version(mine["version"].as_i64().unwrap())
        .await;
    check_board(
        &ann,
        "tycoon",
        "#board [data-city='new_york'] .city-name",
        &["New York"],
        &buy,
        &[&costs, &after],
    )
    .await;
    ann.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acquire_help_on_a_tile_and_the_price_of_a_share_before_buying_it() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game_of("acquire", 2, 5, json!({})).await;
    let prefer = ["place_tile", "end_turn"];
    let (buy, mine) =
        play_until_seat_0_may(&app, &game, &prefer, |a| a["type"] == "buy_share").await;
    let view = &mine["view"];
    let chain = view["chains"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["chain"] == buy["chain"])
        .expect("the chain in the view");
    let price = chain["price"].as_i64().unwrap();
    let costs = format!("Costs ${}", grouped(price));
    let tile = view["board"][0]["tile"].as_str().unwrap().to_string();

    let driver = Chromedriver::start().await;
    let ann =
        Browser::open_speaking(&driver, &app, "help-acquire", (1280, 900), Some("en-US,en")).await;
    ann.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    ann.wait_for_version(mine["version"].as_i64().unwrap())
        .await;
    check_board(
        &ann,
        "acquire",
        &format!("#board g.tile[data-tile='{tile}']"),
        &[&tile],
        &buy,
        &[&costs],
    )
    .await;
    ann.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tyros_help_on_a_field_and_the_cards_a_voyage_costs() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game_of("tyros", 3, 11, json!({})).await;
    let prefer = ["place_tile", "pass", "end_turn"];
    let (sail, mine) = play_until_seat_0_may(&app, &game, &prefer, |a| {
        a["type"] == "move" && a["cost"].as_u64().is_some_and(|c| c > 0)
    })
    .await;
    let cost = sail["cost"].as_u64().unwrap();
    let costs = format!("Costs {cost} card{}", if cost == 1 { "" } else { "s" });

    let driver = Chromedriver::start().await;
    let ann =
        Browser::open_speaking(&driver, &app, "help-tyros", (1280, 900), Some("en-US,en")).await;
    ann.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    ann.wait_for_version(mine["version"].as_i64().unwrap())
        .await;
    check_board(
        &ann,
        "tyros",
        "#board [data-cell='TY']",
        &["Tyros"],
        &sail,
        &[&costs],
    )
    .await;
    ann.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_press_on_a_phone_shows_a_squares_help_and_a_tap_elsewhere_hides_it() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game_of("monopoly", 2, 7, json!({})).await;
    let driver = Chromedriver::start().await;
    let bea =
        Browser::open_speaking(&driver, &app, "help-phone", (390, 844), Some("en-US,en")).await;
    bea.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    bea.wait_ready().await;
    let before = bea.settled_layout().await;
    bea.mark_help("#board [data-square='3']").await;
    let square = bea
        .client
        .find(Locator::Css("[data-test-help]"))
        .await
        .unwrap();
    let press = TouchActions::new("finger".into())
        .then(PointerAction::MoveToElement {
            element: square,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down { button: 0 })
        .then(PointerAction::Pause {
            duration: Duration::from_millis(900),
        })
        .then(PointerAction::Up { button: 0 });
    bea.client
        .perform_actions(press)
        .await
        .expect("a long press");
    bea.wait_for_help("a long press on Turmstraße", &["Turmstraße", "Price M 60"])
        .await;
    assert_eq!(bea.layout().await, before, "the help moved the page");
    bea.assert_accessible("the phone's page with a square's help shown")
        .await;
    bea.screenshot("help-long-press").await;

    // A tap elsewhere (the game's heading) hides it.
    let heading = bea.client.find(Locator::Css("#game-title")).await.unwrap();
    let tap = TouchActions::new("finger".into())
        .then(PointerAction::MoveToElement {
            element: heading,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down { button: 0 })
        .then(PointerAction::Up { button: 0 });
    bea.client.perform_actions(tap).await.expect("a tap");
    bea.wait_until(
        "a tap elsewhere hides the help",
        "return document.getElementById('board-help').hidden;",
        vec![],
    )
    .await;
    bea.close().await;
}

/// Issue 38: the Monopoly board is one tab stop, not forty: Tab reaches one square, the arrow
/// keys move between the squares as they lie on the board (left along the bottom row is the
/// next square) and each square's help shows as the focus reaches it, naming its colour group
/// in words ("light blue", not the data file's id "hellblau").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_monopoly_board_is_one_tab_stop_with_arrow_keys_between_the_squares() {
    use fantoccini::key::Key;
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game_of("monopoly", 2, 7, json!({})).await;
    let version = seat_document(&app, &game.id, &game.tokens[0]).await["version"]
        .as_i64()
        .unwrap();
    let driver = Chromedriver::start().await;
    let ann =
        Browser::open_speaking(&driver, &app, "help-roving", (1280, 900), Some("en-US,en")).await;
    ann.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    ann.wait_for_version(version).await;
    let stops = ann
        .js(
            "return [...document.querySelectorAll('#board [data-square]')].map((sq) =>
               [...sq.querySelectorAll('[tabindex]'), ...(sq.matches('[tabindex]') ? [sq] : [])]
                 .filter((e) => e.getAttribute('tabindex') !== '-1').length)
               .reduce((a, b) => a + b, 0);",
            vec![],
        )
        .await;
    assert_eq!(stops, 1, "the 40 squares are {stops} tab stops");

    // Square 5 (a station) takes the focus; left goes on to square 6, light blue.
    let focused_square =
        "return document.activeElement?.closest('[data-square]')?.dataset.square ?? null;";
    ann.js(
        "document.querySelector(\"#board [data-square='5'] [data-rove], #board [data-square='5'][data-rove]\").focus();",
        vec![],
    )
    .await;
    assert_eq!(ann.js(focused_square, vec![]).await, "5");
    let page = &ann;
    let key = |k: Key| async move {
        page.client
            .active_element()
            .await
            .expect("the focused element")
            .send_keys(&k.to_string())
            .await
            .expect("a key");
    };
    key(Key::Left).await;
    assert_eq!(ann.js(focused_square, vec![]).await, "6");
    let text = ann
        .wait_for_help(
            "square 6 by keyboard",
            &["Chausseestraße", "group light blue"],
        )
        .await;
    assert!(!text.contains("hellblau"), "{text}");
    key(Key::Right).await;
    assert_eq!(ann.js(focused_square, vec![]).await, "5");
    // Up from Go (the bottom right corner) is the last square, Schlossallee.
    key(Key::Home).await;
    assert_eq!(ann.js(focused_square, vec![]).await, "0");
    key(Key::Up).await;
    assert_eq!(ann.js(focused_square, vec![]).await, "39");
    // The square last visited is the board's one tab stop.
    let stop = ann
        .js(
            "return [...document.querySelectorAll('#board [data-rove]')].filter((e) => e.getAttribute('tabindex') === '0')
               .map((e) => e.closest('[data-square]').dataset.square);",
            vec![],
        )
        .await;
    assert_eq!(stop, json!(["39"]));
    ann.assert_accessible("the Monopoly board as one tab stop")
        .await;
    ann.close().await;
}
