//! Spec §9 (Variant 3, war galleys) and §10 (Galleys + Pirates).

use super::support::*;
use crate::tyros::cards::{Cards, Empire::*};
use crate::tyros::event::Event;
use crate::tyros::state::DueReason;
use crate::tyros::{errors as e, Action, Config, Tyros};
use crate::{Game, Seat, Viewer};
use serde_json::json;

fn galleys() -> Config {
    Config {
        galleys: true,
        ..Config::default()
    }
}

/// TR-GAL-1, TR-GAL-2: two tokens each; an upgrade needs a token and is only possible when
/// building (the starting ships are normal); jokers make identical pairs.
#[test]
fn tr_gal_1_and_tr_gal_2_galleys_are_built_with_tokens() {
    let s = new_game(4, galleys(), 2);
    assert!(s.ships.iter().all(|x| !x.galley));
    assert!(s.seats().all(|seat| s.galley_tokens_left(seat) == 2));
    let mut s = table(4, galleys());
    empire(&mut s, Green, &["22"]);
    city(&mut s, W, "22");
    galley(&mut s, W, "5");
    galley(&mut s, W, "6");
    hand(&mut s, W, json!({"green": 1, "joker": 2}));
    refused(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("22"),
            galley: true,
        },
        e::NO_GALLEY_TOKEN,
    );
    s.ships
        .iter_mut()
        .filter(|x| x.owner == Seat(W))
        .for_each(|x| x.galley = false);
    let events = accepted(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("22"),
            galley: true,
        },
    );
    assert!(paid(&events).is_empty(), "green or a joker: White chooses");
    let events = pay(&mut s, W, json!({"green": 1}));
    assert_eq!(
        paid(&events),
        vec![
            (DueReason::Build, cards(json!({"green": 1}))),
            (DueReason::Galley, cards(json!({"joker": 2})))
        ]
    );
    let mut s = table(4, Config::default());
    empire(&mut s, Green, &["22"]);
    city(&mut s, W, "22");
    hand(&mut s, W, json!({"green": 3}));
    refused(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("22"),
            galley: true,
        },
        e::VARIANT_OFF,
    );
}

/// TR-GAL-3: a galley founds a city like a normal ship; its token goes back to the supply.
#[test]
fn tr_gal_3_a_galley_founds_a_city_and_its_token_returns() {
    let mut s = table(4, galleys());
    empire(&mut s, Green, &["22"]);
    let g = galley(&mut s, W, "22");
    assert_eq!(s.galley_tokens_left(Seat(W)), 1);
    hand(&mut s, W, json!({"green": 5}));
    accepted(&mut s, W, Action::FoundCity { ship: g });
    assert_eq!(s.galley_tokens_left(Seat(W)), 2);
    assert!(!s.ship(g).galley);
}

/// TR-GAL-4: only a rival normal ship can be sunk, never in Tyros, and also in a later round.
#[test]
fn tr_gal_4_what_a_galley_may_sink() {
    let mut s = table(4, galleys());
    empire(&mut s, Green, &["22"]);
    let g = galley(&mut s, W, "22");
    let rival_galley = galley(&mut s, R, "22");
    refused(
        &mut s,
        W,
        Action::SinkShip {
            galley: g,
            target: rival_galley,
        },
        e::CANNOT_SINK,
    );
    let own = ship(&mut s, W, "TY");
    let g2 = galley(&mut s, W, "TY");
    let r = ship(&mut s, R, "TY");
    refused(
        &mut s,
        W,
        Action::SinkShip {
            galley: g2,
            target: r,
        },
        e::CANNOT_SINK,
    );
    refused(
        &mut s,
        W,
        Action::SinkShip {
            galley: own,
            target: r,
        },
        e::CANNOT_SINK,
    );
    s.round = 5;
    s.ship_mut(rival_galley).galley = false;
    accepted(
        &mut s,
        W,
        Action::SinkShip {
            galley: g,
            target: rival_galley,
        },
    );
    // The sunk ship goes back to Red's supply; White's galley stays.
    assert_eq!(s.ship(rival_galley).at, None);
    assert_eq!(s.ship(g).at, Some(cell("22")));
    assert!(s.ship(g).galley);
}

