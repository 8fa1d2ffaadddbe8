//! Rules versions: version 2 made `trade_offers = as_made` (MO-TRADE-2, MO-TRADE-4) and
//! `inherited_interest = per_deed` (MO-BANKR-2) the defaults and added `utility_rent_dice`
//! (MO-RENT-7, default `roll` in every version). A game created under version 1 keeps its
//! rules however its config reaches the engine: as a creator's JSON started later, or as a
//! stored state or event.

use super::support::*;
use crate::monopoly::{
    Action, Config, Event, InheritedInterest, Monopoly, PaymentReason, State, TradeOffers,
    UtilityRentDice,
};
use crate::{Game, GameError, Seat};
use serde_json::{json, Value};

fn hosted() -> &'static dyn crate::DynGame {
    crate::registry::find("monopoly").unwrap()
}

/// The options version 2 added, as version 1 played them.
const VERSION_2_OPTIONS: [(&str, &str); 3] = [
    ("trade_offers", "as_accepted"),
    ("inherited_interest", "in_total"),
    ("utility_rent_dice", "roll"),
];

#[test]
fn rules_version_2_is_current_and_its_defaults_are_as_made_and_per_deed() {
    let info = hosted().info();
    assert_eq!(info.rules_version, 2);
    assert_eq!(Monopoly::RULES_VERSION, 2);
    assert_eq!(info.default_config["trade_offers"], "as_made");
    assert_eq!(info.default_config["inherited_interest"], "per_deed");
    assert_eq!(info.default_config["utility_rent_dice"], "roll");
    let current = Config::default();
    assert_eq!(
        (
            current.trade_offers,
            current.inherited_interest,
            current.utility_rent_dice
        ),
        (
            TradeOffers::AsMade,
            InheritedInterest::PerDeed,
            UtilityRentDice::Roll
        )
    );
}

#[test]
fn a_creators_config_reads_left_out_options_as_its_rules_version_did() {
    let read = |config: Value, version| Config::read(&config, version).unwrap();
    let v1 = read(json!({}), 1);
    assert_eq!(
        (v1.trade_offers, v1.inherited_interest, v1.utility_rent_dice),
        (
            TradeOffers::AsAccepted,
            InheritedInterest::InTotal,
            UtilityRentDice::Roll
        )
    );
    assert_eq!(read(json!({}), 2), Config::default());
    assert_eq!(
        read(json!({ "start_money": 300 }), 1).trade_offers,
        TradeOffers::AsAccepted
    );
    // What a config names, it keeps, in any version.
    assert_eq!(
        read(json!({ "trade_offers": "as_made" }), 1).trade_offers,
        TradeOffers::AsMade
    );
    assert_eq!(
        read(json!({ "inherited_interest": "in_total" }), 2).inherited_interest,
        InheritedInterest::InTotal
    );
    assert_eq!(
        read(json!({ "utility_rent_dice": "move" }), 1).utility_rent_dice,
        UtilityRentDice::Move
    );
    for version in [1, 2] {
        assert!(Config::read(&json!({ "trade_offer": "as_made" }), version).is_err());
        assert!(Config::read(&json!([]), version).is_err());
    }
    assert!(matches!(
        hosted().setup(&json!([3, 1500]), 3, &mut rng(1)),
        Err(GameError::InvalidConfig(_))
    ));
}

#[test]
fn an_open_version_1_game_started_now_is_set_up_under_version_1() {
    let config = |state: &dyn crate::DynState| state.to_json()["config"].clone();
    let (v1, events) = hosted().setup_as(1, &json!({}), 3, &mut rng(1)).unwrap();
    for (option, value) in VERSION_2_OPTIONS {
        assert_eq!(config(v1.as_ref())[option], value, "{option}");
        assert_eq!(events[0]["config"][option], value, "{option}");
    }
    let (v2, _) = hosted().setup_as(2, &json!({}), 3, &mut rng(1)).unwrap();
    assert_eq!(config(v2.as_ref())["trade_offers"], "as_made");
    let (current, _) = hosted().setup(&json!({}), 3, &mut rng(1)).unwrap();
    assert_eq!(config(current.as_ref())["inherited_interest"], "per_deed");
    for unknown in [0, 3] {
        assert!(matches!(
            hosted().setup_as(unknown, &json!({}), 3, &mut rng(1)),
            Err(GameError::Corrupt(_))
        ));
    }
}

/// Removes the options version 2 added from the config object at `pointer`, as JSON stored
/// before they existed (rules version 1) reads.
fn without_version_2_options(mut json: Value, pointer: &str) -> Value {
    let config = json.pointer_mut(pointer).unwrap().as_object_mut().unwrap();
    for (option, _) in VERSION_2_OPTIONS {
        assert!(config.remove(option).is_some(), "{option}");
    }
    json
}

