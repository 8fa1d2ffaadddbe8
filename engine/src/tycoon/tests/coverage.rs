//! Every rule ID of the spec (a copy lives in `engine/rules/tycoon.md`) is cited by a test, in
//! its name or its doc comment (see `spec_coverage`), and every error code is listed once.

use crate::spec_coverage::{self, numbered, Spec};
use crate::tycoon::errors;

/// The spec, its rule IDs and every test file of the game (coverage counts only `#[test]`
/// names and doc comments).
pub(super) const SPEC: Spec = Spec {
    text: include_str!("../../../rules/tycoon.md"),
    is_rule_id,
    tests: &[
        include_str!("data.rs"),
        include_str!("actions.rs"),
        include_str!("payday.rs"),
        include_str!("phases.rs"),
        include_str!("playouts.rs"),
        include_str!("scenarios.rs"),
        include_str!("versions.rs"),
    ],
};

/// Rule IDs such as `TY-FLY-3` and the decision IDs of §9 such as `T12` or `L5`.
fn is_rule_id(word: &str) -> bool {
    let parts: Vec<&str> = word.split('-').collect();
    let rule = parts.len() == 3
        && parts[0] == "TY"
        && parts[1].chars().all(|c| c.is_ascii_uppercase())
        && numbered(parts[2]);
    let decision = parts.len() == 1
        && word.len() >= 2
        && "TBSPLO".contains(&word[..1])
        && numbered(&word[1..])
        && SPEC.text.contains(&format!("**{word} "));
    rule || decision
}

#[test]
fn every_rule_id_of_the_spec_is_cited_by_a_test() {
    SPEC.assert_every_rule_id_cited(101);
}

#[test]
fn every_code_is_listed_once_and_namespaced() {
    spec_coverage::assert_codes_unique_and_namespaced(errors::ALL, "tycoon.");
}

/// Published codes never change: this snapshot fails when one is renamed or removed.
#[test]
fn published_codes_are_stable() {
    let published = [
        "tycoon.ticket_not_displayed",
        "tycoon.ticket_not_in_hand",
        "tycoon.insufficient_cash",
        "tycoon.unreachable_city",
        "tycoon.direct_flight_required",
        "tycoon.flight_after_build",
        "tycoon.not_in_city",
        "tycoon.landing_fields_full",
        "tycoon.no_hotels_in_supply",
        "tycoon.city_full",
        "tycoon.no_closed_hotel",
        "tycoon.factory_fields_full",
        "tycoon.no_factories_left",
        "tycoon.main_action_taken",
        "tycoon.main_action_required",
        "tycoon.loan_turn_not_pure",
        "tycoon.no_loan_cards",
        "tycoon.loan_cards_remain",
        "tycoon.loan_settlement_pending",
        "tycoon.not_loan_settlement",
        "tycoon.no_such_loan",
    ];
    for code in published {
        assert!(
            errors::ALL.contains(&code),
            "published code {code} disappeared"
        );
    }
}
