//! The spec's test scenarios (§13), each with the spec's numbers.

use super::support::*;
use crate::tyros::cards::{Cards, Empire::*};
use crate::tyros::data::Tile;
use crate::tyros::event::Event;
use crate::tyros::scoring;
use crate::tyros::state::{ActionCard, CardStatus, Due, DueReason, Need, Phase};
use crate::tyros::{errors as e, Action, Config, Tyros};
use crate::{Game, Seat};
use serde_json::json;

const SEED_ROUTE: [&str; 7] = ["31", "27", "22", "23", "18", "13", "9"];

fn pirates() -> Config {
    Config {
        pirates: true,
        ..Config::default()
    }
}

fn galleys() -> Config {
    Config {
        galleys: true,
        ..Config::default()
    }
}

fn action_cards() -> Config {
    Config {
        action_cards: true,
        ..Config::default()
    }
}

fn sunk_points(events: &[Event]) -> Vec<(u8, i32)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::PirateSunk { points, .. } => Some(points.iter().map(|p| (p.seat.0, p.points))),
            _ => None,
        })
        .flatten()
        .collect()
}

/// TR-T-1, TR-ACT-A, TR-COMP-8: one cell into green costs one green card, or a joker.
#[test]
fn tr_t_1_moving_from_tyros_to_31_costs_one_green_card_or_a_joker() {
    for paid_with in [json!({"green": 1}), json!({"joker": 1})] {
        let mut s = table(4, Config::default());
        empire(&mut s, Green, &["31"]);
        let w = ship(&mut s, W, "TY");
        hand(&mut s, W, json!({"green": 1, "joker": 1}));
        let events = accepted(&mut s, W, move_by(w, &["31"]));
        assert_eq!(
            owed(&events),
            vec![Due {
                payer: Seat(W),
                need: Need::Colour { colour: Green },
                count: 1,
                to: None,
                reason: DueReason::Move,
            }]
        );
        let events = pay(&mut s, W, paid_with.clone());
        assert_eq!(paid(&events), vec![(DueReason::Move, cards(paid_with))]);
        assert_eq!(s.ship(w).at, Some(cell("31")));
        assert_eq!(held(&s, W).total(), 1);
    }
}

/// TR-T-2: the seed's route to green field 9 costs 7 green cards.
#[test]
fn tr_t_2_the_seed_route_to_field_9_costs_seven_green_cards() {
    let mut s = table(4, Config::default());
    empire(&mut s, Green, &["8", "9"]);
    let w = ship(&mut s, W, "TY");
    hand(&mut s, W, json!({"green": 7}));
    let events = accepted(&mut s, W, move_by(w, &SEED_ROUTE));
    assert_eq!(
        paid(&events),
        vec![(DueReason::Move, cards(json!({"green": 7})))]
    );
    assert_eq!(s.ship(w).at, Some(cell("9")));
    assert!(held(&s, W).is_empty());
}

/// Everyone but `seat` passes, so that `seat` is on turn again in the same round.
fn round_the_table(s: &mut crate::tyros::State, seat: u8) {
    let n = s.players.len() as u8;
    for k in 1..n {
        pass(s, (seat + k) % n);
    }
}

/// TR-T-3, TR-AK-4: "Günstiger Wind" laid out, then the seed's route at half price, rounded
/// down.
#[test]
fn tr_t_3_favourable_wind_halves_the_seed_route_to_three_green() {
    let mut s = table(4, action_cards());
    empire(&mut s, Green, &["8", "9"]);
    let w = ship(&mut s, W, "TY");
    hand(&mut s, W, json!({"green": 7}));
    assert!(s.players.iter().all(|p| !p.tiles.is_empty()));
    accepted(&mut s, W, Action::PlayFavourableWind);
    assert_eq!(
        s.turn().unwrap().seat,
        Seat(R),
        "playing the card is the action"
    );
    round_the_table(&mut s, W);
    let path = cells(&SEED_ROUTE);
    let events = accepted(
        &mut s,
        W,
        Action::Move {
            ship: w,
            to: cell("9"),
            path: Some(path),
            wind: true,
            cost: Some(3),
        },
    );
    assert_eq!(
        paid(&events),
        vec![(DueReason::Move, cards(json!({"green": 3})))]
    );
    assert_eq!(
        s.player(Seat(W)).action_cards.favourable_wind,
        CardStatus::Used
    );
    assert_eq!(held(&s, W), cards(json!({"green": 4})));
}

