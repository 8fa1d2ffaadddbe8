//! Spec §7: Variant 1, Pirates!

use super::support::*;
use crate::tyros::cards::Empire::*;
use crate::tyros::data::Tile;
use crate::tyros::event::{Event, SkipReason, SwapSkipReason};
use crate::tyros::state::{Due, DueReason, Need, Phase};
use crate::tyros::{Action, Config, Tyros};
use crate::{Game, Seat};
use serde_json::json;

fn pirates() -> Config {
    Config {
        pirates: true,
        ..Config::default()
    }
}

/// TR-PIR (the variant's changed Phase 2), TR-PIR-2: a player who cannot place swaps a random tile blindly for one from the pile; no
/// draw; the swap is skipped when the pile is empty or holds no placeable tile.
#[test]
fn tr_pir_2_a_player_who_cannot_place_swaps_a_tile_blindly() {
    for (pile, expect) in [
        // White draws the top tile after placing; Red swaps with what is left.
        (vec![9, 23, 10], None),
        (vec![9, 10, 11], Some(SwapSkipReason::NoUsableTile)),
        (vec![], Some(SwapSkipReason::PileEmpty)),
    ] {
        let mut s = table(4, pirates());
        s.start_player = Seat(W);
        s.phase = Phase::Expansion {
            step: 0,
            placed: false,
            drew: false,
        };
        for p in &mut s.players {
            p.tiles.clear();
        }
        empire(&mut s, Green, &["22"]);
        s.tile_pile = pile.iter().map(|&n| Tile(n)).collect();
        tiles(&mut s, W, &[21]);
        tiles(&mut s, R, &[1, 2]);
        tiles(&mut s, G, &[17]);
        let events = accepted(
            &mut s,
            W,
            Action::PlaceTile {
                tile: Tile(21),
                empire: None,
            },
        );
        assert!(events.contains(&Event::PlacementSkipped {
            seat: Seat(R),
            reason: SkipReason::CannotPlace
        }));
        assert!(!events
            .iter()
            .any(|e| matches!(e, Event::TileDrawn { seat, .. } if *seat == Seat(R))));
        match expect {
            Some(reason) => {
                assert!(events.contains(&Event::TileSwapSkipped {
                    seat: Seat(R),
                    reason
                }));
                assert_eq!(s.player(Seat(R)).tiles, vec![Tile(1), Tile(2)]);
            }
            None => {
                let Some(Event::TilesSwapped {
                    returned: Some(back),
                    drawn: Some(got),
                    ..
                }) = events
                    .iter()
                    .find(|e| matches!(e, Event::TilesSwapped { .. }))
                else {
                    panic!("a swap: {events:?}")
                };
                assert!([Tile(1), Tile(2)].contains(back));
                assert!(s.player(Seat(R)).tiles.contains(got));
                assert!(s.tile_pile.contains(back));
                assert_eq!(s.player(Seat(R)).tiles.len(), 2);
                // The swapped-in tile is not placed in the same lap: Grey is next.
                assert_eq!(Tyros::active_seats(&s), vec![Seat(G)]);
            }
        }
    }
}

/// TR-PIR-3, TR-PIR-9: the pirate's tile leaves the used pool until the pirate sinks, so a field
/// never holds two pirates; several pirates may be out; an empty pool brings none; ships
/// already on a pirate field pay no new levy in a later round.
#[test]
fn tr_pir_3_and_tr_pir_9_pirates_come_from_the_used_pool_and_stay() {
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["22", "21", "20"]);
    pirate(&mut s, "20");
    ship(&mut s, W, "20");
    hand(&mut s, W, json!({"orange": 2}));
    let events = pirate_phase_on(&mut s, "22");
    assert!(
        owed(&events).is_empty(),
        "no new levy for the ship on the old pirate"
    );
    assert_eq!(held(&s, W), cards(json!({"orange": 2})));
    assert!(s.field(cell("20")).pirate.is_some() && s.field(cell("22")).pirate.is_some());
    assert!(!s.used_tiles.contains(&Tile(22)) && !s.used_tiles.contains(&Tile(20)));
    // The pirates stay over the round end.
    while matches!(s.phase, Phase::Actions { .. }) {
        let seat = s.turn().unwrap().seat.0;
        pass(&mut s, seat);
    }
    assert!(s.round == 3);
    assert!(s.field(cell("20")).pirate.is_some() && s.field(cell("22")).pirate.is_some());
    // Every used tile under a pirate and no placement: no pirate this round.
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["22", "21"]);
    pirate(&mut s, "22");
    pirate(&mut s, "21");
    s.used_tiles.clear();
    s.tile_pile.clear();
    for p in &mut s.players {
        p.tiles.clear();
    }
    for (seat, tile) in [(W, 1), (R, 2), (G, 3), (B, 4)] {
        tiles(&mut s, seat, &[tile]);
    }
    for seat in [W, R, G] {
        pass(&mut s, seat);
    }
    let events = pass(&mut s, B);
    assert!(events.contains(&Event::NoPirate));
    assert!(matches!(s.phase, Phase::Actions { .. }));
}

