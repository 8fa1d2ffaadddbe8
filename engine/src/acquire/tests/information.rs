//! What each viewer may know (spec §14: AQ-INFO). One test (at least) per rule, named after its ID
//! and citing the seed section it comes from; refusals check the code and that nothing changed.

use super::support::*;
use crate::acquire::state::Stage;
use crate::acquire::{Acquire, Action, Config, Event};
use crate::{Game, Seat, Viewer};

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
    // The pile is secret to every viewer, seated or not: only its size is shown.
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
        let v = Acquire::view(&state, viewer);
        assert_eq!(v.draw_pile, state.bag.len());
        let json = serde_json::to_string(&v).unwrap();
        for t in &state.bag {
            assert!(!json.contains(&format!("\"{t}\"")), "{viewer:?} sees {t}");
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
fn aq_info_1_bank_stock_stays_public_under_hidden_holdings() {
    // "at all times": also with `hidden_holdings`, and after shares left the bank.
    let mut state = table_with(
        3,
        Config {
            hidden_holdings: true,
            ..Config::default()
        },
    );
    put_chain(&mut state, "luxor", &["1A", "2A"]);
    to_buy_step(&mut state);
    accepted(
        &mut state,
        0,
        Action::BuyShare {
            chain: chain("luxor"),
        },
    );
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        let v = Acquire::view(&state, viewer);
        let luxor = v.chains.iter().find(|c| c.chain == chain("luxor")).unwrap();
        assert_eq!(luxor.bank_shares, 24, "{viewer:?}");
    }
}

#[test]
fn aq_info_2_removed_tiles_and_bank_tiles_are_public() {
    // Removed (dead or set-aside) tiles and the bank's tiles are shown to every viewer, in views
    // and in the events that move them; only draws into a hand are hidden.
    let mut state = table(2);
    state.removed = tiles(&["5B"]);
    state.bank_tiles = tiles(&["9F"]);
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
        let v = Acquire::view(&state, viewer);
        assert_eq!(v.removed, tiles(&["5B"]), "{viewer:?}");
        assert_eq!(v.bank_tiles, tiles(&["9F"]), "{viewer:?}");
    }
    for e in [
        Event::DeadTileRemoved {
            seat: Seat(1),
            tile: tile("5B"),
        },
        Event::BankTileDrawn {
            chain: chain("luxor"),
            tile: Some(tile("9F")),
            holding: 9,
            placed_later: true,
        },
        Event::BankTilePlaced { tile: tile("9F") },
        Event::BankTileSetAside { tile: tile("9F") },
    ] {
        for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
            assert_eq!(Acquire::redact(&e, viewer), Some(e.clone()), "{viewer:?}");
        }
    }
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
    // "The API documentation of the option must say exactly this": the option's doc comment
    // (the API schema's description) names the rule and every movement the log keeps.
    let source = include_str!("../config.rs");
    let doc: String = source
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.contains("AQ-INFO-3"))
        .take_while(|l| l.starts_with("///"))
        .map(|l| l.trim_start_matches("///").trim())
        .collect::<Vec<_>>()
        .join(" ");
    for phrase in [
        "Hide other players' cash and share totals",
        "A memory rule, not secrecy",
        "until the end",
        "purchase, sale, trade, founder's share and bonus stays visible in the event log",
        "the public bank stock reveals them",
    ] {
        assert!(doc.contains(phrase), "{phrase:?} in {doc:?}");
    }
    // Spectators see no one's holdings while the option is on.
    let v = Acquire::view(&hidden, Viewer::Spectator);
    assert!(v
        .players
        .iter()
        .all(|p| p.cash.is_none() && p.shares.is_none()));
}

#[test]
fn aq_info_3_hidden_holdings_open_at_the_end_and_the_log_keeps_every_movement() {
    // "until the game ends": the final scoring opens every total to every viewer.
    let mut state = table_with(
        3,
        Config {
            hidden_holdings: true,
            ..Config::default()
        },
    );
    put_chain(&mut state, "luxor", &["1A", "2A"]);
    give_shares(&mut state, 1, "luxor", 2);
    to_buy_step(&mut state);
    state.idle_turns = 2;
    if let Stage::Turn(t) = &mut state.stage {
        t.placed = false;
    }
    let v = Acquire::view(&state, Viewer::Spectator);
    assert!(v.players.iter().all(|p| p.cash.is_none()));
    let events = accepted(&mut state, 0, Action::EndTurn);
    assert!(matches!(events.last(), Some(Event::GameEnded { .. })));
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
        let v = Acquire::view(&state, viewer);
        for p in &v.players {
            assert_eq!(p.cash, Some(cash(&state, p.seat.0)), "{viewer:?}");
            assert!(p.shares.is_some(), "{viewer:?}");
        }
    }
    // "a memory rule, not secrecy": purchases, disposals (sales and trades), founder's shares,
    // bonuses and final sales reach every viewer unredacted.
    let movements = [
        Event::ShareBought {
            seat: Seat(1),
            chain: chain("luxor"),
            price: 300,
        },
        Event::SharesDisposed {
            seat: Seat(1),
            chain: chain("luxor"),
            survivor: chain("airport"),
            sold: 1,
            traded: 2,
            kept: 1,
            price: 300,
            proceeds: 300,
        },
        Event::ChainFounded {
            seat: Seat(1),
            chain: chain("luxor"),
            tiles: tiles(&["1A", "2A"]),
            free_share: true,
        },
        Event::SharesSold {
            seat: Seat(1),
            chain: chain("luxor"),
            count: 2,
            price: 300,
            proceeds: 600,
        },
    ];
    let bonuses = events
        .iter()
        .find(|e| matches!(e, Event::BonusesPaid { .. }))
        .unwrap()
        .clone();
    for e in movements.iter().chain([&bonuses]) {
        for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
            assert_eq!(Acquire::redact(e, viewer), Some(e.clone()), "{viewer:?}");
        }
    }
}
