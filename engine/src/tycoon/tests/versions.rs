//! Rules versions: version 2 made `tie_break = first_built` the default (TY-MAJ-2, S2); a game
//! created under version 1 keeps `earliest_on_track` however its config reaches the engine: as a
//! creator's JSON started later, or as a stored state or event.

use super::support::*;
use crate::tycoon::{Config, Event, State, TieBreak, Tycoon};
use crate::{Game, GameError};
use serde_json::{json, Value};

fn hosted() -> &'static dyn crate::DynGame {
    crate::registry::find("tycoon").unwrap()
}

#[test]
fn rules_version_2_is_current_and_its_default_is_first_built() {
    let info = hosted().info();
    assert_eq!(info.rules_version, 2);
    assert_eq!(Tycoon::RULES_VERSION, 2);
    assert_eq!(info.default_config["tie_break"], "first_built");
    assert_eq!(Config::default().tie_break, TieBreak::FirstBuilt);
}

#[test]
fn a_creators_config_reads_left_out_options_as_its_rules_version_did() {
    let read = |config: Value, version| Config::read(&config, version).unwrap().tie_break;
    assert_eq!(read(json!({}), 1), TieBreak::EarliestOnTrack);
    assert_eq!(read(json!({}), 2), TieBreak::FirstBuilt);
    assert_eq!(
        read(json!({ "unlimited_loans": true }), 1),
        TieBreak::EarliestOnTrack
    );
    // What a config names, it keeps, in any version.
    assert_eq!(
        read(json!({ "tie_break": "first_built" }), 1),
        TieBreak::FirstBuilt
    );
    assert_eq!(
        read(json!({ "tie_break": "earliest_on_track" }), 2),
        TieBreak::EarliestOnTrack
    );
    for version in [1, 2] {
        assert!(Config::read(&json!({ "tie_breaker": "first_built" }), version).is_err());
        assert!(Config::read(&json!([]), version).is_err());
    }
    // serde alone would read an array as the fields in order.
    assert!(matches!(
        hosted().setup(&json!(["up_to", true, "first_built"]), 2, &mut rng(1)),
        Err(GameError::InvalidConfig(_))
    ));
}

#[test]
fn an_open_version_1_game_started_now_is_set_up_under_version_1() {
    let tie_break = |state: &dyn crate::DynState| state.to_json()["config"]["tie_break"].clone();
    let (v1, events) = hosted().setup_as(1, &json!({}), 3, &mut rng(1)).unwrap();
    assert_eq!(tie_break(v1.as_ref()), "earliest_on_track");
    assert_eq!(events[0]["config"]["tie_break"], "earliest_on_track");
    let (v2, _) = hosted().setup_as(2, &json!({}), 3, &mut rng(1)).unwrap();
    assert_eq!(tie_break(v2.as_ref()), "first_built");
    let (current, _) = hosted().setup(&json!({}), 3, &mut rng(1)).unwrap();
    assert_eq!(tie_break(current.as_ref()), "first_built");
    for unknown in [0, 3] {
        assert!(matches!(
            hosted().setup_as(unknown, &json!({}), 3, &mut rng(1)),
            Err(GameError::Corrupt(_))
        ));
    }
}

/// Removes `tie_break` from the config object at `pointer`, as JSON stored before the option
/// existed (rules version 1) reads.
fn without_tie_break(mut json: Value, pointer: &str) -> Value {
    let config = json.pointer_mut(pointer).unwrap().as_object_mut().unwrap();
    assert!(config.remove("tie_break").is_some());
    json
}

#[test]
fn a_stored_state_or_event_without_tie_break_reads_as_version_1() {
    let state = new_game(3);
    assert_eq!(state.config.tie_break, TieBreak::FirstBuilt);
    let stored = without_tie_break(serde_json::to_value(&state).unwrap(), "/config");
    let old: State = serde_json::from_value(stored.clone()).unwrap();
    assert_eq!(old.config.tie_break, TieBreak::EarliestOnTrack);
    let loaded = hosted().load(&stored.to_string()).unwrap();
    assert_eq!(loaded.to_json()["config"]["tie_break"], "earliest_on_track");

    let log = Tycoon::setup(&Config::default(), 3, &mut rng(1)).unwrap();
    let mut stored: Vec<Value> = log
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    stored[0] = without_tie_break(stored[0].clone(), "/config");
    let Event::GameStarted { config, .. } = serde_json::from_value(stored[0].clone()).unwrap()
    else {
        panic!("the log starts with game_started")
    };
    assert_eq!(config.tie_break, TieBreak::EarliestOnTrack);
    let replayed = hosted().replay(&stored).unwrap();
    assert_eq!(
        replayed.to_json()["config"]["tie_break"],
        "earliest_on_track"
    );
}

#[test]
fn stored_configs_that_name_every_option_read_exactly_as_written() {
    for tie_break in [TieBreak::FirstBuilt, TieBreak::EarliestOnTrack] {
        let mut state = new_game(2);
        state.config.tie_break = tie_break;
        let json = serde_json::to_string(&state).unwrap();
        assert_eq!(serde_json::from_str::<State>(&json).unwrap(), state);
    }
}
