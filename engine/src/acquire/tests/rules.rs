//! One test (at least) per rule of the spec, named after its ID, each citing the seed section
//! the rule comes from; refusals check the code and that nothing changed.

use super::scenarios::{payouts, safe_table, two_chain_merger};
use super::support::*;
use crate::acquire::data::board;
use crate::acquire::rules::bonus_awards;
use crate::acquire::state::{Cell, Stage, Step};
use crate::acquire::{Acquire, Action, Config, EndReason, Event};
use crate::{Game, Seat, Viewer};

fn step(state: &crate::acquire::State) -> Step {
    state.turn().unwrap().step
}

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
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
        "acquire.placement_required",
    );
    refused(&mut state, 0, Action::EndTurn, "acquire.placement_required");
    accepted(&mut state, 0, place("9A"));
    refused(&mut state, 0, place("9C"), "acquire.tile_already_placed");
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
    refused(&mut state, 1, Action::EndTurn, "not_your_turn");
}

// ---- Placing ----

#[test]
fn aq_place_1_tile_must_come_from_the_hand_even_without_money() {
    // HK §4.6: "kann zwar keine Aktien mehr kaufen, muß aber einen Stein spielen".
    let mut state = table(3);
    state.players[0].cash = 0;
    give_tiles(&mut state, 0, &["9A"]);
    refused(&mut state, 0, place("9B"), "acquire.tile_not_in_hand");
    refused(&mut state, 0, Action::EndTurn, "acquire.placement_required");
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
    give_tiles(&mut state, 0, &["1I", "3D", "8C", "9A"]);
    let mut s = state.clone();
    assert_eq!(accepted(&mut s, 0, place("1I")).len(), 1, "lone");
    let mut s = state.clone();
    refused(&mut s, 0, place("3D"), "acquire.chain_name_required");
    refused(
        &mut s,
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
    for (i, c) in crate::acquire::Chain::all().enumerate() {
        let col = 1 + 3 * (i as u8 % 4);
        put_chain_tiles(
            &mut state,
            c,
            &row(if i < 4 { 'A' } else { 'C' }, col, col + 1),
        );
    }
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
        &mut state,
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
    give_shares(&mut state, 2, "luxor", 25);
    accepted(&mut state, 0, found("3D", "luxor"));
    assert_eq!(shares(&state, 0, "luxor"), 0);
}

// ---- Mergers ----

#[test]
fn aq_merge_1_sizes_before_the_merging_tile_count() {
    // HK §4.2 "bevor der fusionierende Stein gespielt wurde", §4.5.
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["1A", "2A", "3A"]);
    put_chain(&mut state, "festival", &["1C", "2C", "3C"]);
    put(&mut state, &["5B"]);
    give_shares(&mut state, 1, "festival", 2);
    give_tiles(&mut state, 0, &["4B"]);
    // 4B touches neither chain; place 3B: touches 3A and 3C; 4B group is not counted.
    put(&mut state, &["4B"]);
    give_tiles(&mut state, 0, &["3B"]);
    let events = accepted(&mut state, 0, place("3B"));
    match &events[1] {
        Event::MergerStarted { chains, .. } => assert!(chains.iter().all(|c| c.size == 3)),
        e => panic!("{e:?}"),
    }
    assert_eq!(
        Acquire::legal_actions(&state, Seat(0)).len(),
        2,
        "a tie: maker chooses"
    );
    let events = accepted(
        &mut state,
        0,
        Action::ChooseSurvivor {
            chain: chain("luxor"),
        },
    );
    // Festival at its pre-merger size 3 (tier 1: 300): sole holder 3000 + 1500.
    assert_eq!(payouts(&events, "festival"), vec![(1, 4500)]);
    accepted(&mut state, 1, Action::DisposeShares { sell: 2, trade: 0 });
    assert_eq!(cash(&state, 1), 6000 + 4500 + 600);
    assert_eq!(state.chain(chain("luxor")).size, 3 + 3 + 1 + 2);
}

