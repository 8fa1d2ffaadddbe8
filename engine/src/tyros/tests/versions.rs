//! Rules versions: version 2 made a bank search that finds nothing cost its cards
//! (`failed_pile_search = discard`, the amended TR-ACT-D (2)). A game created under version 1
//! keeps its rules however its config reaches the engine: as a creator's JSON started later, or
//! as a stored state or event.

use super::support::*;
use crate::tyros::cards::{Card, Empire::Violet};
use crate::tyros::event::Event;
use crate::tyros::state::Phase;
use crate::tyros::{errors as e, Action, Config, FailedPileSearch, State, Tyros};
use crate::{Game, Seat};
use serde_json::{json, Value};

fn hosted() -> &'static dyn crate::DynGame {
    crate::registry::find("tyros").unwrap()
}

#[test]
fn rules_version_2_is_current_and_a_failed_search_discards() {
    assert_eq!(Tyros::RULES_VERSION, 2);
    assert_eq!(hosted().info().rules_version, 2);
    assert_eq!(
        hosted().info().default_config["failed_pile_search"],
        "discard"
    );
    assert_eq!(
        Config::default().failed_pile_search,
        FailedPileSearch::Discard
    );
}

#[test]
fn a_creators_config_reads_left_out_options_as_its_rules_version_did() {
    let read = |config: Value, version| Config::read(&config, version).unwrap();
    assert_eq!(
        read(json!({}), 1).failed_pile_search,
        FailedPileSearch::KeepCards
    );
    assert_eq!(read(json!({}), 2), Config::default());
    assert_eq!(
        read(json!({ "pirates": true }), 1).failed_pile_search,
        FailedPileSearch::KeepCards
    );
    assert_eq!(
        read(json!({ "failed_pile_search": "discard" }), 1).failed_pile_search,
        FailedPileSearch::Discard
    );
    assert!(Config::read(&json!({ "failed_pile_search": "maybe" }), 2).is_err());
    let config = |state: &dyn crate::DynState| state.to_json()["config"].clone();
    let (v1, events) = hosted().setup_as(1, &json!({}), 3, &mut rng(1)).unwrap();
    assert_eq!(config(v1.as_ref())["failed_pile_search"], "keep_cards");
    assert_eq!(events[0]["config"]["failed_pile_search"], "keep_cards");
    let (v2, _) = hosted().setup_as(2, &json!({}), 3, &mut rng(1)).unwrap();
    assert_eq!(config(v2.as_ref())["failed_pile_search"], "discard");
}

/// Removes `failed_pile_search` from the config object at `pointer`, as JSON stored before the
/// option existed (rules version 1) reads.
fn without_the_option(mut json: Value, pointer: &str) -> Value {
    let config = json.pointer_mut(pointer).unwrap().as_object_mut().unwrap();
    assert!(config.remove("failed_pile_search").is_some());
    json
}

#[test]
fn a_stored_state_or_event_without_the_option_reads_as_version_1() {
    let state = new_game(3, Config::default(), 1);
    let stored = without_the_option(serde_json::to_value(&state).unwrap(), "/config");
    let old: State = serde_json::from_value(stored.clone()).unwrap();
    assert_eq!(old.config, Config::defaults(1));
    let loaded = hosted().load(&stored.to_string()).unwrap();
    assert_eq!(
        loaded.to_json()["config"]["failed_pile_search"],
        "keep_cards"
    );

    let log = Tyros::setup(&Config::default(), 3, &mut rng(1)).unwrap();
    let mut stored: Vec<Value> = log
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    stored[0] = without_the_option(stored[0].clone(), "/config");
    let replayed = hosted().replay(&stored).unwrap();
    assert_eq!(
        replayed.to_json()["config"]["failed_pile_search"],
        "keep_cards"
    );
    // What a stored config names, it keeps.
    for choice in [FailedPileSearch::Discard, FailedPileSearch::KeepCards] {
        let mut state = new_game(3, Config::default(), 1);
        state.config.failed_pile_search = choice;
        let json = serde_json::to_string(&state).unwrap();
        assert_eq!(serde_json::from_str::<State>(&json).unwrap(), state);
    }
}

fn search_for_violet() -> Action {
    Action::BankPick {
        colour: Violet,
        cards: cards(json!({"orange": 3})),
    }
}

