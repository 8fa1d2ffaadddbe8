//! Spec §3 (setup) and the configuration (§12): defaults, provenance, refusals.

use super::support::*;
use crate::tyros::cards::Empire;
use crate::tyros::data::{board, Cell, Tile};
use crate::tyros::event::Event;
use crate::tyros::state::Phase;
use crate::tyros::{Config, SetupMode, Tyros};
use crate::{registry, Game, GameError};
use serde_json::json;

/// TR-SETUP-1, TR-PIR-1: each player owns 10 ships (5 or 6 with Pirates), 2 of them in Tyros,
/// and 10 city markers.
#[test]
fn tr_setup_1_two_ships_of_each_player_start_in_tyros() {
    for (players, pirates, ships) in [(4, false, 10), (3, false, 10), (4, true, 5), (3, true, 6)] {
        let s = new_game(
            players,
            Config {
                pirates,
                ..Config::default()
            },
            1,
        );
        for seat in s.seats() {
            let own: Vec<_> = s.ships.iter().filter(|x| x.owner == seat).collect();
            assert_eq!(own.len(), ships);
            assert_eq!(own.iter().filter(|x| x.at == Some(Cell::TYROS)).count(), 2);
            assert_eq!(
                own.iter().filter(|x| x.at.is_none()).count(),
                ships - 2,
                "the rest in the player's supply"
            );
            assert!(own.iter().all(|x| !x.galley));
            assert_eq!(s.player(seat).cities_left, 10);
        }
    }
}

