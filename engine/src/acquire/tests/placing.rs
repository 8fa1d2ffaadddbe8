//! Placing a tile and founding a chain (spec §5–§6: AQ-PLACE, AQ-FOUND). One test (at least) per
//! rule, named after its ID and citing the seed section it comes from; refusals check the code and
//! that nothing changed.

use super::support::*;
use crate::acquire::state::Step;
use crate::acquire::{Acquire, Action, Event};
use crate::{Game, Seat};

// ---- Placing ----

#[test]
fn aq_place_1_tile_must_come_from_the_hand_even_without_money() {
    // HK §4.6: "kann zwar keine Aktien mehr kaufen, muß aber einen Stein spielen".
    let mut state = table(3);
    state.players[0].cash = 0;
    give_tiles(&mut state, 0, &["9A"]);
    refused(&state, 0, place("9B"), "acquire.tile_not_in_hand");
    refused(&state, 0, Action::EndTurn, "acquire.placement_required");
    let legal = Acquire::legal_actions(&state, Seat(0));
    assert_eq!(legal, vec![place("9A")]);
}

#[test]
fn aq_place_2_lone_found_grow_merge() {
    // HK §4.1, §4.2.
    let mut state = table(3);
    put(&mut state, &["3C"]);
    put_chain(&mut state, "luxor", &["8A", "8B"]);
    put_chain(&mut state, "festival", &["10A", "10B"]);
    put(&mut state, &["7C", "6C"]); // touch 8C only, not Luxor
    give_tiles(&mut state, 0, &["1I", "3D", "8C", "9A"]);
    let mut s = state.clone();
    assert_eq!(accepted(&mut s, 0, place("1I")).len(), 1, "lone");
    assert_eq!(
        s.cell(tile("1I")),
        crate::acquire::state::Cell::Unincorporated
    );
    assert_eq!(s.active_chains().count(), 2);
    let mut s = state.clone();
    refused(&s, 0, place("3D"), "acquire.chain_name_required");
    refused(
        &s,
        0,
        found("1I", "airport"),
        "acquire.chain_name_unexpected",
    );
    assert!(matches!(
        accepted(&mut s, 0, found("3D", "airport"))[1],
        Event::ChainFounded { .. }
    ));
    let mut s = state.clone();
    assert!(matches!(
        accepted(&mut s, 0, place("8C"))[1],
        Event::ChainGrew { .. }
    ));
    // Grow: Luxor absorbs 8C and the unincorporated 7C and 6C connected to it.
    assert_eq!(s.chain(chain("luxor")).size, 2 + 1 + 2);
    for t in ["8C", "7C", "6C"] {
        assert_eq!(
            s.cell(tile(t)),
            crate::acquire::state::Cell::Chain(chain("luxor")),
            "{t}"
        );
    }
    let mut s = state.clone();
    assert!(matches!(
        accepted(&mut s, 0, place("9A"))[1],
        Event::MergerStarted { .. }
    ));
}

#[test]
fn aq_place_3_aq_found_4_eighth_chain_and_two_safe_chains_are_unplayable() {
    // HK §1 "Unspielbarer Stein", §4.1, §4.2.
    let mut state = safe_table();
    give_tiles(&mut state, 0, &["5B", "12H"]);
    let err = act(&mut state, 0, place("5B")).unwrap_err();
    assert_eq!(
        (err.code, err.rule),
        ("acquire.unplayable_tile", "AQ-MERGE-3")
    );
    let mut state = table(3);
    put_seven_chains(&mut state);
    put(&mut state, &["5G"]);
    give_tiles(&mut state, 0, &["5H", "12I"]);
    let err = act(&mut state, 0, place("5H")).unwrap_err();
    assert_eq!(
        (err.code, err.rule),
        ("acquire.unplayable_tile", "AQ-PLACE-3")
    );
    assert_eq!(Acquire::legal_actions(&state, Seat(0)), vec![place("12I")]);
}

#[test]
fn aq_place_4_aq_buy_5_no_playable_tile_skips_to_buying() {
    // HK §4.6: "Ein Spieler, der keinen seiner Steine spielen kann ... darf Aktien kaufen."
    let mut state = safe_table();
    give_tiles(&mut state, 1, &["5B"]);
    give_tiles(&mut state, 0, &["12H"]);
    accepted(&mut state, 0, place("12H"));
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert_eq!(
        events.last(),
        Some(&Event::PlacementSkipped { seat: Seat(1) })
    );
    assert_eq!(step(&state), Step::Buy);
    accepted(
        &mut state,
        1,
        Action::BuyShare {
            chain: chain("imperial"),
        },
    );
}

#[test]
fn aq_place_5_safe_chain_grows_and_takes_over_open_chains() {
    // HK §4.2: "Eine sichere Kette kann aber offene Ketten weiterhin übernehmen."
    let mut state = table(3);
    put_chain_tiles(&mut state, chain("imperial"), &row('A', 1, 11));
    put_chain(&mut state, "luxor", &["1C", "2C"]);
    give_tiles(&mut state, 0, &["12A", "1B"]);
    let mut s = state.clone();
    accepted(&mut s, 0, place("12A"));
    assert_eq!(s.chain(chain("imperial")).size, 12);
    accepted(&mut state, 0, place("1B"));
    assert_eq!(state.chain(chain("imperial")).size, 14);
    assert!(!state.is_active(chain("luxor")));
}

// ---- Founding ----

#[test]
fn aq_found_1_the_whole_unincorporated_group_joins() {
    // HK §4.1: 1A and 2B with 1B found a chain of 3.
    let mut state = table(3);
    put(&mut state, &["1A", "2B", "3B", "3C"]);
    give_tiles(&mut state, 0, &["1B"]);
    accepted(&mut state, 0, found("1B", "oriental"));
    assert_eq!(state.chain(chain("oriental")).size, 5);
}

#[test]
fn aq_found_2_name_must_be_a_chain_not_on_the_board() {
    // HK §4.1: "wählt aus den 7 möglichen Namen einen".
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["8A", "8B"]);
    put(&mut state, &["3C"]);
    give_tiles(&mut state, 0, &["3D"]);
    refused(
        &state,
        0,
        found("3D", "luxor"),
        "acquire.chain_already_active",
    );
    let names = Acquire::legal_actions(&state, Seat(0)).len();
    assert_eq!(names, 6);
}

#[test]
fn aq_found_3_aq_comp_13_aq_d11_founder_share_only_while_the_bank_has_one() {
    // HK §4.1 "Der Gründer der Kette erhält eine kostenlose Aktie"; empty bank: AQ-D11.
    let mut state = table(3);
    put(&mut state, &["3C"]);
    give_tiles(&mut state, 0, &["3D"]);
    let mut s = state.clone();
    accepted(&mut s, 0, found("3D", "luxor"));
    assert_eq!(
        (shares(&s, 0, "luxor"), s.chain(chain("luxor")).bank_shares),
        (1, 24)
    );
    assert_eq!(cash(&s, 0), 6000, "the founder's share is free");
    give_shares(&mut state, 2, "luxor", 25);
    accepted(&mut state, 0, found("3D", "luxor"));
    assert_eq!(shares(&state, 0, "luxor"), 0);
    assert_eq!(
        (
            shares(&state, 2, "luxor"),
            state.chain(chain("luxor")).bank_shares
        ),
        (25, 0),
        "nobody's shares are taken instead"
    );
    assert_eq!(cash(&state, 0), 6000);
}
