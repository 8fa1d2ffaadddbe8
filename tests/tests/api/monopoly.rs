//! Monopoly through the service: whole games in which several seats act (rent claims by the
//! owner while another player is on turn, trade offers and answers, auctions), checked against
//! the engine's replay of the log; the secrecy of the deck order; a refusal with its
//! `monopoly.*` code for each kind of illegal action a client can reach; the published codes in
//! the served OpenAPI document.

use std::collections::{BTreeMap, BTreeSet};

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{self, spawn_app, stored_snapshot, Game, TestApp};

/// The street groups of the board (monopoly-board.json), by square.
const STREET_GROUPS: [&[u64]; 8] = [
    &[1, 3],
    &[6, 8, 9],
    &[11, 13, 14],
    &[16, 18, 19],
    &[21, 23, 24],
    &[26, 27, 29],
    &[31, 32, 34],
    &[37, 39],
];

async fn create(app: &TestApp, players: usize, seed: u64, config: Value) -> Game {
    app.create_game_of("monopoly", players, seed, config).await
}

/// Every seat's `legal-actions` answer, by seat.
async fn all_legal(app: &TestApp, game: &Game) -> Vec<Value> {
    let mut out = Vec::new();
    for seat in 0..game.tokens.len() {
        out.push(app.legal(game, seat).await);
    }
    out
}

fn listed(legal: &Value) -> &[Value] {
    legal["actions"].as_array().unwrap()
}

fn templates(legal: &Value) -> &[Value] {
    legal["templates"].as_array().unwrap()
}

/// How much a random client likes each kind of action: enough buying, declining and answering
/// offers that auctions and trades happen in every game, while turns keep moving.
fn weight(action_type: &str) -> u32 {
    match action_type {
        "accept_trade" => 40,
        "pay_debt" | "declare_bankruptcy" | "settle_inheritance" | "declare_demand" => 30,
        "roll" | "end_turn" => 12,
        "bid" => 10,
        "buy_property" => 6,
        "decline_property" | "pass_auction" | "reject_trade" => 4,
        "offer_trade" => 2,
        _ => 1,
    }
}

/// A seeded weighted choice among a seat's listed actions and its templates (filled at random).
fn choose_monopoly(rng: &mut ChaCha8Rng, legal: &Value) -> Option<Value> {
    let options: Vec<(&Value, bool)> = listed(legal)
        .iter()
        .map(|a| (a, false))
        .chain(templates(legal).iter().map(|t| (t, true)))
        .collect();
    let total: u32 = options
        .iter()
        .map(|(a, _)| weight(a["type"].as_str().unwrap()))
        .sum();
    if total == 0 {
        return None;
    }
    let mut roll = rng.random_range(0..total);
    for (option, is_template) in options {
        let w = weight(option["type"].as_str().unwrap());
        if roll >= w {
            roll -= w;
            continue;
        }
        if !is_template {
            return Some(option.clone());
        }
        let template: engine::ActionTemplate =
            serde_json::from_value(option.clone()).expect("the API sends ActionTemplate objects");
        return Some(template.instantiate(rng));
    }
    unreachable!("the roll is below the total weight")
}

/// What the seats did in a game.
#[derive(Debug, Default)]
struct Tally {
    claims_off_turn: usize,
    lapsed_rents: usize,
    trades: usize,
    bids: usize,
    auctions_won: usize,
    /// Standing actions (offers and answers, building, mortgages) by seats not on turn.
    standing_off_turn: usize,
}

