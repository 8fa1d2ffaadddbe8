//! Monopoly in the browser: created in the lobby with a round limit (so that it ends soon),
//! two people and two of the server's bots (greedy and mcts), the second seat handed over by
//! its link, played to the end by clicking squares and buttons (buying by clicking the square
//! landed on), one auction bid through the bid form; none of the bots' rents lapses (they
//! claim them at once, also while a person is on turn); at every
//! move the page offers exactly the API's legal actions and draws every deed's owner,
//! buildings and mortgage as the API has it; the trade form names squares and seats; an
//! offer is told in each side's terms; the prompt bar names the auction's lot and bid; the
//! phone's layout, the worded log and axe-core's verdict are checked; the final scores shown
//! are the API's.

use serde_json::{json, Value};

use super::game_page::wait_for_api_version;
use super::hosted::{template_move, waiting_on_templates};
use super::{api_document, Browser, Chromedriver, Table, BROWSER_SLOTS};
use crate::helpers::spawn_app;

/// Full rounds before the game ends and is ranked by net worth (MO-END-2): enough turns for an
/// unowned square to be landed on (the first is left to auction) and a few bought.
const ROUNDS: u32 = 5;

/// The moves the board offers on a square (`actionsAt` in `web/static/src/boards/monopoly.js`).
const SQUARE_MOVES: [&str; 7] = [
    "buy_property",
    "decline_property",
    "build",
    "sell_building",
    "mortgage",
    "lift_mortgage",
    "claim_rent",
];

/// Leaves the first property offered to auction (so that a bid is made through the form),
/// then buys what it can, builds, pays, rolls and ends turns.
fn choose_monopoly(auctioned: bool) -> impl Fn(&[Value], usize) -> usize {
    move |offered, _turns| {
        let first = |kind: &str| (0..offered.len()).find(|&i| offered[i]["type"] == kind);
        let order: &[&str] = if auctioned {
            &[
                "buy_property",
                "build",
                "pay_debt",
                "pay_card_fine",
                "roll",
                "pass_auction",
                "end_turn",
            ]
        } else {
            &[
                "decline_property",
                "pay_debt",
                "pay_card_fine",
                "roll",
                "pass_auction",
                "end_turn",
            ]
        };
        order.iter().find_map(|k| first(k)).unwrap_or(0)
    }
}

/// What the board draws on each square: `[square, owner label, buildings, mortgaged]`, as its
/// help says it (a line each).
async fn drawn_deeds(page: &Browser) -> Value {
    page.js(
        "return [...document.querySelectorAll('#board .mono-cell')].map((g) => {
           const lines = g.dataset.help.split('\\n');
           const match = (re) => lines.map((l) => re.exec(l)).find((m) => m);
           const owner = match(/^owned by (.+)$/);
           const houses = match(/^(\\d) houses?$/);
           return [Number(g.dataset.square), owner ? owner[1] : null,
                   lines.includes('a hotel') ? 5 : houses ? Number(houses[1]) : 0, lines.includes('mortgaged')];
         });",
        vec![],
    )
    .await
}