#[test]
fn aq_merge_2_largest_survives_and_maker_breaks_ties() {
    // HK §4.2: "entscheidet der Spieler, welche Kette die andere übernimmt".
    let mut state = two_chain_merger(3, "luxor", 3, &[]);
    let events = accepted(&mut state, 0, place("1B"));
    assert!(events.contains(&Event::SurvivorChosen {
        chain: chain("continental")
    }));
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["1A", "2A"]);
    put_chain(&mut state, "festival", &["1C", "2C"]);
    put_chain(&mut state, "airport", &["5A", "5B", "5C"]);
    give_tiles(&mut state, 0, &["1B"]);
    accepted(&mut state, 0, place("1B"));
    refused(
        &mut state,
        0,
        Action::ChooseSurvivor {
            chain: chain("airport"),
        },
        "acquire.not_largest_chain",
    );
    refused(
        &mut state,
        1,
        Action::ChooseSurvivor {
            chain: chain("luxor"),
        },
        "not_your_turn",
    );
    refused(&mut state, 0, Action::EndTurn, "acquire.merger_pending");
    refused(&mut state, 0, place("1B"), "acquire.merger_pending");
    refused(
        &mut state,
        0,
        Action::DisposeShares { sell: 0, trade: 0 },
        "acquire.no_merger_decision",
    );
    accepted(
        &mut state,
        0,
        Action::ChooseSurvivor {
            chain: chain("festival"),
        },
    );
    assert_eq!(state.chain(chain("festival")).size, 5);
}

#[test]
fn aq_merge_3_safe_chain_is_never_taken_over() {
    // HK §4.2: "sie kann dann nicht mehr von einer anderen Kette übernommen werden".
    let mut state = table(3);
    put_chain_tiles(&mut state, chain("airport"), &row('A', 1, 11));
    put_chain_tiles(&mut state, chain("luxor"), &row('C', 1, 10));
    give_tiles(&mut state, 0, &["1B"]);
    let events = accepted(&mut state, 0, place("1B"));
    assert!(events.contains(&Event::SurvivorChosen {
        chain: chain("airport")
    }));
}

#[test]
fn aq_merge_4_aq_d2_smallest_first_and_maker_orders_equal_chains() {
    // HK §4.5: "Zuerst ... die kleinste der übernommenen Ketten".
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["1E", "2E", "3E", "4E", "5E", "1D"]);
    put_chain(&mut state, "airport", &["7E", "8E"]);
    put_chain(&mut state, "festival", &["6F", "6G"]);
    give_tiles(&mut state, 0, &["6E"]);
    give_shares(&mut state, 1, "airport", 1);
    accepted(&mut state, 0, place("6E"));
    let legal = Acquire::legal_actions(&state, Seat(0));
    assert_eq!(legal.len(), 2, "{legal:?}");
    refused(
        &mut state,
        0,
        Action::OrderDefuncts {
            order: vec![chain("airport"), chain("luxor")],
        },
        "acquire.invalid_defunct_order",
    );
    refused(
        &mut state,
        0,
        Action::OrderDefuncts {
            order: vec![chain("airport")],
        },
        "acquire.invalid_defunct_order",
    );
    let events = accepted(
        &mut state,
        0,
        Action::OrderDefuncts {
            order: vec![chain("airport"), chain("festival")],
        },
    );
    assert_eq!(payouts(&events, "airport"), vec![(1, 3000)]);
}

#[test]
fn aq_merge_6_defunct_name_is_free_and_all_tiles_join_the_survivor() {
    // HK §4.2: "Der Markierungsstein der aufgelösten Kette wird ... zurückgegeben."
    let mut state = two_chain_merger(3, "luxor", 2, &[]);
    put(&mut state, &["2B"]);
    accepted(&mut state, 0, place("1B"));
    assert!(!state.is_active(chain("luxor")));
    for t in ["1A", "2A", "1B", "2B", "1C"] {
        assert_eq!(
            state.cell(tile(t)),
            Cell::Chain(chain("continental")),
            "{t}"
        );
    }
    assert_eq!(state.chain(chain("continental")).size, 3 + 2 + 2);
    put(&mut state, &["9H"]);
    give_tiles(&mut state, 1, &["9I"]);
    accepted(&mut state, 0, Action::EndTurn);
    give_turn(&mut state, 1);
    accepted(&mut state, 1, found("9I", "luxor"));
}