/// TR-ACT-D (2) as rules version 1 played it (`failed_pile_search = keep_cards`): a search
/// that finds nothing exchanges nothing, the pile keeps its order, and the turn is spent.
#[test]
fn tr_act_d_version_1_a_failed_search_keeps_the_cards() {
    let mut s = table(4, Config::defaults(1));
    hand(&mut s, W, json!({"orange": 3}));
    s.draw_pile.retain(|c| *c != Card::Violet);
    let pile = s.draw_pile.clone();
    let events = accepted(&mut s, W, search_for_violet());
    assert!(events.contains(&Event::PileSearchFailed {
        seat: Seat(W),
        colour: Violet
    }));
    assert!(!events.iter().any(|e| matches!(
        e,
        Event::CardsDiscarded { .. } | Event::DrawPileShuffled { .. }
    )));
    assert_eq!(held(&s, W), cards(json!({"orange": 3})));
    assert_eq!(s.draw_pile, pile);
    assert_eq!(s.turn().map(|t| t.seat), Some(Seat(R)));
}

/// TR-ACT-D (2) amended, the referees' stall (3 seats, the reproduction's config): while the
/// others pass, a seat that repeats a search that finds nothing pays 3 cards each time, so it
/// runs out of searches and the action phase ends. Under version 1 the same seat searches for
/// ever.
#[test]
fn tr_act_d_2_a_repeated_failed_search_cannot_hold_the_round() {
    let reproduction = json!({
        "jokers_wild": false, "tyros_shipyard": "never", "score_city": [12, 9, 6, 3],
        "score_ship": [6, 4, 3, 1], "bonus_city_in_all_empires": 8,
        "trade_card_split": {"orange": 13, "yellow": 13, "green": 13, "violet": 13, "joker": 8}
    });
    for (version, ends) in [(2, true), (1, false)] {
        let mut s = table(3, Config::read(&reproduction, version).unwrap());
        hand(&mut s, W, json!({"orange": 9}));
        s.draw_pile.retain(|c| *c != Card::Violet);
        let mut searches = 0;
        for _ in 0..60 {
            if !matches!(s.phase, Phase::Actions { .. }) || s.round != 2 {
                break;
            }
            let seat = s.turn().expect("an action-phase turn").seat;
            if seat == Seat(W) && act(&mut s, W, search_for_violet()).is_ok() {
                searches += 1;
            } else {
                pass(&mut s, seat.0);
            }
        }
        let ended = !matches!(s.phase, Phase::Actions { .. }) || s.round != 2;
        assert_eq!(ended, ends, "rules version {version}");
        if ends {
            assert_eq!(searches, 3, "9 cards pay for 3 searches");
        } else {
            assert!(searches > 15, "version 1 searched {searches} times");
        }
    }
    // The fourth search is refused: the cards are spent.
    let mut s = table(3, Config::default());
    hand(&mut s, W, json!({"orange": 2}));
    s.draw_pile.retain(|c| *c != Card::Violet);
    refused(&mut s, W, search_for_violet(), e::CARDS_NOT_IN_HAND);
}

/// A game recorded by the rules-version-1 engine before version 2 existed
/// (`fixtures/version-1-seed-3.json`: 3 seats, seed 3, the uniformly random driver, two failed
/// searches among its 229 actions; the config stored without `failed_pile_search`). Today's
/// engine, set up as version 1 with the same seed, answers every recorded action with exactly
/// the recorded events and ends in the recorded state: old games replay as they did.
#[test]
fn a_game_recorded_under_version_1_replays_exactly() {
    let fixture: Value =
        serde_json::from_str(include_str!("fixtures/version-1-seed-3.json")).unwrap();
    let recorded_setup: Vec<Event> = serde_json::from_value(fixture["setup"].clone()).unwrap();
    assert!(fixture["setup"][0]["config"]
        .get("failed_pile_search")
        .is_none());
    let mut rng = rng(fixture["seed"].as_u64().unwrap());
    let setup = Tyros::setup(&Config::defaults(1), 3, &mut rng).unwrap();
    assert_eq!(setup, recorded_setup);
    let mut state = Tyros::replay(&setup);
    let mut failed_searches = 0;
    for (i, step) in fixture["steps"].as_array().unwrap().iter().enumerate() {
        let seat: Seat = serde_json::from_value(step["seat"].clone()).unwrap();
        let action: Action = serde_json::from_value(step["action"].clone()).unwrap();
        let recorded: Vec<Event> = serde_json::from_value(step["events"].clone()).unwrap();
        let events = Tyros::decide(&state, seat, &action, &mut rng).unwrap();
        assert_eq!(events, recorded, "action {i}: {action:?}");
        failed_searches += events
            .iter()
            .filter(|e| matches!(e, Event::PileSearchFailed { .. }))
            .count();
        for event in &events {
            Tyros::evolve(&mut state, event);
        }
    }
    assert_eq!(failed_searches, 2);
    let recorded_end: State = serde_json::from_value(fixture["final_state"].clone()).unwrap();
    assert_eq!(state, recorded_end);
    assert!(Tyros::outcome(&state).is_some());
}
