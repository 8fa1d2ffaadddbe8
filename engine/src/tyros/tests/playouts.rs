//! Seeded random playouts for 3 and 4 players × {base, each big variant alone, Galleys +
//! Pirates, all three}, the small variants and several reconstructed options switched at random
//! per game: every game ends, every listed action and every template instantiation is accepted,
//! tiles, cards, ships, cities and galley tokens are conserved, nothing hidden reaches another
//! seat's view, redacted events or error messages, the log replays to the state, and state and
//! log survive JSON.

use super::support::rng;
use crate::checked_playout::{self, Checks, Playout};
use crate::tyros::cards::Cards;
use crate::tyros::data::{board, Cell, DesertCell, SeaCell, Tile, CELL_COUNT};
use crate::tyros::state::{Phase, ShipId, State};
use crate::tyros::{
    Action, CantPlaceTile, Config, Event, ReshuffleRule, SetupMode, Tyros, TyrosShipyard,
};
use crate::{Game, Seat, Viewer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Seeded games per player count and variant combination.
const GAMES: u64 = 200;
/// Far above any real game; reaching it means a game that does not end.
const MAX_ACTIONS: usize = 50_000;

/// The big-variant combinations the issue asks for.
#[derive(Debug, Clone, Copy)]
enum Variants {
    Base,
    Pirates,
    ActionCards,
    Galleys,
    GalleysAndPirates,
    All,
}

/// The configuration of one seeded game: the big variants as given, the small ones and the
/// reconstructed options drawn from the seed.
fn config(variants: Variants, seed: u64) -> Config {
    let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x74_7972_6f73);
    let (pirates, action_cards, galleys) = match variants {
        Variants::Base => (false, false, false),
        Variants::Pirates => (true, false, false),
        Variants::ActionCards => (false, true, false),
        Variants::Galleys => (false, false, true),
        Variants::GalleysAndPirates => (true, false, true),
        Variants::All => (true, true, true),
    };
    Config {
        pirates,
        action_cards,
        galleys,
        bank_trade_once_per_round: r.random_bool(0.5),
        player_trade_free: r.random_bool(0.5),
        bonus_city_in_all_empires: if r.random_bool(0.5) { 9 } else { 6 },
        reshuffle_rule: if r.random_bool(0.3) {
            ReshuffleRule::FlipUnder
        } else {
            ReshuffleRule::Shuffle
        },
        cant_place_tile: if r.random_bool(0.3) {
            CantPlaceTile::Pass
        } else {
            CantPlaceTile::PassAndDraw
        },
        tyros_shipyard: [
            TyrosShipyard::OnlyWhileNoCity,
            TyrosShipyard::Always,
            TyrosShipyard::Never,
        ][r.random_range(0..3)],
        jokers_wild: r.random_bool(0.8),
        setup: if r.random_bool(0.2) {
            SetupMode::Fixed
        } else {
            SetupMode::Random
        },
        desert_cell: DesertCell::ALL[r.random_range(0..DesertCell::ALL.len())],
        sea_cell: SeaCell::ALL[r.random_range(0..SeaCell::ALL.len())],
        ..Config::default()
    }
}

/// Weights that let action phases end: passing is likely, bank swaps and offers rare.
fn policy(action: &Action) -> u32 {
    match action {
        Action::Pass | Action::EndTurn => 30,
        Action::Move { wind: true, .. } | Action::ExplorerVoyage { .. } => 40,
        Action::Move { .. } => 3,
        Action::FoundCity { .. } => 60,
        Action::BuildShip { galley: true, .. } => 30,
        Action::BuildShip { .. } => 10,
        Action::BankSwap { .. } | Action::BankPick { .. } => 2,
        Action::OfferTrade { .. } | Action::WithdrawTrade => 1,
        Action::AcceptTrade | Action::RejectTrade => 3,
        Action::PlayFavourableWind | Action::PlayExplorer | Action::PlayBlockadeBreaker { .. } => {
            15
        }
        Action::SinkShip { .. } => 30,
        _ => 5,
    }
}

fn play(players: usize, seed: u64, config: &Config, check_completeness: bool) -> Vec<Event> {
    let playout = Playout {
        players,
        seed,
        check_completeness,
        max_actions: MAX_ACTIONS,
        json_every: 5,
        standing_actions: true,
    };
    checked_playout::play(&playout, &CHECKS, config, policy)
}

/// This game's checks at every step of a playout.
const CHECKS: Checks<Tyros> = Checks {
    invariants: check_invariants,
    exactly_legal: check_exactly_legal,
    ledger: check_ledger,
    hidden: check_hidden,
};