#[test]
fn aq_merge_7_maker_buys_after_all_disposal_at_the_new_size() {
    // Avalon Hill FAQ: the merger maker buys after every holder has disposed.
    let mut state = two_chain_merger(3, "luxor", 5, &[(1, 2)]);
    accepted(&mut state, 0, place("1B"));
    assert_eq!(Acquire::active_seats(&state), vec![Seat(1)]);
    refused(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("continental"),
        },
        "not_your_turn",
    );
    accepted(&mut state, 1, Action::DisposeShares { sell: 0, trade: 2 });
    assert_eq!(Acquire::active_seats(&state), vec![Seat(0)]);
    let events = accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("continental"),
        },
    );
    // Continental 6 + 5 + 1 = 12 tiles, tier 3: 900.
    assert!(matches!(events[0], Event::ShareBought { price: 900, .. }));
}

// ---- Bonuses ----

fn awards(price: i32, holdings: &[(u8, u8)]) -> Vec<i32> {
    let prices = crate::acquire::data::Prices {
        price,
        majority_bonus: 10 * price,
        minority_bonus: 5 * price,
    };
    let h: Vec<_> = holdings.iter().map(|&(s, n)| (Some(Seat(s)), n)).collect();
    let mut out = vec![0; holdings.len()];
    for (seat, _, amount) in bonus_awards(prices, &h) {
        out[seat.unwrap().index()] = amount;
    }
    out
}

#[test]
fn aq_bonus_1_sole_holder_gets_both() {
    // HK §4.3: "Besitzt nur ein Spieler Aktien ..., so erhält er beide Prämien."
    assert_eq!(awards(400, &[(0, 4), (1, 0)]), vec![6000, 0]);
}

#[test]
fn aq_bonus_2_first_and_second() {
    // HK §4.3.
    assert_eq!(awards(700, &[(0, 5), (1, 3), (2, 1)]), vec![7000, 3500, 0]);
}

#[test]
fn aq_bonus_3_aq_d8_tie_for_first_pools_both_and_rounds_up() {
    // HK §4.3: "erhalten die Aktionäre die nächst höhere Summe"; 3+ tied: AQ-D8.
    assert_eq!(awards(300, &[(0, 2), (1, 2), (2, 1)]), vec![2300, 2300, 0]);
    assert_eq!(
        awards(500, &[(0, 3), (1, 3), (2, 3), (3, 3)]),
        vec![1900; 4]
    );
    assert_eq!(
        awards(200, &[(0, 1), (1, 1), (2, 1)]),
        vec![1000, 1000, 1000]
    );
}

#[test]
fn aq_bonus_4_aq_d7_tie_for_second_splits_the_minority_rounded_up() {
    // HK §4.3: "Gibt es mehrere zweitgrößte Aktionäre ..."; rounding AQ-D7.
    assert_eq!(
        awards(700, &[(0, 5), (1, 3), (2, 3)]),
        vec![7000, 1800, 1800]
    );
    assert_eq!(
        awards(200, &[(0, 4), (1, 1), (2, 1), (3, 1)]),
        vec![2000, 400, 400, 400]
    );
}

#[test]
fn aq_bonus_5_aq_bonus_6_no_holder_pays_nothing_and_the_bank_phantom_is_not_paid() {
    // AQ-BONUS-5 RECONSTRUCTED; HK §6 for the bank's award.
    assert!(awards(700, &[(0, 0), (1, 0)]).iter().all(|&a| a == 0));
    let prices = board().prices(chain("luxor"), 6).unwrap();
    let got = bonus_awards(prices, &[(Some(Seat(0)), 5), (None, 9)]);
    assert_eq!(got, vec![(None, 9, 7000), (Some(Seat(0)), 5, 3500)]);
}