/// TR-T-4, TR-AK-3, TR-AK-4: the wind is refused in round 1 and when a player has no tile left,
/// and an unused wind is lost at the end of its round.
#[test]
fn tr_t_4_favourable_wind_outside_its_window_or_after_its_round_is_refused() {
    let mut s = table(4, action_cards());
    s.round = 1;
    refused(
        &mut s,
        W,
        Action::PlayFavourableWind,
        e::OUTSIDE_CARD_WINDOW,
    );
    s.round = 2;
    let taken = std::mem::take(&mut s.players[usize::from(G)].tiles);
    refused(
        &mut s,
        W,
        Action::PlayFavourableWind,
        e::OUTSIDE_CARD_WINDOW,
    );
    s.players[usize::from(G)].tiles = taken;
    accepted(&mut s, W, Action::PlayFavourableWind);
    round_the_table(&mut s, W);
    let events = pass(&mut s, W);
    assert!(events.contains(&Event::ActionCardLost {
        seat: Seat(W),
        card: ActionCard::FavourableWind
    }));
    // Next round: a move at half price is refused.
    empire(&mut s, Green, &["31"]);
    let w = ship(&mut s, W, "TY");
    s.round = 3;
    give_turn(&mut s, W);
    hand(&mut s, W, json!({"green": 2}));
    let mut half = move_by(w, &["31"]);
    if let Action::Move { wind, .. } = &mut half {
        *wind = true;
    }
    refused(&mut s, W, half, e::NO_WIND);
}

/// TR-T-5, TR-AK-6, TR-AK-7: the explorer's voyage to 29 pays 2 green, 1 yellow and 2 any;
/// a normal move to the neutral field is refused.
#[test]
fn tr_t_5_the_explorer_voyage_to_29_pays_per_cell_colour() {
    let mut s = table(4, action_cards());
    s.round = 3;
    empire(&mut s, Green, &["31", "27"]);
    empire(&mut s, Yellow, &["25"]);
    let w = ship(&mut s, W, "TY");
    s.players[usize::from(W)].action_cards.explorer = CardStatus::Laid;
    hand(&mut s, W, json!({"green": 2, "yellow": 1, "orange": 2}));
    refused(
        &mut s,
        W,
        move_by(w, &["31", "30", "29"]),
        e::INVALID_DESTINATION,
    );
    let path = cells(&["31", "27", "26", "25", "29"]);
    let events = accepted(
        &mut s,
        W,
        Action::ExplorerVoyage {
            ship: w,
            to: cell("29"),
            path: Some(path),
            cost: Some(5),
        },
    );
    let mut all = Cards::NONE;
    for (_, c) in paid(&events) {
        all = all.plus(&c);
    }
    assert_eq!(all, cards(json!({"green": 2, "yellow": 1, "orange": 2})));
    assert_eq!(s.ship(w).at, Some(cell("29")));
    assert!(s.ship(w).explorer);
    assert_eq!(s.player(Seat(W)).action_cards.explorer, CardStatus::Used);
}

/// TR-T-6, TR-AK-8, TR-END-1: an explorer alone on a field still neutral at the end scores 5.
#[test]
fn tr_t_6_an_explorer_on_a_neutral_field_at_the_end_scores_five() {
    let mut s = table(4, action_cards());
    empire(&mut s, Green, &["31", "27"]);
    let w = ship(&mut s, W, "29");
    s.ship_mut(w).explorer = true;
    tiles(&mut s, R, &[29]);
    s.last_round = true;
    let mut events = Vec::new();
    for seat in [W, R, G, B] {
        events = pass(&mut s, seat);
    }
    let Some(Event::GameEnded { scores, .. }) = events.last() else {
        panic!("the game ends after the last round's action phase: {events:?}")
    };
    assert_eq!(scores[usize::from(W)].explorer_points, 5);
    assert_eq!(scores[usize::from(W)].total, 5);
    assert!(
        s.field(cell("29")).empire.is_none(),
        "tile 29 is stuck in Red's hand"
    );
}

fn fight_table(
    w_hand: serde_json::Value,
) -> (
    crate::tyros::State,
    crate::tyros::state::ShipId,
    crate::tyros::state::ShipId,
) {
    let mut s = table(4, galleys());
    empire(&mut s, Violet, &["17"]);
    let r = galley(&mut s, R, "17");
    let w = galley(&mut s, W, "16");
    hand(&mut s, W, w_hand);
    hand(&mut s, R, json!({"yellow": 3, "green": 1}));
    (s, w, r)
}

