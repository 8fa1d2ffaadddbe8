//! Spec §8: Variant 2, action cards, and the untested combinations of TR-D-17.

use super::support::*;
use crate::tyros::cards::Empire::*;
use crate::tyros::event::Event;
use crate::tyros::scoring;
use crate::tyros::state::{ActionCard, CardStatus, DueReason};
use crate::tyros::{errors as e, Action, Config, Tyros};
use crate::{Game, Seat};
use serde_json::json;

fn action_cards() -> Config {
    Config {
        action_cards: true,
        ..Config::default()
    }
}

fn voyage(ship: crate::tyros::state::ShipId, path: &[&str]) -> Action {
    let path = cells(path);
    Action::ExplorerVoyage {
        ship,
        to: *path.last().unwrap(),
        path: Some(path),
        cost: None,
    }
}

/// TR-AK-1, TR-AK-2: each player holds the three cards; playing one is the turn's action and
/// each is played once; without the variant none can be played.
#[test]
fn tr_ak_1_and_tr_ak_2_three_cards_each_played_once_as_the_action() {
    let mut s = table(4, action_cards());
    s.round = 3;
    for seat in s.seats() {
        for card in ActionCard::ALL {
            assert_eq!(s.player(seat).action_cards.get(card), CardStatus::Available);
        }
    }
    accepted(&mut s, W, Action::PlayExplorer);
    assert_eq!(
        s.turn().map(|t| t.seat),
        Some(Seat(R)),
        "the card was the action"
    );
    give_turn(&mut s, W);
    refused(&mut s, W, Action::PlayExplorer, e::ACTION_CARD_UNAVAILABLE);
    let mut s = table(4, Config::default());
    s.round = 3;
    refused(&mut s, W, Action::PlayExplorer, e::VARIANT_OFF);
    refused(&mut s, W, Action::PlayFavourableWind, e::VARIANT_OFF);
}

/// TR-AK-3, TR-AK-6, TR-D-15: "Blockadebrecher" from round 2, "Der Entdecker" from round 3 (the
/// rule text, not the template's 2; `explorer_from_round`), both to the end.
#[test]
fn tr_ak_3_and_tr_d_15_card_windows() {
    let mut s = table(4, action_cards());
    empire(&mut s, Violet, &["22", "21"]);
    ship(&mut s, W, "22");
    let r = ship(&mut s, R, "22");
    s.round = 2;
    refused(&mut s, W, Action::PlayExplorer, e::OUTSIDE_CARD_WINDOW);
    for p in &mut s.players {
        p.tiles.clear();
    }
    // "Bis Ende": no tile needed.
    let mut t = s.clone();
    accepted(
        &mut t,
        W,
        Action::PlayBlockadeBreaker {
            ship: r,
            to: cell("21"),
        },
    );
    s.round = 3;
    accepted(&mut s, W, Action::PlayExplorer);
    let mut s = table(
        4,
        Config {
            explorer_from_round: 2,
            ..action_cards()
        },
    );
    s.round = 2;
    accepted(&mut s, W, Action::PlayExplorer);
}

/// TR-AK-4, TR-D-17: the wind halves only the move's own cards; tolls and tribute are paid in
/// full.
#[test]
fn tr_ak_4_and_tr_d_17_the_wind_does_not_halve_tolls_or_tribute() {
    let mut s = table(
        4,
        Config {
            pirates: true,
            ..action_cards()
        },
    );
    empire(&mut s, Violet, &["22", "21", "17", "16"]);
    pirate(&mut s, "21");
    city(&mut s, R, "22");
    let w = ship(&mut s, W, "15");
    s.players[usize::from(W)].action_cards.favourable_wind = CardStatus::Laid;
    hand(&mut s, W, json!({"violet": 1, "orange": 2}));
    let path = cells(&["16", "21", "22"]);
    let events = accepted(
        &mut s,
        W,
        Action::Move {
            ship: w,
            to: cell("22"),
            path: Some(path),
            wind: true,
            cost: Some(3),
        },
    );
    let dues = owed(&events);
    let reasons: Vec<(DueReason, u8)> = dues.iter().map(|d| (d.reason, d.count)).collect();
    assert_eq!(
        reasons,
        vec![
            (DueReason::Move, 1),
            (DueReason::Toll, 1),
            (DueReason::Tribute, 1)
        ]
    );
    assert!(events.contains(&Event::ActionCardUsed {
        seat: Seat(W),
        card: ActionCard::FavourableWind
    }));
}

