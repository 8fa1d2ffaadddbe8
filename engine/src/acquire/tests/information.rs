//! What each viewer may know (spec §14: AQ-INFO). One test (at least) per rule, named after its ID
//! and citing the seed section it comes from; refusals check the code and that nothing changed.

use super::support::*;
use crate::acquire::{Acquire, Config, Event};
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
