//! Acquire in the browser: created in the lobby with an option changed, the second seat handed
//! over by its shared link to a phone, played to the end by clicking tiles, shares and buttons
//! (a merger's shares through their form) while a spectator watches, and at every move no page
//! shows a tile of another seat's hand; the tile just placed is marked; two shares are bought
//! with one submit of the "buy several" form; the phone's layout, the merger's prompt, the
//! worded log and axe-core's verdict are checked.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::{api_document, Browser, Chromedriver, Table, BROWSER_SLOTS};
use crate::helpers::{spawn_app, TestApp};

/// Announces the end as soon as it may, places the first playable tile, buys a share every
/// third turn, and otherwise ends the turn (or takes the first choice of a merger).
fn choose_acquire(offered: &[Value], turns: usize) -> usize {
    let first = |kind: &str| (0..offered.len()).find(|&i| offered[i]["type"] == kind);
    first("announce_end")
        .or_else(|| first("place_tile"))
        .or_else(|| first("buy_share").filter(|_| turns.is_multiple_of(3)))
        .or_else(|| first("end_turn"))
        .unwrap_or(0)
}

/// The tiles in each seat's hand now, from the API with each seat's token.
async fn hands(app: &TestApp, game_id: &str, tokens: &[String]) -> Vec<BTreeSet<String>> {
    let mut out = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let (_, doc) = app
            .get_json(&format!("/v1/games/{game_id}"), Some(token))
            .await;
        let hand = doc["view"]["players"][seat]["hand"]
            .as_array()
            .expect("a seat sees its own hand")
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        out.push(hand);
    }
    out
}

/// Whether `html` names `tile` (`5C`) as a word: not inside `15C` or `5CD`.
/// Where `html` names `tile` as a word: the text around it, for the failure message.
fn names_tile(html: &str, tile: &str) -> Option<String> {
    html.match_indices(tile).find_map(|(i, _)| {
        let before = html[..i].chars().next_back();
        let after = html[i + tile.len()..].chars().next();
        let word = !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric());
        word.then(|| {
            let start = html.floor_char_boundary(i.saturating_sub(120));
            let end = html.ceil_char_boundary((i + 120).min(html.len()));
            html[start..end].to_string()
        })
    })
}

/// Asserts that the page (viewing as `viewer`, `None` for a spectator) names no tile of
/// another seat's hand.
async fn assert_no_hidden_tiles(
    page: &Browser,
    viewer: Option<usize>,
    hands: &[BTreeSet<String>],
    when: &str,
) {
    let html = page.dom().await;
    for (seat, hand) in hands.iter().enumerate() {
        if Some(seat) == viewer {
            continue;
        }
        for tile in hand {
            if let Some(around) = names_tile(&html, tile) {
                panic!("{when}: the page of {viewer:?} shows {tile} from the hand of seat {seat}: {around}");
            }
        }
    }
}

