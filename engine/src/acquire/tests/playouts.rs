//! Seeded random playouts: every game ends, every listed action is accepted, money moves only
//! through defined payments, shares and tiles are conserved, hidden tiles never leak, and the
//! log replays to the state.

use super::support::rng;
use crate::acquire::data::{board, Chain, Tile, CHAIN_COUNT};
use crate::acquire::state::{Cell, State};
use crate::acquire::{Acquire, Action, Config, DefunctOrder, EndRule, Event};
use crate::checked_playout::{self, each_string, uniform, Checks, Playout};
use crate::{Game, Seat, Viewer};

const GAMES_PER_COUNT: u64 = 300;
/// Far above any real game; reaching it means a game that does not end.
const MAX_ACTIONS: usize = 5_000;

/// A merger hunter: places and buys eagerly, rarely announces, so boards fill up, chains get
/// safe, dead tiles and eighth-chain tiles appear and the pile runs out.
fn builder(action: &Action) -> u32 {
    match action {
        Action::AnnounceEnd => 1,
        Action::BuyShare { .. } => 20,
        Action::EndTurn => 5,
        _ => 10,
    }
}

/// A hoarder: buys whatever it can and keeps every defunct share, so chains get bought out,
/// merged away with all 25 shares in players' hands and founded again without a founder's share
/// (AQ-FOUND-3, AQ-D11).
fn hoarder(action: &Action) -> u32 {
    match action {
        Action::BuyShare { .. } => 50,
        Action::DisposeShares { sell: 0, trade: 0 } => 100,
        Action::DisposeShares { .. } | Action::AnnounceEnd => 1,
        _ => 10,
    }
}

/// Play one seeded game to the end with `policy`, checking every step. Returns the log.
fn play_with(
    players: usize,
    seed: u64,
    config: Config,
    check_completeness: bool,
    policy: fn(&Action) -> u32,
) -> Vec<Event> {
    let playout = Playout {
        players,
        seed,
        check_completeness,
        max_actions: MAX_ACTIONS,
        json_every: 10,
        standing_actions: false,
    };
    checked_playout::play(&playout, &CHECKS, &config, policy)
}

/// This game's checks at every step of a playout.
const CHECKS: Checks<Acquire> = Checks {
    invariants: check_invariants,
    exactly_legal: check_exactly_legal,
    ledger: check_ledger,
    hidden: check_hidden,
};

/// Hidden information: no view or redacted event names a tile the viewer may not know (the
/// pile, other hands), and with `hidden_holdings` no view shows another player's cash or
/// shares before the end (AQ-INFO-2, AQ-INFO-3).
fn check_hidden(state: &State, events: &[Event]) {
    let mut bag = vec![false; board().tile_count];
    for t in &state.bag {
        bag[t.index()] = true;
    }
    let holdings_hidden = state.config.hidden_holdings && state.outcome.is_none();
    for viewer in state.seats().map(Viewer::Seat).chain([Viewer::Spectator]) {
        let mut hidden = bag.clone();
        for seat in state.seats().filter(|&seat| viewer != Viewer::Seat(seat)) {
            for t in &state.player(seat).hand {
                hidden[t.index()] = true;
            }
        }
        let view = Acquire::view(state, viewer);
        for p in &view.players {
            let mine = viewer == Viewer::Seat(p.seat);
            assert_eq!(p.hand.is_some(), mine, "AQ-INFO-2: only the own hand");
            if holdings_hidden && !mine {
                assert!(
                    p.cash.is_none() && p.shares.is_none(),
                    "AQ-INFO-3: {viewer:?} sees {}'s holdings",
                    p.seat
                );
            }
        }
        let mut leak = |s: &str| {
            // Only a tile name ("9F", "12I") can name a tile; skip field names and the like.
            if s.len() <= 3 && s.starts_with(|c: char| c.is_ascii_digit()) {
                if let Ok(t) = s.parse::<Tile>() {
                    assert!(!hidden[t.index()], "hidden tile {s} leaked to {viewer:?}");
                }
            }
        };
        each_string(&view, &mut leak);
        for e in events {
            let redacted = Acquire::redact(e, viewer).expect("no event is hidden entirely");
            match &redacted {
                Event::TilesShuffled { order, .. } => assert!(order.is_none()),
                Event::TileDrawn { seat, tile } => {
                    assert_eq!(tile.is_some(), viewer == Viewer::Seat(*seat))
                }
                _ => {}
            }
            each_string(&redacted, &mut leak);
        }
    }
}

