//! The end of the game and final scoring (spec §12: AQ-END). One test (at least) per rule, named
//! after its ID and citing the seed section it comes from; refusals check the code and that nothing
//! changed.

use super::support::*;
use crate::acquire::state::Stage;
use crate::acquire::{Acquire, Action, EndReason, Event};
use crate::{Game, Seat};

fn big_luxor() -> crate::acquire::State {
    let mut state = table(3);
    let tiles: Vec<_> = crate::acquire::Tile::all().take(41).collect();
    put_chain_tiles(&mut state, chain("luxor"), &tiles);
    give_shares(&mut state, 1, "luxor", 4);
    give_tiles(&mut state, 0, &["12I"]);
    state
}

#[test]
fn aq_end_1_aq_d4_announce_after_placing_and_before_buying() {
    // HK §5: "nach Setzen seines Steines ankündigt".
    let mut state = big_luxor();
    refused(&state, 0, Action::AnnounceEnd, "acquire.placement_required");
    accepted(&mut state, 0, place("12I"));
    let mut s = state.clone();
    accepted(
        &mut s,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    refused(&s, 0, Action::AnnounceEnd, "acquire.announce_after_buying");
    accepted(&mut state, 0, Action::AnnounceEnd);
    refused(
        &state,
        0,
        Action::AnnounceEnd,
        "acquire.end_already_announced",
    );
    let mut s = table(3);
    to_buy_step(&mut s);
    refused(&s, 0, Action::AnnounceEnd, "acquire.end_conditions_unmet");
}

#[test]
fn aq_end_2_announcing_is_optional() {
    // HK §5: "Der Spieler muß dies nicht ankündigen".
    let mut state = big_luxor();
    accepted(&mut state, 0, place("12I"));
    accepted(&mut state, 0, Action::EndTurn);
    assert!(Acquire::outcome(&state).is_none());
}

#[test]
fn aq_end_3_aq_end_4_aq_d10_buy_after_announcing_then_score_without_drawing() {
    // HK §5: "kann er noch bis zu drei Aktien kaufen"; bonuses; all shares sold; ties share.
    let mut state = big_luxor();
    // Seat 2 kept Festival shares; Festival is not on the board, so they are worth 0.
    give_shares(&mut state, 2, "festival", 5);
    accepted(&mut state, 0, place("12I"));
    accepted(&mut state, 0, Action::AnnounceEnd);
    accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert!(!events.iter().any(|e| matches!(e, Event::TileDrawn { .. })));
    assert_eq!(
        events[0],
        Event::FinalScoringStarted {
            reason: EndReason::Announced
        }
    );
    // Luxor 41 tiles, tier 2: 1100. Seat 1 holds 4, seat 0 holds 1.
    assert_eq!(payouts(&events, "luxor"), vec![(1, 11000), (0, 5500)]);
    assert_eq!(cash(&state, 1), 6000 + 11000 + 4 * 1100);
    assert_eq!(cash(&state, 0), 6000 - 1100 + 5500 + 1100);
    assert_eq!(
        cash(&state, 2),
        6000,
        "inactive Festival shares are worth 0"
    );
    assert!(matches!(state.stage, Stage::Finished));
    assert_eq!(Acquire::outcome(&state).unwrap().winners, vec![Seat(1)]);
    refused(&state, 1, Action::EndTurn, "game_over");
    // A tie shares the win.
    let mut s = table(2);
    to_buy_step(&mut s);
    s.idle_turns = 1;
    s.stage = Stage::Turn(crate::acquire::state::Turn {
        placed: false,
        ..*s.turn().unwrap()
    });
    accepted(&mut s, 0, Action::EndTurn);
    assert_eq!(
        Acquire::outcome(&s).unwrap().winners,
        vec![Seat(0), Seat(1)]
    );
}

#[test]
fn aq_end_5_aq_d16_a_full_idle_round_ends_the_game() {
    // RECONSTRUCTED: hands full of eighth-chain tiles while the pile lasts.
    let mut state = table(3);
    for seat in 0..3 {
        give_turn(&mut state, seat);
        to_buy_step(&mut state);
        if let Stage::Turn(t) = &mut state.stage {
            t.placed = false;
        }
        let events = accepted(&mut state, seat, Action::EndTurn);
        let stalled = events.contains(&Event::FinalScoringStarted {
            reason: EndReason::Stalled,
        });
        assert_eq!(stalled, seat == 2, "after seat {seat}");
    }
}
