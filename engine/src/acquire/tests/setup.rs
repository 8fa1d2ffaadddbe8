//! Components, setup and the turn (spec §1–§4: AQ-COMP, AQ-SETUP, AQ-TURN). One test (at least) per
//! rule, named after its ID and citing the seed section it comes from; refusals check the code and
//! that nothing changed.

use super::support::*;
use crate::acquire::data::board;
use crate::acquire::state::Cell;
use crate::acquire::{Acquire, Action, Config, Event};
use crate::{Game, Seat};

// ---- Components and setup ----

#[test]
fn aq_comp_1_two_to_six_players() {
    // HK intro "Für 2 - 6 Spieler".
    // The seat range is the game's own (from the data file), checked by the adapter.
    assert_eq!(Acquire::seat_range(), 2..=6);
    let hosted = crate::registry::find("acquire").unwrap();
    for n in [0, 1, 7] {
        let err = hosted.setup(&serde_json::json!({}), n, &mut rng(1));
        assert!(
            matches!(err, Err(crate::GameError::InvalidConfig(_))),
            "{n} players"
        );
    }
    for n in 2..=6 {
        assert!(Acquire::setup(&Config::default(), n, &mut rng(1)).is_ok());
    }
    // "with exactly 2 the two-player rule applies": only a 2-player merger draws a bank tile
    // (AQ-2P-2).
    for players in 2..=6 {
        let mut state = two_chain_merger(players, "luxor", 3, &[(0, 2)]);
        let events = accepted(&mut state, 0, place("1B"));
        let bank_draws = events
            .iter()
            .filter(|e| matches!(e, Event::BankTileDrawn { .. }))
            .count();
        assert_eq!(bank_draws, usize::from(players == 2), "{players} players");
    }
}

#[test]
fn aq_comp_10_aq_d14_safe_at_11_not_10_and_end_size_aq_comp_11_is_41() {
    // HK §1: "Sichere Kette – Kette mit 11 oder mehr Steinen"; §5: 41 or more.
    let mut state = table(3);
    put_chain_tiles(&mut state, chain("luxor"), &row('A', 1, 10));
    assert!(!state.is_safe(chain("luxor")));
    put_chain_tiles(&mut state, chain("luxor"), &row('A', 11, 11));
    assert!(state.is_safe(chain("luxor")));
    assert_eq!(board().constants.end_size, 41);
    // AQ-COMP-11 "one of two end conditions": 41 tiles in one chain suffice alone, 40 do not.
    let mut state = table(3);
    let all: Vec<_> = crate::acquire::Tile::all().collect();
    put_chain_tiles(&mut state, chain("luxor"), &all[..40]);
    assert!(!crate::acquire::rules::end_conditions_hold(&state));
    put_chain_tiles(&mut state, chain("luxor"), &all[40..41]);
    assert_eq!(state.active_chains().count(), 1);
    assert!(crate::acquire::rules::end_conditions_hold(&state));
}

#[test]
fn aq_setup_1_aq_setup_2_aq_setup_4_start_tiles_cash_shares_and_hands() {
    // HK §3.
    for seed in 0..20 {
        let state = new_game_with(5, Config::default(), seed);
        let placed: Vec<_> = crate::acquire::Tile::all()
            .filter(|&t| state.cell(t) != Cell::Empty)
            .collect();
        assert_eq!(placed.len(), 5, "one start tile each");
        assert!(
            placed
                .iter()
                .all(|&t| state.cell(t) == Cell::Unincorporated),
            "no chain"
        );
        assert!(state
            .players
            .iter()
            .all(|p| p.cash == 6000 && p.hand.len() == 6));
        assert!(state
            .chains
            .iter()
            .all(|c| c.bank_shares == 25 && c.size == 0));
        assert_eq!(state.bag.len(), 108 - 5 - 30);
    }
}

#[test]
fn aq_setup_3_aq_d3_lowest_number_then_letter_begins_and_draws_first() {
    // HK §3: "2 B beginnt vor 2 E und 3 A".
    for seed in 0..30 {
        let events = Acquire::setup(&Config::default(), 4, &mut rng(seed)).unwrap();
        let starts: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::StartTilePlaced { seat, tile } => Some((*tile, *seat)),
                _ => None,
            })
            .collect();
        let first = starts.iter().min().unwrap().1;
        let Some(Event::TurnStarted { seat }) = events
            .iter()
            .find(|e| matches!(e, Event::TurnStarted { .. }))
        else {
            panic!()
        };
        assert_eq!(*seat, first);
        let first_draw = events.iter().find_map(|e| match e {
            Event::TileDrawn { seat, .. } => Some(*seat),
            _ => None,
        });
        assert_eq!(
            first_draw,
            Some(first),
            "AQ-SETUP-4: the start player draws first"
        );
    }
}

// ---- The turn ----

#[test]
fn aq_turn_1_place_then_buy_then_draw() {
    // HK §4: place, buy, draw.
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["5E", "5F"]);
    give_tiles(&mut state, 0, &["9A", "9C"]);
    refused(
        &state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
        "acquire.placement_required",
    );
    refused(&state, 0, Action::EndTurn, "acquire.placement_required");
    accepted(&mut state, 0, place("9A"));
    refused(&state, 0, place("9C"), "acquire.tile_already_placed");
    accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert!(matches!(events[0], Event::TileDrawn { seat: Seat(0), .. }));
}

#[test]
fn aq_turn_2_play_goes_clockwise_and_wraps() {
    // HK §4: "Es wird im Uhrzeigersinn gespielt."
    let mut state = table(3);
    give_turn(&mut state, 2);
    give_tiles(&mut state, 2, &["9A"]);
    accepted(&mut state, 2, place("9A"));
    let events = accepted(&mut state, 2, Action::EndTurn);
    assert!(events.contains(&Event::TurnStarted { seat: Seat(0) }));
    refused(&state, 1, Action::EndTurn, "not_your_turn");
}