/// Plays a whole game: at every step each seat's legal actions are read; a waiting rent is
/// usually claimed by its owner, otherwise a seat with something to do acts (seats the game
/// waits for are preferred, others make standing actions: offers, building, mortgages).
/// Returns the spectator's view at every version seen, and the tally.
async fn play_monopoly(
    app: &TestApp,
    game: &Game,
    seed: u64,
    moves: Moves,
) -> (BTreeMap<i64, Value>, Tally) {
    let max_moves = match moves {
        Moves::ToTheEnd(n) | Moves::Exactly(n) => n,
    };
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(seed);
    let mut seen = BTreeMap::new();
    let mut tally = Tally::default();
    for _ in 0..max_moves {
        let doc = app.document(game, None).await;
        seen.insert(doc["version"].as_i64().unwrap(), doc["view"].clone());
        if doc["status"] == "finished" {
            return (seen, tally);
        }
        let on_turn = doc["view"]["turn"]["seat"].as_u64();
        let active: BTreeSet<u64> = doc["active_seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        let legal = all_legal(app, game).await;
        let claim = legal.iter().enumerate().find_map(|(seat, l)| {
            listed(l)
                .iter()
                .find(|a| a["type"] == "claim_rent")
                .map(|a| (seat, a.clone()))
        });
        // Every third rent is left to lapse (MO-RENT-2).
        let (seat, action) = match claim {
            Some(claim) if claim.1["rent"].as_u64().unwrap() % 3 != 1 => claim,
            _ => {
                let weights: Vec<u32> = (0..legal.len())
                    .map(|s| {
                        let can = !listed(&legal[s]).is_empty() || !templates(&legal[s]).is_empty();
                        match (can, active.contains(&(s as u64))) {
                            (false, _) => 0,
                            (true, true) => 6,
                            (true, false) => 1,
                        }
                    })
                    .collect();
                let total: u32 = weights.iter().sum();
                assert!(total > 0, "no seat can act: {doc}");
                let mut roll = rng.random_range(0..total);
                let seat = (0..legal.len())
                    .find(|&s| {
                        if roll < weights[s] {
                            true
                        } else {
                            roll -= weights[s];
                            false
                        }
                    })
                    .unwrap();
                match choose_monopoly(&mut rng, &legal[seat]) {
                    Some(action) => (seat, action),
                    None => continue,
                }
            }
        };
        let (status, body) = app
            .act(
                game,
                seat,
                &json!({ "action": action, "expected_version": legal[seat]["version"] }),
            )
            .await;
        assert_eq!(
            status,
            StatusCode::OK,
            "{action} by seat {seat} refused: {body}"
        );
        if on_turn != Some(seat as u64) {
            match action["type"].as_str().unwrap() {
                "claim_rent" => tally.claims_off_turn += 1,
                "bid" | "pass_auction" | "declare_demand" | "pay_debt" | "declare_bankruptcy"
                | "settle_inheritance" => {}
                _ => tally.standing_off_turn += 1,
            }
        }
        for e in body["events"].as_array().unwrap() {
            match e["event"]["type"].as_str().unwrap() {
                "rent_lapsed" => tally.lapsed_rents += 1,
                "trade_executed" => tally.trades += 1,
                "bid_placed" => tally.bids += 1,
                "auction_won" => tally.auctions_won += 1,
                _ => {}
            }
        }
    }
    assert!(
        matches!(moves, Moves::Exactly(_)),
        "the game did not end within {max_moves} moves"
    );
    (seen, tally)
}

/// How long [`play_monopoly`] plays.
#[derive(Debug, Clone, Copy)]
enum Moves {
    /// To the end, failing after this many moves.
    ToTheEnd(usize),
    /// This many moves, or fewer if the game ends.
    Exactly(usize),
}

/// Plays a game to its end and checks it against the engine: the log folds to the stored
/// snapshot and the same outcome; every version seen during play is `states/{seq}`.
async fn play_and_check(players: usize, seed: u64, config: Value) -> Tally {
    let app = spawn_app().await;
    let game = create(&app, players, seed, config).await;
    let (seen, tally) = play_monopoly(&app, &game, seed, Moves::ToTheEnd(4_000)).await;

    let raw = helpers::assert_replay_matches_the_store(&app, &game, "monopoly").await;
    // Once over, the deck orders are in the log.
    let shuffles: Vec<&Value> = raw
        .iter()
        .filter(|e| e["type"] == "deck_shuffled")
        .collect();
    assert_eq!(shuffles.len(), 2);
    assert!(shuffles.iter().all(|e| e["order"].is_array()));
    helpers::assert_states_as_seen(&app, &game, &seen, 7).await;
    tally
}

/// MO-RENT-2 (claims by the owner off turn, lapsed rents), MO-TRADE-4, MO-AUC-2..5, MO-END-2:
/// whole games through the service, several seats acting.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_player_games_with_claims_trades_and_auctions_end_as_the_engine_replay_says() {
    let tally = play_and_check(3, 7, json!({ "round_limit": 8 })).await;
    assert!(tally.claims_off_turn > 0, "{tally:?}");
    assert!(tally.standing_off_turn > 0, "{tally:?}");
    assert!(tally.trades > 0, "{tally:?}");
    assert!(tally.bids > 0 && tally.auctions_won > 0, "{tally:?}");
    assert!(tally.lapsed_rents > 0, "{tally:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_player_games_with_claims_trades_and_auctions_end_as_the_engine_replay_says() {
    let tally = play_and_check(4, 8, json!({ "round_limit": 6 })).await;
    assert!(tally.claims_off_turn > 0, "{tally:?}");
    assert!(tally.standing_off_turn > 0, "{tally:?}");
    assert!(tally.trades > 0, "{tally:?}");
    assert!(tally.bids > 0 && tally.auctions_won > 0, "{tally:?}");
}

/// With `auto_collect_rent` nobody claims: rent is paid on landing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_player_game_with_auto_collected_rent_ends_as_the_engine_replay_says() {
    let tally = play_and_check(2, 9, json!({ "round_limit": 8, "auto_collect_rent": true })).await;
    assert_eq!(tally.claims_off_turn + tally.lapsed_rents, 0, "{tally:?}");
}

// ---- Hidden information: the order of the decks ----

/// Every string anywhere in `v`, keys included.
fn strings(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(text) => {
            out.insert(text.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.insert(k.clone());
            strings(x, out);
        }),
        _ => {}
    }
}

/// Every value of a key named `order` anywhere in `v`.
fn orders(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| orders(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            if k == "order" {
                out.push(x.clone());
            }
            orders(x, out);
        }),
        _ => {}
    }
}

/// Everything `token` can read about the game now.
async fn visible_to(app: &TestApp, game: &Game, token: Option<&str>) -> Vec<(String, Value)> {
    let version = app.version(game).await;
    let mut out = Vec::new();
    let mut paths = vec![
        format!("/v1/games/{}", game.id),
        format!("/v1/games/{}/events?limit=1000", game.id),
        "/v1/games".to_string(),
    ];
    for seq in [1, 2, 3, version / 2, version] {
        paths.push(format!("/v1/games/{}/states/{}", game.id, seq.max(1)));
    }
    if token.is_some() {
        paths.push(format!("/v1/games/{}/legal-actions", game.id));
    }
    for path in paths {
        let (status, body) = app.get_json(&path, token).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        out.push((path, body));
    }
    let ndjson = app
        .req(Method::GET, &format!("/v1/games/{}/events", game.id), token)
        .header("accept", "application/x-ndjson")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let lines: Vec<Value> = ndjson
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    out.push(("ndjson".into(), Value::Array(lines)));
    out
}

/// No viewer sees either deck's order: every `order` is null, and no card that has not been
/// drawn since the shuffle (the face-down top of each deck) is named anywhere.
async fn assert_deck_order_secret(app: &TestApp, game: &Game) {
    let snapshot = stored_snapshot(app, game);
    let mut secret = BTreeSet::new();
    for deck in 0..2 {
        let undrawn = snapshot["undrawn"][deck].as_u64().unwrap() as usize;
        assert!(undrawn >= 2, "the check needs undrawn cards in deck {deck}");
        for card in &snapshot["decks"][deck].as_array().unwrap()[..undrawn] {
            secret.insert(card.as_str().unwrap().to_string());
        }
    }
    let mut viewers: Vec<Option<&str>> = vec![None];
    viewers.extend(game.tokens.iter().map(|t| Some(t.as_str())));
    for (i, token) in viewers.into_iter().enumerate() {
        for (what, body) in visible_to(app, game, token).await {
            let mut found = Vec::new();
            orders(&body, &mut found);
            assert!(
                found.iter().all(Value::is_null),
                "viewer {i} sees a deck order in {what}"
            );
            let mut seen = BTreeSet::new();
            strings(&body, &mut seen);
            let shown: Vec<&String> = seen.intersection(&secret).collect();
            assert!(
                shown.is_empty(),
                "viewer {i} sees the undrawn cards {shown:?} in {what}"
            );
        }
    }
}

