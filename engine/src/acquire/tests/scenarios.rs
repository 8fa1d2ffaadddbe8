//! The spec's worked examples AQ-EX-1..13, which restate the seed's own examples (HK §3, §4.1,
//! §4.3, §4.5, §6) and the project's decisions.

use super::support::*;
use crate::acquire::state::{Cell, State, Step};
use crate::acquire::{Acquire, Action, Config, DefunctOrder, EndRule, Event};
use crate::{Game, Seat};

#[test]
fn aq_ex_1_adjacency_1a_2b_is_diagonal_and_2c_founds_a_chain_of_2() {
    let mut state = table(3);
    put(&mut state, &["1A", "2B"]);
    assert_eq!(state.active_chains().count(), 0, "diagonal: no chain");
    give_tiles(&mut state, 0, &["2C", "3B", "1B", "2A"]);
    for (t, size) in [("2C", 2), ("3B", 2), ("1B", 3), ("2A", 3)] {
        let mut s = state.clone();
        accepted(&mut s, 0, found(t, "luxor"));
        assert_eq!(s.chain(chain("luxor")).size, size, "{t}");
        assert_eq!(s.cell(tile("1A")) == Cell::Unincorporated, size == 2, "{t}");
    }
    // With 2B+2C already a chain, 1B or 2A grows it to 4 (absorbing 1A).
    let mut s = table(3);
    put(&mut s, &["1A"]);
    put_chain(&mut s, "luxor", &["2B", "2C"]);
    give_tiles(&mut s, 0, &["1B"]);
    let events = accepted(&mut s, 0, place("1B"));
    assert!(matches!(&events[1], Event::ChainGrew { tiles, .. } if tiles.len() == 2));
    assert_eq!(s.chain(chain("luxor")).size, 4);
    assert_eq!(
        s.cell(tile("1A")),
        Cell::Chain(chain("luxor")),
        "absorbs 1A"
    );
}

#[test]
fn aq_ex_2_start_tiles_2b_before_2e_before_3a_and_5c_6c_form_no_chain() {
    assert!(tile("2B") < tile("2E") && tile("2E") < tile("3A"));
    assert!(tile("1B") < tile("9A"));
    let mut state = table(3);
    put(&mut state, &["5C", "6C"]);
    assert_eq!(state.active_chains().count(), 0);
    give_tiles(&mut state, 0, &["7C"]);
    let events = accepted(&mut state, 0, found("7C", "festival"));
    assert!(matches!(
        &events[1],
        Event::ChainFounded { tiles, free_share: true, .. } if tiles.len() == 3
    ));
    assert_eq!(shares(&state, 0, "festival"), 1);
}

#[test]
fn aq_ex_4_bonus_splits_with_rounding_up_to_100() {
    type Case<'a> = (&'a str, u8, &'a [(u8, u8)], &'a [(u8, i32)]);
    let cases: [Case; 6] = [
        ("oriental", 3, &[(0, 4)], &[(0, 6000)]),
        (
            "imperial",
            7,
            &[(0, 5), (1, 3), (2, 1)],
            &[(0, 7000), (1, 3500)],
        ),
        (
            "airport",
            3,
            &[(0, 2), (1, 2), (2, 1)],
            &[(0, 2300), (1, 2300)],
        ),
        (
            "luxor",
            6,
            &[(0, 5), (1, 3), (2, 3)],
            &[(0, 7000), (1, 1800), (2, 1800)],
        ),
        (
            "festival",
            2,
            &[(0, 4), (1, 1), (2, 1), (3, 1)],
            &[(0, 2000), (1, 400), (2, 400), (3, 400)],
        ),
        (
            "airport",
            5,
            &[(0, 3), (1, 3), (2, 3), (3, 3)],
            &[(0, 1900), (1, 1900), (2, 1900), (3, 1900)],
        ),
    ];
    for (id, size, holdings, expect) in cases {
        let mut state = two_chain_merger(4, id, size, holdings);
        let events = accepted(&mut state, 0, place("1B"));
        let mut got = payouts(&events, id);
        got.sort();
        assert_eq!(got, expect.to_vec(), "{id} {size}");
        // Paid into cash; a holder not listed (C in rows 2 and 3) gets nothing.
        for seat in 0..4u8 {
            let bonus = expect
                .iter()
                .find(|(s, _)| *s == seat)
                .map_or(0, |(_, a)| *a);
            assert_eq!(cash(&state, seat), 6000 + bonus, "{id} {size} seat {seat}");
        }
    }
}