/// The same from the API's view, with the seats' names.
fn expected_deeds(doc: &Value) -> Value {
    let names: Vec<String> = doc["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap_or_default().to_string())
        .collect();
    let mut squares: Vec<Value> = (0..40)
        .map(|i| serde_json::json!([i, null, 0, false]))
        .collect();
    for deed in doc["view"]["deeds"].as_array().unwrap() {
        let i = deed["square"].as_u64().unwrap() as usize;
        let owner = deed["owner"].as_u64().map(|o| names[o as usize].clone());
        let level = if deed["hotel"] == true {
            5
        } else {
            deed["houses"].as_u64().unwrap()
        };
        squares[i] = serde_json::json!([i, owner, level, deed["mortgaged"]]);
    }
    Value::Array(squares)
}

/// The trade form on `page` (of the seat whose document is `seat_doc`) names the partner and
/// the squares, not numbers: its fixed "To" is the other seat's name and its property boxes
/// are the deeds' names. `false` when the seat is offered no trade with a property to give.
async fn trade_form_names_things(page: &Browser, seat_doc: &Value) -> bool {
    let Some((n, template)) = seat_doc["action_templates"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .find(|(_, t)| t["type"] == "offer_trade" && t["params"]["give_properties"].is_object())
    else {
        return false;
    };
    let names = |squares: &Value| -> Vec<String> {
        squares
            .as_array()
            .unwrap()
            .iter()
            .map(|sq| {
                seat_doc["view"]["deeds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|d| d["square"] == *sq)
                    .and_then(|d| d["name"].as_str())
                    .expect("a deed for every tradeable square")
                    .to_string()
            })
            .collect()
    };
    let partner = template["fixed"]["to"].as_u64().unwrap() as usize;
    let want = json!({
        "to": format!("To: {}", seat_doc["seats"][partner]["name"].as_str().unwrap()),
        "give": names(&template["params"]["give_properties"]["values"]),
    });
    let shown = page
        .js(
            "const form = document.querySelector(`form.template[data-template-indices~='${arguments[0]}']`);
             const first = form.dataset.templateIndex;
             return { to: form.querySelector('p.hint').textContent,
                      give: [...form.querySelectorAll(`#tpl-offer_trade-${first}-give_properties label`)]
                              .map((l) => l.textContent) };",
            vec![json!(n)],
        )
        .await;
    assert_eq!(
        shown, want,
        "{}: the trade form speaks in numbers",
        page.name
    );
    true
}

/// The seat of `seat_doc` offers the other person (a seat of `pages`) a property for M 10
/// (through the API, as any client may): each side's page tells the offer in its own terms, in the prompt bar and on
/// the receiver's accept control ("you give M 10, you get Turmstraße"); the receiver then
/// rejects it with its button. Returns whether such an offer could be made.
async fn offer_is_told_from_each_side(
    app: &crate::helpers::TestApp,
    id: &str,
    pages: [&Browser; 2],
    tokens: &[String],
    seat_doc: &Value,
) -> bool {
    let Some(template) = seat_doc["action_templates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| {
            t["type"] == "offer_trade"
                && t["params"]["give_properties"].is_object()
                && t["fixed"]["to"]
                    .as_u64()
                    .is_some_and(|to| (to as usize) < pages.len())
        })
    else {
        return false;
    };
    let from = seat_doc["seat"].as_u64().unwrap() as usize;
    let to = template["fixed"]["to"].as_u64().unwrap() as usize;
    let square = template["params"]["give_properties"]["values"][0].clone();
    let deed = seat_doc["view"]["deeds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["square"] == square)
        .and_then(|d| d["name"].as_str())
        .unwrap()
        .to_string();
    let version = seat_doc["version"].as_i64().unwrap();
    let res = app
        .req(
            reqwest::Method::POST,
            &format!("/v1/games/{id}/actions"),
            Some(&tokens[from]),
        )
        .json(&json!({
            "action": {"type": "offer_trade", "to": to, "give_properties": [square], "get_cash": 10},
            "expected_version": version,
        }))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.text().await.unwrap());
    for page in pages {
        page.wait_for_version(version + 1).await;
    }
    let theirs = format!("you give M 10, you get {deed}");
    let prompt = pages[to].prompt().await;
    assert!(
        prompt.contains(&theirs),
        "{}: the prompt {prompt:?} lacks {theirs:?}",
        pages[to].name
    );
    let accept = pages[to]
        .js(
            "return [...document.querySelectorAll('#action-list button')].map((b) => b.textContent)
               .filter((t) => t.startsWith('Accept'));",
            vec![],
        )
        .await;
    assert!(
        accept.as_array().is_some_and(
            |a| !a.is_empty() && a.iter().all(|t| t.as_str().unwrap().contains(&theirs))
        ),
        "{}: the accept controls {accept} lack {theirs:?}",
        pages[to].name
    );
    let ours = format!("you give {deed}, you get M 10");
    let prompt = pages[from].prompt().await;
    assert!(
        prompt.contains(&ours),
        "{}: the prompt {prompt:?} lacks {ours:?}",
        pages[from].name
    );
    let reject = pages[to]
        .game_state()
        .await
        .actions
        .into_iter()
        .find(|a| a.contains("reject_trade"))
        .expect("a reject button");
    pages[to].perform(&reject, false).await;
    for page in pages {
        page.wait_for_version(version + 2).await;
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn monopoly_with_a_round_limit_is_played_to_the_end_by_clicking_squares() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "monopoly-ann", (1280, 1400)).await;
    // Bob plays on a phone.
    let bob = Browser::open(&driver, &app, "monopoly-bob", (390, 844)).await;

    ann.begin_new_game("Ann", "monopoly", "start_money", 4)
        .await;
    ann.fill("#seat-name-1", "Bob").await;
    ann.select("#seat-kind-2", "bot-greedy").await;
    ann.select("#seat-kind-3", "bot-mcts").await;
    ann.fill("#config-round_limit", &ROUNDS.to_string()).await;
    let links = ann.create_new_game().await;
    let bob_link = links[1].clone();
    let id = ann.open_created_game().await;
    bob.goto(&bob_link).await;
    bob.wait_ready().await;
    assert_eq!(
        bob.js("return document.body.dataset.seat;", vec![]).await,
        "1"
    );

    bob.assert_fits_width("the Monopoly page").await;
    let pages = [&ann, &bob];
    let mut table = Table::with_bots(&app, &id, &[Some(&ann), Some(&bob), None, None]).await;
    // Some squares and buttons by keyboard (focus and Enter).
    table.keyboard_every = 5;
    let tokens: Vec<String> = (0..pages.len())
        .map(|s| table.token(s).expect("a person's seat").to_string())
        .collect();
    assert_eq!(
        api_document(&app, &id).await["view"]["round_limit"],
        ROUNDS,
        "the round limit typed in the lobby"
    );
    let mut bid = false;
    let mut trade_form = false;
    let mut phone_checked = false;
    let mut board_checked = false;
    loop {
        let doc = api_document(&app, &id).await;
        if doc["status"] == "finished" {
            break;
        }
        let version = doc["version"].as_i64().unwrap();
        // A bot's move comes first: its turn, or a rent to claim or an offer to answer, which
        // it takes at once, also while a person is on turn.
        let bot_seat = |s: &Value| s.as_u64().is_some_and(|s| s >= 2);
        let view = &doc["view"];
        if doc["active_seats"].as_array().unwrap().iter().any(bot_seat)
            || view["rents"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| bot_seat(&r["owner"]))
            || view["offers"]
                .as_array()
                .unwrap()
                .iter()
                .any(|o| bot_seat(&o["to"]))
        {
            wait_for_api_version(&app, &id, version).await;
            continue;
        }
        for page in pages {
            page.wait_for_version(version).await;
            assert_eq!(
                drawn_deeds(page).await,
                expected_deeds(&doc),
                "{}: the board at version {version} differs from the API's deeds",
                page.name
            );
        }
        let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
        let seat_doc = super::game_page::seat_document(&app, &id, &tokens[seat]).await;
        if !trade_form {
            trade_form = trade_form_names_things(pages[seat], &seat_doc).await;
            if trade_form {
                assert!(offer_is_told_from_each_side(&app, &id, pages, &tokens, &seat_doc).await);
                continue;
            }
        }
        // Bob's page on his turn (it shows this version, waited for above): whenever his moves
        // include one tied to a square, the board offers it as a button; the phone layout is
        // checked on his first turn and again on his first turn with board buttons.
        if seat == 1 {
            let square_move = seat_doc["legal_actions"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| SQUARE_MOVES.contains(&a["type"].as_str().unwrap_or_default()));
            let buttons = bob.board_buttons().await;
            assert!(
                !square_move || buttons > 0,
                "Bob may act on a square, but the board offers no square to click: {}",
                seat_doc["legal_actions"]
            );
            if !phone_checked || (square_move && !board_checked) {
                bob.assert_phone_layout("the Monopoly page on Bob's turn")
                    .await;
                bob.assert_accessible("Monopoly on a phone").await;
                phone_checked = true;
                board_checked |= square_move;
            }
        }
        if !bid && doc["view"]["auction"].is_object() {
            // The prompt bar and the bid form name the lot and where the bidding stands.
            let lot = doc["view"]["auction"]["lot"]["square"].as_u64().unwrap();
            let lot = doc["view"]["deeds"]
                .as_array()
                .unwrap()
                .iter()
                .find(|d| d["square"] == lot)
                .unwrap()["name"]
                .as_str()
                .unwrap()
                .to_string();
            let prompt = pages[seat].prompt().await;
            assert!(
                prompt.contains(&format!("Auction of {lot}")) && prompt.contains("bid"),
                "{}: the prompt during the auction: {prompt:?}",
                pages[seat].name
            );
            let form = pages[seat]
                .js(
                    "return document.querySelector('form[data-template=bid] h3').textContent;",
                    vec![],
                )
                .await;
            assert!(
                form.as_str().unwrap().contains(&lot),
                "the bid form: {form}"
            );
            pages[seat].assert_accessible("a Monopoly auction").await;
            bid = template_move(&app, &id, pages[seat], &tokens[seat], Some("bid")).await;
            assert!(bid, "an auction without a bid form for seat {seat}");
            pages[seat].screenshot("monopoly-bid").await;
            continue;
        }
        if waiting_on_templates(&seat_doc) {
            assert!(
                template_move(&app, &id, pages[seat], &tokens[seat], None).await,
                "seat {seat} is offered only templates the test cannot fill: {}",
                seat_doc["action_templates"]
            );
            continue;
        }
        table.step(choose_monopoly(bid)).await;
        if table.moves == 30 {
            ann.screenshot("monopoly-playing").await;
        }
    }
    assert!(bid, "no auction came up in {ROUNDS} rounds");
    assert!(phone_checked, "Bob never had a turn");
    let mut events = Vec::new();
    let mut after = 0;
    loop {
        let page = app
            .get_json(
                &format!("/v1/games/{id}/events?after={after}&limit=1000"),
                None,
            )
            .await
            .1;
        events.extend(page["events"].as_array().unwrap().iter().cloned());
        match page["next_after"].as_i64() {
            Some(next) => after = next,
            None => break,
        }
    }
    let rent_owner = |rent: &Value| {
        events
            .iter()
            .find(|e| e["event"]["type"] == "rent_owed" && e["event"]["rent"] == *rent)
            .and_then(|e| e["event"]["owner"].as_u64())
    };
    // Whether anyone lands on a bot's square in five rounds is chance (the HTTP test of the
    // bots plays long enough to count on it): the claims are reported, lapses are checked.
    let bots_claimed = events
        .iter()
        .filter(|e| e["event"]["type"] == "rent_claimed")
        .filter(|e| rent_owner(&e["event"]["rent"]).is_some_and(|o| o >= 2))
        .count();
    for lapsed in events
        .iter()
        .filter(|e| e["event"]["type"] == "rent_lapsed")
    {
        assert!(
            rent_owner(&lapsed["event"]["rent"]).is_some_and(|o| o < 2),
            "a bot let a rent lapse: {lapsed}"
        );
    }
    assert!(trade_form, "no trade with a property to give was offered");
    let doc = api_document(&app, &id).await;
    assert_eq!(doc["view"]["rounds_completed"], ROUNDS, "{}", doc["view"]);
    let scores: Vec<i64> = doc["outcome"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    for page in pages {
        page.wait_for_version(doc["version"].as_i64().unwrap())
            .await;
        assert_eq!(page.shown_scores().await, scores, "{}", page.name);
        page.assert_log_in_words().await;
    }
    ann.assert_accessible("a finished Monopoly game").await;
    ann.screenshot("monopoly-finished").await;
    bob.screenshot("monopoly-finished").await;
    println!(
        "monopoly: {} clicked moves, {bots_claimed} rents claimed by the bots, Bob's phone \
         board checked with square buttons: {board_checked}",
        table.moves
    );
    let owned = doc["view"]["deeds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["owner"].is_u64())
        .count();
    assert!(
        owned >= 2,
        "hardly anything was bought: {owned} deeds owned"
    );
    ann.close().await;
    bob.close().await;
}

/// An owner's name too long for its square is shortened with an ellipsis, never cut mid-word
/// without a sign ("3 random bo"); checked on the board module's own function.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_owner_name_on_a_square_ends_in_an_ellipsis() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "owner-label", (1024, 800)).await;
    page.goto("/").await;
    page.wait_ready().await;
    let labels = page
        .js(
            "return (async () => {
               const base = document.querySelector('script[type=module]').src.replace(/lobby\\.js$/, '');
               const { ownerLabel } = await import(base + 'boards/monopoly.js');
               return [ownerLabel('3', 'random bot', 10), ownerLabel('1', 'Ann', 10), ownerLabel('12', 'Bartholomew', 4)];
             })();",
            vec![],
        )
        .await;
    assert_eq!(labels, json!(["3 random…", "1 Ann", "12"]));
    page.close().await;
}
