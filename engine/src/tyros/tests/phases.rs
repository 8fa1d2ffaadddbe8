//! Spec §4: the round, Phase 1 (cards), Phase 2 (expanding the empires) and the end of a round.

use super::support::*;
use crate::tyros::cards::{Card, Empire::*};
use crate::tyros::config::{CantPlaceTile, ReshuffleRule};
use crate::tyros::data::Tile;
use crate::tyros::event::{Event, SkipReason};
use crate::tyros::state::{Phase, State};
use crate::tyros::{errors as e, Action, Config, Tyros};
use crate::{Game, Seat, Viewer};
use serde_json::json;

/// Phase 2 at `step`, nothing placed yet, with `start` as start player.
fn expansion(state: &mut State, start: u8, step: u8) {
    state.start_player = Seat(start);
    state.phase = Phase::Expansion {
        step,
        placed: false,
        drew: false,
    };
    for p in &mut state.players {
        p.tiles.clear();
    }
    state.used_tiles.clear();
}

/// Plays a game with everyone passing, placing the first listed tile and keeping the default
/// cards; returns the log.
fn passive_game(players: usize, config: Config, seed: u64) -> Vec<Event> {
    let mut log = Tyros::setup(&config, players, &mut rng(seed)).unwrap();
    let mut s = Tyros::replay(&log);
    let mut r = rng(seed);
    while s.outcome.is_none() {
        let seat = Tyros::active_seats(&s)[0];
        let legal = Tyros::legal_actions(&s, seat);
        let action = if legal.contains(&Action::Pass) {
            Action::Pass
        } else {
            legal[0].clone()
        };
        let events = Tyros::decide(&s, seat, &action, &mut r).unwrap();
        for e in &events {
            Tyros::evolve(&mut s, e);
        }
        log.extend(events);
    }
    log
}

/// TR-RND-1, TR-RND-2, TR-EOR-3, TR-D-11: each round deals cards, expands the empires, then
/// plays the action phase (with Pirates the pirate phase comes between); every phase starts
/// with the start player, who passes left each round.
#[test]
fn tr_rnd_1_and_tr_rnd_2_rounds_run_their_phases_from_a_start_player_passing_left() {
    for pirates in [false, true] {
        let log = passive_game(
            4,
            Config {
                pirates,
                ..Config::default()
            },
            3,
        );
        let marks: Vec<&str> = log
            .iter()
            .filter_map(|e| match e {
                Event::RoundStarted { .. } => Some("round"),
                Event::CardsDrawn { .. } => Some("cards"),
                Event::ExpansionStarted => Some("expansion"),
                Event::PiratePhaseStarted => Some("pirates"),
                Event::ActionPhaseStarted => Some("actions"),
                _ => None,
            })
            .collect();
        let mut round = vec!["round", "cards", "cards", "cards", "cards", "expansion"];
        if pirates {
            round.push("pirates");
        }
        round.push("actions");
        for chunk in marks.chunks(round.len()) {
            if chunk.len() == round.len() {
                assert_eq!(chunk, &round[..]);
            }
        }
        let starts: Vec<Seat> = log
            .iter()
            .filter_map(|e| match e {
                Event::RoundStarted { start_player, .. } => Some(*start_player),
                _ => None,
            })
            .collect();
        for w in starts.windows(2) {
            assert_eq!(w[1].index(), (w[0].index() + 1) % 4, "TR-EOR-3");
        }
        // Each round deals from the start player clockwise, and Phase 2 opens with it.
        let mut start = Seat(0);
        let mut deal = Vec::new();
        let mut first_placement = None;
        let mut deals_checked = 0;
        for e in &log {
            match e {
                Event::RoundStarted { start_player, .. } => {
                    start = *start_player;
                    deal.clear();
                    first_placement = None;
                }
                Event::CardsDrawn { seat, .. } => deal.push(*seat),
                Event::ExpansionStarted => {
                    let order: Vec<Seat> = (0..4).map(|i| Seat((start.0 + i) % 4)).collect();
                    assert_eq!(deal, order, "TR-RND-2: the deal");
                    deals_checked += 1;
                }
                Event::TilePlaced { seat, .. } | Event::PlacementSkipped { seat, .. }
                    if first_placement.is_none() =>
                {
                    first_placement = Some(*seat);
                    assert_eq!(*seat, start, "TR-RND-2: Phase 2");
                }
                _ => {}
            }
        }
        assert!(deals_checked >= 5, "{deals_checked} rounds");
        // The first turn of each action phase is the start player's.

        let mut start = Seat(0);
        let mut expect_first = false;
        for e in &log {
            match e {
                Event::RoundStarted { start_player, .. } => start = *start_player,
                Event::ActionPhaseStarted => expect_first = true,
                Event::TurnStarted { seat, .. } if expect_first => {
                    assert_eq!(*seat, start);
                    expect_first = false;
                }
                _ => {}
            }
        }
    }
}