/// MO-SETUP-3, MO-CARD-1: the decks' order is secret to every seat and spectator, in the
/// document, the events (paged and streamed), `states/{seq}` and legal actions, until the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_seat_or_spectator_sees_the_deck_order_before_the_end() {
    let app = spawn_app().await;
    let game = create(&app, 3, 31, json!({ "round_limit": 30 })).await;
    assert_deck_order_secret(&app, &game).await;
    let (_, tally) = play_monopoly(&app, &game, 31, Moves::Exactly(120)).await;
    let drawn = app
        .all_events(&game, None)
        .await
        .iter()
        .filter(|e| e["event"]["type"] == "card_drawn")
        .count();
    assert!(drawn > 0, "the check needs drawn cards ({tally:?})");
    assert_eq!(app.document(&game, None).await["status"], "active");
    assert_deck_order_secret(&app, &game).await;
}

// ---- Refusals: a `monopoly.*` code for each kind of illegal action ----

/// One step of a plain client: a waiting rent is claimed by its owner; otherwise a seat the
/// game waits for pays its debt, buys what it landed on (or declines what it cannot pay for),
/// pays a card's fine rather than drawing, rolls, ends its turn or leaves an auction, and failing
/// all these takes any listed action.
async fn advance(app: &TestApp, game: &Game) {
    advance_claiming(app, game, true).await;
}

/// [`advance`], with or without rent claims (without, rents wait for the next roll).
async fn advance_claiming(app: &TestApp, game: &Game, claims: bool) {
    let doc = app.document(game, None).await;
    assert_eq!(
        doc["status"], "active",
        "the game ended too early for the test"
    );
    let legal = all_legal(app, game).await;
    let mut picked = None;
    for (seat, l) in legal.iter().enumerate().filter(|_| claims) {
        if let Some(claim) = listed(l).iter().find(|a| a["type"] == "claim_rent") {
            picked = Some((seat, claim.clone()));
            break;
        }
    }
    if picked.is_none() {
        'seats: for seat in doc["active_seats"].as_array().unwrap() {
            let seat = seat.as_u64().unwrap() as usize;
            for kind in [
                "pay_debt",
                "declare_bankruptcy",
                "settle_inheritance",
                "buy_property",
                "decline_property",
                "pay_card_fine",
                "roll",
                "end_turn",
                "pass_auction",
                "declare_demand",
            ] {
                if let Some(a) = listed(&legal[seat]).iter().find(|a| a["type"] == kind) {
                    picked = Some((seat, a.clone()));
                    break 'seats;
                }
            }
        }
    }
    // The race tests' timing steers the game anywhere: a state none of the kinds above covers
    // (a seat at a buy step it cannot afford, where only declining is listed) gets any listed
    // action of a seat the game waits for, a rent claim only when claims are wanted.
    if picked.is_none() {
        picked = doc["active_seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|seat| seat.as_u64().unwrap() as usize)
            .find_map(|seat| {
                let any = listed(&legal[seat])
                    .iter()
                    .find(|a| claims || a["type"] != "claim_rent")?
                    .clone();
                Some((seat, any))
            });
    }
    let (seat, action) = picked.unwrap_or_else(|| panic!("nothing to do: {doc}"));
    let (status, body) = app.act(game, seat, &json!({ "action": action })).await;
    assert_eq!(status, StatusCode::OK, "{action} by seat {seat}: {body}");
}