#[test]
fn aq_comp_15_aq_d17_bank_cash_is_unlimited() {
    // AQ-D17: bonuses are always paid in full; the bank has no cash to run out of.
    let mut state = table(3);
    put_chain_tiles(&mut state, chain("prestige"), &row('A', 1, 10));
    put_chain_tiles(&mut state, chain("continental"), &row('C', 1, 11));
    give_shares(&mut state, 0, "prestige", 25);
    give_tiles(&mut state, 0, &["1B"]);
    let before = cash(&state, 0);
    accepted(&mut state, 0, place("1B"));
    // Prestige 10 tiles, tier 3: 800; sole holder 8000 + 4000.
    assert_eq!(cash(&state, 0), before + 12000);
    accepted(&mut state, 0, Action::DisposeShares { sell: 25, trade: 0 });
    assert_eq!(cash(&state, 0), before + 12000 + 25 * 800);
}

// ---- Disposal ----

#[test]
fn aq_disp_1_holders_decide_from_the_maker_clockwise() {
    // HK §4.4: "Man beginnt mit dem Spieler, der die Fusion verursacht hat".
    let mut state = two_chain_merger(4, "luxor", 3, &[(0, 1), (1, 1), (3, 2)]);
    give_turn(&mut state, 2);
    let hand = std::mem::take(&mut state.players[0].hand);
    state.players[2].hand = hand;
    let events = accepted(&mut state, 2, place("1B"));
    assert!(events.contains(&Event::DisposalStarted {
        chain: chain("luxor"),
        holders: vec![Seat(3), Seat(0), Seat(1)]
    }));
    for seat in [3, 0, 1] {
        assert_eq!(Acquire::active_seats(&state), vec![Seat(seat)]);
        accepted(
            &mut state,
            seat,
            Action::DisposeShares { sell: 0, trade: 0 },
        );
    }
    assert_eq!(Acquire::active_seats(&state), vec![Seat(2)]);
}

#[test]
fn aq_disp_2_sell_trade_keep_in_any_split() {
    // HK §4.4: Behalten, Verkaufen, Umtauschen 2:1.
    let mut state = two_chain_merger(3, "luxor", 4, &[(0, 7)]);
    accepted(&mut state, 0, place("1B"));
    let legal = Acquire::legal_actions(&state, Seat(0));
    assert_eq!(
        legal.len(),
        8 + 6 + 4 + 2,
        "trade 0, 2, 4, 6 with every sale"
    );
    refused(
        &mut state,
        0,
        Action::DisposeShares { sell: 0, trade: 3 },
        "acquire.odd_trade",
    );
    refused(
        &mut state,
        0,
        Action::DisposeShares { sell: 4, trade: 4 },
        "acquire.not_enough_shares",
    );
    let before = cash(&state, 0);
    let events = accepted(&mut state, 0, Action::DisposeShares { sell: 2, trade: 4 });
    assert!(matches!(
        events[0],
        Event::SharesDisposed {
            kept: 1,
            price: 500,
            proceeds: 1000,
            ..
        }
    ));
    assert_eq!(cash(&state, 0), before + 1000);
    assert_eq!(
        (shares(&state, 0, "luxor"), shares(&state, 0, "continental")),
        (1, 2)
    );
}

#[test]
fn aq_disp_3_aq_d15_kept_shares_revive_on_refounding_and_count_in_bonuses() {
    // HK §4.4: "in Erwartung der Neugründung der aufgelösten Kette".
    let mut state = two_chain_merger(3, "luxor", 2, &[(1, 3)]);
    accepted(&mut state, 0, place("1B"));
    accepted(&mut state, 1, Action::DisposeShares { sell: 0, trade: 0 });
    assert_eq!(shares(&state, 1, "luxor"), 3);
    refused(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
        "acquire.chain_not_active",
    );
    put(&mut state, &["9H"]);
    give_tiles(&mut state, 2, &["9I"]);
    accepted(&mut state, 0, Action::EndTurn);
    give_turn(&mut state, 2);
    accepted(&mut state, 2, found("9I", "luxor"));
    assert_eq!(
        (shares(&state, 1, "luxor"), shares(&state, 2, "luxor")),
        (3, 1)
    );
}