/// TR-AK-5: the relocation may start in Tyros and may move a galley; it costs no toll, starts
/// no fight, and a second ship on a pirate field sinks the pirate; the target must be an
/// adjacent empire field with room.
#[test]
fn tr_ak_5_the_blockade_breaker_relocates_without_toll_or_fight() {
    let config = Config {
        pirates: true,
        galleys: true,
        ..action_cards()
    };
    let mut s = table(4, config.clone());
    empire(&mut s, Violet, &["31", "32"]);
    pirate(&mut s, "31");
    ship(&mut s, W, "TY");
    let r = galley(&mut s, R, "TY");
    ship(&mut s, G, "31");
    galley(&mut s, B, "32");
    refused(
        &mut s,
        W,
        Action::PlayBlockadeBreaker {
            ship: r,
            to: cell("27"),
        },
        e::INVALID_RELOCATION,
    );
    let events = accepted(
        &mut s,
        W,
        Action::PlayBlockadeBreaker {
            ship: r,
            to: cell("31"),
        },
    );
    assert!(owed(&events).is_empty(), "no toll");
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::FightStarted { .. })));
    assert!(
        events.iter().any(|e| matches!(e, Event::PirateSunk { .. })),
        "second ship on the pirate"
    );
    assert_eq!(s.ship(r).at, Some(cell("31")));
    // TR-COMB-3: Red's galley with Grey's normal ship: the galley's owner 2, Grey 0.
    assert_eq!((points(&s, R), points(&s, G)), (2, 0));
    assert!(held(&s, R).is_empty() && held(&s, W).is_empty());
    assert_eq!(s.turn().map(|t| t.seat), Some(Seat(R)), "it was the action");
    assert_eq!(
        s.player(Seat(W)).action_cards.blockade_breaker,
        CardStatus::Used
    );
    // A galley relocated next to a rival galley starts no fight either.
    let mut s = table(4, config);
    empire(&mut s, Violet, &["31", "32"]);
    ship(&mut s, W, "TY");
    let r = galley(&mut s, R, "TY");
    galley(&mut s, B, "32");
    let events = accepted(
        &mut s,
        W,
        Action::PlayBlockadeBreaker {
            ship: r,
            to: cell("32"),
        },
    );
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::FightStarted { .. })));
    assert!(s.fight.is_none());
    // Only a rival ship in a shared cell.
    let mut s = table(4, action_cards());
    empire(&mut s, Violet, &["22", "21"]);
    let w = ship(&mut s, W, "22");
    let r = ship(&mut s, R, "21");
    refused(
        &mut s,
        W,
        Action::PlayBlockadeBreaker {
            ship: r,
            to: cell("22"),
        },
        e::INVALID_RELOCATION,
    );
    refused(
        &mut s,
        W,
        Action::PlayBlockadeBreaker {
            ship: w,
            to: cell("21"),
        },
        e::INVALID_RELOCATION,
    );
}

/// TR-AK-6, TR-AK-7, TR-D-16, TR-D-17: the voyage comes on a later turn, in any later round; it
/// crosses Tyros for any card and pays pirate tolls; the destination takes at most 2 ships; the
/// card is then gone; the ship may sail on under the normal rules.
#[test]
fn tr_ak_6_tr_ak_7_and_tr_d_16_the_explorer_voyage() {
    let config = Config {
        pirates: true,
        ..action_cards()
    };
    let mut s = table(4, config);
    s.round = 3;
    empire(&mut s, Green, &["31", "28"]);
    pirate(&mut s, "31");
    let w = ship(&mut s, W, "32");
    hand(&mut s, W, json!({"green": 1, "orange": 4}));
    refused(&mut s, W, voyage(w, &["TY", "31", "30"]), e::NO_EXPLORER);
    accepted(&mut s, W, Action::PlayExplorer);
    // A later round.
    s.round = 4;
    give_turn(&mut s, W);
    ship(&mut s, R, "30");
    ship(&mut s, G, "30");
    refused(
        &mut s,
        W,
        voyage(w, &["TY", "31", "30"]),
        e::INVALID_DESTINATION,
    );
    s.ships
        .iter_mut()
        .filter(|x| x.owner == Seat(G))
        .for_each(|x| x.at = None);
    let events = accepted(&mut s, W, voyage(w, &["TY", "31", "30"]));
    let reasons: Vec<(DueReason, u8)> = owed(&events).iter().map(|d| (d.reason, d.count)).collect();
    assert_eq!(
        reasons,
        vec![
            (DueReason::Voyage, 1),
            (DueReason::Voyage, 2),
            (DueReason::Toll, 1)
        ],
        "31 green; Tyros and 30 any; the pirate on 31 a toll"
    );
    assert_eq!(s.player(Seat(W)).action_cards.explorer, CardStatus::Used);
    assert_eq!(s.ship(w).at, Some(cell("30")));
    // Sailing on later under the normal rules.
    give_turn(&mut s, W);
    hand(&mut s, W, json!({"green": 2}));
    accepted(&mut s, W, move_by(w, &["31"]));
    refused(&mut s, W, voyage(w, &["30"]), "not_your_turn");
}

/// TR-AK-8: only a voyaging ship alone on a neutral field scores the 5; a rival ship there
/// cancels it; a field that joined an empire scores normally.
#[test]
fn tr_ak_8_only_an_explorer_alone_on_a_neutral_field_scores_five() {
    let mut s = table(4, action_cards());
    empire(&mut s, Orange, &["1"]);
    let a = ship(&mut s, W, "29");
    s.ship_mut(a).explorer = true;
    let b = ship(&mut s, R, "25");
    s.ship_mut(b).explorer = true;
    ship(&mut s, G, "25");
    let c = ship(&mut s, B, "1");
    s.ship_mut(c).explorer = true;
    let sheets = scoring::score_sheets(&s);
    assert_eq!(sheets[usize::from(W)].explorer_points, 5);
    assert_eq!(sheets[usize::from(R)].explorer_points, 0);
    assert_eq!(
        (
            sheets[usize::from(B)].explorer_points,
            sheets[usize::from(B)].ship_points
        ),
        (0, 5)
    );
    let _ = Tyros::active_seats(&s);
}