/// TR-PIR-5, TR-PIR-7: a ship built as second ship on a pirate city field pays the build toll
/// and sinks the pirate.
#[test]
fn tr_pir_5_and_tr_pir_7_building_on_a_pirate_pays_a_toll_and_parks_a_second_ship() {
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["22"]);
    city(&mut s, W, "22");
    pirate(&mut s, "22");
    ship(&mut s, R, "22");
    hand(&mut s, W, json!({"violet": 1, "orange": 1}));
    let events = accepted(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("22"),
            galley: false,
        },
    );
    assert_eq!(
        paid(&events),
        vec![
            (DueReason::Build, cards(json!({"violet": 1}))),
            (DueReason::Toll, cards(json!({"orange": 1})))
        ]
    );
    assert!(events.iter().any(|e| matches!(e, Event::PirateSunk { .. })));
    assert_eq!((points(&s, W), points(&s, R)), (2, 2));
    // The toll card goes to the discard pile, on top of the build card; White holds nothing.
    assert!(held(&s, W).is_empty());
    assert_eq!(
        s.discard_pile[s.discard_pile.len() - 2..],
        [crate::tyros::Card::Violet, crate::tyros::Card::Orange]
    );
}

/// TR-PIR-3: a pirate appearing on a field costs each ship there 1 card of its owner's choice,
/// so two ships of one player cost that player 2 cards; a player with no cards pays nothing.
#[test]
fn tr_pir_3_the_levy_is_one_card_per_ship_and_nothing_from_an_empty_hand() {
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["30", "26", "21"]);
    ship(&mut s, W, "30");
    ship(&mut s, W, "30");
    hand(&mut s, W, json!({"orange": 1, "green": 1, "yellow": 1}));
    hand(&mut s, R, json!({"orange": 1}));
    let events = pirate_phase_on(&mut s, "30");
    assert_eq!(
        owed(&events),
        vec![Due {
            payer: Seat(W),
            need: Need::Any,
            count: 2,
            to: None,
            reason: DueReason::Levy,
        }]
    );
    pay(&mut s, W, json!({"orange": 1, "yellow": 1}));
    assert_eq!(held(&s, W), cards(json!({"green": 1})));
    assert_eq!(
        held(&s, R),
        cards(json!({"orange": 1})),
        "Red has no ship there"
    );
    // White's ship on 22 with an empty hand: no due, and the action phase begins.
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["22", "21"]);
    ship(&mut s, W, "22");
    let events = pirate_phase_on(&mut s, "22");
    assert!(events.contains(&Event::PirateAppeared {
        field: cell("22"),
        sinks_at_turn_start: false
    }));
    assert!(owed(&events).is_empty());
    assert!(matches!(s.phase, Phase::Actions { .. }));
    assert!(s.field(cell("22")).pirate.is_some());
}

/// TR-PIR-10: leaving a pirate field costs nothing; a city may be founded there at the usual
/// price and the pirate stays.
#[test]
fn tr_pir_10_leaving_and_founding_on_a_pirate_field_cost_nothing_extra() {
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["22", "21"]);
    pirate(&mut s, "22");
    let a = ship(&mut s, W, "22");
    hand(&mut s, W, json!({"violet": 5}));
    let events = accepted(&mut s, W, Action::FoundCity { ship: a });
    assert_eq!(
        paid(&events),
        vec![(DueReason::City, cards(json!({"violet": 5})))]
    );
    assert!(s.field(cell("22")).pirate.is_some());
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["22", "21"]);
    pirate(&mut s, "22");
    let a = ship(&mut s, W, "22");
    hand(&mut s, W, json!({"violet": 1}));
    let events = accepted(&mut s, W, move_by(a, &["21"]));
    assert_eq!(
        paid(&events),
        vec![(DueReason::Move, cards(json!({"violet": 1})))]
    );
}