#[test]
fn a_tile_is_found_only_as_a_whole_word() {
    assert!(names_tile("<li>Ann draws 5C.</li>", "5C").is_some());
    assert!(names_tile("5C", "5C").is_some());
    assert!(names_tile("<li>15C</li>", "5C").is_none());
    assert!(names_tile("5CD", "5C").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_acquire_game_is_played_to_the_end_by_clicking_and_no_page_shows_another_hand() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let driver = Chromedriver::start().await;
    let ann = Browser::open(&driver, &app, "acquire-ann", (1280, 1000)).await;
    let bob = Browser::open(&driver, &app, "acquire-bob", (390, 844)).await;
    let watcher = Browser::open(&driver, &app, "acquire-spectator", (1280, 1000)).await;

    // Ann creates a two-seat game for Ann and Bob with the shorter end rule.
    ann.begin_new_game("Ann", "acquire", "end_rule", 2).await;
    ann.fill("#seat-name-1", "Bob").await;
    ann.select("#config-end_rule", "standard").await;
    let links = ann.create_new_game().await;
    let bob_link = links[1].clone();
    assert!(bob_link.contains("#token="), "{bob_link}");
    let id = ann.open_created_game().await;
    let (_, created) = app
        .get_json(&format!("/v1/games/{id}/events?limit=1"), None)
        .await;
    assert_eq!(
        created["events"][0]["event"]["config"]["end_rule"], "standard",
        "the option chosen in the lobby reached the game"
    );

    // Bob opens his link: the token moves from the fragment into storage.
    bob.goto(&bob_link).await;
    bob.wait_ready().await;
    let (seat, hash) = {
        let got = bob
            .js(
                "return [document.body.dataset.seat, location.hash];",
                vec![],
            )
            .await;
        (got[0].clone(), got[1].clone())
    };
    assert_eq!(seat, "1");
    assert_eq!(hash, "", "the token stays in the address bar");

    watcher.goto(&format!("/games/{id}")).await;
    watcher.wait_ready().await;
    assert_eq!(
        watcher
            .js("return document.body.dataset.seat;", vec![])
            .await,
        ""
    );

    let mut table = Table::new(&app, &id, &[&ann, &bob]).await;
    let tokens = table.tokens();
    table.keyboard_every = 9;
    let mut phone_checked = false;
    let mut merger_told = false;
    let mut fresh_marked = false;
    let mut bought_two = false;
    loop {
        let now = hands(&app, &id, &tokens).await;
        let version = api_document(&app, &id).await["version"].as_i64().unwrap();
        for (page, viewer) in [(&ann, Some(0)), (&bob, Some(1)), (&watcher, None)] {
            page.wait_for_version(version).await;
            assert_no_hidden_tiles(page, viewer, &now, &format!("version {version}")).await;
        }
        if table.moves == 40 {
            // The lobby and a replay of an earlier position show no hand either.
            let past = version - 10;
            let then = past_hands(&app, &id, &tokens, past).await;
            watcher.goto(&format!("/games/{id}?seq={past}")).await;
            watcher.wait_ready().await;
            assert_no_hidden_tiles(&watcher, None, &then, "a replay").await;
            assert_no_hidden_tiles(&watcher, None, &now, "a replay").await;
            watcher.goto("/").await;
            watcher.wait_ready().await;
            assert_no_hidden_tiles(&watcher, None, &now, "the lobby").await;
            watcher.goto(&format!("/games/{id}")).await;
            watcher.wait_ready().await;
            for page in [&ann, &bob, &watcher] {
                page.screenshot("acquire-playing").await;
            }
        }
        let doc = api_document(&app, &id).await;
        // On a turn whose moves include the board's own, so that those are checked too.
        if !phone_checked && doc["active_seats"][0] == 1 && bob.board_buttons().await > 0 {
            bob.wait_for_version(version).await;
            bob.assert_phone_layout("the Acquire page on Bob's turn")
                .await;
            bob.assert_accessible("Acquire on a phone").await;
            phone_checked = true;
        }
        if !fresh_marked {
            fresh_marked = assert_fresh_tile_marked(&app, &id, &watcher, version).await;
        }
        if !merger_told && doc["view"]["merger"].is_object() {
            let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
            let page = [&ann, &bob][seat];
            let prompt = page.prompt().await;
            assert!(
                prompt.contains("Merger:")
                    && prompt.contains(doc["view"]["merger"]["tile"].as_str().unwrap()),
                "{}: the prompt during a merger: {prompt:?}",
                page.name
            );
            merger_told = true;
        }
        if !bought_two {
            let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
            bought_two =
                buy_two_in_one_go(&app, &id, [&ann, &bob][seat], seat, &tokens[seat]).await;
            if bought_two {
                continue;
            }
        }
        if !table.step(choose_acquire).await {
            break;
        }
    }
    assert!(fresh_marked, "no move placed a tile");
    assert!(
        bought_two,
        "two shares of a chain were never to be had at once"
    );
    assert!(phone_checked, "Bob never had a tile to place");

    let doc = api_document(&app, &id).await;
    let scores: Vec<i64> = doc["outcome"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    for page in [&ann, &bob, &watcher] {
        assert_eq!(page.shown_scores().await, scores);
        // The scores are money, written as the score sheet beside them writes it ($28,500).
        let totals = page
            .js(
                "return [...document.querySelectorAll('#scores td.total')].map((td) => td.textContent);",
                vec![],
            )
            .await;
        assert!(
            totals.as_array().unwrap().iter().all(|t| t
                .as_str()
                .unwrap()
                .strip_prefix('$')
                .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit() || c == ','))),
            "{}: the final scores {totals}",
            page.name
        );
        page.assert_log_in_words().await;
        page.screenshot("acquire-finished").await;
    }
    watcher.assert_accessible("a finished Acquire game").await;
    ann.close().await;
    bob.close().await;
    watcher.close().await;
}