/// TR-P1-1, TR-EOR-2: the deal adds to the kept cards; an empty pile is rebuilt mid-deal; when
/// even that is short, the seats in order get what there is.
#[test]
fn tr_p1_1_cards_are_dealt_on_top_of_kept_cards_rebuilding_the_pile_when_short() {
    let mut s = table(4, Config::default());
    hand(&mut s, W, json!({"orange": 2}));
    hand(&mut s, R, json!({"yellow": 1}));
    let all = s.draw_pile.clone();
    s.draw_pile = all[..4].to_vec();
    s.discard_pile = all[4..20].to_vec();
    for seat in [W, R, G] {
        pass(&mut s, seat);
    }
    let events = pass(&mut s, B);
    // The round end rebuilds the pile; the deal then runs dry after 20 cards.
    let draws: Vec<(Seat, u8)> = events
        .iter()
        .filter_map(|e| match e {
            Event::CardsDrawn { seat, count, .. } => Some((*seat, *count)),
            _ => None,
        })
        .collect();
    assert_eq!(
        draws,
        vec![(Seat(R), 10), (Seat(G), 10)],
        "start player passed to Red"
    );
    assert_eq!(held(&s, W), cards(json!({"orange": 2})));
    // Red's 10 are added to the card it kept.
    assert_eq!(held(&s, R).total(), 1 + 10);
    assert!(held(&s, R).contains(&cards(json!({"yellow": 1}))));
    assert_eq!(held(&s, G).total(), 10);
    assert!(held(&s, B).is_empty());
    assert!(s.draw_pile.is_empty());
    // A draw that empties the pile mid-round rebuilds it and goes on.
    let mut s = table(4, Config::default());
    let all = s.draw_pile.clone();
    s.draw_pile = all[..1].to_vec();
    s.discard_pile = all[1..10].to_vec();
    hand(&mut s, W, json!({"orange": 3}));
    let events = accepted(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"orange": 3})),
        },
    );
    let kinds: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::CardsDrawn { count: 1, .. } => Some("drew 1"),
            Event::CardsDrawn { count: 2, .. } => Some("drew 2"),
            Event::DrawPileRebuilt { .. } => Some("rebuilt"),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, vec!["drew 1", "rebuilt", "drew 2"]);
    assert_eq!(held(&s, W).total(), 3);
    // The 3 discards went into the rebuilt pile before the rest was drawn: 1 + 9 + 3 - 3.
    assert_eq!(s.draw_pile.len(), 10);
    assert!(s.discard_pile.is_empty());
}