/// The action universe: every tile with and without each name, every survivor, every order of
/// up to three chains, every split of up to 25 shares, every purchase and the turn actions.
fn universe() -> Vec<Action> {
    let mut u = vec![Action::AnnounceEnd, Action::EndTurn];
    for tile in Tile::all() {
        u.push(Action::PlaceTile { tile, chain: None });
        u.extend(Chain::all().map(|c| Action::PlaceTile {
            tile,
            chain: Some(c),
        }));
    }
    for a in Chain::all() {
        u.push(Action::ChooseSurvivor { chain: a });
        u.push(Action::BuyShare { chain: a });
        u.push(Action::OrderDefuncts { order: vec![a] });
        for b in Chain::all() {
            u.push(Action::OrderDefuncts { order: vec![a, b] });
            for c in Chain::all() {
                u.push(Action::OrderDefuncts {
                    order: vec![a, b, c],
                });
            }
        }
    }
    for sell in 0..=26 {
        for trade in 0..=26 {
            u.push(Action::DisposeShares { sell, trade });
        }
    }
    u.push(Action::OrderDefuncts { order: vec![] });
    u
}

/// Every action of the universe is accepted exactly when it is listed.
fn check_exactly_legal(state: &State, seat: Seat, legal: &[Action]) {
    thread_local! {
        static UNIVERSE: Vec<Action> = universe();
    }
    UNIVERSE.with(|u| {
        for action in u {
            let ok = Acquire::decide(state, seat, action, &mut rng(0)).is_ok();
            assert_eq!(
                ok,
                legal.contains(action),
                "{action:?}: decide says {ok} in {:?} / {:?}",
                state.stage,
                state.merger
            );
        }
    });
    for other in state.seats().filter(|s| *s != seat) {
        for action in legal {
            let err = Acquire::decide(state, other, action, &mut rng(0)).unwrap_err();
            assert_eq!(err.code, "not_your_turn");
        }
    }
}

/// Money changes only through defined payments, each at the amount the data table prints.
fn check_ledger(before: &State, after: &State, events: &[Event]) {
    let b = board();
    let mut expected: Vec<i32> = before.players.iter().map(|p| p.cash).collect();
    let mut scratch = before.clone();
    for e in events {
        match e {
            Event::ShareBought { seat, chain, price } => {
                assert_eq!(
                    *price,
                    b.price(*chain, scratch.chain(*chain).size),
                    "AQ-BUY-2"
                );
                assert!(expected[seat.index()] >= *price, "AQ-BUY-3: no credit");
                expected[seat.index()] -= price;
            }
            Event::SharesDisposed {
                seat,
                chain,
                sold,
                price,
                proceeds,
                ..
            } => {
                let m = scratch.merger.as_ref().expect("disposal within a merger");
                assert_eq!(m.defuncts[0].chain, *chain);
                assert_eq!(*price, b.price(*chain, m.defuncts[0].size), "AQ-DISP-2");
                assert_eq!(*proceeds, i32::from(*sold) * price);
                expected[seat.index()] += proceeds;
            }
            Event::BonusesPaid {
                chain,
                size,
                payouts,
                bank_award,
                bank_holding,
            } => {
                let expected_size = match &scratch.merger {
                    Some(m) => m.defuncts[0].size,
                    None => scratch.chain(*chain).size,
                };
                assert_eq!(*size, expected_size, "AQ-MERGE-5 / AQ-END-4 size");
                assert_eq!(bank_holding.is_some(), scratch.two_player(), "AQ-2P-1");
                let prices = b.prices(*chain, *size).unwrap();
                let mut holdings: Vec<u8> = scratch
                    .players
                    .iter()
                    .map(|p| p.shares[chain.index()])
                    .collect();
                holdings.push(bank_holding.unwrap_or(0));
                let due = bonus_split(prices.majority_bonus, prices.minority_bonus, &holdings);
                for seat in scratch.seats() {
                    let paid: Vec<_> = payouts.iter().filter(|p| p.seat == seat).collect();
                    let amount = paid.iter().map(|p| p.amount).sum::<i32>();
                    assert_eq!(
                        amount,
                        due[seat.index()],
                        "{seat}'s bonus for {chain} at {size}: holdings {holdings:?}, {e:?}"
                    );
                    assert!(paid.len() <= 1 && paid.iter().all(|p| p.amount > 0));
                    for p in paid {
                        assert_eq!(p.shares, holdings[seat.index()]);
                    }
                    expected[seat.index()] += amount;
                }
                assert_eq!(*bank_award, due[holdings.len() - 1], "AQ-2P-3, AQ-BONUS-6");
            }
            Event::SharesSold {
                seat,
                chain,
                count,
                price,
                proceeds,
            } => {
                assert_eq!(*price, scratch.price(*chain), "AQ-END-4");
                assert_eq!(*count, scratch.player(*seat).shares[chain.index()]);
                assert_eq!(*proceeds, i32::from(*count) * price);
                expected[seat.index()] += proceeds;
            }
            _ => {}
        }
        Acquire::evolve(&mut scratch, e);
    }
    let actual: Vec<i32> = after.players.iter().map(|p| p.cash).collect();
    assert_eq!(
        actual, expected,
        "cash moved outside a defined payment: {events:?}"
    );
}

