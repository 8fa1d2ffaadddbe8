//! Tyros through the service: whole games by clients that only use `legal-actions` (base rules,
//! and every variant on, for 3 and 4 players), checked against the engine's replay of the log;
//! and the secrets (tile and card hands, pile orders, face-down fight cards, sealed keeps) in
//! every seat's and a spectator's document, events and `states/{seq}` while a game is played.

use std::collections::BTreeMap;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{
    assert_replay_matches_the_store, assert_states_as_seen, spawn_app, stored_snapshot, Game,
    TestApp,
};

/// Every variant of the seed on: the three big ones (with their combination rules), both parts
/// of Kleinvariante 1 and Kleinvariante 2's bonus.
fn all_variants() -> Value {
    json!({
        "pirates": true,
        "action_cards": true,
        "galleys": true,
        "bank_trade_once_per_round": true,
        "player_trade_free": true,
        "bonus_city_in_all_empires": 9,
    })
}

/// How a random client weighs a listed action, given the view and its seat.
type Liking = fn(&Value, u64, &Value) -> u32;

/// A client that builds galleys and sails them onto rival galleys, so that galley fights (with
/// their face-down cards, TR-GAL-5) happen in the leak test.
fn warlike(view: &Value, seat: u64, action: &Value) -> u32 {
    let ships = view["ships"].as_array().unwrap();
    match action["type"].as_str().unwrap() {
        "build_ship" if action["galley"] == true => 50,
        "move" => {
            let galley = ships[action["ship"].as_u64().unwrap() as usize]["galley"] == true;
            let rival_galley_there = ships
                .iter()
                .any(|s| s["at"] == action["to"] && s["owner"] != seat && s["galley"] == true);
            if galley && rival_galley_there {
                1_000
            } else {
                2
            }
        }
        _ => 1,
    }
}

/// One random move by a seat the game waits for (seeded `rng`), given the game's current
/// spectator document `doc`: a listed action or a filled template, weighted by `liking` if
/// given (templates weigh 1 each), else chosen by [`tests::choose`]. Returns `false` once the
/// game is over.
async fn play_one(
    app: &TestApp,
    game: &Game,
    doc: &Value,
    rng: &mut ChaCha8Rng,
    liking: Option<Liking>,
) -> bool {
    if doc["status"] == "finished" {
        return false;
    }
    let active = doc["active_seats"].as_array().unwrap();
    assert!(
        !active.is_empty(),
        "an active game waits for someone: {doc}"
    );
    let seat = active[rng.random_range(0..active.len())].as_u64().unwrap() as usize;
    let legal = app.legal(game, seat).await;
    let actions = legal["actions"].as_array().unwrap();
    let templates = legal["templates"].as_array().unwrap();
    assert!(
        !actions.is_empty() || !templates.is_empty(),
        "active seat {seat} has no legal action: {doc}"
    );
    let action = match liking {
        None => tests::choose(rng, actions, templates),
        Some(liking) => choose_liking(rng, &doc["view"], seat as u64, actions, templates, liking),
    };
    let (status, body) = app
        .act(
            game,
            seat,
            &json!({ "action": action, "expected_version": legal["version"] }),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{action} by seat {seat} refused: {body}"
    );
    true
}

/// A seeded choice among `actions` weighted by `liking` and `templates` (1 each, filled at
/// random).
fn choose_liking(
    rng: &mut ChaCha8Rng,
    view: &Value,
    seat: u64,
    actions: &[Value],
    templates: &[Value],
    liking: Liking,
) -> Value {
    let weights: Vec<u32> = actions
        .iter()
        .map(|a| liking(view, seat, a))
        .chain(templates.iter().map(|_| 1))
        .collect();
    let mut roll = rng.random_range(0..weights.iter().sum::<u32>());
    let pick = weights
        .iter()
        .position(|&w| {
            let here = roll < w;
            roll = roll.saturating_sub(w);
            here
        })
        .unwrap();
    if pick < actions.len() {
        actions[pick].clone()
    } else {
        let template: engine::ActionTemplate =
            serde_json::from_value(templates[pick - actions.len()].clone())
                .expect("the API sends ActionTemplate objects");
        template.instantiate(rng)
    }
}