/// TR-T-7, TR-GAL-5: White's 4 orange beat Red's 3 yellow; White discards the 4 orange, Red's
/// galley and token go home and Red takes its cards back.
#[test]
fn tr_t_7_the_galley_fight_is_won_by_more_identical_cards() {
    let (mut s, w, r) = fight_table(json!({"orange": 4, "violet": 2}));
    let events = accepted(&mut s, W, move_by(w, &["17"]));
    assert_eq!(
        paid(&events),
        vec![(DueReason::Move, cards(json!({"violet": 1})))]
    );
    assert!(matches!(events.last(), Some(Event::FightStarted { .. })));
    assert_eq!(
        Tyros::active_seats(&s),
        vec![Seat(W)],
        "the attacker lays first"
    );
    let laid = accepted(
        &mut s,
        W,
        Action::LayFightCards {
            cards: cards(json!({"orange": 4, "violet": 1})),
        },
    );
    // Red sees only how many cards White laid.
    let seen = Tyros::redact(laid.last().unwrap(), crate::Viewer::Seat(Seat(R))).unwrap();
    assert_eq!(
        seen,
        Event::FightCardsLaid {
            seat: Seat(W),
            count: 5,
            cards: None
        }
    );
    let events = accepted(
        &mut s,
        R,
        Action::LayFightCards {
            cards: cards(json!({"yellow": 3})),
        },
    );
    assert!(events.contains(&Event::FightResolved {
        winner: Some(Seat(W)),
        discarded: cards(json!({"orange": 4})),
        sunk: Some(r),
    }));
    assert_eq!(held(&s, W), cards(json!({"violet": 1})));
    assert_eq!(held(&s, R), cards(json!({"yellow": 3, "green": 1})));
    assert_eq!(s.ship(r).at, None);
    assert!(!s.ship(r).galley);
    assert_eq!(s.galley_tokens_left(Seat(R)), 2);
    assert_eq!(s.ships_at(cell("17")).collect::<Vec<_>>(), vec![w]);
    assert!(s.ship(w).galley);
}

/// TR-T-8, TR-GAL-5: a tie turns both galleys into normal ships and gives every card back.
#[test]
fn tr_t_8_a_tied_galley_fight_demotes_both_ships() {
    let (mut s, w, r) = fight_table(json!({"orange": 4, "violet": 2}));
    accepted(&mut s, W, move_by(w, &["17"]));
    accepted(
        &mut s,
        W,
        Action::LayFightCards {
            cards: cards(json!({"orange": 2, "violet": 1})),
        },
    );
    let events = accepted(
        &mut s,
        R,
        Action::LayFightCards {
            cards: cards(json!({"yellow": 2})),
        },
    );
    assert!(events.contains(&Event::FightResolved {
        winner: None,
        discarded: Cards::NONE,
        sunk: None,
    }));
    assert_eq!(held(&s, W), cards(json!({"orange": 4, "violet": 1})));
    assert_eq!(held(&s, R), cards(json!({"yellow": 3, "green": 1})));
    assert!(!s.ship(w).galley && !s.ship(r).galley);
    assert_eq!(s.ship(w).at, Some(cell("17")));
    assert_eq!(s.ship(r).at, Some(cell("17")));
    assert_eq!(s.galley_tokens_left(Seat(W)), 2);
    assert_eq!(s.galley_tokens_left(Seat(R)), 2);
}