/// Tiles, cards, ships, cities and galley tokens are conserved; the board is well formed.
pub(super) fn check_invariants(state: &State) {
    let b = board();
    let config = &state.config;
    // TR-COMP-4: every tile exactly once: in the pile, in a hand, or on its field.
    let mut seen = [0u8; CELL_COUNT];
    for t in state
        .tile_pile
        .iter()
        .chain(state.players.iter().flat_map(|p| p.tiles.iter()))
    {
        seen[usize::from(t.0)] += 1;
    }
    for c in Cell::fields() {
        if state.field(c).empire.is_some() {
            seen[c.index()] += 1;
        }
    }
    assert!(seen[1..].iter().all(|&n| n == 1), "tiles: {seen:?}");
    // The used pool is every assigned field not under a pirate (TR-PIR-3).
    let mut used: Vec<Tile> = state.used_tiles.clone();
    used.sort();
    let expected: Vec<Tile> = Cell::fields()
        .filter(|&c| state.field(c).empire.is_some() && state.field(c).pirate.is_none())
        .map(|c| Tile(c.0))
        .collect();
    assert_eq!(used, expected, "used pool");
    for c in Cell::fields() {
        let f = state.field(c);
        if f.pirate.is_some() || f.city.is_some() {
            assert!(
                f.empire.is_some(),
                "pirates and cities only on empire fields"
            );
        }
    }
    assert!(state.field(Cell::TYROS).empire.is_none() && state.field(Cell::TYROS).city.is_none());
    // TR-COMP-6: every trade card somewhere.
    let mut cards = Cards::count(&state.draw_pile).plus(&Cards::count(&state.discard_pile));
    for p in &state.players {
        cards = cards.plus(&p.cards);
    }
    if let Some(f) = &state.fight {
        for laid in [f.attacker_cards, f.defender_cards].into_iter().flatten() {
            cards = cards.plus(&laid);
        }
    }
    assert_eq!(cards, config.trade_card_split, "trade cards conserved");
    // Ships (TR-COMP-2), the 2-ship limit, galleys (TR-GAL-1) and explorers (TR-AK-8).
    let n = state.players.len();
    let limit = usize::from(b.constants.ship_limit_per_field);
    for seat in state.seats() {
        let own = state.ships.iter().filter(|s| s.owner == seat).count();
        assert_eq!(own, usize::from(config.ships_per_player(n)));
        let galleys = state
            .ships
            .iter()
            .filter(|s| s.owner == seat && s.galley)
            .count();
        assert!(galleys <= usize::from(b.variants.galleys.tokens_per_player));
        assert_eq!(
            usize::from(state.galley_tokens_left(seat)) + galleys,
            usize::from(b.variants.galleys.tokens_per_player),
            "galley tokens conserved"
        );
        let cities = state.cities_of(seat).count();
        assert_eq!(
            cities + usize::from(state.player(seat).cities_left),
            usize::from(config.cities_per_player),
            "TR-COMP-3: cities conserved"
        );
    }
    for s in &state.ships {
        assert!(config.galleys || !s.galley);
        match s.at {
            None => assert!(!s.galley && !s.explorer, "ships in supply are plain"),
            Some(at) if !at.is_tyros() && state.field(at).empire.is_none() => {
                assert!(s.explorer, "only explorers stand on neutral fields")
            }
            _ => {}
        }
    }
    for c in Cell::fields() {
        assert!(
            state.ship_count(c) <= limit,
            "TR-ACT-A: at most 2 ships in {c}"
        );
    }
    // Whoever owes cards can pay them (TR-D-19).
    for seat in state.seats() {
        let dues: Vec<_> = state
            .dues
            .iter()
            .filter(|d| d.payer == seat)
            .copied()
            .collect();
        assert!(crate::tyros::payment::affordable(
            config,
            &state.player(seat).cards,
            &dues
        ));
    }
    assert_eq!(state.outcome.is_some(), state.phase == Phase::Finished);
}