/// TR-P2-1, TR-P2-2, TR-P2-3, TR-P2-6: a tile goes on its neutral field next to an empire,
/// joining a chosen adjacent empire; the player draws a replacement; the tile is used.
#[test]
fn tr_p2_1_to_tr_p2_3_a_tile_joins_an_adjacent_empire_and_is_replaced() {
    let mut s = table(4, Config::default());
    expansion(&mut s, W, 0);
    empire(&mut s, Green, &["22"]);
    empire(&mut s, Violet, &["16"]);
    tiles(&mut s, W, &[17, 5, 23]);
    tiles(&mut s, R, &[15]);
    assert_eq!(Tyros::active_seats(&s), vec![Seat(W)]);
    refused(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(5),
            empire: None,
        },
        e::TILE_NOT_PLACEABLE,
    );
    refused(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(17),
            empire: None,
        },
        e::EMPIRE_CHOICE_REQUIRED,
    );
    refused(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(17),
            empire: Some(Orange),
        },
        e::EMPIRE_NOT_ADJACENT,
    );
    let pile = s.tile_pile.len();
    let top = *s.tile_pile.last().unwrap();
    let events = accepted(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(17),
            empire: Some(Violet),
        },
    );
    assert_eq!(s.field(cell("17")).empire, Some(Violet));
    // Assigned fields keep their colour.
    assert_eq!(s.field(cell("22")).empire, Some(Green));
    assert_eq!(s.field(cell("16")).empire, Some(Violet));
    assert!(events.contains(&Event::TileDrawn {
        seat: Seat(W),
        tile: Some(top)
    }));
    assert_eq!(s.tile_pile.len(), pile - 1);
    assert_eq!(s.player(Seat(W)).tiles, vec![Tile(5), Tile(23), top]);
    assert!(s.used_tiles.contains(&Tile(17)), "TR-P2-6");
    assert!(!s.player(Seat(W)).tiles.contains(&Tile(17)));
    assert_eq!(
        Tyros::active_seats(&s),
        vec![Seat(R)],
        "one tile each, in order"
    );
    // With one adjacent empire no name is needed.
    accepted(
        &mut s,
        R,
        Action::PlaceTile {
            tile: Tile(15),
            empire: None,
        },
    );
    assert_eq!(s.field(cell("15")).empire, Some(Violet));
    // With the tile pile empty no replacement is drawn.
    let mut s = table(4, Config::default());
    expansion(&mut s, W, 0);
    empire(&mut s, Green, &["22"]);
    s.tile_pile.clear();
    tiles(&mut s, W, &[23, 5]);
    let events = accepted(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(23),
            empire: None,
        },
    );
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::TileDrawn { seat, .. } if *seat == Seat(W))));
    assert_eq!(s.player(Seat(W)).tiles, vec![Tile(5)]);
    assert_eq!(s.field(cell("23")).empire, Some(Green));
}

/// TR-P2-1: a tile whose field already belongs to an empire is not placeable, even next to one.
#[test]
fn tr_p2_1_a_tile_of_an_assigned_field_cannot_be_played() {
    let mut s = table(4, Config::default());
    expansion(&mut s, W, 0);
    empire(&mut s, Green, &["22", "23"]);
    tiles(&mut s, W, &[23, 21]);
    refused(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(23),
            empire: Some(Green),
        },
        e::TILE_NOT_PLACEABLE,
    );
    accepted(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(21),
            empire: None,
        },
    );
}

/// TR-P2-1, TR-D-20: a tile one does not hold is refused with the same words wherever it is.
#[test]
fn tr_p2_1_a_tile_not_in_hand_is_refused_alike_in_another_hand_or_the_pile() {
    let mut s = table(4, Config::default());
    expansion(&mut s, W, 0);
    empire(&mut s, Green, &["22"]);
    tiles(&mut s, W, &[23]);
    tiles(&mut s, R, &[17]);
    let in_pile = *s.tile_pile.iter().find(|t| t.0 != 21).unwrap();
    let a = refused(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(17),
            empire: None,
        },
        e::TILE_NOT_IN_HAND,
    );
    let b = refused(
        &mut s,
        W,
        Action::PlaceTile {
            tile: in_pile,
            empire: None,
        },
        e::TILE_NOT_IN_HAND,
    );
    assert_eq!(
        a.message.replace(&Tile(17).to_string(), "#"),
        b.message.replace(&in_pile.to_string(), "#")
    );
}

