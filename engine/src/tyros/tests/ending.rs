//! Spec §5: the end of the game and the scoring. TR-D-18 (the scoring numbers and ties,
//! TR-SCORE-2 to TR-SCORE-7) is cited by every scoring test, which together cover it.

use super::support::*;
use crate::tyros::cards::Empire::{self, *};
use crate::tyros::data::Tile;
use crate::tyros::event::Event;
use crate::tyros::scoring;
use crate::tyros::state::{Phase, ScoreSheet};
use crate::tyros::{Action, Config, Tyros};
use crate::{Game, Seat};
use serde_json::json;

/// Phase 2's last placement by White with an empty pile.
fn last_placement(s: &mut crate::tyros::State, white_keeps: &[u8]) {
    s.start_player = Seat(R);
    s.phase = Phase::Expansion {
        step: 3,
        placed: true,
        drew: false,
    };
    s.tile_pile.clear();
    for p in &mut s.players {
        p.tiles.clear();
    }
    tiles(s, R, &[1]);
    tiles(s, G, &[2]);
    tiles(s, B, &[3]);
    let mut mine = vec![23];
    mine.extend_from_slice(white_keeps);
    tiles(s, W, &mine);
}

/// TR-END-1, TR-D-13 (amended, "as TR-END-1"): the game ends after the action phase of the
/// first round in which, after Phase 2, the pile is empty and some player holds no tile; not
/// before, and not only once no tiles remain anywhere (the decision table's former wording):
/// the other players still hold tiles when it ends.
#[test]
fn tr_end_1_the_game_ends_after_the_round_that_empties_a_hand() {
    for white_keeps in [vec![], vec![24]] {
        let mut s = table(4, Config::default());
        empire(&mut s, Green, &["22"]);
        last_placement(&mut s, &white_keeps);
        let events = accepted(
            &mut s,
            W,
            Action::PlaceTile {
                tile: Tile(23),
                empire: None,
            },
        );
        let last = white_keeps.is_empty();
        assert_eq!(
            events
                .iter()
                .any(|e| matches!(e, Event::LastRoundReached { .. })),
            last
        );
        assert!(
            matches!(s.phase, Phase::Actions { .. }),
            "the action phase is still played"
        );
        for seat in [R, G, B] {
            pass(&mut s, seat);
        }
        let events = pass(&mut s, W);
        let ended = events.iter().any(|e| matches!(e, Event::GameEnded { .. }));
        assert_eq!(ended, last);
        assert_eq!(s.outcome.is_some(), last);
        if last {
            assert!(
                [R, G, B]
                    .iter()
                    .all(|&seat| !s.player(Seat(seat)).tiles.is_empty()),
                "tiles remain in other hands"
            );
            assert_eq!(s.phase, Phase::Finished);
            assert!(Tyros::active_seats(&s).is_empty());
            refused(&mut s, W, Action::Pass, "game_over");
        }
    }
}

fn sheet(sheets: &[ScoreSheet], seat: u8) -> &ScoreSheet {
    &sheets[usize::from(seat)]
}

/// TR-SCORE-1, TR-SCORE-2, TR-SCORE-3, TR-D-18: a city controls its field; otherwise ships of
/// exactly one player do (two count once); mixed ships control nothing; equal empires share the
/// better rank.
#[test]
fn tr_score_1_to_tr_score_3_control_by_city_then_by_a_single_players_ships() {
    let mut s = table(4, Config::default());
    empire(&mut s, Orange, &["1", "2", "3"]);
    empire(&mut s, Yellow, &["10", "11", "12"]);
    empire(&mut s, Green, &["20", "21"]);
    empire(&mut s, Violet, &["30"]);
    assert_eq!(scoring::empire_ranks(&s), [1, 1, 3, 4]);
    city(&mut s, W, "1");
    ship(&mut s, R, "1");
    ship(&mut s, R, "2");
    ship(&mut s, R, "2");
    ship(&mut s, G, "3");
    ship(&mut s, B, "3");
    ship(&mut s, G, "30");
    let sheets = scoring::score_sheets(&s);
    assert_eq!(
        sheet(&sheets, W).city_points,
        10,
        "the city beats Red's ship"
    );
    assert_eq!(
        (
            sheet(&sheets, R).ship_points,
            sheet(&sheets, R).ship_controlled_fields
        ),
        (5, 1)
    );
    assert_eq!(sheet(&sheets, G).ship_points, 2, "rank 4 ship");
    assert_eq!(sheet(&sheets, B).total, 0, "a shared field scores nothing");
    // A city with its owner's own ship beside it scores the city only, once.
    ship(&mut s, W, "1");
    let sheets = scoring::score_sheets(&s);
    assert_eq!(
        (
            sheet(&sheets, W).city_points,
            sheet(&sheets, W).ship_points,
            sheet(&sheets, W).total
        ),
        (10, 0, 10)
    );
}