/// Hand sizes change only through draws, payments, discards, trades and fights.
fn check_ledger(before: &State, after: &State, events: &[Event]) {
    let mut expected: Vec<i64> = before
        .players
        .iter()
        .map(|p| i64::from(p.cards.total()))
        .collect();
    let mut points: Vec<i32> = before.players.iter().map(|p| p.pirate_points).collect();
    let mut scratch = before.clone();
    for e in events {
        let total = |c: &Cards| i64::from(c.total());
        match e {
            Event::CardsDrawn { seat, count, cards } => {
                let top = &scratch.draw_pile[scratch.draw_pile.len() - usize::from(*count)..];
                assert_eq!(cards, &Some(Cards::count(top)), "draws come off the top");
                expected[seat.index()] += i64::from(*count);
            }
            Event::DuePaid {
                seat, cards, to, ..
            } => {
                expected[seat.index()] -= total(cards);
                if let Some(to) = to {
                    expected[to.index()] += total(cards);
                }
            }
            Event::CardsDiscarded { seat, cards, .. } => expected[seat.index()] -= total(cards),
            Event::TradeAccepted {
                from,
                to,
                give,
                get,
            } => {
                expected[from.index()] += total(get) - total(give);
                expected[to.index()] += total(give) - total(get);
            }
            Event::CardTakenFromPile { seat, .. } => expected[seat.index()] += 1,
            Event::FightCardsLaid { seat, count, .. } => {
                expected[seat.index()] -= i64::from(*count)
            }
            Event::FightResolved { discarded, .. } => {
                let f = scratch.fight.as_ref().expect("a fight is on");
                for (ship, laid) in [
                    (f.attacker, f.attacker_cards),
                    (f.defender, f.defender_cards),
                ] {
                    expected[scratch.ship(ship).owner.index()] += total(&laid.unwrap_or_default());
                }
                expected[f.winner.map_or(0, |w| w.index())] -= total(discarded);
            }
            Event::PirateSunk { points: p, .. } => {
                for x in p {
                    points[x.seat.index()] += x.points;
                }
            }
            _ => {}
        }
        Tyros::evolve(&mut scratch, e);
    }
    let actual: Vec<i64> = after
        .players
        .iter()
        .map(|p| i64::from(p.cards.total()))
        .collect();
    assert_eq!(
        actual, expected,
        "cards moved outside a defined payment: {events:?}"
    );
    let actual: Vec<i32> = after.players.iter().map(|p| p.pirate_points).collect();
    assert_eq!(actual, points, "pirate points only from sinking");
}

/// TR-D-20: nothing secret reaches a viewer who may not see it.
fn check_hidden(state: &State, events: &[Event]) {
    if state.outcome.is_some() {
        return;
    }
    let mut r = rng(state.turn_number.into());
    for viewer in state.seats().map(Viewer::Seat).chain([Viewer::Spectator]) {
        let mine = |seat: &Seat| viewer == Viewer::Seat(*seat);
        for e in events {
            let redacted = Tyros::redact(e, viewer).expect("no event is hidden entirely");
            match &redacted {
                Event::TilePileShuffled { order, .. } => assert!(order.is_none()),
                Event::DrawPileShuffled { order, .. } | Event::DrawPileRebuilt { order, .. } => {
                    assert!(order.is_none())
                }
                Event::TilesDealt { seat, tiles, .. } => assert_eq!(tiles.is_some(), mine(seat)),
                Event::TileDrawn { seat, tile } => assert_eq!(tile.is_some(), mine(seat)),
                Event::TilesSwapped { seat, drawn, .. } => assert_eq!(drawn.is_some(), mine(seat)),
                Event::CardsDrawn { seat, cards, .. }
                | Event::FightCardsLaid { seat, cards, .. }
                | Event::KeepChosen { seat, cards } => assert_eq!(cards.is_some(), mine(seat)),
                _ => {}
            }
        }
        // Re-dealing what the viewer cannot see and comparing everything it is shown costs
        // about ten times the rest of a step: done on every eighth turn of every game.
        if !state.turn_number.is_multiple_of(8) {
            continue;
        }
        let view = serde_json::to_string(&Tyros::view(state, viewer)).unwrap();
        let other = crate::tyros::determinize::sample(state, viewer, &mut r);
        assert_eq!(
            view,
            serde_json::to_string(&Tyros::view(&other, viewer)).unwrap(),
            "the view of {viewer:?} depends on what it cannot see"
        );
        let Viewer::Seat(seat) = viewer else { continue };
        let legal = Tyros::legal_actions(state, seat);
        assert_eq!(legal, Tyros::legal_actions(&other, seat));
        assert_eq!(
            Tyros::action_templates(state, seat),
            Tyros::action_templates(&other, seat)
        );
        // Refusals read the same whatever lies in the other hands and the piles.
        let probes = Tile::all()
            .map(|tile| Action::PlaceTile { tile, empire: None })
            .chain([Action::AcceptTrade, Action::Pass, Action::EndTurn])
            .chain(legal);
        for action in probes {
            let a = Tyros::decide(state, seat, &action, &mut rng(1)).err();
            let b = Tyros::decide(&other, seat, &action, &mut rng(1)).err();
            assert_eq!(a, b, "{action:?} by {seat} is judged on hidden facts");
        }
    }
}

