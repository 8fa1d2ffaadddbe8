//! Monopoly's trade forms in the browser: one trade composer per partner, though the server
//! lists a template per field an offer may lead with (rules version 2), that picks the template
//! its offer fits and makes an offer the server accepts (a deed for cash); a half-filled
//! composer (a deed ticked, an amount typed, the focus in it, unfolded) that survives another
//! player's move; and so does a bid being typed while another bidder bids.

use serde_json::{json, Value};

use super::game_page::{seat_document, wait_for_api_version};
use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::{spawn_app, Game, TestApp};

/// The moves a plain client makes, the first listed one of the seats the game waits for: it
/// buys what it can (no rent claimed).
const BUYING: [&str; 9] = [
    "pay_debt",
    "declare_bankruptcy",
    "buy_property",
    "pay_card_fine",
    "roll",
    "end_turn",
    "pass_auction",
    "decline_property",
    "declare_demand",
];

/// Plays through the API, each time the first listed action of `kinds` that a seat the game
/// waits for has, until `found` finds what it looks for in the game's document.
async fn play_until<T>(
    app: &TestApp,
    game: &Game,
    kinds: &[&str],
    found: impl Fn(&Value) -> Option<T>,
) -> T {
    for _ in 0..600 {
        let doc = app.document(game, None).await;
        assert_eq!(doc["status"], "active", "the game ended too early");
        if let Some(got) = found(&doc) {
            return got;
        }
        let mut picked = None;
        'seats: for seat in doc["active_seats"].as_array().unwrap() {
            let seat = seat.as_u64().unwrap() as usize;
            let legal = app.legal(game, seat).await;
            let listed = legal["actions"].as_array().unwrap();
            for kind in kinds {
                if let Some(a) = listed.iter().find(|a| a["type"] == *kind) {
                    picked = Some((seat, a.clone()));
                    break 'seats;
                }
            }
        }
        let (seat, action) = picked.unwrap_or_else(|| panic!("nothing to do: {doc}"));
        let (status, body) = app.act(game, seat, &json!({ "action": action })).await;
        assert!(status.is_success(), "{action} by seat {seat}: {body}");
    }
    panic!("not found in 600 moves");
}

