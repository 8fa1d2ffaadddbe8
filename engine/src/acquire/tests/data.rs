//! The data file's tables: board, tiles, constants and prices (spec §1, Info card).

use super::support::chain;
use crate::acquire::data::*;

#[test]
fn aq_comp_2_aq_comp_3_board_is_12_by_9_with_108_distinct_tiles() {
    let b = board();
    assert_eq!((b.columns, b.rows, b.tile_count), (12, 9, 108));
    let names: std::collections::BTreeSet<String> = Tile::all().map(|t| t.to_string()).collect();
    assert_eq!(names.len(), 108);
    assert!(names.contains("1A") && names.contains("12I") && names.contains("9F"));
}

#[test]
fn aq_comp_4_adjacency_is_orthogonal_only() {
    let t = |s: &str| s.parse::<Tile>().unwrap();
    let mut n: Vec<String> = t("2B").neighbours().map(|x| x.to_string()).collect();
    n.sort();
    assert_eq!(n, vec!["1B", "2A", "2C", "3B"]);
    assert_eq!(t("1A").neighbours().count(), 2);
    assert_eq!(t("12I").neighbours().count(), 2);
    assert!(!t("1A").neighbours().any(|x| x == t("2B")), "diagonal");
}

/// AQ-COMP-1 (2–6 players), AQ-COMP-5 (hand of 6), AQ-COMP-6 (6000 start cash), AQ-COMP-8 (at
/// most 7 chains), AQ-COMP-9 (25 shares), AQ-COMP-10 and AQ-COMP-11 (safe at 11, end at 41),
/// AQ-COMP-12 (3 shares a turn), AQ-COMP-13 (1 founder's share), AQ-COMP-14 (trade 2 for 1).
#[test]
fn the_data_files_constants_are_the_seeds() {
    let c = &board().constants;
    assert_eq!((c.players_min, c.players_max), (2, 6));
    assert_eq!(c.hand_size, 6);
    assert_eq!(c.start_cash, 6000);
    assert_eq!(c.shares_per_chain, 25);
    assert_eq!((c.safe_size, c.end_size), (11, 41));
    assert_eq!(c.max_shares_bought_per_turn, 3);
    assert_eq!(c.founder_bonus_shares, 1);
    assert_eq!(
        (c.trade_ratio.give_defunct, c.trade_ratio.get_survivor),
        (2, 1)
    );
    assert_eq!(c.max_active_chains, CHAIN_COUNT);
}

#[test]
fn aq_comp_7_aq_comp_8_price_table_follows_the_derived_formula_in_every_cell() {
    let b = board();
    let c = &b.constants;
    let bracket = |size: u8| match size {
        2 => 0,
        3 => 1,
        4 => 2,
        5 => 3,
        6..=10 => 4,
        11..=20 => 5,
        21..=30 => 6,
        31..=40 => 7,
        _ => 8,
    };
    let tiers: Vec<u8> = b.chains.iter().map(|c| c.tier).collect();
    assert_eq!(tiers, vec![1, 1, 2, 2, 2, 3, 3]);
    // AQ-COMP-8: 7 chains; the tiers of the Info card by name.
    assert_eq!(Chain::all().count(), 7);
    for (id, tier) in [
        ("airport", 1),
        ("festival", 1),
        ("imperial", 2),
        ("luxor", 2),
        ("oriental", 2),
        ("prestige", 3),
        ("continental", 3),
    ] {
        assert_eq!(b.chain(chain(id)).tier, tier, "{id}");
    }
    // AQ-COMP-7: the money unit is 100, and every price and both bonuses are multiples of it.
    assert_eq!(c.money_unit, 100);
    for ch in Chain::all() {
        assert_eq!(b.prices(ch, 1), None);
        for size in 2..=108u8 {
            let p = b.prices(ch, size).unwrap();
            let expect = 200 + 100 * bracket(size) + 100 * (i32::from(b.chain(ch).tier) - 1);
            assert_eq!(p.price, expect, "{ch} at {size}");
            assert_eq!(p.majority_bonus, c.majority_multiplier * p.price);
            assert_eq!(p.minority_bonus, c.minority_multiplier * p.price);
            assert_eq!(p.price % c.money_unit, 0);
            assert_eq!(p.majority_bonus % c.money_unit, 0, "{ch} at {size}");
            assert_eq!(p.minority_bonus % c.money_unit, 0, "{ch} at {size}");
        }
    }
}

#[test]
fn aq_ex_3_prices_from_the_info_card() {
    let b = board();
    for (id, size, price) in [
        ("festival", 2, 200),
        ("imperial", 5, 600),
        ("luxor", 15, 800),
        ("prestige", 2, 400),
        ("continental", 35, 1100),
        ("airport", 41, 1000),
        ("oriental", 41, 1100),
    ] {
        assert_eq!(b.price(chain(id), size), price, "{id} {size}");
    }
    // The Info card's last row (not in the spec's table of §2): Prestige and Continental at 41
    // and more cost 1200, with bonuses 12000 and 6000.
    for id in ["prestige", "continental"] {
        let p = b.prices(chain(id), 41).unwrap();
        assert_eq!(
            (p.price, p.majority_bonus, p.minority_bonus),
            (1200, 12000, 6000),
            "{id}"
        );
    }
}

#[test]
fn ids_round_trip_through_json() {
    let t: Tile = serde_json::from_str("\"9F\"").unwrap();
    assert_eq!((t.column(), t.row()), (9, 5));
    assert_eq!(serde_json::to_string(&t).unwrap(), "\"9F\"");
    assert!(serde_json::from_str::<Tile>("\"13A\"").is_err());
    assert!(serde_json::from_str::<Tile>("\"1J\"").is_err());
    let c: Chain = serde_json::from_str("\"luxor\"").unwrap();
    assert_eq!(serde_json::to_string(&c).unwrap(), "\"luxor\"");
    assert!(serde_json::from_str::<Chain>("\"tower\"").is_err());
}