/// The bonuses each holder is due (AQ-BONUS-1..6, AQ-D7, AQ-D8), worked out holder by holder
/// from the spec's wording: `holdings` per seat, the 2-player bank phantom last (0 when none).
fn bonus_split(majority: i32, minority: i32, holdings: &[u8]) -> Vec<i32> {
    // amount / ways, rounded up to a multiple of 100.
    let ceil100 = |amount: i32, ways: usize| {
        let step = 100 * ways as i32;
        (amount + step - 1) / step * 100
    };
    let top = holdings.iter().copied().max().unwrap_or(0);
    let holders = holdings.iter().filter(|&&n| n > 0).count();
    let firsts = holdings.iter().filter(|&&n| n > 0 && n == top).count();
    let second = holdings
        .iter()
        .copied()
        .filter(|&n| n < top)
        .max()
        .unwrap_or(0);
    let seconds = holdings.iter().filter(|&&n| n > 0 && n == second).count();
    let tie_for_first = firsts >= 2;
    holdings
        .iter()
        .map(|&n| {
            if n == 0 {
                0 // AQ-BONUS-5: no share, no bonus
            } else if holders == 1 {
                majority + minority // AQ-BONUS-1
            } else if n == top && tie_for_first {
                ceil100(majority + minority, firsts) // AQ-BONUS-3, AQ-D8
            } else if n == top {
                majority // AQ-BONUS-2
            } else if n == second && !tie_for_first {
                ceil100(minority, seconds) // AQ-BONUS-2, AQ-BONUS-4, AQ-D7
            } else {
                0 // below second, or second behind a tie for first (AQ-BONUS-3)
            }
        })
        .collect()
}

pub(super) fn check_invariants(state: &State) {
    let b = board();
    let c = &b.constants;
    // AQ-COMP-9: 25 shares per chain, held or in the bank.
    for chain in Chain::all() {
        let held: u32 = state
            .players
            .iter()
            .map(|p| u32::from(p.shares[chain.index()]))
            .sum();
        assert_eq!(
            held + u32::from(state.chain(chain).bank_shares),
            u32::from(c.shares_per_chain)
        );
    }
    // AQ-COMP-3: every tile exactly once in pile, hands, board, removed or waiting bank tiles.
    let mut seen = vec![0u8; b.tile_count];
    for t in state
        .bag
        .iter()
        .chain(&state.removed)
        .chain(&state.bank_tiles)
        .chain(state.players.iter().flat_map(|p| p.hand.iter()))
    {
        seen[t.index()] += 1;
    }
    let mut sizes = [0u8; CHAIN_COUNT];
    for t in Tile::all() {
        match state.cell(t) {
            Cell::Empty => {}
            Cell::Unincorporated => seen[t.index()] += 1,
            Cell::Chain(ch) => {
                seen[t.index()] += 1;
                sizes[ch.index()] += 1;
            }
        }
    }
    assert!(
        seen.iter().all(|&n| n == 1),
        "every tile exactly once: {seen:?}"
    );
    for chain in Chain::all() {
        let size = state.chain(chain).size;
        assert_eq!(size, sizes[chain.index()], "chain size matches the board");
        assert!(size == 0 || size >= 2, "a chain has at least 2 tiles");
    }
    assert!(
        state.active_chains().count() <= c.max_active_chains,
        "AQ-FOUND-4"
    );
    for p in &state.players {
        assert!(p.cash >= 0);
        assert!(p.hand.len() <= c.hand_size, "AQ-COMP-5");
    }
    if state.merger.is_none() {
        // Outside a merger no two chains touch (they would have merged) and no unincorporated
        // tile touches a chain (it would have joined it).
        for t in Tile::all() {
            if let Cell::Chain(ch) = state.cell(t) {
                for n in t.neighbours() {
                    match state.cell(n) {
                        Cell::Chain(other) => assert_eq!(other, ch, "chains {t} and {n} touch"),
                        Cell::Unincorporated => panic!("{n} touches chain at {t}"),
                        Cell::Empty => {}
                    }
                }
            }
        }
    }
    if let Some(outcome) = &state.outcome {
        let scores: Vec<i64> = state.players.iter().map(|p| i64::from(p.cash)).collect();
        assert_eq!(outcome.scores, scores, "AQ-END-4: the score is the cash");
        for chain in state.active_chains() {
            assert!(
                state.players.iter().all(|p| p.shares[chain.index()] == 0),
                "AQ-END-4: every active share sold"
            );
        }
        let best = scores.iter().max().unwrap();
        let top: Vec<Seat> = state
            .seats()
            .filter(|s| scores[s.index()] == *best)
            .collect();
        assert_eq!(
            outcome.winners, top,
            "AQ-END-4: every top scorer wins, nobody else"
        );
    }
}