#[test]
fn aq_disp_4_earlier_disposers_exhaust_the_survivor_across_defuncts() {
    // HK §4.4: "Wenn die Börse von der übernehmenden Kette keine Aktien mehr hat ...".
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["1E", "2E", "3E", "4E", "5E", "1D"]);
    put_chain(&mut state, "airport", &["7E", "8E"]);
    put_chain(&mut state, "festival", &["6F", "6G", "6H"]);
    give_shares(&mut state, 2, "luxor", 23);
    give_shares(&mut state, 0, "airport", 4);
    give_shares(&mut state, 1, "festival", 2);
    give_tiles(&mut state, 0, &["6E"]);
    accepted(&mut state, 0, place("6E"));
    accepted(&mut state, 0, Action::DisposeShares { sell: 0, trade: 4 });
    assert_eq!(state.chain(chain("luxor")).bank_shares, 0);
    refused(
        &mut state,
        1,
        Action::DisposeShares { sell: 0, trade: 2 },
        "acquire.survivor_stock_exhausted",
    );
}

#[test]
fn aq_disp_5_no_selling_outside_a_merger() {
    // HK §4.6: "Er kann keine Aktien verkaufen ..., außer im Zeitraum nach einer Fusion."
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["5E", "5F"]);
    give_shares(&mut state, 0, "luxor", 3);
    to_buy_step(&mut state);
    refused(
        &mut state,
        0,
        Action::DisposeShares { sell: 3, trade: 0 },
        "acquire.no_merger_decision",
    );
}

// ---- Buying ----

#[test]
fn aq_buy_1_aq_comp_12_up_to_three_shares_of_active_chains() {
    // HK §4.6: "bis zu maximal drei Aktien ..., nur von aktiven Ketten".
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["5E", "5F"]);
    put_chain(&mut state, "airport", &["9E", "9F"]);
    to_buy_step(&mut state);
    refused(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("festival"),
        },
        "acquire.chain_not_active",
    );
    accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("airport"),
        },
    );
    accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    refused(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
        "acquire.buy_limit_reached",
    );
    assert_eq!(cash(&state, 0), 6000 - 300 - 200 - 300);
}

#[test]
fn aq_buy_2_aq_d13_price_at_the_size_after_placement_and_new_chains_at_once() {
    // HK §4.6: the price depends on the chain's size.
    let mut state = table(3);
    put_chain(&mut state, "prestige", &["5E", "5F", "5G", "5H"]);
    put(&mut state, &["9A"]);
    give_tiles(&mut state, 0, &["9B"]);
    accepted(&mut state, 0, found("9B", "luxor"));
    let e = accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    assert!(matches!(e[0], Event::ShareBought { price: 300, .. }));
    let e = accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("prestige"),
        },
    );
    assert!(matches!(e[0], Event::ShareBought { price: 600, .. }));
}

#[test]
fn aq_buy_3_bank_stock_and_cash_limit_purchases() {
    // HK §4.6: "Hat die Börse alle Aktien einer Kette verkauft ..."; no credit.
    let mut state = table(3);
    put_chain(&mut state, "luxor", &["5E", "5F"]);
    put_chain(&mut state, "airport", &["9E", "9F"]);
    give_shares(&mut state, 1, "luxor", 25);
    state.players[0].cash = 100;
    to_buy_step(&mut state);
    refused(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
        "acquire.bank_out_of_shares",
    );
    refused(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("airport"),
        },
        "acquire.insufficient_cash",
    );
    assert_eq!(
        Acquire::legal_actions(&state, Seat(0)),
        vec![Action::EndTurn]
    );
}