/// Every action of a universe is accepted exactly when a listed action stands for it.
fn check_exactly_legal(state: &State, seat: Seat, legal: &[Action]) {
    for action in legal {
        if let Err(e) = Tyros::decide(state, seat, action, &mut rng(0)) {
            panic!("listed {action:?} refused: {e}");
        }
    }
    // The seat's own ships, and one rival ship to show that others' ships are refused.
    let own: Vec<ShipId> = (0..state.ships.len() as u8)
        .map(ShipId)
        .filter(|&id| state.ship(id).owner == seat)
        .chain(
            state
                .ships
                .iter()
                .position(|s| s.owner != seat)
                .map(|i| ShipId(i as u8)),
        )
        .collect();
    let mut universe = vec![
        Action::Pass,
        Action::EndTurn,
        Action::AcceptTrade,
        Action::RejectTrade,
        Action::WithdrawTrade,
        Action::PlayFavourableWind,
        Action::PlayExplorer,
    ];
    for tile in Tile::all() {
        universe.push(Action::PlaceTile { tile, empire: None });
        for e in crate::tyros::Empire::ALL {
            universe.push(Action::PlaceTile {
                tile,
                empire: Some(e),
            });
        }
    }
    for at in Cell::all() {
        universe.push(Action::BuildShip { at, galley: false });
        universe.push(Action::BuildShip { at, galley: true });
    }
    for &ship in &own {
        universe.push(Action::FoundCity { ship });
        for to in Cell::all() {
            for wind in [false, true] {
                universe.push(Action::Move {
                    ship,
                    to,
                    path: None,
                    wind,
                    cost: None,
                });
            }
            universe.push(Action::ExplorerVoyage {
                ship,
                to,
                path: None,
                cost: None,
            });
            universe.push(Action::PlayBlockadeBreaker { ship, to });
        }
        for &target in &own {
            universe.push(Action::SinkShip {
                galley: ship,
                target,
            });
        }
    }
    let stands_for = |a: &Action| -> bool {
        legal.iter().any(|l| match (a, l) {
            (
                Action::Move { ship, to, wind, .. },
                Action::Move {
                    ship: s2,
                    to: t2,
                    wind: w2,
                    ..
                },
            ) => ship == s2 && to == t2 && wind == w2,
            (
                Action::ExplorerVoyage { ship, to, .. },
                Action::ExplorerVoyage {
                    ship: s2, to: t2, ..
                },
            ) => ship == s2 && to == t2,
            (Action::PlaceTile { tile, empire: None }, Action::PlaceTile { tile: t2, .. }) => {
                tile == t2
                    && legal
                        .iter()
                        .filter(|x| matches!(x, Action::PlaceTile { tile: t3, .. } if t3 == tile))
                        .count()
                        == 1
            }
            _ => a == l,
        })
    };
    for action in universe {
        let ok = Tyros::decide(state, seat, &action, &mut rng(0)).is_ok();
        assert_eq!(
            ok,
            stands_for(&action),
            "{action:?} by {seat}: decide says {ok} in {:?}",
            state.phase
        );
    }
}

fn playouts(players: usize, variants: Variants) {
    let mut actions = 0;
    for seed in 0..GAMES {
        let config = config(variants, seed);
        actions += play(players, seed, &config, seed == 0 && players == 4).len();
    }
    assert!(actions > 0);
}

macro_rules! playout_tests {
    ($($name:ident: $players:expr, $variants:expr;)*) => {$(
        /// TR-END-1, TR-D-20: random games end and keep every invariant.
        #[test]
        fn $name() {
            playouts($players, $variants);
        }
    )*};
}

playout_tests! {
    random_3_player_base_games_end_and_keep_every_invariant: 3, Variants::Base;
    random_4_player_base_games_end_and_keep_every_invariant: 4, Variants::Base;
    random_3_player_pirate_games_end_and_keep_every_invariant: 3, Variants::Pirates;
    random_4_player_pirate_games_end_and_keep_every_invariant: 4, Variants::Pirates;
    random_3_player_action_card_games_end_and_keep_every_invariant: 3, Variants::ActionCards;
    random_4_player_action_card_games_end_and_keep_every_invariant: 4, Variants::ActionCards;
    random_3_player_galley_games_end_and_keep_every_invariant: 3, Variants::Galleys;
    random_4_player_galley_games_end_and_keep_every_invariant: 4, Variants::Galleys;
    random_3_player_galleys_and_pirates_games_end_and_keep_every_invariant: 3, Variants::GalleysAndPirates;
    random_4_player_galleys_and_pirates_games_end_and_keep_every_invariant: 4, Variants::GalleysAndPirates;
    random_3_player_all_variant_games_end_and_keep_every_invariant: 3, Variants::All;
    random_4_player_all_variant_games_end_and_keep_every_invariant: 4, Variants::All;
}

#[test]
fn playouts_are_deterministic_for_a_seed() {
    let config = config(Variants::All, 5);
    assert_eq!(play(4, 5, &config, false), play(4, 5, &config, false));
}