/// TR-T-9, TR-GAL-4: no sinking on the turn the galley arrives; Red may flee; if Red stays, the
/// galley sinks it on White's next turn.
#[test]
fn tr_t_9_a_galley_sinks_a_normal_ship_only_on_a_following_turn() {
    let setup = |flee: bool| {
        let mut s = table(
            4,
            Config {
                player_trade_free: true,
                ..galleys()
            },
        );
        empire(&mut s, Violet, &["22", "21", "23"]);
        let r = ship(&mut s, R, "22");
        let w = galley(&mut s, W, "21");
        hand(&mut s, W, json!({"violet": 1}));
        hand(&mut s, R, json!({"violet": 1}));
        accepted(&mut s, W, move_by(w, &["22"]));
        // player_trade_free keeps the turn open after the action: the same turn still refuses.
        refused(
            &mut s,
            W,
            Action::SinkShip {
                galley: w,
                target: r,
            },
            e::ACTION_ALREADY_TAKEN,
        );
        accepted(&mut s, W, Action::EndTurn);
        if flee {
            accepted(&mut s, R, move_by(r, &["23"]));
            accepted(&mut s, R, Action::EndTurn);
        } else {
            pass(&mut s, R);
        }
        pass(&mut s, G);
        pass(&mut s, B);
        (s, w, r)
    };
    let (mut s, w, r) = setup(false);
    let events = accepted(
        &mut s,
        W,
        Action::SinkShip {
            galley: w,
            target: r,
        },
    );
    assert!(events.contains(&Event::ShipSunk {
        seat: Seat(W),
        galley: w,
        ship: r
    }));
    assert_eq!(s.ship(r).at, None);
    let (mut s, w, r) = setup(true);
    refused(
        &mut s,
        W,
        Action::SinkShip {
            galley: w,
            target: r,
        },
        e::CANNOT_SINK,
    );
}

/// TR-T-10, TR-GAL-2: a galley in a green port costs 1 green and 2 identical cards of any
/// colour; 1 orange + 1 yellow is no pair.
#[test]
fn tr_t_10_a_galley_costs_two_identical_cards_extra() {
    let mut s = table(4, galleys());
    empire(&mut s, Green, &["22"]);
    city(&mut s, W, "22");
    hand(&mut s, W, json!({"green": 1, "orange": 2, "yellow": 2}));
    let events = accepted(
        &mut s,
        W,
        Action::BuildShip {
            at: cell("22"),
            galley: true,
        },
    );
    assert_eq!(
        paid(&events),
        vec![(DueReason::Build, cards(json!({"green": 1})))]
    );
    refused(
        &mut s,
        W,
        Action::Pay {
            cards: cards(json!({"orange": 1, "yellow": 1})),
        },
        e::INVALID_PAYMENT,
    );
    let events = pay(&mut s, W, json!({"orange": 2}));
    assert_eq!(
        paid(&events),
        vec![(DueReason::Galley, cards(json!({"orange": 2})))]
    );
    let built: Vec<_> = s.ships_at(cell("22")).collect();
    assert_eq!(built.len(), 1);
    assert!(s.ship(built[0]).galley);
    assert_eq!(held(&s, W), cards(json!({"yellow": 2})));
}

/// TR-T-11, TR-PIR-3: a pirate drawn onto 22 costs White's ship there one card of White's
/// choice.
#[test]
fn tr_t_11_a_pirate_appearing_on_a_ship_takes_a_card_of_choice() {
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["22", "21"]);
    ship(&mut s, W, "22");
    hand(&mut s, W, json!({"orange": 1, "green": 1}));
    let events = pirate_phase_on(&mut s, "22");
    assert!(events.contains(&Event::PiratePhaseStarted));
    assert_eq!(
        owed(&events),
        vec![Due {
            payer: Seat(W),
            need: Need::Any,
            count: 1,
            to: None,
            reason: DueReason::Levy,
        }]
    );
    pay(&mut s, W, json!({"green": 1}));
    assert_eq!(held(&s, W), cards(json!({"orange": 1})));
    assert_eq!(s.discard_pile.last(), Some(&crate::tyros::Card::Green));
    assert!(s.field(cell("22")).pirate.is_some());
}

/// A pirate on 22 with White's ship already there.
fn pirate_on_22() -> crate::tyros::State {
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["22", "21", "23"]);
    pirate(&mut s, "22");
    ship(&mut s, W, "22");
    s
}

/// TR-T-12, TR-PIR-5, TR-PIR-6, TR-PIR-7: Red's ship parks as second ship on the pirate: it pays
/// the toll, the pirate sinks at once, 2 points each, tile 22 returns to the used pool.
#[test]
fn tr_t_12_a_second_ship_of_another_player_sinks_the_pirate_for_two_each() {
    let mut s = pirate_on_22();
    let r = ship(&mut s, R, "21");
    give_turn(&mut s, R);
    hand(&mut s, R, json!({"violet": 1, "orange": 1}));
    let events = accepted(&mut s, R, move_by(r, &["22"]));
    assert_eq!(
        paid(&events),
        vec![
            (DueReason::Move, cards(json!({"violet": 1}))),
            (DueReason::Toll, cards(json!({"orange": 1})))
        ]
    );
    assert_eq!(sunk_points(&events), vec![(W, 2), (R, 2)]);
    assert!(s.field(cell("22")).pirate.is_none());
    assert!(s.used_tiles.contains(&Tile(22)));
    assert_eq!((points(&s, W), points(&s, R)), (2, 2));
}