/// TR-P2-4, TR-D-4: a player who cannot place passes and draws; with `cant_place_tile = pass`
/// the player only passes.
#[test]
fn tr_p2_4_a_player_who_cannot_place_passes_and_draws() {
    for rule in [CantPlaceTile::PassAndDraw, CantPlaceTile::Pass] {
        let mut s = table(
            4,
            Config {
                cant_place_tile: rule,
                ..Config::default()
            },
        );
        expansion(&mut s, W, 0);
        empire(&mut s, Green, &["22"]);
        tiles(&mut s, W, &[23]);
        tiles(&mut s, R, &[5]);
        tiles(&mut s, G, &[21]);
        let events = accepted(
            &mut s,
            W,
            Action::PlaceTile {
                tile: Tile(23),
                empire: None,
            },
        );
        assert!(events.contains(&Event::PlacementSkipped {
            seat: Seat(R),
            reason: SkipReason::CannotPlace
        }));
        let drew = events
            .iter()
            .any(|e| matches!(e, Event::TileDrawn { seat, .. } if *seat == Seat(R)));
        assert_eq!(drew, rule == CantPlaceTile::PassAndDraw);
        assert_eq!(s.player(Seat(R)).tiles.len(), 1 + usize::from(drew));
        assert!(s.player(Seat(R)).tiles.contains(&Tile(5)), "the tile waits");
        assert_eq!(s.field(cell("5")).empire, None);
        assert_eq!(Tyros::active_seats(&s), vec![Seat(G)]);
    }
    // With the tile pile empty a player who cannot place only passes.
    let mut s = table(4, Config::default());
    expansion(&mut s, W, 0);
    empire(&mut s, Green, &["22"]);
    s.tile_pile.clear();
    tiles(&mut s, W, &[23]);
    tiles(&mut s, R, &[5]);
    tiles(&mut s, G, &[21]);
    let events = accepted(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(23),
            empire: None,
        },
    );
    assert!(events.contains(&Event::PlacementSkipped {
        seat: Seat(R),
        reason: SkipReason::CannotPlace
    }));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::TileDrawn { seat, .. } if *seat == Seat(R))));
    assert_eq!(s.player(Seat(R)).tiles, vec![Tile(5)]);
}

/// TR-P2-5, TR-D-3, TR-COMP-12: with 3 players Phase 2 runs two laps; players without tiles
/// skip.
#[test]
fn tr_p2_5_three_players_place_in_two_laps_and_empty_hands_skip() {
    let mut s = table(3, Config::default());
    expansion(&mut s, W, 0);
    empire(&mut s, Green, &["22"]);
    s.tile_pile.clear();
    tiles(&mut s, W, &[23, 24]);
    tiles(&mut s, G, &[21, 20]);
    let events = accepted(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(23),
            empire: None,
        },
    );
    // Red holds nothing: skipped.
    assert!(events.contains(&Event::PlacementSkipped {
        seat: Seat(R),
        reason: SkipReason::NoTiles
    }));
    assert_eq!(Tyros::active_seats(&s), vec![Seat(G)]);
    accepted(
        &mut s,
        G,
        Action::PlaceTile {
            tile: Tile(21),
            empire: None,
        },
    );
    // Second lap.
    assert_eq!(Tyros::active_seats(&s), vec![Seat(W)]);
    accepted(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(24),
            empire: None,
        },
    );
    accepted(
        &mut s,
        G,
        Action::PlaceTile {
            tile: Tile(20),
            empire: None,
        },
    );
    assert!(matches!(s.phase, Phase::Actions { .. }));
    // Two tiles each for White and Grey, all four fields now green; their hands are empty.
    for f in ["23", "24", "21", "20"] {
        assert_eq!(s.field(cell(f)).empire, Some(Green), "{f}");
    }
    assert!(s.players.iter().all(|p| p.tiles.is_empty()));
    // 4 players: one lap.
    let mut s = table(4, Config::default());
    expansion(&mut s, W, 0);
    empire(&mut s, Green, &["22"]);
    s.tile_pile.clear();
    tiles(&mut s, W, &[23, 24]);
    accepted(
        &mut s,
        W,
        Action::PlaceTile {
            tile: Tile(23),
            empire: None,
        },
    );
    assert!(matches!(s.phase, Phase::Actions { .. }));
    assert_eq!(s.player(Seat(W)).tiles, vec![Tile(24)]);
}

