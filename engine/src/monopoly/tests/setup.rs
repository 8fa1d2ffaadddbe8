//! §1 components and constants, §2 setup, §16 config options.

use super::support::*;
use crate::monopoly::data::{board, DeedKind, Effect, SquareKind};
use crate::monopoly::event::SeatRoll;
use crate::monopoly::state::State;
use crate::monopoly::{Config, Deck, Event, InterestRounding, Monopoly};
use crate::{Game, Seat};
use rand::SeedableRng;

fn setup(players: usize, seed: u64) -> (Vec<Event>, State) {
    let events = Monopoly::setup(&Config::default(), players, &mut rng(seed)).unwrap();
    let state = Monopoly::replay(&events);
    (events, state)
}

/// MO-COMP-1: 2 to 6 players.
#[test]
fn mo_comp_1_two_to_six_players() {
    assert_eq!(Monopoly::seat_range(), 2..=6);
    let game = crate::registry::find("monopoly").unwrap();
    for seats in [1, 7] {
        assert!(game
            .setup(&serde_json::json!({}), seats, &mut rng(1))
            .is_err());
    }
}

/// MO-COMP-2, MO-SETUP-1, MO-SETUP-2: M 1500 each, all on LOS, everything in the bank.
#[test]
fn mo_comp_2_mo_setup_1_mo_setup_2_start_money_tokens_and_bank() {
    let (_, s) = setup(4, 1);
    assert!(s.players.iter().all(|p| p.cash == 1500 && p.position == 0));
    assert!(s.deeds.iter().all(|d| d.owner.is_none() && d.level == 0));
    assert_eq!((s.bank_houses, s.bank_hotels), (32, 12));
}

/// MO-COMP-3, MO-COMP-4: 40 squares: 22 streets in 8 groups, 4 Bahnhöfe, 2 Werke, 3 + 3 card
/// squares, 2 taxes, 4 corners; 28 deeds.
#[test]
fn mo_comp_3_mo_comp_4_board_and_28_deeds() {
    let b = board();
    assert_eq!(b.squares.len(), 40);
    let count = |f: &dyn Fn(&DeedKind) -> bool| b.deeds.iter().filter(|d| f(&d.kind)).count();
    assert_eq!(count(&|k| matches!(k, DeedKind::Street { .. })), 22);
    assert_eq!(count(&|k| matches!(k, DeedKind::Railway { .. })), 4);
    assert_eq!(count(&|k| matches!(k, DeedKind::Utility { .. })), 2);
    assert_eq!(b.groups.len(), 8);
    assert_eq!(b.deeds.len(), 28);
    let cards = |deck| {
        b.squares
            .iter()
            .filter(|s| **s == SquareKind::Card(deck))
            .count()
    };
    assert_eq!((cards(Deck::Ereignis), cards(Deck::Gemeinschaft)), (3, 3));
    let taxes = b
        .squares
        .iter()
        .filter(|s| matches!(s, SquareKind::Tax { .. }))
        .count();
    assert_eq!(taxes, 2);
    assert_eq!(b.squares[0], SquareKind::Go);
    assert_eq!(b.squares[10], SquareKind::Jail);
    assert_eq!(b.squares[20], SquareKind::FreeParking);
    assert_eq!(b.squares[30], SquareKind::GoToJail);
}

/// MO-COMP-5, MO-COMP-6, MO-COMP-7, MO-COMP-8, MO-COMP-9, MO-COMP-10, MO-COMP-11,
/// MO-COMP-12, MO-COMP-13: the constants of §1.
#[test]
fn mo_comp_5_to_13_constants() {
    let c = &board().constants;
    assert_eq!((c.houses, c.hotels), (32, 12));
    assert_eq!(board().deck_cards(Deck::Ereignis).count(), 16);
    assert_eq!(board().deck_cards(Deck::Gemeinschaft).count(), 16);
    assert_eq!((c.salary, c.jail_fine), (200, 50));
    assert_eq!(c.mortgage_interest_percent, 10);
    assert_eq!(c.building_sell_back_percent, 50);
    assert_eq!(c.auction_min_bid, 1);
    assert_eq!(board().squares[4], SquareKind::Tax { amount: 200 });
    assert_eq!(board().squares[38], SquareKind::Tax { amount: 100 });
    // MO-COMP-7: two six-sided dice, each face equally likely.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut seen = [0u32; 7];
    for _ in 0..6000 {
        seen[usize::from(crate::monopoly::dice::die(&mut rng))] += 1;
    }
    assert_eq!(seen[0], 0);
    assert!(
        seen[1..].iter().all(|&n| (800..1200).contains(&n)),
        "{seen:?}"
    );
}