/// TR-T-13, TR-PIR-6: two ships of one player sink the pirate for 4.
#[test]
fn tr_t_13_two_own_ships_sink_the_pirate_for_four() {
    let mut s = pirate_on_22();
    let w2 = ship(&mut s, W, "21");
    hand(&mut s, W, json!({"violet": 1, "orange": 1}));
    let events = accepted(&mut s, W, move_by(w2, &["22"]));
    assert_eq!(sunk_points(&events), vec![(W, 4)]);
    assert_eq!(points(&s, W), 4);
}

/// TR-T-14, TR-PIR-7: passing a pirate field costs a toll card on top of the 7 green.
#[test]
fn tr_t_14_passing_a_pirate_costs_one_toll_card() {
    let mut s = table(4, pirates());
    empire(&mut s, Green, &["8", "9"]);
    pirate(&mut s, "23");
    let w = ship(&mut s, W, "TY");
    hand(&mut s, W, json!({"green": 7, "yellow": 1}));
    let events = accepted(&mut s, W, move_by(w, &SEED_ROUTE));
    assert_eq!(
        paid(&events),
        vec![
            (DueReason::Move, cards(json!({"green": 7}))),
            (DueReason::Toll, cards(json!({"yellow": 1})))
        ]
    );
    assert!(
        s.field(cell("23")).pirate.is_some(),
        "passing does not sink it"
    );
}

/// TR-T-15, TR-ACT-A, TR-PIR-8: ending on Red's city costs 1 tribute card to Red; with a
/// pirate there, a toll card to the discard pile instead.
#[test]
fn tr_t_15_tribute_to_a_rival_city_unless_a_pirate_is_there() {
    for with_pirate in [false, true] {
        let mut s = table(4, pirates());
        empire(&mut s, Violet, &["22", "21"]);
        city(&mut s, R, "22");
        if with_pirate {
            pirate(&mut s, "22");
        }
        let w = ship(&mut s, W, "21");
        hand(&mut s, W, json!({"violet": 1, "orange": 1}));
        let events = accepted(&mut s, W, move_by(w, &["22"]));
        let dues = owed(&events);
        assert_eq!(dues.len(), 2);
        assert_eq!(dues[1].count, 1);
        if with_pirate {
            assert_eq!((dues[1].reason, dues[1].to), (DueReason::Toll, None));
            assert!(held(&s, R).is_empty());
        } else {
            assert_eq!(
                (dues[1].reason, dues[1].to),
                (DueReason::Tribute, Some(Seat(R)))
            );
            assert_eq!(held(&s, R), cards(json!({"orange": 1})));
        }
    }
}

/// TR-T-16, TR-PIR-3, TR-PIR-5: a pirate appearing where two ships stand takes a card from
/// each and sinks at the start of the first turn of one of their owners.
#[test]
fn tr_t_16_a_pirate_between_two_ships_sinks_at_their_first_turn() {
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["30", "26", "21"]);
    ship(&mut s, W, "30");
    ship(&mut s, R, "30");
    hand(&mut s, W, json!({"orange": 1, "green": 1}));
    hand(&mut s, R, json!({"orange": 1, "yellow": 1}));
    s.start_player = Seat(G);
    let events = pirate_phase_on(&mut s, "30");
    assert!(events.contains(&Event::PirateAppeared {
        field: cell("30"),
        sinks_at_turn_start: true
    }));
    pay(&mut s, W, json!({"orange": 1}));
    pay(&mut s, R, json!({"orange": 1}));
    assert_eq!(s.turn().map(|t| t.seat), Some(Seat(G)));
    assert!(
        s.field(cell("30")).pirate.is_some(),
        "Grey's turn sinks nothing"
    );
    pass(&mut s, G);
    let events = pass(&mut s, B);
    assert_eq!(sunk_points(&events), vec![(W, 2), (R, 2)]);
    assert!(events.contains(&Event::TurnStarted {
        seat: Seat(W),
        number: s.turn_number
    }));
}