/// TR-SETUP-2: the first four revealed tiles that touch no founded empire found orange,
/// yellow, green and violet; tiles touching one are set aside and shuffled back; the founding
/// tiles go to the used pool.
#[test]
fn tr_setup_2_four_empires_are_founded_on_fields_that_do_not_touch() {
    let mut set_aside_seen = 0;
    for seed in 0..60 {
        let events = Tyros::setup(&Config::default(), 4, &mut rng(seed)).unwrap();
        let s = Tyros::replay(&events);
        let map = s.map();
        let founded: Vec<(Empire, Cell, Vec<Tile>)> = events
            .iter()
            .filter_map(|e| match e {
                Event::EmpireFounded {
                    empire,
                    field,
                    set_aside,
                } => Some((*empire, *field, set_aside.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            founded.iter().map(|f| f.0).collect::<Vec<_>>(),
            Empire::ALL.to_vec()
        );
        for (i, (_, field, aside)) in founded.iter().enumerate() {
            assert!(founded[..i]
                .iter()
                .all(|(_, f, _)| !map.adjacent(*f, *field)));
            for t in aside {
                assert!(founded[..i]
                    .iter()
                    .any(|(_, f, _)| map.adjacent(*f, t.cell())));
                set_aside_seen += 1;
                assert!(
                    s.tile_pile.contains(t) || s.players.iter().any(|p| p.tiles.contains(t)),
                    "set-aside tiles go back into the pile"
                );
            }
        }
        let mut used = s.used_tiles.clone();
        used.sort();
        let mut fields: Vec<Tile> = founded.iter().map(|f| Tile(f.1 .0)).collect();
        fields.sort();
        assert_eq!(used, fields);
        // The founding tiles leave play; only their four fields carry a chip.
        for t in &fields {
            assert!(!s.tile_pile.contains(t));
            assert!(s.players.iter().all(|p| !p.tiles.contains(t)));
        }
        let assigned: Vec<Tile> = Tile::all()
            .filter(|t| s.field(t.cell()).empire.is_some())
            .collect();
        assert_eq!(assigned, {
            let mut f = fields.clone();
            f.sort();
            f
        });
    }
    assert!(set_aside_seen > 0, "some seed sets a tile aside");
    // setup = fixed: orange 2, yellow 12, green 22, violet 30.
    let s = new_game(
        4,
        Config {
            setup: SetupMode::Fixed,
            ..Config::default()
        },
        9,
    );
    let fixture: Vec<_> = board().first_game_setup.iter().map(|t| t.0).collect();
    assert_eq!(fixture, [2, 12, 22, 30]);
    for (e, n) in Empire::ALL.iter().zip(fixture) {
        assert_eq!(s.field(Cell(n)).empire, Some(*e));
    }
}

/// TR-SETUP-3, TR-SETUP-4, TR-P1-1: 4 tiles per hand, 12 (4 players) or 16 (3 players) in the
/// pile; the shuffled cards are dealt 10 or 12 each in round 1; the discard pile starts empty.
#[test]
fn tr_setup_3_and_tr_setup_4_hands_piles_and_the_first_deal() {
    for (players, pile, dealt) in [(4, 12, 10), (3, 16, 12)] {
        let events = Tyros::setup(&Config::default(), players, &mut rng(5)).unwrap();
        let last_deal = events
            .iter()
            .rposition(|e| matches!(e, Event::TilesDealt { .. }))
            .unwrap();
        let dealt_tiles = Tyros::replay(&events[..=last_deal]);
        assert_eq!(dealt_tiles.tile_pile.len(), pile);
        assert!(dealt_tiles.players.iter().all(|p| p.tiles.len() == 4));
        // Hands, pile and the 4 founding tiles hold each of the 32 tiles once.
        let mut all: Vec<Tile> = dealt_tiles.tile_pile.clone();
        for p in &dealt_tiles.players {
            all.extend(&p.tiles);
        }
        all.extend(&dealt_tiles.used_tiles);
        all.sort();
        assert_eq!(all, Tile::all().collect::<Vec<_>>());
        // The hands are hidden: another seat sees only their size.
        let view = Tyros::view(&dealt_tiles, crate::Viewer::Seat(crate::Seat(0)));
        assert_eq!(view.players[1].tiles, None);
        assert_eq!(view.players[1].tiles_in_hand, 4);
        assert_eq!(
            view.players[0].tiles.as_ref(),
            Some(&dealt_tiles.players[0].tiles)
        );

        let s = Tyros::replay(&events);
        assert!(events
            .iter()
            .any(|e| matches!(e, Event::DrawPileShuffled { cards: 60, .. })));
        for seat in s.seats() {
            assert_eq!(s.player(seat).cards.total(), dealt);
        }
        assert!(s.discard_pile.is_empty());
        assert_eq!(s.draw_pile.len(), 60 - players * dealt as usize);
        assert!(matches!(s.phase, Phase::Expansion { .. }));
    }
}

/// TR-SETUP-5, TR-RND-2: the start player is drawn at random and Phase 2 begins with it.
#[test]
fn tr_setup_5_a_random_start_player_opens_round_one() {
    let mut seen = [false; 4];
    for seed in 0..40 {
        let s = new_game(4, Config::default(), seed);
        seen[s.start_player.index()] = true;
        assert_eq!(s.round, 1);
        let first = Tyros::active_seats(&s)[0];
        assert!(first == s.start_player || !matches!(s.phase, Phase::Expansion { step: 0, .. }));
    }
    assert!(seen.iter().all(|&x| x));
}

/// §12: defaults, unknown keys refused, contradictions refused as `invalid_config`, every
/// option documented with its provenance in the schema.
#[test]
fn the_config_refuses_unknown_keys_and_contradictions() {
    let tyros = registry::find("tyros").unwrap();
    let info = tyros.info();
    assert_eq!((info.min_seats, info.max_seats), (3, 4));
    assert_eq!(info.default_config["reshuffle_rule"], "shuffle");
    assert_eq!(
        info.default_config["tiles_per_round"],
        json!({"3": 2, "4": 1})
    );
    let refuse = |config: serde_json::Value, players: usize| match tyros.setup(
        &config,
        players,
        &mut rng(1),
    ) {
        Err(GameError::InvalidConfig(why)) => why,
        other => panic!("{config} accepted: {:?}", other.map(|_| ())),
    };
    refuse(json!({"colour": "red"}), 4);
    refuse(json!({"pirates": "yes"}), 4);
    refuse(json!({}), 5);
    assert!(refuse(json!({"ships_per_player": 1}), 4).contains("TR-SETUP-1"));
    assert!(refuse(json!({"tiles_in_hand": 8}), 4).contains("TR-SETUP-3"));
    assert!(refuse(json!({"tiles_per_round": {"3": 0, "4": 1}}), 3).contains("TR-P2-5"));
    assert!(refuse(json!({"trade_card_split": {}}), 4).contains("TR-COMP-7"));
    assert!(refuse(json!({"explorer_from_round": 0}), 4).contains("TR-AK-6"));
    // The fixture's fields touch on no layout of the data file.
    tyros
        .setup(
            &json!({"setup": "fixed", "desert_cell": "row3_col3"}),
            4,
            &mut rng(1),
        )
        .map(|_| ())
        .unwrap();
    let ok = tyros.setup(
        &json!({"pirates": true, "galleys": true, "action_cards": true,
        "bank_trade_once_per_round": true, "player_trade_free": true,
        "bonus_city_in_all_empires": 9, "reshuffle_rule": "flip_under"}),
        3,
        &mut rng(1),
    );
    assert!(
        ok.is_ok(),
        "TR-D-17: every combination of the variants is playable"
    );
}

/// §12: the schema documents every option with its provenance.
#[cfg(feature = "openapi")]
#[test]
fn every_config_option_names_its_provenance_in_the_schema() {
    let schemas = crate::openapi::game_schemas();
    let config = &schemas.iter().find(|(n, _)| n == "TyrosConfig").unwrap().1;
    let json = serde_json::to_value(config).unwrap();
    let props = json["properties"].as_object().unwrap();
    assert_eq!(
        props.len(),
        serde_json::to_value(Config::default())
            .unwrap()
            .as_object()
            .unwrap()
            .len()
    );
    for (name, p) in props {
        let text = p.to_string();
        assert!(
            ["SEED", "SOURCED", "RECONSTRUCTED"]
                .iter()
                .any(|tag| text.contains(tag)),
            "option {name} names no provenance: {text}"
        );
    }
    let names: Vec<&str> = schemas.iter().map(|(n, _)| n.as_str()).collect();
    for name in [
        "TyrosAction",
        "TyrosEvent",
        "TyrosView",
        "TyrosConfig",
        "TyrosCell",
        "TyrosTile",
        "TyrosCards",
    ] {
        assert!(names.contains(&name), "{name} missing");
    }
    let action = &schemas.iter().find(|(n, _)| n == "TyrosAction").unwrap().1;
    assert!(serde_json::to_value(action).unwrap().get("oneOf").is_some());
}
