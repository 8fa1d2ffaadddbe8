//! Every rule ID of the spec (a copy lives in `engine/rules/tyros.md`) is named by a test, in
//! the test function's name or in the `///` comment directly on it; and every error code is
//! listed once.

use crate::spec_coverage::{self, numbered, Spec};
use crate::tyros::errors;

/// The spec, its rule IDs and every test file of the game (coverage counts only `#[test]`
/// names and doc comments).
pub(super) const SPEC: Spec = Spec {
    text: include_str!("../../../rules/tyros.md"),
    is_rule_id,
    tests: &[
        include_str!("actions.rs"),
        include_str!("action_cards.rs"),
        include_str!("components.rs"),
        include_str!("ending.rs"),
        include_str!("galleys.rs"),
        include_str!("phases.rs"),
        include_str!("pirates.rs"),
        include_str!("playouts.rs"),
        include_str!("determinize.rs"),
        include_str!("scenarios.rs"),
        include_str!("setup.rs"),
        include_str!("small_variants.rs"),
    ],
};

/// Rule IDs such as `TR-PIR-3`, `TR-ACT-A`, `TR-D-17`, `TR-T-4`, and the variant names `TR-RC`,
/// `TR-K1`, `TR-K1a`, `TR-K2`, `TR-PIR`.
fn is_rule_id(word: &str) -> bool {
    let parts: Vec<&str> = word.split('-').collect();
    let upper = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    };
    match parts[..] {
        ["TR", area, n] => {
            upper(area)
                && (numbered(n) || (n.len() == 1 && n.chars().all(|c| c.is_ascii_uppercase())))
        }
        ["TR", name] => name.len() >= 2 && name.starts_with(|c: char| c.is_ascii_uppercase()),
        _ => false,
    }
}

#[test]
fn every_rule_id_of_the_spec_is_cited_by_a_test() {
    SPEC.assert_every_rule_id_cited(128);
}

#[test]
fn every_code_is_listed_once_and_namespaced() {
    spec_coverage::assert_codes_unique_and_namespaced(errors::ALL, "tyros.");
}

/// Published codes never change: this snapshot fails when one is renamed or removed.
#[test]
fn error_codes_are_stable() {
    assert_eq!(
        errors::ALL,
        &[
            "tyros.wrong_phase",
            "tyros.decision_pending",
            "tyros.tile_not_in_hand",
            "tyros.tile_not_placeable",
            "tyros.empire_choice_required",
            "tyros.empire_not_adjacent",
            "tyros.action_already_taken",
            "tyros.not_your_ship",
            "tyros.ship_not_on_board",
            "tyros.invalid_path",
            "tyros.invalid_destination",
            "tyros.destination_full",
            "tyros.cannot_afford",
            "tyros.cost_mismatch",
            "tyros.not_an_empire_field",
            "tyros.city_site_taken",
            "tyros.rival_ship_present",
            "tyros.no_city_markers",
            "tyros.no_ship_in_supply",
            "tyros.not_a_shipyard",
            "tyros.shipyard_full",
            "tyros.no_galley_token",
            "tyros.variant_off",
            "tyros.bank_trade_used",
            "tyros.bad_card_count",
            "tyros.cards_not_in_hand",
            "tyros.invalid_offer",
            "tyros.trade_used",
            "tyros.no_offer",
            "tyros.action_card_unavailable",
            "tyros.outside_card_window",
            "tyros.no_wind",
            "tyros.no_explorer",
            "tyros.invalid_relocation",
            "tyros.cannot_sink",
            "tyros.pass_not_allowed",
            "tyros.cannot_end_turn",
            "tyros.no_due",
            "tyros.invalid_payment",
            "tyros.no_fight_decision",
            "tyros.invalid_fight_cards",
            "tyros.no_keep_due",
            "tyros.trade_leaves_no_action",
        ]
    );
}