/// Submits `action` as `seat` and checks the refusal: 422 problem+json with `code`, a detail
/// naming the rule, and the game untouched. Records the code in `covered`.
async fn refused(
    app: &TestApp,
    game: &Game,
    covered: &mut BTreeSet<&'static str>,
    (seat, action, code): (usize, Value, &'static str),
) {
    let before = app.document(game, None).await;
    let res = app
        .req(
            Method::POST,
            &format!("/v1/games/{}/actions", game.id),
            Some(&game.tokens[seat]),
        )
        .json(&json!({ "action": action }))
        .send()
        .await
        .unwrap();
    let body = helpers::assert_problem(res, StatusCode::UNPROCESSABLE_ENTITY, code).await;
    assert!(
        body["detail"].as_str().unwrap().contains("(MO-"),
        "the detail names the rule: {body}"
    );
    let after = app.document(game, None).await;
    assert_eq!(
        before["version"], after["version"],
        "{action} changed the game"
    );
    assert_eq!(before["view"], after["view"], "{action} changed the game");
    covered.insert(code);
}

/// MO-RENT-2, MO-D-2: a rent claim racing the next player's first roll, both sent at once for
/// the same version. The version guard lets exactly one through and the other gets 409; if the
/// claim won, the payer paid the amount fixed at landing; if the roll won, the rent lapsed
/// and a late claim is refused, as the seed's claim rule says.
#[tokio::test]
async fn mo_rent_2_a_rent_claim_racing_the_next_roll_has_exactly_one_winner() {
    let app = spawn_app().await;
    let mut races = 0;
    for seed in 0..6 {
        let game = create(&app, 3, seed, json!({ "round_limit": 30 })).await;
        for _ in 0..400 {
            let doc = app.document(&game, None).await;
            if doc["status"] != "active" || races >= 3 {
                break;
            }
            let view = &doc["view"];
            let roller = doc["active_seats"]
                .as_array()
                .unwrap()
                .first()
                .and_then(Value::as_u64);
            let rent = view["rents"].as_array().unwrap().iter().find(|r| {
                Some(r["payer"].as_u64().unwrap()) != roller
                    && Some(r["owner"].as_u64().unwrap()) != roller
            });
            let roll_listed = match roller {
                Some(seat) => listed(&app.legal(&game, seat as usize).await)
                    .iter()
                    .any(|a| a["type"] == "roll"),
                None => false,
            };
            let (Some(rent), Some(roller), true) = (rent.cloned(), roller, roll_listed) else {
                advance_claiming(&app, &game, false).await;
                continue;
            };
            let (owner, payer) = (
                rent["owner"].as_u64().unwrap(),
                rent["payer"].as_u64().unwrap(),
            );
            let version = doc["version"].clone();
            let claim = json!({ "action": { "type": "claim_rent", "rent": rent["rent"] },
                                "expected_version": version });
            let roll = json!({ "action": { "type": "roll" }, "expected_version": version });
            let payer_cash = view["players"][payer as usize]["cash"].as_i64().unwrap();
            let ((claimed, _), (rolled, _)) = tokio::join!(
                app.act(&game, owner as usize, &claim),
                app.act(&game, roller as usize, &roll)
            );
            let won: Vec<StatusCode> = [claimed, rolled]
                .into_iter()
                .filter(|s| *s == StatusCode::OK)
                .collect();
            assert_eq!(
                won.len(),
                1,
                "claim {claimed}, roll {rolled}: exactly one wins"
            );
            assert!(
                [claimed, rolled].contains(&StatusCode::CONFLICT),
                "the loser gets 409"
            );
            let after = app.document(&game, None).await;
            let still_pending = after["view"]["rents"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["rent"] == rent["rent"]);
            assert!(!still_pending, "the rent is settled either way");
            if claimed == StatusCode::OK {
                let paid = payer_cash
                    - after["view"]["players"][payer as usize]["cash"]
                        .as_i64()
                        .unwrap();
                let owed = after["view"]["debts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|d| d["debtor"] == payer);
                assert!(
                    paid == rent["amount"].as_i64().unwrap() || owed,
                    "the claim was paid: {after}"
                );
            } else {
                let late = json!({ "action": { "type": "claim_rent", "rent": rent["rent"] } });
                let res = app
                    .req(
                        Method::POST,
                        &format!("/v1/games/{}/actions", game.id),
                        Some(&game.tokens[owner as usize]),
                    )
                    .json(&late)
                    .send()
                    .await
                    .unwrap();
                helpers::assert_problem(
                    res,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "monopoly.no_such_rent",
                )
                .await;
            }
            races += 1;
        }
    }
    assert!(races >= 3, "only {races} races arranged");
}

async fn act_ok(app: &TestApp, game: &Game, seat: usize, action: Value) -> Value {
    let (status, body) = app.act(game, seat, &json!({ "action": action })).await;
    assert_eq!(status, StatusCode::OK, "{action} by seat {seat}: {body}");
    body
}

fn owner_of(view: &Value, square: u64) -> Option<usize> {
    view["deeds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["square"] == square)
        .unwrap()["owner"]
        .as_u64()
        .map(|s| s as usize)
}

/// Refusals at the start: the seat on turn owes a roll, nothing is owned, nothing is open.
async fn refusals_at_the_start(
    app: &TestApp,
    game: &Game,
    t: usize,
    covered: &mut BTreeSet<&'static str>,
) {
    let o = (t + 1) % game.tokens.len();
    let table: Vec<(usize, Value, &str)> = vec![
        (t, json!({"type": "end_turn"}), "monopoly.turn_not_finished"),
        (
            t,
            json!({"type": "buy_property"}),
            "monopoly.no_purchase_offered",
        ),
        (
            t,
            json!({"type": "decline_property"}),
            "monopoly.no_purchase_offered",
        ),
        (
            t,
            json!({"type": "pay_card_fine"}),
            "monopoly.no_card_choice",
        ),
        (t, json!({"type": "draw_card"}), "monopoly.no_card_choice"),
        (t, json!({"type": "pay_jail_fine"}), "monopoly.not_in_jail"),
        (
            t,
            json!({"type": "use_jail_card", "card": "E01"}),
            "monopoly.not_in_jail",
        ),
        (
            o,
            json!({"type": "claim_rent", "rent": 7}),
            "monopoly.no_such_rent",
        ),
        (
            t,
            json!({"type": "build", "squares": []}),
            "monopoly.empty_request",
        ),
        (
            t,
            json!({"type": "build", "squares": [5]}),
            "monopoly.not_a_street",
        ),
        (
            t,
            json!({"type": "build", "squares": [1]}),
            "monopoly.not_owner",
        ),
        (
            t,
            json!({"type": "sell_building", "square": 12}),
            "monopoly.not_a_street",
        ),
        (
            t,
            json!({"type": "sell_building", "square": 1}),
            "monopoly.not_owner",
        ),
        (
            o,
            json!({"type": "mortgage", "square": 1}),
            "monopoly.not_owner",
        ),
        (
            o,
            json!({"type": "lift_mortgage", "square": 1}),
            "monopoly.not_owner",
        ),
        (
            t,
            json!({"type": "offer_trade", "to": t}),
            "monopoly.trade_with_self",
        ),
        (
            t,
            json!({"type": "offer_trade", "to": 7}),
            "monopoly.not_offer_party",
        ),
        (
            t,
            json!({"type": "offer_trade", "to": o, "give_cash": -5}),
            "monopoly.negative_amount",
        ),
        (
            t,
            json!({"type": "offer_trade", "to": o}),
            "monopoly.empty_offer",
        ),
        (
            t,
            json!({"type": "offer_trade", "to": o, "get_cash": 999_999}),
            "monopoly.insufficient_cash",
        ),
        (
            t,
            json!({"type": "offer_trade", "to": o, "give_properties": [1]}),
            "monopoly.bad_trade_item",
        ),
        (
            o,
            json!({"type": "accept_trade", "offer": 42}),
            "monopoly.no_such_offer",
        ),
        (
            o,
            json!({"type": "reject_trade", "offer": 42}),
            "monopoly.no_such_offer",
        ),
        (
            o,
            json!({"type": "withdraw_trade", "offer": 42}),
            "monopoly.no_such_offer",
        ),
        (
            t,
            json!({"type": "bid", "amount": 100}),
            "monopoly.no_auction",
        ),
        (o, json!({"type": "pass_auction"}), "monopoly.no_auction"),
        (
            o,
            json!({"type": "declare_demand", "squares": []}),
            "monopoly.not_declaring",
        ),
        (t, json!({"type": "pay_debt"}), "monopoly.no_debt"),
        (t, json!({"type": "declare_bankruptcy"}), "monopoly.no_debt"),
        (
            o,
            json!({"type": "settle_inheritance"}),
            "monopoly.no_inheritance",
        ),
    ];
    for row in table {
        refused(app, game, covered, row).await;
    }
}

/// The seat on turn landed on an unowned property: it must decide first; it declines, and the
/// auction (MO-BUY-2, MO-AUC-2..5) admits only bids and passes, each in its place.
async fn refusals_around_an_auction(
    app: &TestApp,
    game: &Game,
    t: usize,
    covered: &mut BTreeSet<&'static str>,
) {
    refused(
        app,
        game,
        covered,
        (t, json!({"type": "roll"}), "monopoly.decision_pending"),
    )
    .await;
    refused(
        app,
        game,
        covered,
        (t, json!({"type": "end_turn"}), "monopoly.decision_pending"),
    )
    .await;
    act_ok(app, game, t, json!({"type": "decline_property"})).await;
    let doc = app.document(game, None).await;
    let auction = &doc["view"]["auction"];
    let min = auction["min_bid"].as_i64().unwrap();
    let p1 = (t + 1) % 3;
    let p2 = (t + 2) % 3;
    act_ok(app, game, p1, json!({"type": "bid", "amount": min})).await;
    for row in [
        (
            p1,
            json!({"type": "bid", "amount": min + 5}),
            "monopoly.high_bidder_waits",
        ),
        (
            p2,
            json!({"type": "bid", "amount": min}),
            "monopoly.bid_too_low",
        ),
        (
            p2,
            json!({"type": "bid", "amount": 1_000_000}),
            "monopoly.insufficient_cash",
        ),
        (t, json!({"type": "end_turn"}), "monopoly.auction_running"),
        (
            p2,
            json!({"type": "mortgage", "square": 1}),
            "monopoly.auction_running",
        ),
    ] {
        refused(app, game, covered, row).await;
    }
    act_ok(app, game, p2, json!({"type": "pass_auction"})).await;
    refused(
        app,
        game,
        covered,
        (
            p2,
            json!({"type": "bid", "amount": min + 10}),
            "monopoly.not_bidder",
        ),
    )
    .await;
    while !app.document(game, None).await["view"]["auction"].is_null() {
        advance(app, game).await;
    }
    let doc = app.document(game, None).await;
    let square = doc["view"]["turn"]["step"]["square"].as_u64();
    assert!(square.is_none(), "the purchase is settled");
}

/// A complete street group is brought to one owner by trades (MO-TRADE-4), then built on:
/// building, selling and mortgaging out of order are refused (MO-BUILD, MO-SELL, MO-MORT).
async fn refusals_around_a_group(
    app: &TestApp,
    game: &Game,
    group: &[u64],
    covered: &mut BTreeSet<&'static str>,
) {
    let doc = app.document(game, None).await;
    let x = owner_of(&doc["view"], group[0]).unwrap();
    let n = game.tokens.len();
    if group.iter().any(|&s| owner_of(&doc["view"], s) != Some(x)) {
        let row = (
            x,
            json!({"type": "build", "squares": [group[0]]}),
            "monopoly.group_incomplete",
        );
        refused(app, game, covered, row).await;
    }
    let mut traded = false;
    for &square in &group[1..] {
        let y = owner_of(&app.document(game, None).await["view"], square).unwrap();
        if y == x {
            continue;
        }
        let offer = json!({"type": "offer_trade", "to": y, "get_properties": [square]});
        let body = act_ok(app, game, x, offer.clone()).await;
        let id = body["events"][0]["event"]["offer"]["offer"]
            .as_u64()
            .unwrap();
        if !traded {
            let z = (0..n).find(|&z| z != x && z != y).unwrap();
            for row in [
                (x, offer.clone(), "monopoly.offer_already_open"),
                (
                    z,
                    json!({"type": "accept_trade", "offer": id}),
                    "monopoly.not_offer_party",
                ),
                (
                    x,
                    json!({"type": "accept_trade", "offer": id}),
                    "monopoly.not_offer_party",
                ),
                (
                    y,
                    json!({"type": "withdraw_trade", "offer": id}),
                    "monopoly.not_offer_party",
                ),
                (
                    y,
                    json!({"type": "accept_trade", "offer": id, "lift": [square]}),
                    "monopoly.bad_lift_choice",
                ),
            ] {
                refused(app, game, covered, row).await;
            }
            traded = true;
        }
        let body = act_ok(app, game, y, json!({"type": "accept_trade", "offer": id})).await;
        assert!(body["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"]["type"] == "trade_executed"));
    }
    let view = app.document(game, None).await["view"].clone();
    assert!(group.iter().all(|&s| owner_of(&view, s) == Some(x)));
    let (a, b) = (group[0], group[1]);
    let other = (x + 1) % n;
    for row in [
        (
            x,
            json!({"type": "build", "squares": [a, a]}),
            "monopoly.uneven",
        ),
        (
            x,
            json!({"type": "sell_building", "square": a}),
            "monopoly.no_buildings",
        ),
        (
            x,
            json!({"type": "lift_mortgage", "square": a}),
            "monopoly.not_mortgaged",
        ),
        (
            other,
            json!({"type": "build", "squares": [a]}),
            "monopoly.not_owner",
        ),
    ] {
        refused(app, game, covered, row).await;
    }
    act_ok(app, game, x, json!({"type": "mortgage", "square": a})).await;
    refused(
        app,
        game,
        covered,
        (
            x,
            json!({"type": "mortgage", "square": a}),
            "monopoly.already_mortgaged",
        ),
    )
    .await;
    refused(
        app,
        game,
        covered,
        (
            x,
            json!({"type": "build", "squares": [b]}),
            "monopoly.group_mortgaged",
        ),
    )
    .await;
    act_ok(app, game, x, json!({"type": "lift_mortgage", "square": a})).await;
    // Up to a hotel on every street, level by level.
    let to_hotels: Vec<u64> = (0..5).flat_map(|_| group.iter().copied()).collect();
    act_ok(app, game, x, json!({"type": "build", "squares": to_hotels})).await;
    let view = app.document(game, None).await["view"].clone();
    assert!(view["deeds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| group.contains(&d["square"].as_u64().unwrap()))
        .all(|d| d["hotel"] == true));
    let y = (x + 1) % n;
    for row in [
        (
            x,
            json!({"type": "build", "squares": [a]}),
            "monopoly.street_full",
        ),
        (
            x,
            json!({"type": "mortgage", "square": a}),
            "monopoly.group_has_buildings",
        ),
        (
            x,
            json!({"type": "offer_trade", "to": y, "give_properties": [a]}),
            "monopoly.group_has_buildings",
        ),
    ] {
        refused(app, game, covered, row).await;
    }
    // Selling one hotel leaves the group uneven for a second sale of the same street.
    act_ok(app, game, x, json!({"type": "sell_building", "square": a})).await;
    refused(
        app,
        game,
        covered,
        (
            x,
            json!({"type": "sell_building", "square": a}),
            "monopoly.uneven",
        ),
    )
    .await;
}

/// A group all of whose streets are owned, if any.
fn owned_group(view: &Value) -> Option<&'static [u64]> {
    STREET_GROUPS
        .iter()
        .copied()
        .find(|g| g.iter().all(|&s| owner_of(view, s).is_some()))
}

/// Every kind of illegal action a client can reach by playing: 422, problem+json, the
/// `monopoly.*` code, a detail naming the rule, the game unchanged. The states are reached by
/// real moves of a plain client (start money raised so that nobody runs out of money).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_illegal_action_is_refused_with_its_monopoly_code() {
    let app = spawn_app().await;
    let game = create(&app, 3, 5, json!({ "start_money": 20_000 })).await;
    let mut covered = BTreeSet::new();
    let doc = app.document(&game, None).await;
    let t = doc["view"]["turn"]["seat"].as_u64().unwrap() as usize;
    refusals_at_the_start(&app, &game, t, &mut covered).await;

    let (mut auction, mut done, mut rent, mut jail, mut group) =
        (false, false, false, false, false);
    for _ in 0..3_000 {
        if auction && done && rent && jail && group {
            break;
        }
        let doc = app.document(&game, None).await;
        let view = &doc["view"];
        let turn = &view["turn"];
        let t = turn["seat"].as_u64().unwrap() as usize;
        let step = turn["step"]["step"].as_str().unwrap();
        let me = &view["players"][t];
        let auction_free =
            view["auction"].is_null() && view["rents"].as_array().unwrap().is_empty();
        if !auction && step == "buy" && auction_free {
            refusals_around_an_auction(&app, &game, t, &mut covered).await;
            auction = true;
            continue;
        }
        if !done && step == "done" && auction_free {
            refused(
                &app,
                &game,
                &mut covered,
                (t, json!({"type": "roll"}), "monopoly.roll_not_owed"),
            )
            .await;
            done = true;
        }
        if let Some(r) = view["rents"].as_array().unwrap().first().filter(|_| !rent) {
            let owner = r["owner"].as_u64().unwrap() as usize;
            let other = (owner + 1) % 3;
            refused(
                &app,
                &game,
                &mut covered,
                (
                    other,
                    json!({"type": "claim_rent", "rent": r["rent"]}),
                    "monopoly.not_rent_owner",
                ),
            )
            .await;
            rent = true;
        }
        let jailed_without_card =
            me["in_jail"] == true && me["jail_cards"].as_array().unwrap().is_empty();
        if jailed_without_card && step == "roll" && turn["rolled"] == false && !jail {
            refused(
                &app,
                &game,
                &mut covered,
                (
                    t,
                    json!({"type": "use_jail_card", "card": "E01"}),
                    "monopoly.no_such_card",
                ),
            )
            .await;
            jail = true;
        }
        if !group && view["rents"].as_array().unwrap().is_empty() {
            if let Some(g) = owned_group(view) {
                refusals_around_a_group(&app, &game, g, &mut covered).await;
                group = true;
                continue;
            }
        }
        advance(&app, &game).await;
    }
    assert!(
        auction && done && rent && jail && group,
        "not every situation came up: auction {auction}, done {done}, rent {rent}, jail {jail}, group {group}"
    );
    // Not reached by a plain client's play: a building shortage (reached on purpose by
    // `mo_build_8_…` below), debts and bankruptcy (the engine's tests cover them), and `jail_exit_after_roll`, which no sequence of moves reaches
    // (a failed attempt and being sent to jail both end the turn).
    let unreached = [
        "monopoly.bankrupt",
        "monopoly.shortage_window_open",
        "monopoly.inheritance_pending",
        "monopoly.debt_pending",
        "monopoly.jail_exit_after_roll",
        "monopoly.bank_out_of_buildings",
        "monopoly.shortage_request_mixed",
        "monopoly.wrong_building_kind",
        "monopoly.bankruptcy_not_allowed",
    ];
    let expected: BTreeSet<&str> = engine::monopoly::errors::ALL
        .iter()
        .copied()
        .filter(|c| !unreached.contains(c))
        .collect();
    assert_eq!(covered, expected);
}

// ---- The building shortage (MO-BUILD-8) ----

/// The street groups all of whose streets are owned (by anyone).
fn complete_groups(view: &Value) -> Vec<&'static [u64]> {
    STREET_GROUPS
        .iter()
        .copied()
        .filter(|g| g.iter().all(|&s| owner_of(view, s).is_some()))
        .collect()
}