#[test]
fn aq_ex_5_seed_two_player_example_11_5_and_bank_9() {
    for (bank_tile, expect) in [
        ("9F", vec![(0, 7000)]),
        ("11F", vec![(0, 5300)]),
        ("12F", vec![(0, 3500)]),
    ] {
        let mut state = two_chain_merger(2, "luxor", 6, &[(0, 11), (1, 5)]);
        bag_top(&mut state, bank_tile);
        let events = accepted(&mut state, 0, place("1B"));
        assert_eq!(payouts(&events, "luxor"), expect, "bank tile {bank_tile}");
        let bank_award = events.iter().find_map(|e| match e {
            Event::BonusesPaid { bank_award, .. } => Some(*bank_award),
            _ => None,
        });
        let expect_bank = match bank_tile {
            "9F" => 3500,
            "11F" => 5300,
            _ => 7000,
        };
        assert_eq!(
            bank_award,
            Some(expect_bank),
            "AQ-BONUS-6: the bank's share is not paid"
        );
        // B gets 0: only A's bonus reaches a player's cash.
        assert_eq!(cash(&state, 0), 6000 + expect[0].1, "bank tile {bank_tile}");
        assert_eq!(cash(&state, 1), 6000, "bank tile {bank_tile}");
        // Then A and B dispose, then 9F is placed, then A buys.
        assert_eq!(Acquire::active_seats(&state), vec![Seat(0)]);
        accepted(&mut state, 0, Action::DisposeShares { sell: 11, trade: 0 });
        assert_eq!(Acquire::active_seats(&state), vec![Seat(1)]);
        assert_eq!(state.cell(tile(bank_tile)), Cell::Empty);
        let events = accepted(&mut state, 1, Action::DisposeShares { sell: 0, trade: 4 });
        assert!(events.contains(&Event::BankTilePlaced {
            tile: tile(bank_tile)
        }));
        assert_eq!(state.cell(tile(bank_tile)), Cell::Unincorporated);
        assert_eq!(step(&state), Step::Buy);
        assert_eq!(Acquire::active_seats(&state), vec![Seat(0)]);
    }
}

#[test]
fn aq_ex_6_three_chain_merger_settles_festival_then_airport() {
    let mut state = three_chain_table(Config::default());
    let events = accepted(&mut state, 0, place("6E"));
    assert!(events.contains(&Event::SurvivorChosen {
        chain: chain("luxor")
    }));
    assert_eq!(payouts(&events, "festival"), vec![(0, 3000), (1, 1500)]);
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::BonusesPaid { chain: c, .. } if *c == chain("airport"))));
    accepted(&mut state, 0, Action::DisposeShares { sell: 3, trade: 0 });
    let events = accepted(&mut state, 1, Action::DisposeShares { sell: 0, trade: 0 });
    assert_eq!(payouts(&events, "airport"), vec![(1, 3800), (2, 3800)]);
    assert_eq!(
        Acquire::active_seats(&state),
        vec![Seat(1)],
        "maker holds no Airport"
    );
    accepted(&mut state, 1, Action::DisposeShares { sell: 4, trade: 0 });
    accepted(&mut state, 2, Action::DisposeShares { sell: 0, trade: 4 });
    assert_eq!(state.chain(chain("luxor")).size, 16);
    assert_eq!(state.price(chain("luxor")), 800);
    assert_eq!(step(&state), Step::Buy);
    let events = accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    assert_eq!(
        events,
        vec![Event::ShareBought {
            seat: Seat(0),
            chain: chain("luxor"),
            price: 800
        }]
    );

    // largestFirst (AQ-D2 option): Airport first.
    let mut state = three_chain_table(Config {
        defunct_order: DefunctOrder::LargestFirst,
        ..Config::default()
    });
    let events = accepted(&mut state, 0, place("6E"));
    assert_eq!(payouts(&events, "airport"), vec![(1, 3800), (2, 3800)]);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::BonusesPaid { chain: c, .. } if *c == chain("festival"))),
        "Festival waits for Airport's disposal"
    );
}

