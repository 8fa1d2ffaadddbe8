//! Spec §1 (components and constants) and §2 (the map), read from the data file.

use super::support::*;
use crate::tyros::cards::{Card, Cards};
use crate::tyros::data::{board, Cell, DesertCell, SeaCell, FIELD_COUNT};
use crate::tyros::{Config, Tyros};
use crate::{Game, Seat};

/// TR-COMP-1, TR-COMP-2, TR-COMP-3, TR-COMP-4, TR-COMP-5, TR-COMP-6, TR-COMP-7, TR-COMP-9,
/// TR-COMP-10, TR-COMP-11, TR-COMP-12, TR-COMP-13: the data file's constants are the spec's,
/// and the config defaults read them.
#[test]
fn tr_comp_constants_match_the_spec_and_are_the_config_defaults() {
    let c = &board().constants;
    assert_eq!(Tyros::seat_range(), 3..=4);
    assert_eq!((c.ships_per_player, c.ships_in_tyros_at_start), (10, 2));
    assert_eq!(c.cities_per_player, 10);
    assert_eq!((c.landscape_tiles, c.founding_tiles), (32, 4));
    assert_eq!(c.trade_cards_total, 60);
    assert_eq!(c.trade_card_split, Cards::from_array([12; 5]));
    assert_eq!(c.trade_card_split.total(), u32::from(c.trade_cards_total));
    assert_eq!((c.cards_dealt.three, c.cards_dealt.four), (12, 10));
    assert_eq!(c.cards_kept, 3);
    assert_eq!(c.tiles_in_hand, 4);
    assert_eq!((c.tiles_per_round.three, c.tiles_per_round.four), (2, 1));
    let d = Config::default();
    assert_eq!(d.trade_card_split, c.trade_card_split);
    assert_eq!(d.cards_dealt, c.cards_dealt);
    assert_eq!(d.tiles_per_round, c.tiles_per_round);
    assert_eq!(
        (d.cards_kept, d.tiles_in_hand, d.cities_per_player),
        (3, 4, 10)
    );
    assert_eq!(d.ships_per_player(4), 10);
    // TR-COMP-5: empire chips are not modelled; one empire may grow past 20 fields.
    let mut s = table(4, Config::default());
    let all: Vec<String> = (1..=29).map(|n| n.to_string()).collect();
    let ids: Vec<&str> = all.iter().map(String::as_str).collect();
    empire(&mut s, crate::tyros::Empire::Orange, &ids);
    assert_eq!(s.empire_sizes()[0], 29);
    // TR-COMP-13: one start player.
    let s = new_game(4, Config::default(), 3);
    assert!(s.start_player.index() < 4);
}

/// TR-COMP-8, TR-D-14: jokers are wild for colour costs; with `jokers_wild` off they are not.
#[test]
fn tr_comp_8_jokers_are_wild_for_colour_costs() {
    let d = Config::default();
    assert!(d.jokers_wild && d.pays_colour(Card::Joker, Card::Green));
    let off = Config {
        jokers_wild: false,
        ..d
    };
    assert!(!off.pays_colour(Card::Joker, Card::Green));
    assert!(off.pays_colour(Card::Green, Card::Green));
}

/// TR-MAP-1, TR-MAP-2, TR-MAP-3, TR-MAP-4, TR-D-1: a 5 × 7 grid of 32 fields, Tyros, desert and
/// sea; orthogonal adjacency as the data file lists it; the checks of TR-MAP-3.
#[test]
fn tr_map_the_grid_and_its_adjacency_come_from_the_data_file() {
    let b = board();
    let map = b.map(DesertCell::default(), SeaCell::default());
    assert_eq!(map.grid.len(), 5);
    assert!(map.grid.iter().all(|row| row.len() == 7));
    let ids: Vec<&String> = map.grid.iter().flatten().collect();
    assert_eq!(ids.len(), 35);
    for special in ["TY", "SEA", "DES"] {
        assert_eq!(ids.iter().filter(|i| **i == special).count(), 1);
    }
    assert_eq!(Cell::fields().count(), FIELD_COUNT);
    for (id, listed) in &b.listed_adjacency {
        let cell = cell(id);
        let mut computed: Vec<String> = map.neighbours(cell).map(|c| c.to_string()).collect();
        let mut listed = listed.clone();
        computed.sort();
        listed.sort();
        assert_eq!(computed, listed, "adjacency of {id}");
    }
    let ty = Cell::TYROS;
    assert!(map.adjacent(ty, cell("31")) && map.adjacent(ty, cell("32")));
    assert!(!map.adjacent(cell("22"), cell("28")), "no diagonals");
    for (id, d) in &b.distances_from_tyros {
        assert_eq!(map.distance(ty, cell(id)), Some(*d), "TY→{id}");
    }
    assert_eq!(map.distance(ty, cell("9")), Some(7));
    assert_eq!(map.distance(ty, cell("29")), Some(3));
    // TR-MAP-4: desert and sea are not cells; nothing is adjacent to them.
    assert!(serde_json::from_value::<Cell>(serde_json::json!("SEA")).is_err());
    assert!(serde_json::from_value::<Cell>(serde_json::json!("DES")).is_err());
}