/// TR-SCORE-4, TR-D-18: the values by rank come from the config.
#[test]
fn tr_score_4_values_by_rank_are_configurable() {
    let config = Config {
        score_city: [20, 15, 10, 5],
        score_ship: [7, 6, 5, 4],
        ..Config::default()
    };
    let mut s = table(4, config);
    empire(&mut s, Orange, &["1", "2"]);
    empire(&mut s, Yellow, &["10"]);
    city(&mut s, W, "1");
    ship(&mut s, W, "10");
    // Green and violet have no field: ranks 1 (orange), 2 (yellow), 3, 3.
    assert_eq!(scoring::empire_ranks(&s), [1, 2, 3, 3]);
    // A ship on a neutral field scores nothing.
    ship(&mut s, W, "5");
    let sheets = scoring::score_sheets(&s);
    assert_eq!(
        (sheet(&sheets, W).city_points, sheet(&sheets, W).ship_points),
        (20, 6)
    );
    assert_eq!(sheet(&sheets, W).total, 26);
    // Four ranks: a city and a lone ship in each empire score every value of the tables.
    let mut s = table(
        4,
        Config {
            score_city: [20, 15, 10, 5],
            score_ship: [7, 6, 5, 4],
            ..Config::default()
        },
    );
    empire(&mut s, Orange, &["1", "2", "3", "4"]);
    empire(&mut s, Yellow, &["10", "11", "12"]);
    empire(&mut s, Green, &["20", "21"]);
    empire(&mut s, Violet, &["30"]);
    assert_eq!(scoring::empire_ranks(&s), [1, 2, 3, 4]);
    for f in ["1", "10", "20", "30"] {
        city(&mut s, W, f);
    }
    for f in ["2", "11", "21"] {
        ship(&mut s, R, f);
    }
    let sheets = scoring::score_sheets(&s);
    assert_eq!(sheet(&sheets, W).city_points, 20 + 15 + 10 + 5);
    assert_eq!(sheet(&sheets, R).ship_points, 7 + 6 + 5);
    // The default values: 10, 8, 6, 4 and 5, 4, 3, 2.
    s.config = Config::default();
    let sheets = scoring::score_sheets(&s);
    assert_eq!(sheet(&sheets, W).city_points, 10 + 8 + 6 + 4);
    assert_eq!(sheet(&sheets, R).ship_points, 5 + 4 + 3);
}

/// TR-SCORE-5, TR-K2, TR-D-18: the first player with a city in every empire earns the bonus
/// once; it cannot be lost and nobody else earns it.
#[test]
fn tr_score_5_the_first_city_in_every_empire_earns_the_bonus_once() {
    for (players, bonus, config) in [
        (4, 6, Config::default()),
        (
            4,
            9,
            Config {
                bonus_city_in_all_empires: 9,
                ..Config::default()
            },
        ),
        (
            3,
            9,
            Config {
                bonus_city_in_all_empires: 9,
                ..Config::default()
            },
        ),
    ] {
        let mut s = table(players, config);
        for (e, fields) in
            Empire::ALL
                .iter()
                .zip([["1", "2"], ["10", "11"], ["20", "21"], ["30", "31"]])
        {
            empire(&mut s, *e, &fields);
        }
        for f in ["1", "10", "20"] {
            city(&mut s, W, f);
        }
        for f in ["2", "11", "21"] {
            city(&mut s, R, f);
        }
        let w = ship(&mut s, W, "30");
        let r = ship(&mut s, R, "31");
        hand(&mut s, W, json!({"violet": 5}));
        hand(&mut s, R, json!({"violet": 5}));
        let events = accepted(&mut s, W, Action::FoundCity { ship: w });
        assert!(events.contains(&Event::BonusEarned {
            seat: Seat(W),
            points: bonus
        }));
        let events = accepted(&mut s, R, Action::FoundCity { ship: r });
        assert!(!events
            .iter()
            .any(|e| matches!(e, Event::BonusEarned { .. })));
        let sheets = scoring::score_sheets(&s);
        assert_eq!(
            (sheet(&sheets, W).bonus, sheet(&sheets, R).bonus),
            (bonus, 0)
        );
        // Every empire has 2 fields (all rank 1): 4 cities of 10 each, plus the bonus.
        assert_eq!(sheet(&sheets, W).total, 40 + bonus);
        assert_eq!(sheet(&sheets, R).total, 40);
    }
}

/// TR-SCORE-6, TR-SCORE-7, TR-D-18: pirate points count; ties go to more cities, then more
/// ship-controlled fields, else the win is shared.
#[test]
fn tr_score_6_and_tr_score_7_pirate_points_and_tie_breaks() {
    let mut s = table(4, Config::default());
    empire(&mut s, Orange, &["1", "2", "3", "4"]);
    s.players[usize::from(R)].pirate_points = 10;
    city(&mut s, W, "1");
    let sheets = scoring::score_sheets(&s);
    assert_eq!(sheet(&sheets, R).total, 10, "TR-SCORE-6");
    // Most points wins outright.
    s.players[usize::from(R)].pirate_points = 11;
    let outcome = scoring::outcome(&scoring::score_sheets(&s));
    assert_eq!(outcome.winners, vec![Seat(R)]);
    s.players[usize::from(R)].pirate_points = 10;

    let outcome = scoring::outcome(&sheets);
    assert_eq!(outcome.winners, vec![Seat(W)], "10 each: White has a city");
    s.players[usize::from(R)].pirate_points = 5;
    ship(&mut s, R, "2");
    let sheets = scoring::score_sheets(&s);
    assert_eq!(scoring::outcome(&sheets).winners, vec![Seat(W)]);
    // Equal points and cities: the ship-controlled fields decide.
    let mut s = table(4, Config::default());
    empire(&mut s, Orange, &["1", "2", "3", "4"]);
    ship(&mut s, W, "1");
    ship(&mut s, W, "2");
    ship(&mut s, R, "3");
    s.players[usize::from(R)].pirate_points = 5;
    let sheets = scoring::score_sheets(&s);
    assert_eq!((sheet(&sheets, W).total, sheet(&sheets, R).total), (10, 10));
    assert_eq!(scoring::outcome(&sheets).winners, vec![Seat(W)]);
    // Fully equal: shared.
    let mut s = table(4, Config::default());
    empire(&mut s, Orange, &["1", "2"]);
    ship(&mut s, W, "1");
    ship(&mut s, R, "2");
    let outcome = scoring::outcome(&scoring::score_sheets(&s));
    assert_eq!(outcome.winners, vec![Seat(W), Seat(R)]);
    assert_eq!(outcome.scores, vec![5, 5, 0, 0]);
}