#[test]
fn aq_ex_6_sizes_5_5_3_maker_picks_survivor_and_the_3_chain_goes_first() {
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["1E", "2E", "3E", "4E", "5E"]);
    put_chain(&mut state, "airport", &["7E", "8E", "9E", "10E", "11E"]);
    put_chain(&mut state, "festival", &["6F", "6G", "6H"]);
    give_tiles(&mut state, 0, &["6E"]);
    let events = accepted(&mut state, 0, place("6E"));
    assert!(matches!(events.last(), Some(Event::MergerStarted { .. })));
    let legal = Acquire::legal_actions(&state, Seat(0));
    assert_eq!(
        legal,
        vec![
            Action::ChooseSurvivor {
                chain: chain("luxor")
            },
            Action::ChooseSurvivor {
                chain: chain("airport")
            },
        ]
    );
    let events = accepted(
        &mut state,
        0,
        Action::ChooseSurvivor {
            chain: chain("airport"),
        },
    );
    match &events[1] {
        Event::DefunctsOrdered { order } => {
            let o: Vec<_> = order.iter().map(|c| c.chain).collect();
            assert_eq!(o, vec![chain("festival"), chain("luxor")]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        state.chain(chain("airport")).size,
        14,
        "no holders: settled at once"
    );
}

#[test]
fn aq_ex_7_disposal_with_limited_survivor_stock() {
    let mut state = two_chain_merger(3, "airport", 5, &[(0, 6), (1, 3)]);
    // The bank holds 2 Continental shares.
    give_shares(&mut state, 2, "continental", 23);
    accepted(&mut state, 0, place("1B"));
    refused(
        &state,
        0,
        Action::DisposeShares { sell: 0, trade: 6 },
        "acquire.survivor_stock_exhausted",
    );
    let before = cash(&state, 0);
    let airport_bank = state.chain(chain("airport")).bank_shares;
    accepted(&mut state, 0, Action::DisposeShares { sell: 2, trade: 4 });
    assert_eq!(cash(&state, 0), before + 1000);
    assert_eq!(shares(&state, 0, "continental"), 2);
    assert_eq!(state.chain(chain("continental")).bank_shares, 0);
    assert_eq!(shares(&state, 0, "airport"), 0);
    assert_eq!(state.chain(chain("airport")).bank_shares, airport_bank + 6);
    // An odd share can never be traded.
    refused(
        &state,
        1,
        Action::DisposeShares { sell: 0, trade: 1 },
        "acquire.odd_trade",
    );
    refused(
        &state,
        1,
        Action::DisposeShares { sell: 0, trade: 2 },
        "acquire.survivor_stock_exhausted",
    );
    let legal = Acquire::legal_actions(&state, Seat(1));
    assert_eq!(legal.len(), 4, "sell 0..=3, no trade: {legal:?}");
    let before = cash(&state, 1);
    // He may keep instead: keeping all 3 is listed.
    assert!(legal.contains(&Action::DisposeShares { sell: 0, trade: 0 }));
    accepted(&mut state, 1, Action::DisposeShares { sell: 3, trade: 0 });
    assert_eq!(cash(&state, 1), before + 1500);
}

#[test]
fn aq_ex_8_tile_between_two_safe_chains_is_dead_and_replaced_at_turn_end() {
    let mut state = safe_table();
    give_tiles(&mut state, 0, &["5B", "12H", "10G", "8G", "6G", "4G"]);
    refused(&state, 0, place("5B"), "acquire.unplayable_tile");
    accepted(&mut state, 0, place("12H"));
    bag_top(&mut state, "12G");
    let next = state.bag[state.bag.len() - 2];
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert_eq!(
        &events[..3],
        &[
            Event::TileDrawn {
                seat: Seat(0),
                tile: Some(tile("12G"))
            },
            Event::DeadTileRemoved {
                seat: Seat(0),
                tile: tile("5B")
            },
            Event::TileDrawn {
                seat: Seat(0),
                tile: Some(next)
            },
        ]
    );
    assert!(state.removed.contains(&tile("5B")));

    // Continental 12 and Festival 4: playable, Continental survives.
    let mut state = table(3);
    put_chain_tiles(&mut state, chain("continental"), &row('A', 1, 12));
    put_chain_tiles(&mut state, chain("festival"), &row('C', 1, 4));
    give_tiles(&mut state, 0, &["2B"]);
    accepted(&mut state, 0, place("2B"));
    assert_eq!(state.chain(chain("continental")).size, 17);
    assert!(
        !state.is_active(chain("festival")),
        "Festival is taken over"
    );
    assert_eq!(state.cell(tile("1C")), Cell::Chain(chain("continental")));

    // Continental, Imperial and a 3-tile Airport: unplayable.
    let mut state = table(3);
    put_chain(
        &mut state,
        "continental",
        &[
            "6D", "6C", "6B", "6A", "5A", "4A", "3A", "2A", "1A", "7A", "8A",
        ],
    );
    put_chain(
        &mut state,
        "imperial",
        &[
            "6F", "6G", "6H", "6I", "5I", "4I", "3I", "2I", "1I", "7I", "8I",
        ],
    );
    put_chain(&mut state, "airport", &["5E", "4E", "3E"]);
    give_tiles(&mut state, 0, &["6E"]);
    refused(&state, 0, place("6E"), "acquire.unplayable_tile");
}

/// Seven two-tile chains in columns 1-2, 4-5, ... on rows A and C, and a lone tile at 1I.
fn seven_chains() -> State {
    let mut state = table(3);
    put_seven_chains(&mut state);
    put(&mut state, &["1I"]);
    state
}

#[test]
fn aq_ex_9_eighth_chain_tile_waits_in_the_hand() {
    let mut state = seven_chains();
    give_tiles(&mut state, 1, &["1H"]);
    // Temporarily unplayable while all 7 names are in use.
    let mut turn_b = state.clone();
    give_turn(&mut turn_b, 1);
    refused(&turn_b, 1, place("1H"), "acquire.unplayable_tile");
    state.players[0].hand = vec![];
    give_tiles(&mut state, 0, &["12I"]);
    accepted(&mut state, 0, place("12I"));
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert!(events.contains(&Event::PlacementSkipped { seat: Seat(1) }));
    assert_eq!(step(&state), Step::Buy, "the player skips to buying");
    accepted(
        &mut state,
        1,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    let events = accepted(&mut state, 1, Action::EndTurn);
    assert!(
        !events.iter().any(|e| matches!(e, Event::TileDrawn { .. })),
        "draws nothing"
    );
    assert!(
        state.players[1].hand.contains(&tile("1H")),
        "AQ-DEAD-2: stays in hand"
    );
    // After a merger frees a name the tile is playable again.
    state.chains[0].size = 0;
    for t in row('A', 1, 2) {
        state.cells[t.index()] = Cell::Chain(chain("festival"));
    }
    state.chains[1].size += 2;
    give_turn(&mut state, 1);
    accepted(&mut state, 1, found("1H", "airport"));
}

#[test]
fn aq_ex_10_aq_d1_end_conditions_41_tiles_or_seven_safe_chains() {
    let mut state = table(3);
    put_chain_tiles(
        &mut state,
        chain("luxor"),
        &crate::acquire::Tile::all().take(41).collect::<Vec<_>>(),
    );
    to_buy_step(&mut state);
    assert!(Acquire::legal_actions(&state, Seat(0)).contains(&Action::AnnounceEnd));
    accepted(&mut state, 0, Action::EndTurn); // AQ-END-2: optional

    // Six safe chains, none with 41: not under the seed rule, yes under the standard rule.
    // Only sizes matter to the condition, so they are set directly.
    for (end_rule, sizes, expect) in [
        (EndRule::Seed, [11, 11, 11, 11, 11, 40, 0], false),
        (EndRule::Standard, [11, 11, 11, 11, 11, 40, 0], true),
        (EndRule::Seed, [11, 11, 11, 11, 11, 40, 12], true),
        (EndRule::Seed, [11, 11, 11, 11, 11, 40, 10], false),
        (EndRule::Standard, [11, 11, 11, 11, 11, 40, 10], false),
    ] {
        let mut state = table_with(
            3,
            Config {
                end_rule,
                ..Config::default()
            },
        );
        for (c, size) in state.chains.iter_mut().zip(sizes) {
            c.size = size;
        }
        assert_eq!(
            crate::acquire::rules::end_conditions_hold(&state),
            expect,
            "{end_rule:?} {sizes:?}"
        );
    }
}

#[test]
fn aq_ex_11_final_scoring_bonuses_then_sales_and_dead_shares_worth_nothing() {
    let mut state = table(3);
    let luxor: Vec<_> = crate::acquire::Tile::all().take(25).collect();
    put_chain_tiles(&mut state, chain("luxor"), &luxor);
    give_shares(&mut state, 0, "luxor", 10);
    give_shares(&mut state, 1, "luxor", 6);
    give_shares(&mut state, 2, "festival", 5);
    to_buy_step(&mut state);
    // No end condition holds at 25 tiles, so the game ends by a stall (AQ-END-5) here.
    state.idle_turns = 2;
    if let crate::acquire::state::Stage::Turn(t) = &mut state.stage {
        t.placed = false;
    }
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert_eq!(payouts(&events, "luxor"), vec![(0, 9000), (1, 4500)]);
    // Bonuses first, then the sales.
    let bonus_at = events
        .iter()
        .position(|e| matches!(e, Event::BonusesPaid { .. }))
        .unwrap();
    let first_sale = events
        .iter()
        .position(|e| matches!(e, Event::SharesSold { .. }))
        .unwrap();
    assert!(bonus_at < first_sale);
    assert!(events.contains(&Event::SharesSold {
        seat: Seat(1),
        chain: chain("luxor"),
        count: 6,
        price: 900,
        proceeds: 5400
    }));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::SharesSold { chain: c, .. } if *c == chain("festival"))),
        "kept Festival shares are not sold"
    );
    assert!(events.contains(&Event::SharesSold {
        seat: Seat(0),
        chain: chain("luxor"),
        count: 10,
        price: 900,
        proceeds: 9000
    }));
    assert_eq!(cash(&state, 0), 6000 + 9000 + 9000);
    assert_eq!(cash(&state, 1), 6000 + 4500 + 5400);
    assert_eq!(
        cash(&state, 2),
        6000,
        "Festival is not on the board: worth 0"
    );
    let outcome = Acquire::outcome(&state).unwrap();
    assert_eq!(outcome.winners, vec![Seat(0)]);
}