/// TR-T-17, TR-COMB-2, TR-COMB-3: the combined sinking table, cases (a) to (f).
#[test]
fn tr_t_17_galleys_and_pirates_sink_by_the_combined_table() {
    let config = Config {
        pirates: true,
        galleys: true,
        ..Config::default()
    };
    // (a)–(e): a ship moves onto the pirate field 22 from 21: the case, whether the mover is a
    // galley, the ship already there (owner, galley), and the points.
    type Case = (&'static str, bool, Option<(u8, bool)>, Vec<(u8, i32)>);
    let cases: [Case; 5] = [
        ("a", true, None, vec![(W, 2)]),
        ("b", true, Some((W, false)), vec![(W, 4)]),
        ("c", true, Some((R, false)), vec![(W, 2), (R, 0)]),
        ("d", false, Some((W, false)), vec![(W, 5)]),
        ("e", false, Some((R, false)), vec![(W, 3), (R, 3)]),
    ];
    for (case, mover_is_galley, there, expected) in cases {
        let mut s = table(4, config.clone());
        empire(&mut s, Violet, &["22", "21"]);
        pirate(&mut s, "22");
        if let Some((owner, is_galley)) = there {
            let id = ship(&mut s, owner, "22");
            s.ship_mut(id).galley = is_galley;
        }
        let w = ship(&mut s, W, "21");
        s.ship_mut(w).galley = mover_is_galley;
        hand(&mut s, W, json!({"violet": 1, "orange": 1}));
        let events = accepted(&mut s, W, move_by(w, &["22"]));
        let mut got = sunk_points(&events);
        got.sort();
        let mut want = expected.clone();
        want.sort();
        assert_eq!(got, want, "case ({case})");
        let tolls: Vec<_> = paid(&events)
            .into_iter()
            .filter(|(r, _)| *r == DueReason::Toll)
            .collect();
        assert_eq!(
            tolls.is_empty(),
            mover_is_galley,
            "case ({case}): a galley pays no entering toll"
        );
        // The move costs 1 violet; the orange goes as the toll, except for a galley, which
        // keeps it. Nobody else pays anything.
        let left = if mover_is_galley {
            cards(json!({"orange": 1}))
        } else {
            cards(json!({}))
        };
        assert_eq!(held(&s, W), left, "case ({case})");
        for other in [R, G, B] {
            assert!(held(&s, other).is_empty(), "case ({case}): seat {other}");
        }
        // Sunk at once: the field is clear and its tile is back in the used pool.
        assert!(s.field(cell("22")).pirate.is_none(), "case ({case})");
        assert!(s.used_tiles.contains(&Tile(22)), "case ({case})");
        for (seat, pts) in &expected {
            assert_eq!(points(&s, *seat), *pts, "case ({case})");
        }
    }
    // (f): a pirate appears on White's galley field: sunk at once, 2 points, no levy.
    let mut s = table(4, config);
    empire(&mut s, Violet, &["22", "21"]);
    galley(&mut s, W, "22");
    hand(&mut s, W, json!({"orange": 1}));
    let events = pirate_phase_on(&mut s, "22");
    assert_eq!(sunk_points(&events), vec![(W, 2)]);
    assert!(owed(&events).is_empty(), "no levy");
    assert_eq!(held(&s, W), cards(json!({"orange": 1})));
    assert!(s.field(cell("22")).pirate.is_none());
    assert_eq!(points(&s, W), 2);
}

/// TR-T-18, TR-AK-5: "Blockadebrecher" moves Red's ship from 22 to 21, where White has a city:
/// no tribute; White may then found a city on 22.
#[test]
fn tr_t_18_the_blockade_breaker_frees_a_field_without_tribute() {
    let mut s = table(4, action_cards());
    empire(&mut s, Violet, &["22", "21"]);
    let w = ship(&mut s, W, "22");
    let r = ship(&mut s, R, "22");
    city(&mut s, W, "21");
    ship(&mut s, G, "21");
    hand(&mut s, R, json!({"orange": 1}));
    hand(&mut s, W, json!({"violet": 5}));
    let events = accepted(
        &mut s,
        W,
        Action::PlayBlockadeBreaker {
            ship: r,
            to: cell("21"),
        },
    );
    assert!(
        owed(&events).is_empty(),
        "no tribute for the relocated ship"
    );
    assert_eq!(s.ship(r).at, Some(cell("21")));
    assert_eq!(held(&s, R), cards(json!({"orange": 1})));
    round_the_table(&mut s, W);
    let events = accepted(&mut s, W, Action::FoundCity { ship: w });
    assert_eq!(
        paid(&events),
        vec![(DueReason::City, cards(json!({"violet": 5})))]
    );
    assert_eq!(s.field(cell("22")).city, Some(Seat(W)));
}

/// TR-T-19, TR-ACT-B: no city where a rival ship stands.
#[test]
fn tr_t_19_a_city_is_refused_beside_a_rival_ship() {
    let mut s = table(4, Config::default());
    empire(&mut s, Violet, &["22"]);
    let w = ship(&mut s, W, "22");
    ship(&mut s, R, "22");
    hand(&mut s, W, json!({"violet": 5}));
    refused(
        &mut s,
        W,
        Action::FoundCity { ship: w },
        e::RIVAL_SHIP_PRESENT,
    );
}

/// TR-T-20, TR-ACT-A, TR-PIR-4: a field with 2 ships takes no third; a pirate is no ship.
#[test]
fn tr_t_20_a_full_field_refuses_a_ship_but_a_pirate_does_not_count() {
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["22", "21"]);
    ship(&mut s, R, "22");
    ship(&mut s, G, "22");
    let w = ship(&mut s, W, "21");
    hand(&mut s, W, json!({"violet": 2, "orange": 1}));
    refused(&mut s, W, move_by(w, &["22"]), e::DESTINATION_FULL);
    let mut s = table(4, pirates());
    empire(&mut s, Violet, &["22", "21"]);
    ship(&mut s, R, "22");
    pirate(&mut s, "22");
    let w = ship(&mut s, W, "21");
    hand(&mut s, W, json!({"violet": 1, "orange": 1}));
    accepted(&mut s, W, move_by(w, &["22"]));
    assert_eq!(s.ship(w).at, Some(cell("22")));
}