/// TR-GAL-5: the defender lays after seeing only the attacker's count; a winner with equal
/// largest groups chooses which to discard; a side without cards lays none and scores 0; a
/// galley built next to a rival galley starts no fight.
#[test]
fn tr_gal_5_fight_details() {
    let mut s = table(4, galleys());
    empire(&mut s, Violet, &["17"]);
    galley(&mut s, R, "17");
    let w = galley(&mut s, W, "16");
    hand(
        &mut s,
        W,
        json!({"violet": 1, "orange": 2, "green": 2, "joker": 1}),
    );
    hand(&mut s, R, json!({"yellow": 1}));
    accepted(&mut s, W, move_by(w, &["17"]));
    pay(&mut s, W, json!({"violet": 1}));
    refused(
        &mut s,
        R,
        Action::LayFightCards {
            cards: cards(json!({"yellow": 1})),
        },
        "not_your_turn",
    );
    refused(
        &mut s,
        W,
        Action::LayFightCards { cards: Cards::NONE },
        e::INVALID_FIGHT_CARDS,
    );
    refused(
        &mut s,
        W,
        Action::LayFightCards {
            cards: cards(json!({"orange": 2, "green": 2, "joker": 1, "violet": 1})),
        },
        e::CARDS_NOT_IN_HAND,
    );
    accepted(
        &mut s,
        W,
        Action::LayFightCards {
            cards: cards(json!({"orange": 2, "green": 2, "joker": 1})),
        },
    );
    let view = Tyros::view(&s, Viewer::Seat(Seat(R)));
    let fight = view.fight.unwrap();
    assert_eq!((fight.attacker_laid, fight.attacker_cards), (Some(5), None));
    let spectator = Tyros::view(&s, Viewer::Spectator).fight.unwrap();
    assert_eq!(spectator.attacker_cards, None);
    accepted(
        &mut s,
        R,
        Action::LayFightCards {
            cards: cards(json!({"yellow": 1})),
        },
    );
    assert_eq!(Tyros::active_seats(&s), vec![Seat(W)]);
    let choices = Tyros::legal_actions(&s, Seat(W));
    assert_eq!(
        choices,
        vec![
            Action::ChooseFightDiscard {
                cards: cards(json!({"orange": 2, "joker": 1}))
            },
            Action::ChooseFightDiscard {
                cards: cards(json!({"green": 2, "joker": 1}))
            },
        ]
    );
    accepted(
        &mut s,
        W,
        Action::ChooseFightDiscard {
            cards: cards(json!({"green": 2, "joker": 1})),
        },
    );
    assert_eq!(held(&s, W), cards(json!({"orange": 2})));
    // The loser takes all its cards back; its ship and token return to its supply.
    assert_eq!(held(&s, R), cards(json!({"yellow": 1})));
    assert_eq!(s.ships_at(cell("17")).collect::<Vec<_>>(), vec![w]);
    assert_eq!(s.galley_tokens_left(Seat(R)), 2);
    // Without cards: the defender lays none and loses.
    let mut s = table(4, galleys());
    empire(&mut s, Violet, &["17"]);
    let r = galley(&mut s, R, "17");
    let w = galley(&mut s, W, "16");
    hand(&mut s, W, json!({"violet": 2}));
    accepted(&mut s, W, move_by(w, &["17"]));
    let events = accepted(
        &mut s,
        W,
        Action::LayFightCards {
            cards: cards(json!({"violet": 1})),
        },
    );
    assert!(events.contains(&Event::FightCardsLaid {
        seat: Seat(R),
        count: 0,
        cards: Some(Cards::NONE)
    }));
    assert!(events.contains(&Event::FightResolved {
        winner: Some(Seat(W)),
        discarded: cards(json!({"violet": 1})),
        sunk: Some(r)
    }));
    // Building a galley beside a rival galley starts no fight.
    let mut s = table(4, galleys());
    empire(&mut s, Violet, &["17"]);
    city(&mut s, W, "17");
    galley(&mut s, R, "17");
    hand(&mut s, W, json!({"violet": 3}));
    let events = accepted(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("17"),
            galley: true,
        },
    );
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::FightStarted { .. })));
}

/// TR-COMB-1, TR-COMB-2: with both variants a galley crossing a pirate pays the toll and does
/// not sink it; two galleys sink by the combined table (same owner 4, different owners 2 each).
#[test]
fn tr_comb_1_to_tr_comb_3_galleys_crossing_pirates_and_galley_pairs() {
    let config = Config {
        pirates: true,
        galleys: true,
        ..Config::default()
    };
    let mut s = table(4, config.clone());
    empire(&mut s, Violet, &["22", "21", "23"]);
    pirate(&mut s, "22");
    let g = galley(&mut s, W, "21");
    hand(&mut s, W, json!({"violet": 2, "orange": 1}));
    let events = accepted(&mut s, W, move_by(g, &["22", "23"]));
    // 2 violet for the path, 1 card toll for crossing 22: all of White's hand.
    assert_eq!(
        paid(&events),
        vec![
            (DueReason::Move, cards(json!({"violet": 2}))),
            (DueReason::Toll, cards(json!({"orange": 1})))
        ]
    );
    assert!(held(&s, W).is_empty());
    assert!(s.field(cell("22")).pirate.is_some());
    assert!(!events.iter().any(|e| matches!(e, Event::PirateSunk { .. })));
    for (owner, expected) in [(W, vec![(W, 4)]), (R, vec![(W, 2), (R, 2)])] {
        let mut s = table(4, config.clone());
        empire(&mut s, Violet, &["22", "21"]);
        pirate(&mut s, "22");
        galley(&mut s, owner, "22");
        let g = galley(&mut s, W, "21");
        hand(&mut s, W, json!({"violet": 1, "orange": 1}));
        let events = accepted(&mut s, W, move_by(g, &["22"]));
        let mut got: Vec<(u8, i32)> = events
            .iter()
            .filter_map(|e| match e {
                Event::PirateSunk { points, .. } => {
                    Some(points.iter().map(|p| (p.seat.0, p.points)))
                }
                _ => None,
            })
            .flatten()
            .collect();
        got.sort();
        assert_eq!(got, expected);
    }
}