/// Plays until seat 0 owns a deed, nothing is under the hammer and nobody owes; returns that
/// deed's square.
async fn play_until_seat_0_owns_a_deed(app: &TestApp, game: &Game) -> u64 {
    play_until(app, game, &BUYING, |doc| {
        let view = &doc["view"];
        let calm =
            view["auction"].is_null() && view["debts"].as_array().is_some_and(|d| d.is_empty());
        let owned = view["deeds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["owner"] == 0 && d["mortgaged"] == false)
            .and_then(|d| d["square"].as_u64());
        owned.filter(|_| calm)
    })
    .await
}

/// A Monopoly game of `players` people (rules version 2) in which seat 0 owns a deed, and seat
/// 0's page on `page`; returns the game, the deed's square and its name.
async fn game_with_a_deed(
    app: &TestApp,
    page: &Browser,
    players: usize,
    seed: u64,
) -> (Game, u64, String) {
    let game = app
        .create_game_of("monopoly", players, seed, json!({}))
        .await;
    let square = play_until_seat_0_owns_a_deed(app, &game).await;
    let name = app.document(&game, None).await["view"]["deeds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["square"] == square)
        .and_then(|d| d["name"].as_str())
        .expect("the deed's name")
        .to_string();
    page.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    page.wait_ready().await;
    (game, square, name)
}

/// Finds seat 0's trade forms for `partner` (by their "To: Player 1" line, as a reader does)
/// and marks the first: `data-test-target=composer` on it (its `details` when it is folded),
/// `data-test-deed` on the box of the deed `deed`, `data-test-cash` on the cash it asks for.
/// Returns how many such forms the page shows, whether the first is unfolded, whether the
/// deed is ticked, the cash typed and whether that has the focus.
const FIND_COMPOSER: &str = "
    document.querySelectorAll('[data-test-target], [data-test-deed], [data-test-cash]').forEach((e) => {
      e.removeAttribute('data-test-target'); e.removeAttribute('data-test-deed'); e.removeAttribute('data-test-cash');
    });
    const forms = [...document.querySelectorAll('#action-list form.template[data-template=offer_trade]')]
      .filter((f) => f.querySelector('p.hint')?.textContent === `To: Player ${arguments[0]}`);
    if (forms.length === 0) return { forms: 0 };
    const form = forms[0];
    const box = form.closest('details');
    (box ?? form).setAttribute('data-test-target', 'composer');
    const deed = [...form.querySelectorAll('[id$=-give_properties] label')].find((l) => l.textContent === arguments[1]);
    const tick = deed && deed.querySelector('input');
    if (tick) tick.setAttribute('data-test-deed', '');
    const cash = form.querySelector('input[type=number][id$=-get_cash]');
    if (cash) cash.setAttribute('data-test-cash', '');
    return { forms: forms.length, open: !box || box.open, deed: !!tick && tick.checked,
             cash: cash ? cash.value : null, focused: !!cash && document.activeElement === cash };";

/// Marks seat 0's first trade form for `partner` ([`FIND_COMPOSER`]) and unfolds it when it
/// is folded; returns how many trade forms the page shows for that partner.
async fn open_composer(page: &Browser, partner: usize, deed: &str) -> usize {
    let found = page
        .js(FIND_COMPOSER, vec![json!(partner), json!(deed)])
        .await;
    if found["open"] == false {
        page.click("[data-test-target=composer] > summary").await;
    }
    found["forms"].as_u64().unwrap() as usize
}

/// The offer templates seat 0 is offered toward `partner`.
fn offer_templates(seat_doc: &Value, partner: usize) -> usize {
    seat_doc["action_templates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["type"] == "offer_trade" && t["fixed"]["to"] == partner)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_trade_composer_per_partner_makes_an_offer_the_server_accepts() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "trade-composer", (1280, 1200)).await;
    let (game, square, deed) = game_with_a_deed(&app, &ann, 3, 21).await;
    let doc = seat_document(&app, &game.id, &game.tokens[0]).await;
    let version = doc["version"].as_i64().unwrap();
    ann.wait_for_version(version).await;
    for partner in [1, 2] {
        assert!(
            offer_templates(&doc, partner) >= 2,
            "the server lists one offer template per leading field: {}",
            doc["action_templates"]
        );
        assert_eq!(
            open_composer(&ann, partner, &deed).await,
            1,
            "one trade composer for seat {partner}"
        );
    }
    ann.assert_accessible("Monopoly's trade composers").await;

    // Give the deed for M 150: the composer picks the template that leads with the deed.
    open_composer(&ann, 1, &deed).await;
    ann.click("[data-test-deed]").await;
    ann.fill("[data-test-cash]", "150").await;
    ann.click("[data-test-target=composer] button[type=submit]")
        .await;
    wait_for_api_version(&app, &game.id, version).await;
    let offers = seat_document(&app, &game.id, &game.tokens[0]).await["view"]["offers"].clone();
    let offer = offers
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["from"] == 0 && o["to"] == 1)
        .unwrap_or_else(|| panic!("no offer from Ann to seat 1: {offers}"));
    assert_eq!(offer["give"]["properties"], json!([square]), "{offer}");
    assert_eq!(offer["get"]["cash"], 150, "{offer}");
    let error = ann
        .js(
            "return [...document.querySelectorAll('#action-list .error')].filter((e) => !e.hidden).map((e) => e.textContent);",
            vec![],
        )
        .await;
    assert_eq!(error, json!([]), "the page refused the offer");

    // Nothing filled in: the composer says in words that a trade moves something.
    ann.wait_for_version(version + 1).await;
    open_composer(&ann, 2, &deed).await;
    ann.click("[data-test-target=composer] button[type=submit]")
        .await;
    let said = ann
        .js(
            "return document.querySelector('[data-test-target=composer] .error').textContent;",
            vec![],
        )
        .await;
    assert!(
        said.as_str().unwrap().contains("A trade moves something"),
        "{said}"
    );
    ann.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_filled_trade_form_survives_another_players_move() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "trade-kept", (1280, 1200)).await;
    let (game, _, deed) = game_with_a_deed(&app, &ann, 2, 33).await;
    let version = app.version(&game).await;
    ann.wait_for_version(version).await;

    // Ann ticks her deed and types 175, the focus staying in the amount.
    open_composer(&ann, 1, &deed).await;
    ann.click("[data-test-deed]").await;
    ann.fill("[data-test-cash]", "175").await;

    // Bob offers her a trade meanwhile: her page redraws its moves (an offer to answer).
    let (status, body) = app
        .act(
            &game,
            1,
            &json!({ "action": {"type": "offer_trade", "to": 0, "give_cash": 10} }),
        )
        .await;
    assert!(status.is_success(), "{body}");
    ann.wait_for_version(version + 1).await;
    ann.wait_until(
        "Ann's page offers her Bob's trade",
        "return !!document.querySelector(\"#action-list form[data-template=accept_trade], #action-list [data-action*='accept_trade']\");",
        vec![],
    )
    .await;
    let kept = ann.js(FIND_COMPOSER, vec![json!(1), json!(deed)]).await;
    assert_eq!(
        kept,
        json!({"forms": 1, "open": true, "deed": true, "cash": "175", "focused": true}),
        "Ann's half-filled trade form after Bob's move"
    );
    ann.screenshot("trade-form-kept").await;
    ann.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bid_being_typed_survives_another_bidders_bid() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game_of("monopoly", 2, 45, json!({})).await;
    // Every property landed on is declined: the first one goes to auction, both bidding.
    let declining = [
        "decline_property",
        "pay_debt",
        "pay_card_fine",
        "roll",
        "end_turn",
    ];
    play_until(&app, &game, &declining, |doc| {
        let bidders = &doc["view"]["auction"]["bidders"];
        (bidders.as_array().is_some_and(|b| b.len() == 2)
            && doc["view"]["auction"]["high"].is_null())
        .then_some(())
    })
    .await;
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "bid-kept", (1280, 1200)).await;
    ann.goto(&format!("/games/{}#token={}", game.id, game.tokens[0]))
        .await;
    ann.wait_ready().await;
    let version = app.version(&game).await;
    ann.wait_for_version(version).await;
    let amount = "#action-list form[data-template=bid] input[type=number]";
    ann.fill(amount, "120").await;

    // Bob bids the least he may meanwhile: Ann's page redraws the bid form with a higher
    // minimum, which her 120 still clears.
    let bob = seat_document(&app, &game.id, &game.tokens[1]).await;
    let least = bob["action_templates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["type"] == "bid")
        .expect("Bob may bid")["params"]["amount"]["min"]
        .clone();
    let (status, body) = app
        .act(
            &game,
            1,
            &json!({ "action": {"type": "bid", "amount": least} }),
        )
        .await;
    assert!(status.is_success(), "{body}");
    ann.wait_for_version(version + 1).await;
    ann.wait_until(
        "Ann's page shows Bob's bid",
        "return document.getElementById('prompt').textContent.includes('high bid');",
        vec![],
    )
    .await;
    let kept = ann
        .js(
            "const input = document.querySelector(arguments[0]);
             return [input.value, document.activeElement === input, Number(input.min) > 1];",
            vec![json!(amount)],
        )
        .await;
    assert_eq!(
        kept,
        json!(["120", true, true]),
        "Ann's bid being typed after Bob's bid (its value, its focus, the new minimum)"
    );
    ann.close().await;
}