/// TR-MAP-2, TR-MAP-4: a path steps only horizontally or vertically; Tyros is passed through
/// (its cell costs a card of the destination's colour like any other), holds any number of
/// ships, and is never a destination nor a city site.
#[test]
fn tr_map_4_tyros_is_passed_through_never_a_destination_and_holds_any_number_of_ships() {
    use crate::tyros::errors as e;
    use crate::tyros::Action;
    use serde_json::json;
    let mut s = table(4, Config::default());
    empire(
        &mut s,
        crate::tyros::Empire::Green,
        &["31", "32", "22", "26"],
    );
    let w = ship(&mut s, W, "31");
    let t = ship(&mut s, W, "TY");
    for seat in [W, R, R, G] {
        ship(&mut s, seat, "TY");
    }
    hand(&mut s, W, json!({"green": 7}));
    refused(&mut s, W, move_by(w, &["TY"]), e::INVALID_DESTINATION);
    refused(
        &mut s,
        W,
        Action::FoundCity { ship: t },
        e::NOT_AN_EMPIRE_FIELD,
    );
    // No diagonal step: 22 and 26 touch only at a corner.
    let g = ship(&mut s, W, "22");
    refused(&mut s, W, move_by(g, &["26"]), e::INVALID_PATH);
    accepted(&mut s, W, move_by(w, &["TY", "32"]));
    assert_eq!(s.ship(w).at, Some(cell("32")));
    assert_eq!(held(&s, W), cards(json!({"green": 5})), "2 cells, 2 green");
    assert_eq!(s.ships_at(Cell::TYROS).count(), 5, "no limit in Tyros");
    assert!(s.field(Cell::TYROS).empire.is_none() && s.field(Cell::TYROS).city.is_none());
}

/// TR-MAP-3, TR-D-1: the alternatives of the data file are selectable; fields are renumbered
/// column by column around the moved cell.
#[test]
fn tr_map_3_the_desert_and_sea_alternatives_move_and_renumber() {
    let b = board();
    let sea5 = b.map(DesertCell::default(), SeaCell::Row5Col6);
    assert_eq!(sea5.grid[3][5], "28");
    assert_eq!(sea5.grid[4][5], "SEA");
    let desert = b.map(DesertCell::Row1Col3, SeaCell::default());
    let col = |m: &crate::tyros::data::Map, c: usize| -> Vec<String> {
        m.grid.iter().map(|row| row[c].clone()).collect()
    };
    assert_eq!(col(desert, 1), ["6", "7", "8", "9", "10"]);
    assert_eq!(col(desert, 2), ["DES", "11", "12", "13", "14"]);
    assert_eq!(
        col(b.map(DesertCell::Row3Col3, SeaCell::default()), 2),
        ["11", "12", "DES", "13", "14"]
    );
    // Fields 13–32 keep their cells.
    let default = b.map(DesertCell::default(), SeaCell::default());
    for r in 0..5 {
        for c in 2..7 {
            if default.grid[r][c].parse::<u8>().is_ok_and(|n| n >= 13) {
                assert_eq!(desert.grid[r][c], default.grid[r][c]);
            }
        }
    }
    // A game played on it.
    let config = Config {
        desert_cell: DesertCell::Row2Col3,
        sea_cell: SeaCell::Row5Col6,
        ..Config::default()
    };
    let s = new_game(3, config, 4);
    assert_eq!(s.map().grid[1][2], "DES");
}

/// TR-MAP-5: the fields are connected without Tyros on every layout with the default sea, so a
/// neutral field next to an empire exists while any field is neutral. The data file's
/// alternative `sea_at_row5` cuts off exactly field 32, which then touches only Tyros.
#[test]
fn tr_map_5_fields_are_connected_without_tyros_except_32_with_the_sea_in_row_5() {
    for desert in DesertCell::ALL {
        assert!(board()
            .map(desert, SeaCell::Row4Col6)
            .fields_connected_without_tyros());
        let cut = board().map(desert, SeaCell::Row5Col6);
        assert!(!cut.fields_connected_without_tyros());
        assert_eq!(
            cut.neighbours(cell("32")).collect::<Vec<_>>(),
            vec![crate::tyros::data::Cell::TYROS]
        );
    }
    let mut s = table(4, Config::default());
    empire(&mut s, crate::tyros::Empire::Green, &["5"]);
    assert!(crate::tyros::data::Tile::all().any(|t| s.placeable(t)));
    assert_eq!(Tyros::active_seats(&s), vec![Seat(W)]);
}

/// TR-COMP-7, TR-D-2: the card split is an option; the deck holds exactly the split.
#[test]
fn tr_d_2_a_custom_card_split_makes_the_deck() {
    let split = Cards::from_array([10, 10, 10, 10, 20]);
    let s = new_game(
        4,
        Config {
            trade_card_split: split,
            ..Config::default()
        },
        6,
    );
    let mut all = Cards::count(&s.draw_pile).plus(&Cards::count(&s.discard_pile));
    for p in &s.players {
        all = all.plus(&p.cards);
    }
    assert_eq!(all, split);
}
