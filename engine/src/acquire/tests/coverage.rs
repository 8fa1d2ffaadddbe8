//! Every rule ID of the spec (a copy lives in `engine/rules/acquire.md`) is cited by a test, in
//! its name or its doc comment (see `spec_coverage`), and every error code is listed once.

use crate::acquire::errors;
use crate::spec_coverage::{self, numbered, Spec};

/// The spec, its rule IDs and every test file of the game (coverage counts only `#[test]`
/// names and doc comments).
pub(super) const SPEC: Spec = Spec {
    text: include_str!("../../../rules/acquire.md"),
    is_rule_id,
    tests: &[
        include_str!("setup.rs"),
        include_str!("placing.rs"),
        include_str!("mergers.rs"),
        include_str!("buying.rs"),
        include_str!("drawing.rs"),
        include_str!("end.rs"),
        include_str!("two_players.rs"),
        include_str!("information.rs"),
        include_str!("data.rs"),
        include_str!("scenarios.rs"),
        include_str!("playouts.rs"),
    ],
};

/// Rule IDs such as `AQ-MERGE-4`, `AQ-2P-9`, `AQ-EX-6` and decisions such as `AQ-D7`.
fn is_rule_id(word: &str) -> bool {
    let parts: Vec<&str> = word.split('-').collect();
    let rule = parts.len() == 3
        && parts[0] == "AQ"
        && parts[1]
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && numbered(parts[2]);
    let decision = parts.len() == 2
        && parts[0] == "AQ"
        && parts[1].starts_with('D')
        && numbered(&parts[1][1..]);
    rule || decision
}

#[test]
fn every_rule_id_of_the_spec_is_cited_by_a_test() {
    SPEC.assert_every_rule_id_cited(91);
}

#[test]
fn every_code_is_listed_once_and_namespaced() {
    spec_coverage::assert_codes_unique_and_namespaced(errors::ALL, "acquire.");
}

#[test]
fn error_codes_are_stable() {
    assert_eq!(
        errors::ALL,
        &[
            "acquire.tile_not_in_hand",
            "acquire.unplayable_tile",
            "acquire.chain_name_required",
            "acquire.chain_name_unexpected",
            "acquire.chain_already_active",
            "acquire.tile_already_placed",
            "acquire.placement_required",
            "acquire.merger_pending",
            "acquire.no_merger_decision",
            "acquire.not_largest_chain",
            "acquire.invalid_defunct_order",
            "acquire.not_enough_shares",
            "acquire.odd_trade",
            "acquire.survivor_stock_exhausted",
            "acquire.buy_limit_reached",
            "acquire.chain_not_active",
            "acquire.bank_out_of_shares",
            "acquire.insufficient_cash",
            "acquire.end_conditions_unmet",
            "acquire.announce_after_buying",
            "acquire.end_already_announced",
        ]
    );
}

#[cfg(feature = "openapi")]
#[test]
fn acquire_schemas_are_in_the_api_document() {
    let schemas = crate::openapi::game_schemas();
    let names: Vec<&str> = schemas.iter().map(|(n, _)| n.as_str()).collect();
    for name in [
        "AcquireAction",
        "AcquireEvent",
        "AcquireView",
        "AcquireConfig",
        "AcquireChain",
        "AcquireTile",
        "AcquireMerger",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let action = &schemas
        .iter()
        .find(|(n, _)| n == "AcquireAction")
        .unwrap()
        .1;
    assert!(serde_json::to_value(action).unwrap().get("oneOf").is_some());
}