#[test]
fn aq_buy_4_no_deals_between_players() {
    // HK §4.6: every deal goes through the bank; the action set has no player-to-player trade.
    for json in [
        serde_json::json!({"type": "trade_shares", "with": 1}),
        serde_json::json!({"type": "buy_share", "chain": "luxor", "from": 1}),
    ] {
        assert!(serde_json::from_value::<Action>(json).is_err());
    }
}

// ---- Drawing and dead tiles ----

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
    assert!(
        state.players[0].hand.contains(&tile("7B")),
        "the dead replacement waits"
    );
}

#[test]
fn aq_dead_2_aq_dead_3_temporary_tiles_stay_and_playability_is_judged_now() {
    // AQ-DEAD-2 PUBLIC; AQ-DEAD-3 RECONSTRUCTED.
    let mut state = table(3);
    for (i, c) in crate::acquire::Chain::all().enumerate() {
        let col = 1 + 3 * (i as u8 % 4);
        put_chain_tiles(
            &mut state,
            c,
            &row(if i < 4 { 'A' } else { 'C' }, col, col + 1),
        );
    }
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

// ---- End ----

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
    refused(
        &mut state,
        0,
        Action::AnnounceEnd,
        "acquire.placement_required",
    );
    accepted(&mut state, 0, place("12I"));
    let mut s = state.clone();
    accepted(
        &mut s,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    refused(
        &mut s,
        0,
        Action::AnnounceEnd,
        "acquire.announce_after_buying",
    );
    accepted(&mut state, 0, Action::AnnounceEnd);
    refused(
        &mut state,
        0,
        Action::AnnounceEnd,
        "acquire.end_already_announced",
    );
    let mut s = table(3);
    to_buy_step(&mut s);
    refused(
        &mut s,
        0,
        Action::AnnounceEnd,
        "acquire.end_conditions_unmet",
    );
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
    assert!(matches!(state.stage, Stage::Finished));
    refused(&mut state, 1, Action::EndTurn, "game_over");
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

// ---- Two players ----

#[test]
fn aq_2p_1_only_two_player_games_draw_for_the_bank() {
    // HK §6 "Bei zwei Spielern".
    for players in [2, 3] {
        let mut state = two_chain_merger(players, "luxor", 3, &[(0, 2)]);
        let events = accepted(&mut state, 0, place("1B"));
        let drew = events
            .iter()
            .any(|e| matches!(e, Event::BankTileDrawn { .. }));
        assert_eq!(drew, players == 2);
    }
}

#[test]
fn aq_2p_2_aq_d12_one_bank_tile_per_defunct_and_zero_on_an_empty_pile() {
    // HK §6: "Ein Spielstein wird gezogen"; per defunct chain and empty pile: AQ-D12.
    let mut state = table(2);
    put_chain(&mut state, "luxor", &["1E", "2E", "3E", "4E", "5E", "1D"]);
    put_chain(&mut state, "airport", &["7E", "8E"]);
    put_chain(&mut state, "festival", &["6F", "6G", "6H"]);
    give_tiles(&mut state, 0, &["6E"]);
    let events = accepted(&mut state, 0, place("6E"));
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::BankTileDrawn { .. }))
            .count(),
        2
    );
    assert_eq!(state.removed.len(), 0);
    let mut state = two_chain_merger(2, "luxor", 3, &[(0, 2)]);
    state.removed = std::mem::take(&mut state.bag);
    let events = accepted(&mut state, 0, place("1B"));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::BankTileDrawn {
            tile: None,
            holding: 0,
            ..
        }
    )));
    assert_eq!(payouts(&events, "luxor"), vec![(0, 4000 + 2000)]);
}

#[test]
fn aq_2p_3_aq_2p_4_the_bank_ranks_but_owns_nothing() {
    // HK §6: "Die Börse erhält die Aktien nicht wirklich".
    let mut state = two_chain_merger(2, "luxor", 6, &[(0, 11), (1, 5)]);
    bag_top(&mut state, "9F");
    let bank_before = state.chains.map(|c| c.bank_shares);
    let events = accepted(&mut state, 0, place("1B"));
    assert_eq!(payouts(&events, "luxor"), vec![(0, 7000)]);
    assert_eq!(state.chains.map(|c| c.bank_shares), bank_before);
    assert_eq!(
        Acquire::active_seats(&state),
        vec![Seat(0)],
        "the bank never disposes"
    );
}

