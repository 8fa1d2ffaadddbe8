//! The special rule for two players (spec §13: AQ-2P). One test (at least) per rule, named after
//! its ID and citing the seed section it comes from; refusals check the code and that nothing
//! changed.

use super::support::*;
use crate::acquire::state::{Cell, Step};
use crate::acquire::{Acquire, Action, Event};
use crate::{Game, Seat};

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
    // Each draw comes right before its chain's bonuses, in settling order (Airport 2, then
    // Festival 3: smallest first), and the holding is the tile's column number, counted in the bonus ranking.
    let mut draws = 0;
    for (i, e) in events.iter().enumerate() {
        if let Event::BankTileDrawn {
            chain: c,
            tile: Some(t),
            holding,
            placed_later: true,
        } = e
        {
            assert_eq!(*holding, t.column(), "{t}");
            assert!(
                matches!(&events[i + 1], Event::BonusesPaid { chain: b, bank_holding: Some(h), .. }
                    if b == c && h == holding),
                "{:?}",
                events[i + 1]
            );
            assert_eq!(*c, chain(["airport", "festival"][draws]));
            draws += 1;
        }
    }
    assert_eq!(draws, 2);
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
    let total_before: i32 = state.players.iter().map(|p| p.cash).sum();
    let events = accepted(&mut state, 0, place("1B"));
    assert_eq!(payouts(&events, "luxor"), vec![(0, 7000)]);
    // AQ-2P-3, AQ-BONUS-6: the bank's 9 ranks second, so the 3500 minority falls to it and is
    // not paid: seat 0 gets the majority, seat 1 (5, third) nothing, and no other money moves.
    assert_eq!((cash(&state, 0), cash(&state, 1)), (6000 + 7000, 6000));
    let total_after: i32 = state.players.iter().map(|p| p.cash).sum();
    assert_eq!(total_after, total_before + 7000);
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

/// AQ-2P-6 (clarified): a bank tile that would found an 8th chain is unplayable (AQ-PLACE-3),
/// so the set-aside path of the test above takes it too: it is set aside, not placed. (Bank
/// tiles are placed after a merger has absorbed at least one chain, so a real game never has
/// seven chains on the board then; this pins the judgement the placement uses.)
#[test]
fn aq_2p_6_a_bank_tile_that_would_found_an_eighth_chain_is_unplayable() {
    let mut state = table(2);
    let pairs = [
        ["1A", "1B"],
        ["3A", "3B"],
        ["5A", "5B"],
        ["7A", "7B"],
        ["9A", "9B"],
        ["11A", "11B"],
        ["1D", "1E"],
    ];
    for (c, pair) in crate::acquire::Chain::all().zip(pairs) {
        put_chain_tiles(&mut state, c, &tiles(&pair));
    }
    put(&mut state, &["1I"]);
    assert_eq!(state.active_chains().count(), 7);
    assert!(matches!(
        crate::acquire::rules::playability(&state, tile("2I")),
        Err(crate::acquire::rules::Refusal::EighthChain(_))
    ));
    // With one chain fewer the same tile is placed (and, from the bank, founds nothing).
    state.cells[tile("1A").index()] = Cell::Empty;
    state.cells[tile("1B").index()] = Cell::Empty;
    state.chains[0].size = 0;
    assert!(crate::acquire::rules::playability(&state, tile("2I")).is_ok());
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

/// AQ-2P-8: a bank tile that merges chains starts a full merger in which the original merger
/// maker chooses the survivor among equal chains, orders equal defuncts, and disposes first.
#[test]
fn aq_2p_8_the_maker_chooses_survivor_and_order_in_a_bank_tile_merger_and_disposes_first() {
    // Seat 0's 1B merges Luxor into Continental (nobody holds Luxor). The bank tile drawn for
    // Luxor, 9H, touches Airport, Festival and Imperial, 2 tiles each.
    let mut state = two_chain_merger(2, "luxor", 2, &[]);
    put_chain(&mut state, "airport", &["9F", "9G"]);
    put_chain(&mut state, "festival", &["8I", "9I"]);
    put_chain(&mut state, "imperial", &["10H", "11H"]);
    for seat in [0, 1] {
        give_shares(&mut state, seat, "airport", 1);
        give_shares(&mut state, seat, "festival", 1);
    }
    bag_top(&mut state, "12E"); // drawn for Airport
    bag_top(&mut state, "12A"); // drawn for Festival
    bag_top(&mut state, "9H"); // drawn for Luxor
    let events = accepted(&mut state, 0, place("1B"));
    assert!(events.contains(&Event::BankTilePlaced { tile: tile("9H") }));
    assert!(events.iter().any(
        |e| matches!(e, Event::MergerStarted { maker: Seat(0), tile: t, .. } if *t == tile("9H"))
    ));
    // A three-way tie: the maker, not the other seat, picks the survivor.
    assert_eq!(Acquire::active_seats(&state), vec![Seat(0)]);
    let imperial = Action::ChooseSurvivor {
        chain: chain("imperial"),
    };
    refused(&state, 1, imperial.clone(), "not_your_turn");
    assert_eq!(Acquire::legal_actions(&state, Seat(0)).len(), 3);
    accepted(&mut state, 0, imperial);
    // Airport and Festival are equal: the maker orders them.
    let order = Action::OrderDefuncts {
        order: vec![chain("festival"), chain("airport")],
    };
    refused(&state, 1, order.clone(), "not_your_turn");
    let events = accepted(&mut state, 0, order);
    assert!(events.contains(&Event::DisposalStarted {
        chain: chain("festival"),
        holders: vec![Seat(0), Seat(1)],
    }));
    assert_eq!(Acquire::active_seats(&state), vec![Seat(0)]);
    accepted(&mut state, 0, Action::DisposeShares { sell: 1, trade: 0 });
    let events = accepted(&mut state, 1, Action::DisposeShares { sell: 1, trade: 0 });
    assert!(events.contains(&Event::DisposalStarted {
        chain: chain("airport"),
        holders: vec![Seat(0), Seat(1)],
    }));
    accepted(&mut state, 0, Action::DisposeShares { sell: 1, trade: 0 });
    let events = accepted(&mut state, 1, Action::DisposeShares { sell: 1, trade: 0 });
    // The tiles drawn in the second merger are placed after its dealings, in draw order (12A
    // for Festival, then 12E for Airport), then the maker buys.
    let placed: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::BankTilePlaced { tile } => Some(*tile),
            _ => None,
        })
        .collect();
    assert_eq!(placed, tiles(&["12A", "12E"]));
    assert_eq!(state.chain(chain("imperial")).size, 2 + 2 + 2 + 1);
    assert_eq!(Acquire::active_seats(&state), vec![Seat(0)]);
    assert_eq!(step(&state), Step::Buy);
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
    // Airport's bank tile 12A makes the bank its sole holder: nothing is paid (AQ-BONUS-6), and
    // neither bank tile is placed.
    assert_eq!(payouts(&events, "airport"), vec![]);
    assert_eq!(state.cell(tile("12A")), Cell::Empty);
    // Seat 0: the minority bonus plus its 2 Luxor sold at 1100; seat 1 holds nothing.
    assert_eq!(cash(&state, 0), 6000 + 5500 + 2 * 1100);
    assert_eq!(cash(&state, 1), 6000);
}