#[test]
fn aq_ex_12_two_player_bank_tile_founds_nothing_then_a_player_founds_three() {
    let mut state = two_chain_merger(2, "luxor", 2, &[]);
    put(&mut state, &["8H"]);
    bag_top(&mut state, "9H");
    let events = accepted(&mut state, 0, place("1B"));
    assert!(events.contains(&Event::BankTilePlaced { tile: tile("9H") }));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::ChainFounded { .. })));
    assert_eq!(state.cell(tile("9H")), Cell::Unincorporated);
    assert_eq!(state.cell(tile("8H")), Cell::Unincorporated);
    // Nobody gets a share: the bank still holds every share of every chain.
    for c in crate::acquire::data::Chain::all() {
        assert_eq!(state.chain(c).bank_shares, 25, "{c}");
    }
    accepted(&mut state, 0, Action::EndTurn);
    give_tiles(&mut state, 1, &["10H"]);
    give_turn(&mut state, 1);
    let events = accepted(&mut state, 1, found("10H", "prestige"));
    assert!(matches!(
        &events[1],
        Event::ChainFounded { seat: Seat(1), tiles, free_share: true, .. } if tiles.len() == 3
    ));
    assert_eq!(shares(&state, 1, "prestige"), 1);
    assert_eq!(state.chain(chain("prestige")).bank_shares, 24);
}

#[test]
fn aq_ex_13_founder_gets_no_share_when_players_kept_all_25() {
    let mut state = table(3);
    give_shares(&mut state, 1, "prestige", 20);
    give_shares(&mut state, 2, "prestige", 5);
    put(&mut state, &["5E"]);
    give_tiles(&mut state, 0, &["5F"]);
    let events = accepted(&mut state, 0, found("5F", "prestige"));
    assert!(matches!(
        &events[1],
        Event::ChainFounded {
            free_share: false,
            ..
        }
    ));
    assert_eq!(shares(&state, 0, "prestige"), 0);
    assert_eq!(
        state.price(chain("prestige")),
        400,
        "kept shares are live at the new price"
    );
    assert_eq!(
        (shares(&state, 1, "prestige"), shares(&state, 2, "prestige")),
        (20, 5),
        "nobody's kept shares move"
    );
    assert_eq!(state.chain(chain("prestige")).bank_shares, 0);
}