/// A plan for a shortage among complete groups: one group for seat 1, which builds 3 houses on
/// each of its streets, and groups for seat 0 whose 4 houses per street reach the rest of the
/// bank's 32 houses.
fn shortage_plan(view: &Value) -> Option<(&'static [u64], Vec<&'static [u64]>)> {
    let groups = complete_groups(view);
    groups.iter().find_map(|&mine| {
        let rest: Vec<&'static [u64]> = groups.iter().copied().filter(|g| *g != mine).collect();
        let streets: usize = rest.iter().map(|g| g.len()).sum();
        (4 * streets >= 32 - 3 * mine.len()).then_some((mine, rest))
    })
}

/// Each unit in its place: the street list of `groups`, `levels` times over (even building).
fn level_by_level(groups: &[&[u64]], levels: usize) -> Vec<u64> {
    (0..levels)
        .flat_map(|_| groups.iter().flat_map(|g| g.iter().copied()))
        .collect()
}

/// MO-BUILD-8, MO-D-6, MO-AUC-5: a building shortage through real moves. Two rich players buy
/// what they land on until three groups are complete, trade them into place (MO-TRADE-4),
/// build (seat 1 three houses a street, seat 0 asks for more houses than the bank has left),
/// seat 1 declares its demand in the window, and the units are auctioned one at a time, the
/// winning bid replacing the list price. The log replays to the stored state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mo_build_8_a_building_shortage_is_declared_and_auctioned_through_real_moves() {
    let app = spawn_app().await;
    let game = create(&app, 2, 24, json!({ "start_money": 1_000_000 })).await;
    let mut plan = None;
    for _ in 0..2_000 {
        let view = app.document(&game, None).await["view"].clone();
        if view["auction"].is_null() {
            plan = shortage_plan(&view);
            if plan.is_some() {
                break;
            }
        }
        advance_claiming(&app, &game, false).await;
    }
    let (ones, zeros) = plan.expect("three groups complete within 2000 moves");
    // Seat 0 hands seat 1's group over and takes the others, for M 1.
    let view = app.document(&game, None).await["view"].clone();
    let owned_by = |seat: usize, squares: Vec<u64>| -> Vec<u64> {
        squares
            .into_iter()
            .filter(|&s| owner_of(&view, s) == Some(seat))
            .collect()
    };
    let give = owned_by(0, ones.to_vec());
    let get = owned_by(1, zeros.iter().flat_map(|g| g.iter().copied()).collect());
    let body = act_ok(
        &app,
        &game,
        0,
        json!({"type": "offer_trade", "to": 1, "give_cash": 1,
               "give_properties": give, "get_properties": get}),
    )
    .await;
    let offer = body["events"][0]["event"]["offer"]["offer"].clone();
    act_ok(
        &app,
        &game,
        1,
        json!({"type": "accept_trade", "offer": offer}),
    )
    .await;
    let build = |squares: Vec<u64>| json!({"type": "build", "squares": squares});
    act_ok(&app, &game, 1, build(level_by_level(&[ones], 3))).await;
    let body = act_ok(&app, &game, 0, build(level_by_level(&zeros, 4))).await;
    let opened = &body["events"][0]["event"];
    assert_eq!(opened["type"], "shortage_opened", "{body}");
    assert_eq!(opened["building"], "house");
    assert_eq!(opened["stock"], 32 - 3 * ones.len() as u64);
    assert_eq!(opened["waiting"], json!([1]));
    // The window admits declarations only.
    let (status, problem) = app
        .act(
            &game,
            0,
            &json!({"action": {"type": "mortgage", "square": zeros[0][0]}}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(problem["code"], "monopoly.shortage_window_open");
    let demand = listed(&app.legal(&game, 1).await)
        .iter()
        .find(|a| a["type"] == "declare_demand" && a["squares"] != json!([]))
        .cloned()
        .expect("seat 1 may ask for a house");
    let wanted = demand["squares"][0].clone();
    act_ok(&app, &game, 1, demand).await;

    // One auction per unit: seat 1 outbids seat 0 for the first; seat 0 alone takes the rest.
    let mut events = Vec::new();
    for _ in 0..200 {
        let doc = app.document(&game, None).await;
        let auction = &doc["view"]["auction"];
        if doc["view"]["shortage"].is_null() {
            break;
        }
        let active: Vec<usize> = doc["active_seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as usize)
            .collect();
        let seat = if active.contains(&1) { 1 } else { active[0] };
        let floor = match auction["high"].as_object() {
            Some(high) => high["amount"].as_i64().unwrap() + 1,
            None => auction["min_bid"].as_i64().unwrap(),
        };
        let limit = if seat == 1 { 3 } else { 2 };
        let action = if floor <= limit {
            json!({"type": "bid", "amount": floor})
        } else {
            json!({"type": "pass_auction"})
        };
        let body = act_ok(&app, &game, seat, action).await;
        events.extend(
            body["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["event"].clone()),
        );
    }
    let of_type = |t: &'static str| events.iter().filter(move |e| e["type"] == t);
    let won: Vec<&Value> = of_type("auction_won").collect();
    assert_eq!(
        won.len() as u64,
        32 - 3 * ones.len() as u64,
        "one auction per unit"
    );
    assert!(won
        .iter()
        .all(|w| w["lot"] == json!({"kind": "building", "building": "house"})));
    let bought: Vec<&Value> = of_type("building_bought").collect();
    assert_eq!(bought[0]["seat"], 1);
    assert_eq!(bought[0]["square"], wanted);
    assert_eq!(
        bought[0]["price"], 3,
        "the winning bid replaces the list price"
    );
    assert!(bought[1..]
        .iter()
        .all(|b| b["seat"] == 0 && b["price"] == 1));
    assert_eq!(of_type("shortage_ended").count(), 1);
    let view = app.document(&game, None).await["view"].clone();
    assert_eq!(view["bank_houses"], 0);

    // The stored (unredacted) log folds to the stored state.
    let id: uuid::Uuid = game.id.parse().unwrap();
    let version = app.version(&game).await;
    let raw: Vec<Value> = db::store::events_up_to(&mut app.db.conn(), id, version)
        .unwrap()
        .into_iter()
        .map(|r| r.event)
        .collect();
    assert_eq!(raw.len() as i64, version);
    let replayed = engine::registry::find("monopoly")
        .unwrap()
        .replay(&raw)
        .unwrap();
    assert_eq!(replayed.to_json(), stored_snapshot(&app, &game));
}

// ---- Rules versions (issue 24) ----

/// Creates an open version-1 Monopoly game with config `{}` straight through the store, as the
/// server stored such games before rules version 2, and fills its seats.
async fn version_1_game(app: &TestApp, seed: u64, players: usize) -> Game {
    let id = uuid::Uuid::new_v4();
    db::store::create_game(
        &mut app.db.conn(),
        db::store::NewGame {
            id,
            game_type: "monopoly".into(),
            rules_version: 1,
            config: json!({}),
            rng_seed: db::RngSeed(engine::chance::new_seed(1, Some(seed))),
            seats: vec![db::store::NewSeat::Open; players],
            initial: None,
            bot_game_limit: None,
            clock: None,
            open_ttl: std::time::Duration::from_secs(86_400),
            rated: false,
            chance_version: 1,
            chance_seeded: false,
            entropies: Vec::new(),
            imported_from: None,
        },
    )
    .expect("store a version-1 game");
    let mut tokens = Vec::new();
    for i in 0..players {
        let (status, body) = helpers::json_of(
            app.req(Method::POST, &format!("/v1/games/{id}/seats"), None)
                .json(&json!({ "name": format!("Player {i}") }))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        tokens.push(body["token"].as_str().unwrap().to_string());
    }
    Game {
        id: id.to_string(),
        tokens,
    }
}

/// Plays a plain client until some seat owns a deed and nothing is under the hammer; returns
/// the owner and the square.
async fn play_until_a_deed_is_owned(app: &TestApp, game: &Game) -> (usize, u64) {
    for _ in 0..500 {
        let view = app.document(game, None).await["view"].clone();
        let owned = view["deeds"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|d| Some((d["owner"].as_u64()? as usize, d["square"].as_u64()?)));
        if let (Some(owned), true) = (owned, view["auction"].is_null()) {
            return owned;
        }
        advance_claiming(app, game, false).await;
    }
    panic!("nobody bought a deed in 500 moves");
}

/// The types of the events in an action's response.
fn event_types(body: &Value) -> Vec<String> {
    body["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"]["type"].as_str().unwrap().to_string())
        .collect()
}

/// MO-TRADE-2, MO-TRADE-4, issue 24: a game created under rules version 1 keeps its trade rules
/// after the upgrade, whether it started after it (its stored config `{}` is read as version
/// 1) or its snapshot was written before the version-2 options existed: an empty offer is
/// taken, and an offered deed mortgaged before acceptance changes hands mortgaged, its new
/// owner paying the interest as before. The same moves in a version-2 game: the empty offer
/// is refused and the offer lapses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mo_trade_4_a_version_1_game_keeps_executing_offers_as_accepted() {
    let app = spawn_app().await;
    let v1 = version_1_game(&app, 31, 2).await;
    let doc = app.document(&v1, None).await;
    assert_eq!(
        (doc["status"].as_str(), doc["rules_version"].as_i64()),
        (Some("active"), Some(1))
    );
    assert_eq!(
        stored_snapshot(&app, &v1)["config"]["trade_offers"],
        "as_accepted"
    );
    use diesel::RunQueryDsl;
    diesel::sql_query(
        "UPDATE games SET snapshot = (snapshot::jsonb #- '{config,trade_offers}' \
         #- '{config,inherited_interest}' #- '{config,utility_rent_dice}')::json WHERE id = $1",
    )
    .bind::<diesel::sql_types::Uuid, _>(v1.id.parse::<uuid::Uuid>().unwrap())
    .execute(&mut app.db.conn())
    .unwrap();
    assert!(stored_snapshot(&app, &v1)["config"]
        .get("trade_offers")
        .is_none());

    let v2 = create(&app, 2, 31, json!({})).await;
    assert_eq!(app.document(&v2, None).await["rules_version"], 2);
    for (game, version) in [(&v1, 1), (&v2, 2)] {
        let (x, square) = play_until_a_deed_is_owned(&app, game).await;
        let y = 1 - x;
        let (status, body) = app
            .act(
                game,
                y,
                &json!({"action": {"type": "offer_trade", "to": x}}),
            )
            .await;
        if version == 1 {
            assert_eq!(status, StatusCode::OK, "{body}");
        } else {
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
            assert_eq!(body["code"], "monopoly.empty_offer");
        }
        let body = act_ok(
            &app,
            game,
            x,
            json!({"type": "offer_trade", "to": y, "give_properties": [square], "get_cash": 1}),
        )
        .await;
        let offer = body["events"][0]["event"]["offer"]["offer"].clone();
        let body = act_ok(&app, game, x, json!({"type": "mortgage", "square": square})).await;
        let lapsed = event_types(&body).contains(&"trade_lapsed".to_string());
        assert_eq!(lapsed, version == 2, "{body}");
        let (status, body) = app
            .act(
                game,
                y,
                &json!({"action": {"type": "accept_trade", "offer": offer}}),
            )
            .await;
        if version == 1 {
            assert_eq!(status, StatusCode::OK, "{body}");
            let events = body["events"].as_array().unwrap();
            assert_eq!(events[0]["event"]["type"], "trade_executed");
            let interest = &events[1]["event"];
            assert_eq!(
                (&interest["type"], &interest["from"], &interest["reason"]),
                (&json!("paid"), &json!(y), &json!("interest")),
                "{body}"
            );
            let view = app.document(game, None).await["view"].clone();
            assert_eq!(owner_of(&view, square), Some(y));
        } else {
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
            assert_eq!(body["code"], "monopoly.no_such_offer");
        }
    }
}

// ---- The published codes ----

/// The served OpenAPI document lists every Monopoly code, in order, in `Problem.code` (the list
/// itself is pinned by the engine's `published_codes_are_stable`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_served_openapi_document_publishes_every_monopoly_code() {
    let app = spawn_app().await;
    let (status, doc) = app.get_json("/openapi.json", None).await;
    assert_eq!(status, StatusCode::OK);
    let description = doc["components"]["schemas"]["Problem"]["properties"]["code"]["description"]
        .as_str()
        .unwrap();
    let listed: Vec<String> = engine::monopoly::errors::ALL
        .iter()
        .map(|c| format!("`{c}`"))
        .collect();
    let expected = format!("; monopoly: {}", listed.join(", "));
    assert!(
        description.contains(&expected),
        "Problem.code does not publish the Monopoly codes as pinned: {description}"
    );
}