#[test]
fn a_stored_state_or_event_without_the_version_2_options_reads_as_version_1() {
    let state = new_game(3);
    assert_eq!(state.config.trade_offers, TradeOffers::AsMade);
    let stored = without_version_2_options(serde_json::to_value(&state).unwrap(), "/config");
    let old: State = serde_json::from_value(stored.clone()).unwrap();
    assert_eq!(old.config, Config::defaults(1));
    let loaded = hosted().load(&stored.to_string()).unwrap();
    for (option, value) in VERSION_2_OPTIONS {
        assert_eq!(loaded.to_json()["config"][option], value, "{option}");
    }

    let log = Monopoly::setup(&Config::default(), 3, &mut rng(1)).unwrap();
    let mut stored: Vec<Value> = log
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    stored[0] = without_version_2_options(stored[0].clone(), "/config");
    let Event::GameStarted { config, .. } = serde_json::from_value(stored[0].clone()).unwrap()
    else {
        panic!("the log starts with game_started")
    };
    assert_eq!(config, Config::defaults(1));
    let replayed = hosted().replay(&stored).unwrap();
    assert_eq!(replayed.to_json()["config"]["trade_offers"], "as_accepted");
}

#[test]
fn stored_configs_that_name_every_option_read_exactly_as_written() {
    for version in [1, 2] {
        let mut state = new_game(2);
        state.config = Config::defaults(version);
        state.config.utility_rent_dice = UtilityRentDice::Move;
        let json = serde_json::to_string(&state).unwrap();
        assert_eq!(serde_json::from_str::<State>(&json).unwrap(), state);
    }
}

fn offer(to: u8, give: &[u8], give_cash: i64, get: &[u8], get_cash: i64) -> Action {
    Action::OfferTrade {
        to: Seat(to),
        give_cash,
        give_properties: give.to_vec(),
        give_cards: vec![],
        get_cash,
        get_properties: get.to_vec(),
        get_cards: vec![],
        lift: vec![],
    }
}

/// MO-TRADE-2, MO-TRADE-4 as rules version 1 played them (`trade_offers = as_accepted`): an
/// empty offer is taken, an offer its proposer cannot pay is taken (and refused only on
/// acceptance), and an offer executes on the deeds as they are at acceptance: the seed-3004
/// bait, mortgaged after the offer, reaches B mortgaged.
#[test]
fn mo_trade_4_version_1_games_keep_offers_executed_as_accepted() {
    let mut s = new_game_with(3, Config::defaults(1));
    own(&mut s, A, &[9]);
    ok(&mut s, C, offer(A, &[], 0, &[], 0));
    ok(
        &mut s,
        A,
        Action::AcceptTrade {
            offer: 0,
            lift: vec![],
        },
    );
    let bait = s.next_offer;
    ok(&mut s, A, offer(B, &[9], 24, &[], 138));
    let events = ok(&mut s, A, Action::Mortgage { square: 9 });
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::TradeLapsed { .. })));
    let events = ok(
        &mut s,
        B,
        Action::AcceptTrade {
            offer: bait,
            lift: vec![9],
        },
    );
    assert!(events.contains(&Event::MortgageLifted {
        seat: Seat(B),
        square: 9,
        amount: 66
    }));
    assert_eq!(cash(&s, B), 1500 + 24 - 138 - 66);
    set_cash(&mut s, C, 8);
    own(&mut s, B, &[1, 3, 6]);
    for square in [1, 3, 6] {
        ok(&mut s, B, Action::Mortgage { square });
    }
    ok(&mut s, C, offer(B, &[], 1, &[1, 3, 6], 0));
}

/// MO-BANKR-2 as rules version 1 played it (`inherited_interest = in_total`): the interest on
/// every kept mortgage is one payment, or one debt of the whole when the cash does not cover it.
#[test]
fn mo_bankr_2_version_1_games_keep_inherited_interest_in_total() {
    let mut s = new_game_with(3, Config::defaults(1));
    set_cash(&mut s, A, 100);
    own(&mut s, B, &[37, 39]);
    set_level(&mut s, 37, 2);
    set_level(&mut s, 39, 2);
    land_on(&mut s, A, 39);
    claim(&mut s, B);
    own(&mut s, A, &[5, 6, 25]);
    for square in [5, 6, 25] {
        ok(&mut s, A, Action::Mortgage { square });
    }
    ok(&mut s, A, Action::DeclareBankruptcy);
    set_cash(&mut s, B, 7);
    let events = ok(&mut s, B, Action::SettleInheritance { lift: vec![] });
    assert!(events.contains(&Event::DebtOpened {
        debtor: Seat(B),
        creditor: None,
        amount: 25,
        reason: PaymentReason::Interest,
        then_move: None
    }));
    assert_eq!(cash(&s, B), 7);
    assert_eq!(s.debt_of(Seat(B)).unwrap().lines.len(), 1);
}