/// Plays a whole game and checks it against the engine: the log (unredacted once over) folds
/// to the stored snapshot and the same outcome, and `states/{seq}` gives back what was seen.
async fn play_and_check(players: usize, seed: u64, config: Value) {
    let app = spawn_app().await;
    let game = app.create_game_of("tyros", players, seed, config).await;
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(seed);
    let mut seen = BTreeMap::new();
    let mut moves = 0;
    loop {
        let doc = app.document(&game, None).await;
        seen.insert(doc["version"].as_i64().unwrap(), doc["view"].clone());
        if !play_one(&app, &game, &doc, &mut rng, None).await {
            break;
        }
        moves += 1;
        assert!(moves < 5_000, "the game did not end within 5000 moves");
    }
    let raw = assert_replay_matches_the_store(&app, &game, "tyros").await;
    // Once over, the piles' orders are in the log.
    assert!(raw
        .iter()
        .any(|e| e["type"] == "tile_pile_shuffled" && e["order"].is_array()));
    assert_states_as_seen(&app, &game, &seen, 11).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_player_base_game_played_over_http_ends_as_the_engine_replay_says() {
    play_and_check(3, 3, json!({})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_player_base_game_played_over_http_ends_as_the_engine_replay_says() {
    play_and_check(4, 4, json!({})).await;
}

/// TR-PIR, TR-AK, TR-GAL, TR-COMB, TR-K1, TR-K2: every variant on at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_player_game_with_every_variant_ends_as_the_engine_replay_says() {
    play_and_check(3, 13, all_variants()).await;
}

/// TR-PIR, TR-AK, TR-GAL, TR-COMB, TR-K1, TR-K2: every variant on at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_player_game_with_every_variant_ends_as_the_engine_replay_says() {
    play_and_check(4, 14, all_variants()).await;
}

// ---- Secrets ----

/// The fields of a logged event that only `seat` (the event's own) may see before the end;
/// pile orders are nobody's.
fn secret_fields(event: &Value) -> (&'static [&'static str], Option<u64>) {
    let seat = event["seat"].as_u64();
    match event["type"].as_str().unwrap() {
        "tile_pile_shuffled" | "draw_pile_shuffled" | "draw_pile_rebuilt" => (&["order"], None),
        "tiles_dealt" => (&["tiles"], seat),
        "tile_drawn" => (&["tile"], seat),
        "tiles_swapped" => (&["returned", "drawn"], seat),
        "cards_drawn" | "fight_cards_laid" | "keep_chosen" => (&["cards"], seat),
        _ => (&[], None),
    }
}

/// What the checks saw: how many secrets were hidden from someone (the test fails if none, as
/// it would then prove nothing).
#[derive(Debug, Default)]
struct Hidden {
    event_fields: usize,
    hands: usize,
    fight_cards: usize,
}

/// A viewer's copy of the log against the stored one: each event is the stored event with at
/// most its secret fields nulled, and nulled exactly when the viewer may not see them.
fn check_events(viewer: Option<u64>, seen: &[Value], stored: &[Value], hidden: &mut Hidden) {
    assert_eq!(
        seen.len(),
        stored.len(),
        "viewer {viewer:?} sees every event"
    );
    for (got, raw) in seen.iter().zip(stored) {
        let (fields, owner) = secret_fields(raw);
        let may_see = owner.is_some() && owner == viewer;
        let (mut expected, mut shown) = (raw.clone(), got.clone());
        for field in fields.iter().filter(|_| !may_see) {
            // Hidden: absent or null.
            assert!(
                got[field].is_null(),
                "viewer {viewer:?} sees {field} of {raw}"
            );
            if !raw[field].is_null() {
                hidden.event_fields += 1;
            }
            expected.as_object_mut().unwrap().remove(*field);
            shown.as_object_mut().unwrap().remove(*field);
        }
        assert_eq!(
            shown, expected,
            "viewer {viewer:?}: event {raw} shown as {got}"
        );
    }
}