/// TR-P2-7 (amended): with `cant_place_tile = pass` only, a Phase 2 that places nothing while
/// the pile holds tiles makes each player draw one at its end; under `pass_and_draw` the
/// skipping players' own draws (TR-P2-4) are all, and no fallback draw follows.
#[test]
fn tr_p2_7_a_phase_without_progress_makes_everyone_draw() {
    for rule in [CantPlaceTile::Pass, CantPlaceTile::PassAndDraw] {
        let mut s = table(
            4,
            Config {
                cant_place_tile: rule,
                ..Config::default()
            },
        );
        empire(&mut s, Green, &["5"]);
        for p in &mut s.players {
            p.tiles.clear();
        }
        // Only field 4 touches the empire, and tile 4 lies in the pile.
        s.tile_pile = Tile::all()
            .filter(|t| ![5, 27, 28, 29, 30].contains(&t.0))
            .collect();
        tiles(&mut s, W, &[30]);
        tiles(&mut s, R, &[29]);
        tiles(&mut s, G, &[28]);
        tiles(&mut s, B, &[27]);
        let pile = s.tile_pile.len();
        for seat in [W, R, G] {
            pass(&mut s, seat);
        }
        let events = pass(&mut s, B);
        let skipped = events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::PlacementSkipped {
                        reason: SkipReason::CannotPlace,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(skipped, 4);
        assert_eq!(
            events.contains(&Event::NoProgressDraws),
            rule == CantPlaceTile::Pass
        );
        assert!(
            s.players.iter().all(|p| p.tiles.len() == 2),
            "one tile drawn each"
        );
        assert_eq!(s.tile_pile.len(), pile - 4);
        assert!((1..=32).all(|n| n == 5 || s.field(crate::tyros::data::Cell(n)).empire.is_none()));
    }
}

/// TR-EOR-1: keep choices are sealed; every seat with more than 3 cards chooses at once, and
/// nobody sees another's choice before all are in.
#[test]
fn tr_eor_1_keep_choices_are_simultaneous_and_sealed() {
    let mut s = table(4, Config::default());
    hand(&mut s, W, json!({"orange": 3, "green": 2}));
    hand(&mut s, R, json!({"yellow": 4, "joker": 1}));
    hand(&mut s, G, json!({"violet": 5}));
    for seat in [W, R, G, B] {
        pass(&mut s, seat);
    }
    // Grey's 5 violet leave no choice: kept at once. White and Red choose together.
    assert_eq!(Tyros::active_seats(&s), vec![Seat(W), Seat(R)]);
    let events = accepted(
        &mut s,
        R,
        Action::Keep {
            cards: cards(json!({"yellow": 2, "joker": 1})),
        },
    );
    let seen = Tyros::redact(&events[0], Viewer::Seat(Seat(W))).unwrap();
    assert_eq!(
        seen,
        Event::KeepChosen {
            seat: Seat(R),
            cards: None
        }
    );
    let view = Tyros::view(&s, Viewer::Seat(Seat(W)));
    assert!(view.players[usize::from(R)].keep_chosen);
    assert_eq!(view.players[usize::from(R)].kept, None);
    assert!(
        s.discard_pile.is_empty(),
        "nothing is shown before every choice is in"
    );
    assert_eq!(Tyros::active_seats(&s), vec![Seat(W)]);
    // At most 3, and only cards of one's own hand.
    refused(
        &mut s,
        W,
        Action::Keep {
            cards: cards(json!({"orange": 3, "green": 1})),
        },
        e::BAD_CARD_COUNT,
    );
    refused(
        &mut s,
        W,
        Action::Keep {
            cards: cards(json!({"orange": 2, "violet": 1})),
        },
        e::CARDS_NOT_IN_HAND,
    );
    let events = accepted(
        &mut s,
        W,
        Action::Keep {
            cards: cards(json!({"orange": 3})),
        },
    );
    let discarded: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::CardsDiscarded { seat, cards, .. } => Some((seat.0, *cards)),
            _ => None,
        })
        .collect();
    assert!(discarded.contains(&(W, cards(json!({"green": 2})))));
    assert!(discarded.contains(&(R, cards(json!({"yellow": 2})))));
    assert!(discarded.contains(&(G, cards(json!({"violet": 2})))));
    assert!(
        !discarded.iter().any(|(seat, _)| *seat == B),
        "Black held none"
    );
    // The kept cards stay in hand under the next round's deal.
    let dealt = u32::from(s.config.cards_dealt.for_players(4));
    assert!(held(&s, W).contains(&cards(json!({"orange": 3}))));
    assert!(held(&s, R).contains(&cards(json!({"yellow": 2, "joker": 1}))));
    assert!(held(&s, G).contains(&cards(json!({"violet": 3}))));
    for seat in [W, R, G] {
        assert_eq!(held(&s, seat).total(), 3 + dealt);
    }
    assert_eq!(held(&s, B).total(), dealt);
}

