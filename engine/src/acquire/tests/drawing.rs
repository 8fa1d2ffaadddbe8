//! Drawing and dead tiles (spec §11: AQ-DRAW, AQ-DEAD). One test (at least) per rule, named after
//! its ID and citing the seed section it comes from; refusals check the code and that nothing
//! changed.

use super::support::*;
use crate::acquire::state::Cell;
use crate::acquire::{Action, Event};
use crate::Seat;

#[test]
fn aq_draw_1_draw_back_to_six_only_after_placing() {
    // HK §4: "Er nimmt einen neuen Stein vom Tisch."
    let mut state = table(3);
    give_tiles(&mut state, 0, &["1A", "3A", "5A", "7A", "9A", "11A"]);
    accepted(&mut state, 0, place("1A"));
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::TileDrawn { .. }))
            .count(),
        1
    );
    assert_eq!(state.players[0].hand.len(), 6);
    // A player who could place no tile (only an 8th-chain tile, temporarily unplayable)
    // draws nothing, and keeps that tile.
    let mut state = table(3);
    put_seven_chains(&mut state);
    put(&mut state, &["5G"]);
    give_tiles(&mut state, 0, &["5H"]);
    to_buy_step(&mut state);
    if let crate::acquire::state::Stage::Turn(t) = &mut state.stage {
        t.placed = false;
    }
    let bag = state.bag.len();
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert!(!events.iter().any(|e| matches!(e, Event::TileDrawn { .. })));
    assert_eq!(state.bag.len(), bag);
    assert_eq!(state.players[0].hand, tiles(&["5H"]));
}

#[test]
fn aq_draw_2_aq_d9_empty_pile_means_no_draw_and_play_goes_on() {
    // Avalon Hill FAQ: with no tiles left nobody draws.
    let mut state = table(3);
    let bag = std::mem::take(&mut state.bag);
    state.removed = bag;
    state
        .removed
        .retain(|t| *t != tile("1A") && *t != tile("3A"));
    state.players[0].hand = tiles(&["1A", "3A"]);
    accepted(&mut state, 0, place("1A"));
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert!(!events.iter().any(|e| matches!(e, Event::TileDrawn { .. })));
    assert_eq!(state.players[0].hand, tiles(&["3A"]));
    assert!(events.contains(&Event::TurnStarted { seat: Seat(1) }));
}

#[test]
fn aq_dead_1_aq_d5_one_sweep_per_turn_after_the_draw() {
    // "turn it in and get a new one" (Avalon Hill FAQ); timing AQ-D5.
    let mut state = safe_table();
    give_tiles(&mut state, 0, &["5B", "12H", "10G", "8G", "6G", "4G"]);
    accepted(&mut state, 0, place("12H"));
    // The replacement is itself dead (touches both safe chains): it waits for the next turn.
    bag_top(&mut state, "7B");
    bag_top(&mut state, "12G"); // drawn normally; 7B replaces 5B
    let events = accepted(&mut state, 0, Action::EndTurn);
    let removed: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::DeadTileRemoved { tile, .. } => Some(*tile),
            _ => None,
        })
        .collect();
    assert_eq!(removed, tiles(&["5B"]));
    // Removed from the game, publicly, and replaced: the hand is full again without it.
    assert!(state.removed.contains(&tile("5B")));
    assert!(!state.players[0].hand.contains(&tile("5B")));
    assert_eq!(state.players[0].hand.len(), 6);
    assert!(
        state.players[0].hand.contains(&tile("7B")),
        "the dead replacement waits"
    );
}

#[test]
fn aq_dead_2_aq_dead_3_temporary_tiles_stay_and_playability_is_judged_now() {
    // AQ-DEAD-2 PUBLIC; AQ-DEAD-3 RECONSTRUCTED.
    let mut state = table(3);
    put_seven_chains(&mut state);
    put(&mut state, &["5G"]);
    give_tiles(&mut state, 0, &["5H", "12I", "10G", "8G", "1I", "3I"]);
    accepted(&mut state, 0, place("12I"));
    accepted(&mut state, 0, Action::EndTurn);
    assert!(state.players[0].hand.contains(&tile("5H")));
    assert!(crate::acquire::rules::playability(&state, tile("5H")).is_err());
    state.chains[0].size = 0; // a merger freed a name
    for t in row('A', 1, 2) {
        state.cells[t.index()] = Cell::Empty;
    }
    assert!(crate::acquire::rules::playability(&state, tile("5H")).is_ok());
}