/// A viewer's view: other hands (tiles, cards, sealed keeps) are counts only; face-down fight
/// cards are the layer's own until both are laid.
fn check_view(viewer: Option<u64>, view: &Value, hidden: &mut Hidden, what: &str) {
    for p in view["players"].as_array().unwrap() {
        let seat = p["seat"].as_u64();
        if seat == viewer {
            assert!(
                p["tiles"].is_array() && p["cards"].is_object(),
                "{what}: own hand missing"
            );
            continue;
        }
        for field in ["tiles", "cards", "kept"] {
            assert!(
                p[field].is_null(),
                "{what}: viewer {viewer:?} sees seat {seat:?}'s {field}"
            );
        }
        if p["tiles_in_hand"].as_u64() > Some(0) || p["cards_in_hand"].as_u64() > Some(0) {
            hidden.hands += 1;
        }
    }
    let fight = &view["fight"];
    if fight.is_object() && fight["revealed"] == false {
        let ships = view["ships"].as_array().unwrap();
        for side in ["attacker", "defender"] {
            let owner = ships[fight[side].as_u64().unwrap() as usize]["owner"].as_u64();
            let cards = &fight[format!("{side}_cards")];
            if owner != viewer {
                assert!(
                    cards.is_null(),
                    "{what}: viewer {viewer:?} sees the {side}'s cards"
                );
                if !fight[format!("{side}_laid")].is_null() {
                    hidden.fight_cards += 1;
                }
            }
        }
    }
    for pile in ["tile_pile", "draw_pile"] {
        assert!(view[pile].is_u64(), "{what}: the {pile} is a count");
    }
}

/// Everything each viewer can read now, checked: the document, the paged and streamed log,
/// `states/{seq}` now and earlier.
async fn check_all_viewers(app: &TestApp, game: &Game, hidden: &mut Hidden) {
    let id: uuid::Uuid = game.id.parse().unwrap();
    let version = app.version(game).await;
    let stored: Vec<Value> = db::store::events_up_to(&mut app.db.conn(), id, version)
        .unwrap()
        .into_iter()
        .map(|r| r.event)
        .collect();
    let mut viewers: Vec<(Option<u64>, Option<&str>)> = vec![(None, None)];
    viewers.extend(
        game.tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (Some(i as u64), Some(t.as_str()))),
    );
    for (viewer, token) in viewers {
        let (_, doc) = app.get_json(&format!("/v1/games/{}", game.id), token).await;
        check_view(viewer, &doc["view"], hidden, "document");
        let events: Vec<Value> = app
            .all_events(game, token)
            .await
            .into_iter()
            .map(|e| e["event"].clone())
            .collect();
        check_events(viewer, &events[..stored.len()], &stored, hidden);
        let ndjson = app
            .req(Method::GET, &format!("/v1/games/{}/events", game.id), token)
            .header("accept", "application/x-ndjson")
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let streamed: Vec<Value> = ndjson
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["event"].clone())
            .collect();
        check_events(viewer, &streamed[..stored.len()], &stored, hidden);
        for seq in [version, version / 2] {
            let (status, state) = app
                .get_json(
                    &format!("/v1/games/{}/states/{}", game.id, seq.max(1)),
                    token,
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{state}");
            if !state["view"]["players"].is_null() {
                check_view(viewer, &state["view"], hidden, &format!("states/{seq}"));
            }
        }
    }
}