fn playouts(players: usize) {
    let mut actions = 0;
    for seed in 0..GAMES_PER_COUNT {
        let policy = if seed % 2 == 0 { uniform } else { builder };
        actions += play_with(players, seed, Config::default(), seed < 2, policy).len();
    }
    assert!(actions > 0);
}

#[test]
fn random_playouts_with_2_players_end_and_keep_every_invariant() {
    playouts(2);
}

#[test]
fn random_playouts_with_3_players_end_and_keep_every_invariant() {
    playouts(3);
}

#[test]
fn random_playouts_with_4_players_end_and_keep_every_invariant() {
    playouts(4);
}

#[test]
fn random_playouts_with_5_players_end_and_keep_every_invariant() {
    playouts(5);
}

#[test]
fn random_playouts_with_6_players_end_and_keep_every_invariant() {
    playouts(6);
}

#[test]
fn random_playouts_with_the_standard_end_rule_and_largest_first_order_end() {
    let config = Config {
        end_rule: EndRule::Standard,
        defunct_order: DefunctOrder::LargestFirst,
        hidden_holdings: true,
    };
    for seed in 0..60 {
        play_with(
            2 + (seed % 5) as usize,
            seed,
            config.clone(),
            seed < 2,
            builder,
        );
    }
}

#[test]
fn playouts_are_deterministic_for_a_seed() {
    assert_eq!(
        play_with(4, 99, Config::default(), false, uniform),
        play_with(4, 99, Config::default(), false, uniform)
    );
}

#[test]
fn playouts_reach_every_kind_of_event() {
    // The random players must really exercise the rare rules, or the invariants prove little.
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for players in 2..=6 {
        for seed in 0..20 {
            let policy = if seed % 2 == 0 { builder } else { hoarder };
            for e in play_with(players, 5000 + seed, Config::default(), false, policy) {
                let name = match e {
                    Event::MergerStarted { ref chains, .. } if chains.len() >= 3 => "multi_merger",
                    Event::DefunctsOrdered { ref order } if order.len() >= 2 => "ordered",
                    Event::BankTileDrawn { .. } => "bank_tile",
                    Event::BankTilePlaced { .. } => "bank_tile_placed",
                    Event::DeadTileRemoved { .. } => "dead_tile",
                    Event::EndAnnounced { .. } => "announced",
                    Event::FinalScoringStarted {
                        reason: crate::acquire::EndReason::Stalled,
                    } => "stalled",
                    Event::ChainFounded {
                        free_share: false, ..
                    } => "founded_without_share",
                    Event::SharesDisposed { traded, .. } if traded > 0 => "traded",
                    Event::PlacementSkipped { .. } => "skipped",
                    _ => continue,
                };
                *seen.entry(name).or_default() += 1;
            }
        }
    }
    for name in [
        "founded_without_share",
        "multi_merger",
        "ordered",
        "bank_tile",
        "bank_tile_placed",
        "dead_tile",
        "announced",
        "stalled",
        "traded",
        "skipped",
    ] {
        assert!(
            seen.get(name).copied().unwrap_or(0) > 0,
            "{name} never seen: {seen:?}"
        );
    }
}
