//! Mergers, bonuses and disposal (spec §7–§9: AQ-MERGE, AQ-BONUS, AQ-DISP). One test (at least) per
//! rule, named after its ID and citing the seed section it comes from; refusals check the code and
//! that nothing changed.

use super::support::*;
use crate::acquire::data::board;
use crate::acquire::rules::bonus_awards;
use crate::acquire::state::Cell;
use crate::acquire::{Acquire, Action, Event};
use crate::{Game, Seat};

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
        &state,
        0,
        Action::ChooseSurvivor {
            chain: chain("airport"),
        },
        "acquire.not_largest_chain",
    );
    refused(
        &state,
        1,
        Action::ChooseSurvivor {
            chain: chain("luxor"),
        },
        "not_your_turn",
    );
    refused(&state, 0, Action::EndTurn, "acquire.merger_pending");
    refused(&state, 0, place("1B"), "acquire.merger_pending");
    refused(
        &state,
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
        &state,
        0,
        Action::OrderDefuncts {
            order: vec![chain("airport"), chain("luxor")],
        },
        "acquire.invalid_defunct_order",
    );
    refused(
        &state,
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

/// AQ-MERGE-5 (HK §4.3–§4.5): each defunct chain is settled whole, bonuses then disposal,
/// before the next one's bonuses; both at that chain's own pre-merger size.
#[test]
fn aq_merge_5_each_defunct_is_paid_then_disposed_before_the_next_at_its_pre_merger_size() {
    // Luxor 7 survives; Festival 3 goes first (smallest), then Airport 5.
    let mut state = three_chain_table(crate::acquire::Config::default());
    let mut log = accepted(&mut state, 0, place("6E"));
    for (seat, sell) in [(0, 3), (1, 1), (1, 4), (2, 4)] {
        log.extend(accepted(
            &mut state,
            seat,
            Action::DisposeShares { sell, trade: 0 },
        ));
    }
    let steps: Vec<String> = log
        .iter()
        .filter_map(|e| match e {
            Event::BonusesPaid { chain, size, .. } => Some(format!("bonuses {chain} {size}")),
            Event::DisposalStarted { chain, .. } => Some(format!("disposal {chain}")),
            Event::SharesDisposed {
                seat, chain, price, ..
            } => Some(format!("{seat} sells {chain} at {price}")),
            Event::ChainAbsorbed { defunct, .. } => Some(format!("{defunct} absorbed")),
            _ => None,
        })
        .collect();
    let (festival, airport) = (chain("festival"), chain("airport"));
    let (f, a) = (board().price(festival, 3), board().price(airport, 5));
    assert_eq!(
        steps,
        vec![
            format!("bonuses {festival} 3"),
            format!("disposal {festival}"),
            format!("seat 0 sells {festival} at {f}"),
            format!("seat 1 sells {festival} at {f}"),
            format!("{festival} absorbed"),
            format!("bonuses {airport} 5"),
            format!("disposal {airport}"),
            format!("seat 1 sells {airport} at {a}"),
            format!("seat 2 sells {airport} at {a}"),
            format!("{airport} absorbed"),
        ]
    );
    // Luxor grew by Festival before Airport was settled; Airport still paid at its own 5.
    assert_ne!(a, board().price(airport, 5 + 3 + 7 + 1));
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
        &state,
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
        &state,
        0,
        Action::DisposeShares { sell: 0, trade: 3 },
        "acquire.odd_trade",
    );
    refused(
        &state,
        0,
        Action::DisposeShares { sell: 4, trade: 4 },
        "acquire.not_enough_shares",
    );
    let before = cash(&state, 0);
    let bank = |s: &crate::acquire::State, id| s.chain(chain(id)).bank_shares;
    let (luxor_bank, continental_bank) = (bank(&state, "luxor"), bank(&state, "continental"));
    let events = accepted(&mut state, 0, Action::DisposeShares { sell: 2, trade: 4 });
    // Sold and traded-in shares return to the bank; the 2 survivor shares come from it.
    assert_eq!(bank(&state, "luxor"), luxor_bank + 2 + 4);
    assert_eq!(bank(&state, "continental"), continental_bank - 2);
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
        &state,
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
        &state,
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
        &state,
        0,
        Action::DisposeShares { sell: 3, trade: 0 },
        "acquire.no_merger_decision",
    );
}