#[test]
fn aq_2p_5_aq_2p_6_bank_tiles_placed_after_disposal_or_set_aside() {
    // HK §6: "wird der Stein, der für die Börse gezogen wurde, auf den Spielplan gelegt";
    // "Ist der Stein der Börse nicht spielbar, wird er zur Seite gelegt".
    let mut state = table(2);
    put_chain_tiles(&mut state, chain("continental"), &row('A', 1, 12));
    put_chain_tiles(&mut state, chain("imperial"), &row('C', 2, 12));
    put_chain(&mut state, "luxor", &["1E", "1F"]);
    put_chain(&mut state, "festival", &["3E", "3F", "3G"]);
    give_shares(&mut state, 1, "luxor", 1);
    bag_top(&mut state, "5B"); // between the two safe chains: unplayable
    give_tiles(&mut state, 0, &["2E"]);
    let events = accepted(&mut state, 0, place("2E"));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::BankTileSetAside { .. })));
    let events = accepted(&mut state, 1, Action::DisposeShares { sell: 1, trade: 0 });
    assert!(events.contains(&Event::BankTileSetAside { tile: tile("5B") }));
    assert!(state.removed.contains(&tile("5B")));
    assert_eq!(step(&state), Step::Buy);
}

#[test]
fn aq_2p_7_bank_tile_next_to_a_lone_tile_founds_nothing() {
    // HK §6: "die Kette gilt erst als gegründet, wenn einer der beiden Spieler einen dritten Stein hinzufügt".
    let mut state = two_chain_merger(2, "luxor", 2, &[]);
    put(&mut state, &["8H"]);
    bag_top(&mut state, "9H");
    accepted(&mut state, 0, place("1B"));
    assert_eq!(state.cell(tile("9H")), Cell::Unincorporated);
    assert_eq!(state.active_chains().count(), 1);
}

#[test]
fn aq_2p_8_bank_tile_grows_or_starts_a_full_merger_run_by_the_maker() {
    // HK §6: "Verursacht der für die Börse gezogene ... Stein eine Fusion, muß ein neuer Stein ...".
    let mut state = two_chain_merger(2, "luxor", 2, &[]);
    put_chain(&mut state, "airport", &["9F", "9G"]);
    put_chain(&mut state, "festival", &["9I", "10I", "11I"]);
    bag_top(&mut state, "12A"); // second bank tile: lone
    bag_top(&mut state, "9H"); // first bank tile: merges Airport into Festival
    give_shares(&mut state, 1, "airport", 2);
    let events = accepted(&mut state, 0, place("1B"));
    assert!(events.contains(&Event::BankTilePlaced { tile: tile("9H") }));
    assert!(events.contains(&Event::MergerStarted {
        maker: Seat(0),
        tile: tile("9H"),
        chains: vec![
            crate::acquire::state::ChainSize {
                chain: chain("airport"),
                size: 2
            },
            crate::acquire::state::ChainSize {
                chain: chain("festival"),
                size: 3
            },
        ]
    }));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::BankTileDrawn { tile: Some(t), .. } if *t == tile("12A"))));
    let events = accepted(&mut state, 1, Action::DisposeShares { sell: 2, trade: 0 });
    assert!(events.contains(&Event::BankTilePlaced { tile: tile("12A") }));
    assert_eq!(state.chain(chain("festival")).size, 6);
    assert_eq!(Acquire::active_seats(&state), vec![Seat(0)]);
    assert_eq!(step(&state), Step::Buy);
    // A bank tile that grows a chain simply grows it.
    let mut state = two_chain_merger(2, "luxor", 2, &[]);
    put_chain(&mut state, "airport", &["9F", "9G"]);
    bag_top(&mut state, "9H");
    accepted(&mut state, 0, place("1B"));
    assert_eq!(state.chain(chain("airport")).size, 3);
}