/// TR-T-21, TR-K1, TR-K1a: with `bank_trade_once_per_round` the second bank trade of a round is
/// refused.
#[test]
fn tr_t_21_a_second_bank_trade_in_a_round_is_refused() {
    let mut s = table(
        4,
        Config {
            bank_trade_once_per_round: true,
            ..Config::default()
        },
    );
    hand(&mut s, W, json!({"orange": 4, "green": 2}));
    accepted(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"orange": 2})),
        },
    );
    round_the_table(&mut s, W);
    refused(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"green": 1})),
        },
        e::BANK_TRADE_USED,
    );
    refused(
        &mut s,
        W,
        Action::BankPick {
            colour: Violet,
            cards: cards(json!({"orange": 2, "green": 1})),
        },
        e::BANK_TRADE_USED,
    );
    // A search that finds nothing was the round's bank trade too.
    let mut s = table(
        4,
        Config {
            bank_trade_once_per_round: true,
            ..Config::default()
        },
    );
    hand(&mut s, W, json!({"orange": 4}));
    s.draw_pile.retain(|c| *c != crate::tyros::Card::Violet);
    accepted(
        &mut s,
        W,
        Action::BankPick {
            colour: Violet,
            cards: cards(json!({"orange": 3})),
        },
    );
    round_the_table(&mut s, W);
    refused(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"orange": 1})),
        },
        e::BANK_TRADE_USED,
    );
}

/// TR-T-22, TR-END-1, TR-AK-3, TR-COMP-12: with 4 players and every tile placeable the pile is
/// empty after round 3, hands hold 3/2/1/0 after Phase 2 of rounds 4–7, the game ends after
/// round 7, and "Günstiger Wind" may be played in round 6 but not in round 7.
#[test]
fn tr_t_22_four_players_play_seven_rounds() {
    let config = action_cards();
    for seed in 0..500 {
        let setup = Tyros::setup(&config, 4, &mut rng(seed)).unwrap();
        let mut s = Tyros::replay(&setup);
        let mut after_phase_2 = Vec::new();
        let mut wind = Vec::new();
        let mut stuck = setup
            .iter()
            .any(|e| matches!(e, Event::PlacementSkipped { .. }));
        let mut r = rng(seed);
        while s.outcome.is_none() && !stuck {
            let seat = Tyros::active_seats(&s)[0];
            let legal = Tyros::legal_actions(&s, seat);
            if matches!(s.phase, Phase::Actions { .. }) && s.turn().is_some_and(|t| t.seat == seat)
            {
                if wind.len() < s.round as usize {
                    after_phase_2.push((
                        s.round,
                        s.tile_pile.len(),
                        s.players.iter().map(|p| p.tiles.len()).collect::<Vec<_>>(),
                    ));
                    let probe = Tyros::decide(&s, seat, &Action::PlayFavourableWind, &mut r);
                    wind.push(probe.is_ok());
                }
                let events = Tyros::decide(&s, seat, &Action::Pass, &mut r).unwrap();
                stuck = events
                    .iter()
                    .any(|e| matches!(e, Event::PlacementSkipped { .. }));
                for e in &events {
                    Tyros::evolve(&mut s, e);
                }
                continue;
            }
            let events = Tyros::decide(&s, seat, &legal[0], &mut r).unwrap();
            stuck = events
                .iter()
                .any(|e| matches!(e, Event::PlacementSkipped { .. }));
            for e in &events {
                Tyros::evolve(&mut s, e);
            }
        }
        if stuck {
            continue;
        }
        let piles: Vec<usize> = after_phase_2.iter().map(|(_, p, _)| *p).collect();
        assert_eq!(piles, vec![8, 4, 0, 0, 0, 0, 0], "seed {seed}");
        let hands: Vec<usize> = after_phase_2.iter().map(|(_, _, h)| h[0]).collect();
        assert_eq!(hands, vec![4, 4, 4, 3, 2, 1, 0]);
        assert!(after_phase_2
            .iter()
            .all(|(_, _, h)| h.iter().all(|&n| n == h[0])));
        assert_eq!(s.round, 7);
        assert_eq!(wind, vec![false, true, true, true, true, true, false]);
        return;
    }
    panic!("no seed below 500 keeps every tile placeable");
}