/// When the last move (the events of one action, the page's grouping) placed a tile, `page`
/// marks that tile on the board as just placed, and no other: returns whether it did.
async fn assert_fresh_tile_marked(
    app: &TestApp,
    game_id: &str,
    page: &Browser,
    version: i64,
) -> bool {
    let after = (version - 8).max(0);
    let (_, got) = app
        .get_json(&format!("/v1/games/{game_id}/events?after={after}"), None)
        .await;
    let events = got["events"].as_array().unwrap();
    let Some(last) = events.last() else {
        return false;
    };
    let placed: Vec<&str> = events
        .iter()
        .rev()
        .take_while(|e| e["created_at"] == last["created_at"])
        .filter(|e| e["event"]["type"] == "tile_placed")
        .map(|e| e["event"]["tile"].as_str().unwrap())
        .collect();
    if placed.is_empty() {
        return false;
    }
    let marked = page
        .js(
            "return [...document.querySelectorAll('#board g.tile.fresh')].map((g) => g.dataset.tile);",
            vec![],
        )
        .await;
    assert_eq!(
        marked,
        serde_json::json!(placed),
        "{}: the tile just placed is not the one marked at version {version}",
        page.name
    );
    true
}

/// Buys two shares of one chain with the "buy several" form: one submit, two actions, the
/// button saying the total first. Returns whether `seat` could (two buys left this turn, two
/// shares in the bank, the cash for both).
async fn buy_two_in_one_go(
    app: &TestApp,
    game_id: &str,
    page: &Browser,
    seat: usize,
    token: &str,
) -> bool {
    let doc = super::game_page::seat_document(app, game_id, token).await;
    let view = &doc["view"];
    if view["stage"]["stage"] != "turn" || view["stage"]["bought"] != 0 {
        return false;
    }
    let cash = view["players"][seat]["cash"].as_i64().unwrap();
    let buyable = |c: &&Value| {
        doc["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["type"] == "buy_share" && a["chain"] == c["chain"])
            && c["bank_shares"].as_i64().unwrap() >= 2
            && 2 * c["price"].as_i64().unwrap() <= cash
    };
    let Some((index, chain)) = view["chains"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .find(|(_, c)| buyable(c))
    else {
        return false;
    };
    let version = doc["version"].as_i64().unwrap();
    page.wait_for_version(version).await;
    // Nothing chosen yet: nothing to submit; each share button names its chain with the
    // right article ("an Imperial share").
    let idle = page
        .js(
            "const b = document.getElementById('buy-several');
             const wrong = [...document.querySelectorAll('button.buy')].map((e) => e.getAttribute('aria-label'))
               .filter((l) => !/^Buy (an [AEIOU]|a [^AEIOU])/.test(l));
             return [b.disabled, wrong];",
            vec![],
        )
        .await;
    assert_eq!(
        idle,
        json!([true, []]),
        "{}: the buy button with no share chosen, and share labels with a wrong article",
        page.name
    );
    let name = chain["name"].as_str().unwrap();
    page.fill(
        &format!("form.buy-several input[aria-label='{name} shares to buy']"),
        "2",
    )
    .await;
    let price = chain["price"].as_i64().unwrap();
    let button = page
        .js(
            "return document.getElementById('buy-several').textContent;",
            vec![],
        )
        .await;
    let button = button.as_str().unwrap_or_default();
    let digits: String = button
        .trim_start_matches("Buy 2 shares for")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    assert!(
        button.starts_with("Buy 2 shares for") && digits == (2 * price).to_string(),
        "{}: the buy button says {button:?}",
        page.name
    );
    page.click("#buy-several").await;
    super::game_page::wait_for_api_version(app, game_id, version + 1).await;
    let after = super::game_page::seat_document(app, game_id, token).await;
    let shares = |d: &Value| {
        d["view"]["players"][seat]["shares"][index]
            .as_i64()
            .unwrap()
    };
    assert_eq!(
        shares(&after),
        shares(&doc) + 2,
        "{}: one submit of the form bought two {name} shares",
        page.name
    );
    true
}

/// Each seat's hand as of event `seq` (from `states/{seq}` with its token).
async fn past_hands(
    app: &TestApp,
    game_id: &str,
    tokens: &[String],
    seq: i64,
) -> Vec<BTreeSet<String>> {
    let mut out = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let (_, doc) = app
            .get_json(&format!("/v1/games/{game_id}/states/{seq}"), Some(token))
            .await;
        out.push(
            doc["view"]["players"][seat]["hand"]
                .as_array()
                .expect("a seat sees its own past hand")
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect(),
        );
    }
    out
}