#[test]
fn aq_2p_9_final_scoring_draws_one_unplaced_bank_tile_per_active_chain() {
    // HK §6: "Am Ende des Spiels werden für die Börse für jede aktive Kette Steine gezogen".
    let mut state = table(2);
    let tiles41: Vec<_> = crate::acquire::Tile::all().take(41).collect();
    put_chain_tiles(&mut state, chain("luxor"), &tiles41);
    put_chain(&mut state, "airport", &["12H", "12I"]);
    give_shares(&mut state, 0, "luxor", 2);
    bag_top(&mut state, "9F"); // Luxor's
    bag_top(&mut state, "12A"); // Airport's: chains draw in data order
    to_buy_step(&mut state);
    accepted(&mut state, 0, Action::AnnounceEnd);
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(
                e,
                Event::BankTileDrawn {
                    placed_later: false,
                    ..
                }
            ))
            .count(),
        2
    );
    assert_eq!(state.cell(tile("9F")), Cell::Empty);
    assert!(state.removed.contains(&tile("9F")));
    // Luxor (tier 2, 41: 1100): the bank's 9 beats seat 0's 2, so seat 0 gets the minority.
    assert_eq!(payouts(&events, "luxor"), vec![(0, 5500)]);
}

// ---- Information ----

#[test]
fn aq_info_1_aq_info_2_bank_stock_public_hands_private() {
    // HK §4.6 "jederzeit bei der Börse nachfragen"; hands secret (§3).
    let state = new_game(3);
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
        let v = Acquire::view(&state, viewer);
        assert!(v.chains.iter().all(|c| c.bank_shares == 25));
        for p in &v.players {
            assert_eq!(p.hand.is_some(), viewer == Viewer::Seat(p.seat));
            assert_eq!(p.hand_size, 6);
        }
    }
    let json = serde_json::to_string(&Acquire::view(&state, Viewer::Spectator)).unwrap();
    for p in &state.players {
        for t in &p.hand {
            assert!(!json.contains(&format!("\"{t}\"")));
        }
    }
    let drawn = Event::TileDrawn {
        seat: Seat(1),
        tile: Some(tile("1A")),
    };
    assert_eq!(
        Acquire::redact(&drawn, Viewer::Seat(Seat(1))),
        Some(drawn.clone())
    );
    assert_eq!(
        Acquire::redact(&drawn, Viewer::Seat(Seat(0))),
        Some(Event::TileDrawn {
            seat: Seat(1),
            tile: None
        })
    );
    let shuffled = Event::TilesShuffled {
        tiles: 108,
        order: Some(vec![tile("1A")]),
    };
    assert_eq!(
        Acquire::redact(&shuffled, Viewer::Seat(Seat(1))),
        Some(Event::TilesShuffled {
            tiles: 108,
            order: None
        })
    );
}

#[test]
fn aq_info_3_aq_d6_hidden_holdings_option() {
    // AQ-D6: public by default; the option hides other players' cash and shares.
    let open = new_game(3);
    let v = Acquire::view(&open, Viewer::Seat(Seat(0)));
    assert!(v
        .players
        .iter()
        .all(|p| p.cash.is_some() && p.shares.is_some()));
    let hidden = new_game_with(
        3,
        Config {
            hidden_holdings: true,
            ..Config::default()
        },
        1,
    );
    let v = Acquire::view(&hidden, Viewer::Seat(Seat(0)));
    for p in &v.players {
        assert_eq!(p.cash.is_some(), p.seat == Seat(0));
        assert_eq!(p.shares.is_some(), p.seat == Seat(0));
    }
    let config: Config =
        serde_json::from_value(serde_json::json!({"hiddenHoldings": true, "endRule": "standard"}))
            .unwrap();
    assert!(config.hidden_holdings);
    assert!(serde_json::from_value::<Config>(serde_json::json!({"bogus": 1})).is_err());
}