/// TR-EOR-2, TR-D-12: `flip_under` turns the discard pile over under the draw pile: the first
/// card discarded ends up nearest the top of that part.
#[test]
fn tr_eor_2_flip_under_puts_the_turned_discard_pile_under_the_draw_pile() {
    let mut s = table(
        4,
        Config {
            reshuffle_rule: ReshuffleRule::FlipUnder,
            ..Config::default()
        },
    );
    s.draw_pile = vec![Card::Joker, Card::Joker];
    s.discard_pile = vec![Card::Orange, Card::Yellow, Card::Green];
    s.round = 2;
    let events = {
        for seat in [W, R, G] {
            pass(&mut s, seat);
        }
        pass(&mut s, B)
    };
    assert!(events.contains(&Event::DrawPileRebuilt {
        rule: ReshuffleRule::FlipUnder,
        cards: 5,
        order: None
    }));
    // Red (the new start player) draws the two jokers on top first, then orange, yellow,
    // green: the first discarded card comes next.
    assert_eq!(
        held(&s, R),
        cards(json!({"joker": 2, "orange": 1, "yellow": 1, "green": 1}))
    );
    assert!(s.discard_pile.is_empty());
    // The same procedure when the pile runs out mid-round: the swap's draw turns the discards
    // (the 2 just discarded last, so deepest) under the empty pile.
    let mut s = table(
        4,
        Config {
            reshuffle_rule: ReshuffleRule::FlipUnder,
            ..Config::default()
        },
    );
    s.draw_pile = vec![];
    s.discard_pile = vec![Card::Violet, Card::Yellow];
    hand(&mut s, W, json!({"orange": 2}));
    let events = accepted(
        &mut s,
        W,
        Action::BankSwap {
            cards: cards(json!({"orange": 2})),
        },
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::DrawPileRebuilt {
            rule: ReshuffleRule::FlipUnder,
            cards: 4,
            ..
        }
    )));
    assert_eq!(held(&s, W), cards(json!({"violet": 1, "yellow": 1})));
    assert_eq!(s.draw_pile, vec![Card::Orange, Card::Orange]);
}
