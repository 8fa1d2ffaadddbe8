//! Every rule ID of the spec (a copy lives in `engine/rules/monopoly.md`) has a test that names
//! it, and every error code is listed once.

use crate::monopoly::errors;
use crate::spec_coverage::{self, numbered, Spec};

/// The spec, its rule IDs and every test file of the game (coverage counts only `#[test]`
/// names and doc comments).
pub(super) const SPEC: Spec = Spec {
    text: include_str!("../../../rules/monopoly.md"),
    is_rule_id,
    tests: &[
        include_str!("setup.rs"),
        include_str!("turn.rs"),
        include_str!("property.rs"),
        include_str!("debts.rs"),
        include_str!("scenarios.rs"),
        include_str!("playouts.rs"),
        include_str!("determinize.rs"),
        include_str!("trades.rs"),
        include_str!("versions.rs"),
    ],
};

/// Rule IDs such as `MO-RENT-2`, decisions `MO-D-7` and scenarios `MO-T-23`.
fn is_rule_id(word: &str) -> bool {
    let parts: Vec<&str> = word.split('-').collect();
    parts.len() == 3
        && parts[0] == "MO"
        && parts[1].chars().all(|c| c.is_ascii_uppercase())
        && numbered(parts[2])
}

#[test]
fn every_rule_id_of_the_spec_is_cited_by_a_test() {
    SPEC.assert_every_rule_id_cited(151);
}

#[test]
fn every_code_is_listed_once_and_namespaced() {
    spec_coverage::assert_codes_unique_and_namespaced(errors::ALL, "monopoly.");
}

/// Published codes never change: this snapshot fails when one is renamed or removed.
#[test]
fn published_codes_are_stable() {
    assert_eq!(
        errors::ALL,
        &[
            "monopoly.bankrupt",
            "monopoly.auction_running",
            "monopoly.shortage_window_open",
            "monopoly.inheritance_pending",
            "monopoly.debt_pending",
            "monopoly.roll_not_owed",
            "monopoly.decision_pending",
            "monopoly.turn_not_finished",
            "monopoly.no_purchase_offered",
            "monopoly.no_card_choice",
            "monopoly.insufficient_cash",
            "monopoly.not_in_jail",
            "monopoly.jail_exit_after_roll",
            "monopoly.no_such_card",
            "monopoly.no_such_rent",
            "monopoly.not_rent_owner",
            "monopoly.not_owner",
            "monopoly.not_a_street",
            "monopoly.group_incomplete",
            "monopoly.group_mortgaged",
            "monopoly.uneven",
            "monopoly.street_full",
            "monopoly.bank_out_of_buildings",
            "monopoly.shortage_request_mixed",
            "monopoly.empty_request",
            "monopoly.no_buildings",
            "monopoly.already_mortgaged",
            "monopoly.not_mortgaged",
            "monopoly.group_has_buildings",
            "monopoly.trade_with_self",
            "monopoly.offer_already_open",
            "monopoly.bad_trade_item",
            "monopoly.bad_lift_choice",
            "monopoly.negative_amount",
            "monopoly.no_such_offer",
            "monopoly.not_offer_party",
            "monopoly.no_auction",
            "monopoly.not_bidder",
            "monopoly.bid_too_low",
            "monopoly.high_bidder_waits",
            "monopoly.not_declaring",
            "monopoly.wrong_building_kind",
            "monopoly.no_debt",
            "monopoly.bankruptcy_not_allowed",
            "monopoly.no_inheritance",
            "monopoly.empty_offer",
        ]
    );
}

/// The spec copy is byte-identical to the shared one it was taken from.
#[test]
fn the_spec_and_data_copies_are_the_shared_files() {
    for (copy, shared) in [
        (SPEC.text, "monopoly.md"),
        (
            include_str!("../../../rules/monopoly-board.json"),
            "monopoly-board.json",
        ),
    ] {
        // `shared/` lies beside the repository's checkout where it is present at all.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/rules")
            .join(shared);
        if let Ok(original) = std::fs::read_to_string(&path) {
            assert_eq!(copy, original, "{} differs", path.display());
        }
    }
}

#[cfg(feature = "openapi")]
#[test]
fn monopoly_schemas_are_in_the_api_document() {
    let schemas = crate::openapi::game_schemas();
    let names: Vec<&str> = schemas.iter().map(|(n, _)| n.as_str()).collect();
    for name in [
        "MonopolyAction",
        "MonopolyEvent",
        "MonopolyView",
        "MonopolyConfig",
        "MonopolyCard",
        "MonopolyTradeOffer",
        "MonopolyAuction",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let action = &schemas
        .iter()
        .find(|(n, _)| n == "MonopolyAction")
        .unwrap()
        .1;
    assert!(serde_json::to_value(action).unwrap().get("oneOf").is_some());
}