/// MO-COMP-14: the seed's prices: Hauptstraße 300, Südbahnhof 200, Wasserwerk 150.
#[test]
fn mo_comp_14_seed_confirmed_prices() {
    let price = |square: u8| board().deed(board().deed_at(square).unwrap()).price;
    assert_eq!((price(32), price(5), price(28)), (300, 200, 150));
}

/// §1.1: every street's MV is half its price, and the lift price (MV + 10 % rounded up) matches
/// the data file's `unmortgage` column (MO-D-12).
#[test]
fn street_table_mortgage_values_and_lift_prices() {
    let raw: serde_json::Value =
        serde_json::from_str(include_str!("../../../rules/monopoly-board.json")).unwrap();
    let s = new_game(2);
    for sq in raw["squares"].as_array().unwrap() {
        if let Some(lift) = sq["unmortgage"].as_i64() {
            let square = sq["index"].as_u64().unwrap() as u8;
            let d = board().deed(board().deed_at(square).unwrap());
            assert_eq!(d.mortgage * 2, d.price, "{}", d.name);
            assert_eq!(
                crate::monopoly::rules::lift_price(&s, square),
                lift,
                "{}",
                d.name
            );
        }
    }
}

/// MO-SETUP-3: both decks shuffled once; the order is in the log but redacted.
#[test]
fn mo_setup_3_decks_shuffled_and_order_redacted() {
    let (events, s) = setup(3, 9);
    let shuffles: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::DeckShuffled { .. }))
        .collect();
    assert_eq!(shuffles.len(), 2);
    assert_eq!(s.decks[0].len() + s.decks[1].len(), 32);
    let printed: Vec<_> = board().deck_cards(Deck::Ereignis).collect();
    let (_, other) = setup(3, 10);
    assert!(
        s.decks[0] != printed || other.decks[0] != printed,
        "shuffled"
    );
    for e in shuffles {
        let Some(Event::DeckShuffled { order, cards, .. }) =
            Monopoly::redact(e, crate::Viewer::Spectator)
        else {
            panic!()
        };
        assert_eq!((order, cards), (None, 16));
    }
}

/// MO-SETUP-4, MO-D-1: everyone rolls, the tied highest roll again, the highest starts.
#[test]
fn mo_setup_4_mo_d_1_starting_roll_with_rerolls_of_ties() {
    let mut rerolls = 0;
    for seed in 0..200 {
        let (events, s) = setup(4, seed);
        let rounds: Vec<&Vec<SeatRoll>> = events
            .iter()
            .filter_map(|e| match e {
                Event::StartingRolled { rolls } => Some(rolls),
                _ => None,
            })
            .collect();
        assert_eq!(rounds[0].len(), 4, "everyone rolls first");
        for pair in rounds.windows(2) {
            let best = pair[0].iter().map(|r| r.dice[0] + r.dice[1]).max().unwrap();
            let tied: Vec<Seat> = pair[0]
                .iter()
                .filter(|r| r.dice[0] + r.dice[1] == best)
                .map(|r| r.seat)
                .collect();
            assert_eq!(pair[1].iter().map(|r| r.seat).collect::<Vec<_>>(), tied);
            rerolls += 1;
        }
        let last = rounds.last().unwrap();
        let best = last.iter().map(|r| r.dice[0] + r.dice[1]).max().unwrap();
        let winner: Vec<Seat> = last
            .iter()
            .filter(|r| r.dice[0] + r.dice[1] == best)
            .map(|r| r.seat)
            .collect();
        assert_eq!(winner.len(), 1);
        assert_eq!(s.turn_seat(), Some(winner[0]));
        assert_eq!(Monopoly::active_seats(&s), winner);
    }
    assert!(rerolls > 10, "ties happen and are rolled off");
}