/// A tile the placing seat does not hold is refused with the same words whether it lies in
/// another hand or in the pile (the refusal names only the asked tile). Returns how many
/// seats were compared.
async fn check_tile_refusals(app: &TestApp, game: &Game, active: &[Value]) -> usize {
    let snapshot = stored_snapshot(app, game);
    let Some(pile_tile) = snapshot["tile_pile"].as_array().unwrap().first().cloned() else {
        return 0;
    };
    let players = snapshot["players"].as_array().unwrap();
    let mut compared = 0;
    for seat in active.iter().map(|s| s.as_u64().unwrap() as usize) {
        let Some(held_elsewhere) = players
            .iter()
            .enumerate()
            .filter(|(other, _)| *other != seat)
            .find_map(|(_, p)| p["tiles"].as_array().unwrap().first().cloned())
        else {
            continue;
        };
        let mut answers = Vec::new();
        for tile in [&held_elsewhere, &pile_tile] {
            let (status, body) = app
                .act(
                    game,
                    seat,
                    &json!({ "action": { "type": "place_tile", "tile": tile } }),
                )
                .await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
            assert_eq!(body["code"], "tyros.tile_not_in_hand", "{body}");
            let text = body.to_string().replace(&format!("tile {tile}"), "tile T");
            answers.push(text);
        }
        assert_eq!(
            answers[0], answers[1],
            "seat {seat} can tell a tile in another hand from one in the pile"
        );
        compared += 1;
    }
    compared
}

/// The seed of the leak test's game: one in which a galley fight happens.
const LEAK_SEED: u64 = 24;

/// TR-D-20, TR-SETUP-3, TR-SETUP-4, TR-GAL-5, TR-EOR-1: while a game with every variant is
/// played, no seat or spectator sees another hand, a pile order, a face-down fight card or a
/// sealed keep before it is revealed: in documents, the paged and streamed log and
/// `states/{seq}`; and refusals do not tell where a tile lies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_viewer_sees_another_hand_a_pile_order_or_a_face_down_fight_card() {
    let app = spawn_app().await;
    let game = app
        .create_game_of("tyros", 4, LEAK_SEED, all_variants())
        .await;
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(LEAK_SEED);
    let mut hidden = Hidden::default();
    check_all_viewers(&app, &game, &mut hidden).await;
    let mut tile_refusals = 0;
    let mut last_moment = Value::Null;
    let mut sealed_checks = 0;
    let mut moves = 0;
    let mut finished = false;
    while !finished {
        // Check often around the moments secrets change hands, and now and then otherwise.
        let doc = app.document(&game, None).await;
        let fight = &doc["view"]["fight"];
        let sealed = fight.is_object() && fight["revealed"] == false;
        let keeping = doc["view"]["players"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["keep_chosen"] == true);
        // The first few sealed moments (a fight card laid, a keep chosen), and every 150 moves.
        let moment = json!([sealed.then(|| fight.clone()), keeping]);
        if ((sealed || keeping) && moment != last_moment && sealed_checks < 6) || moves % 150 == 0 {
            sealed_checks += usize::from(sealed || keeping);
            check_all_viewers(&app, &game, &mut hidden).await;
        }
        last_moment = moment;
        if doc["view"]["phase"]["phase"] == "expansion" && tile_refusals < 20 {
            let active = doc["active_seats"].as_array().unwrap();
            tile_refusals += check_tile_refusals(&app, &game, active).await;
        }
        finished = !play_one(&app, &game, &doc, &mut rng, Some(warlike)).await;
        moves += 1;
        assert!(moves < 5_000, "the game did not end within 5000 moves");
    }
    assert!(tile_refusals > 0, "no tile refusal was compared");
    assert!(
        hidden.event_fields > 0 && hidden.hands > 0 && hidden.fight_cards > 0,
        "the game hid nothing, so the test proved nothing: {hidden:?}"
    );
    // Once over, everything is shown: the same checks would now fail.
    let (_, doc) = app.get_json(&format!("/v1/games/{}", game.id), None).await;
    assert!(doc["view"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["tiles"].is_array()));
    eprintln!("tyros secrets checked: {hidden:?}");
}