/// TR-T-23, TR-EOR-1: at the end of the round White, holding 6 cards, keeps any 3.
#[test]
fn tr_t_23_at_round_end_a_player_keeps_any_three_cards() {
    let mut s = table(4, Config::default());
    hand(
        &mut s,
        W,
        json!({"orange": 2, "green": 2, "violet": 1, "joker": 1}),
    );
    hand(&mut s, R, json!({"yellow": 2}));
    for seat in [W, R, G] {
        pass(&mut s, seat);
    }
    pass(&mut s, B);
    assert_eq!(Tyros::active_seats(&s), vec![Seat(W)]);
    refused(
        &mut s,
        W,
        Action::Keep {
            cards: cards(json!({"orange": 2})),
        },
        e::BAD_CARD_COUNT,
    );
    let events = accepted(
        &mut s,
        W,
        Action::Keep {
            cards: cards(json!({"green": 1, "violet": 1, "joker": 1})),
        },
    );
    assert!(events.contains(&Event::CardsDiscarded {
        seat: Seat(W),
        cards: cards(json!({"orange": 2, "green": 1})),
        reason: crate::tyros::event::DiscardReason::RoundEnd,
    }));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::RoundStarted { round: 3, .. })));
    let dealt = s.config.cards_dealt.for_players(4);
    assert_eq!(held(&s, W).total(), 3 + u32::from(dealt));
    assert_eq!(
        held(&s, R).total(),
        2 + u32::from(dealt),
        "2 cards are kept without a choice"
    );
}

/// TR-T-24, TR-SCORE-2, TR-SCORE-3, TR-SCORE-4: empires of 9, 9, 7 and 5 rank 1, 1, 3, 4;
/// White scores 10 + 4 + 3 = 17, Red 10; the shared field scores nothing.
#[test]
fn tr_t_24_scoring_by_empire_rank_and_control() {
    let mut s = table(4, Config::default());
    let fields: Vec<String> = (1..=32).map(|n| n.to_string()).collect();
    let ids: Vec<&str> = fields.iter().map(String::as_str).collect();
    empire(&mut s, Orange, &ids[0..9]);
    empire(&mut s, Yellow, &ids[9..18]);
    empire(&mut s, Green, &ids[18..25]);
    empire(&mut s, Violet, &ids[25..30]);
    assert_eq!(scoring::empire_ranks(&s), [1, 1, 3, 4]);
    city(&mut s, W, "1");
    city(&mut s, W, "26");
    ship(&mut s, W, "19");
    city(&mut s, R, "10");
    ship(&mut s, R, "20");
    ship(&mut s, W, "20");
    let sheets = scoring::score_sheets(&s);
    assert_eq!(sheets[usize::from(W)].total, 17);
    assert_eq!(
        (
            sheets[usize::from(W)].city_points,
            sheets[usize::from(W)].ship_points
        ),
        (14, 3)
    );
    assert_eq!(sheets[usize::from(R)].total, 10);
    assert!(sheets[2..].iter().all(|s| s.total == 0));
}