/// §16: every option with the spec's default; unknown keys and out-of-range values refused.
#[test]
fn config_defaults_validation_and_unknown_keys() {
    let json = serde_json::to_value(Config::default()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"start_money": 1500, "auto_collect_rent": false,
            "count_mortgaged_for_rail_util": true, "building_auction_min_bid": 1,
            "interest_rounding": "up", "deck": "hasbro-de-du", "round_limit": null,
            "utility_rent_dice": "roll", "trade_offers": "as_made",
            "inherited_interest": "per_deed"})
    );
    let game = crate::registry::find("monopoly").unwrap();
    let try_config = |config: serde_json::Value, seats| game.setup(&config, seats, &mut rng(1));
    assert!(try_config(serde_json::json!({"players": 3}), 3).is_ok());
    for bad in [
        serde_json::json!({"players": 4}),
        serde_json::json!({"start_money": 0}),
        serde_json::json!({"building_auction_min_bid": 0}),
        serde_json::json!({"round_limit": 0}),
        serde_json::json!({"deck": "hasbro-de-sie"}),
        serde_json::json!({"interest_rounding": "sideways"}),
        serde_json::json!({"utility_rent_dice": "move_roll"}),
        serde_json::json!({"trade_offers": "binding"}),
        serde_json::json!({"inherited_interest": "by_deed"}),
        serde_json::json!({"jackpot": true}),
    ] {
        assert!(try_config(bad.clone(), 3).is_err(), "{bad} must be refused");
    }
    let custom = Config {
        start_money: 2000,
        interest_rounding: InterestRounding::Down,
        ..Config::default()
    };
    let s = Monopoly::replay(&Monopoly::setup(&custom, 2, &mut rng(1)).unwrap());
    assert_eq!(s.players[0].cash, 2000);
    assert_eq!(
        crate::monopoly::rules::lift_price(&s, 28),
        75 + 7,
        "MO-D-12 down"
    );
}

/// The card data: 16 cards per deck, two jail cards, effects of the summary table.
#[test]
fn mo_card_4_mo_d_15_deck_hasbro_de_du_effects() {
    let b = board();
    let effect = |id: &str| {
        let card: crate::monopoly::Card = serde_json::from_value(serde_json::json!(id)).unwrap();
        b.card(card).effect.clone()
    };
    assert_eq!(effect("E02"), Effect::AdvanceTo { square: 39 });
    assert_eq!(effect("E14"), Effect::PayEachPlayer { amount: 50 });
    assert_eq!(
        effect("G06"),
        Effect::PayOrDraw {
            amount: 10,
            draw_deck: Deck::Ereignis
        }
    );
    let jail_cards = b
        .cards
        .iter()
        .filter(|c| c.effect == Effect::GetOutOfJailFree)
        .count();
    assert_eq!(jail_cards, 2);
    // Every row of the spec's summary tables, in its deck, with a German text.
    use Effect::*;
    let table = [
        ("E01", AdvanceTo { square: 0 }),
        ("E02", AdvanceTo { square: 39 }),
        ("E03", AdvanceTo { square: 24 }),
        ("E04", AdvanceTo { square: 11 }),
        ("E05", AdvanceTo { square: 5 }),
        ("E06", MoveBack { steps: 3 }),
        ("E07", GoToJail),
        ("E08", GetOutOfJailFree),
        ("E09", ReceiveFromBank { amount: 50 }),
        ("E10", ReceiveFromBank { amount: 150 }),
        ("E11", ReceiveFromBank { amount: 100 }),
        ("E12", PayBank { amount: 150 }),
        ("E13", PayBank { amount: 15 }),
        ("E14", PayEachPlayer { amount: 50 }),
        (
            "E15",
            Repairs {
                per_house: 25,
                per_hotel: 100,
            },
        ),
        (
            "E16",
            Repairs {
                per_house: 40,
                per_hotel: 115,
            },
        ),
        ("G01", AdvanceTo { square: 0 }),
        ("G02", MoveBackTo { square: 1 }),
        ("G03", GoToJail),
        ("G04", GetOutOfJailFree),
        ("G05", AdvanceToNearestRailway { rent_multiplier: 2 }),
        (
            "G06",
            PayOrDraw {
                amount: 10,
                draw_deck: Deck::Ereignis,
            },
        ),
        ("G07", ReceiveFromBank { amount: 200 }),
        ("G08", ReceiveFromEachPlayer { amount: 10 }),
        ("G09", ReceiveFromBank { amount: 100 }),
        ("G10", ReceiveFromBank { amount: 100 }),
        ("G11", ReceiveFromBank { amount: 50 }),
        ("G12", ReceiveFromBank { amount: 25 }),
        ("G13", ReceiveFromBank { amount: 20 }),
        ("G14", ReceiveFromBank { amount: 10 }),
        ("G15", PayBank { amount: 50 }),
        ("G16", PayBank { amount: 100 }),
    ];
    assert_eq!(b.cards.len(), table.len());
    for (id, expect) in table {
        assert_eq!(effect(id), expect, "{id}");
        let card: crate::monopoly::Card = serde_json::from_value(serde_json::json!(id)).unwrap();
        let data = b.card(card);
        let deck = if id.starts_with('E') {
            Deck::Ereignis
        } else {
            Deck::Gemeinschaft
        };
        assert_eq!(data.deck, deck, "{id}");
        assert!(!data.text.is_empty(), "{id}");
    }
}
