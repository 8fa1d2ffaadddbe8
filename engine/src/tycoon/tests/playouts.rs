//! Seeded random playouts: every game ends, every listed action is accepted, money moves only
//! through defined payments, pieces and cards are conserved, and the log replays to the state.

use super::support::rng;
use crate::checked_playout::{self, each_string, uniform, Checks, Playout};
use crate::tycoon::data::{board, LoanKind, Ticket};
use crate::tycoon::state::{Plane, Stage, State};
use crate::tycoon::{payday, Action, Config, Event, LoanDecision, StepMode, TieBreak, Tycoon};
use crate::{Game, Seat, Viewer};
use std::collections::HashSet;

const GAMES_PER_COUNT: u64 = 300;
/// Far above any real game; reaching it means a game that does not end.
const MAX_ACTIONS: usize = 20_000;

/// Play one seeded game to the end, checking every step. Returns the log.
fn play(players: usize, seed: u64, config: Config, check_completeness: bool) -> Vec<Event> {
    play_with(players, seed, config, check_completeness, uniform)
}

/// A builder: strongly prefers building and flying over borrowing, so phases end by their
/// trigger and tracks fill up (red spaces, renovations, full cities) far more often than under
/// uniform play, where loans dominate.
fn builder(action: &Action) -> u32 {
    match action {
        Action::BuildHotel | Action::RenovateHotel => 60,
        Action::BuildFactory => 15,
        Action::Fly { .. } => 8,
        Action::BuyTicket { .. } => 2,
        _ => 1,
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
const CHECKS: Checks<Tycoon> = Checks {
    invariants: check_invariants,
    exactly_legal: check_exactly_legal,
    ledger: check_ledger,
    hidden: check_hidden,
};

/// Hidden information: no face-down ticket is named anywhere in any viewer's view or redacted
/// events, and no redacted event carries a deck order.
fn check_hidden(state: &State, events: &[Event]) {
    let hidden: HashSet<String> = state
        .decks
        .iter()
        .flat_map(|d| d.draw.iter())
        .map(|t| t.to_string())
        .collect();
    for viewer in state.seats().map(Viewer::Seat).chain([Viewer::Spectator]) {
        let mut leak = |s: &str| {
            // Only a ticket id ("S09", "C25") can name a ticket; skip field names and the like.
            if s.len() == 3 && s.starts_with(['S', 'C']) {
                assert!(
                    !hidden.contains(s),
                    "face-down ticket {s} leaked to {viewer:?}"
                )
            }
        };
        each_string(&Tycoon::view(state, viewer), &mut leak);
        for e in events {
            let redacted = Tycoon::redact(e, viewer).expect("Tycoon hides no event entirely");
            if let Event::DeckShuffled { order, .. } = &redacted {
                assert!(order.is_none(), "the deck order is never shown");
            }
            each_string(&redacted, &mut leak);
        }
    }
}

/// Every action of the whole action space is accepted exactly when it is listed.
fn check_exactly_legal(state: &State, seat: Seat, legal: &[Action]) {
    let b = board();
    let tickets = (0..b.tickets.len() as u8).map(Ticket);
    let mut universe = vec![
        Action::BuildHotel,
        Action::RenovateHotel,
        Action::BuildFactory,
        Action::Pass,
        Action::EndTurn,
    ];
    for t in tickets {
        universe.push(Action::BuyTicket { ticket: t });
        universe.extend(b.cities().map(|to| Action::Fly { ticket: t, to }));
    }
    for loan in LoanKind::ALL {
        universe.push(Action::TakeLoan { loan });
        universe.push(Action::SettleLoan {
            loan,
            decision: LoanDecision::Repay,
        });
        universe.push(Action::SettleLoan {
            loan,
            decision: LoanDecision::Extend,
        });
    }
    for action in universe {
        let ok = Tycoon::decide(state, seat, &action, &mut rng(0)).is_ok();
        assert_eq!(
            ok,
            legal.contains(&action),
            "{action:?}: decide says {ok} in {:?}",
            state.stage
        );
    }
}

/// Money changes only through defined payments, each at the amount the data file prints.
fn check_ledger(before: &State, after: &State, events: &[Event]) {
    let b = board();
    let mut expected: Vec<i32> = before.players.iter().map(|p| p.cash).collect();
    let mut scratch = before.clone();
    for e in events {
        match e {
            Event::TicketBought {
                seat,
                ticket,
                price,
            } => {
                assert_eq!(*price, b.ticket(*ticket).price);
                assert!(
                    expected[seat.index()] >= *price,
                    "B8: a purchase never makes cash negative"
                );
                expected[seat.index()] -= price;
            }
            Event::HotelBuilt {
                seat, city, cost, ..
            } => {
                let Plane::City {
                    city: at,
                    field: Some(field),
                } = scratch.player(*seat).plane
                else {
                    panic!("hotel built without a landing field")
                };
                assert_eq!(at, *city);
                assert_eq!(
                    *cost,
                    b.city(*city).landing_costs[usize::from(field)],
                    "TY-HOTEL-2"
                );
                assert!(expected[seat.index()] >= *cost);
                expected[seat.index()] -= cost;
            }
            Event::FactoryBuilt {
                seat, city, cost, ..
            } => {
                let built = scratch.city(*city).factories.len();
                assert_eq!(*cost, b.city(*city).factory_costs[built], "TY-FAC-2");
                assert!(expected[seat.index()] >= *cost);
                expected[seat.index()] -= cost;
            }
            Event::LoanTaken { seat, loan, amount } => {
                assert_eq!(*amount, loan.terms().amount);
                expected[seat.index()] += amount;
            }
            Event::LoanRepaid {
                seat,
                loan,
                extended,
                amount,
            } => {
                let t = loan.terms();
                assert_eq!(*amount, if *extended { t.repay_extended } else { t.repay });
                expected[seat.index()] -= amount;
            }
            Event::PaydayHeld { incomes, .. } => {
                assert_eq!(incomes, &payday::incomes(&scratch));
                for i in incomes {
                    assert_eq!(i.total, i.distribution + i.majority + i.factories);
                    let present = scratch
                        .cities
                        .iter()
                        .filter(|c| c.track.contains(&Some(i.seat)))
                        .count();
                    assert_eq!(i.distribution, b.distribution[present], "TY-DIST-1");
                    expected[i.seat.index()] += i.total;
                }
            }
            _ => {}
        }
        Tycoon::evolve(&mut scratch, e);
    }
    let actual: Vec<i32> = after.players.iter().map(|p| p.cash).collect();
    assert_eq!(
        actual, expected,
        "cash moved outside a defined payment: {events:?}"
    );
}

pub(super) fn check_invariants(state: &State) {
    let b = board();
    let c = &b.constants;
    for seat in state.seats() {
        let p = state.player(seat);
        let on_track: usize = state
            .cities
            .iter()
            .map(|c| c.track.iter().filter(|o| **o == Some(seat)).count())
            .sum();
        let closed: usize = state
            .cities
            .iter()
            .map(|c| c.closed.iter().filter(|o| **o == seat).count())
            .sum();
        let hotels =
            usize::from(p.hotels_in_supply) + usize::from(p.hotels_in_reserve) + on_track + closed;
        assert_eq!(
            hotels,
            usize::from(c.hotels_per_colour),
            "TY-COMP-3: hotels of {seat} conserved"
        );
        let factories: usize = state
            .cities
            .iter()
            .map(|c| c.factories.iter().filter(|o| **o == seat).count())
            .sum();
        assert_eq!(
            factories + usize::from(p.factories_left),
            usize::from(c.factories_per_player),
            "TY-COMP-4"
        );
        if p.cash < 0 {
            // L5: only a forced repayment can push cash below zero.
            assert!(state.phase > 1 || matches!(state.stage, Stage::Finished));
        }
    }
    // TY-COMP-6: all 54 tickets are somewhere, exactly once.
    let mut seen = vec![0u8; b.tickets.len()];
    for d in &state.decks {
        for t in d.draw.iter().chain(&d.display).chain(&d.discard) {
            seen[usize::from(t.0)] += 1;
        }
    }
    for p in &state.players {
        for t in &p.tickets {
            seen[usize::from(t.0)] += 1;
        }
    }
    assert!(
        seen.iter().all(|&n| n == 1),
        "every ticket exactly once: {seen:?}"
    );
    for deck in crate::tycoon::Deck::ALL {
        assert!(state.deck(deck).display.len() <= b.display_size(deck));
        assert!(state
            .deck(deck)
            .display
            .iter()
            .all(|t| b.ticket(*t).deck == deck));
    }
    // TY-COMP-7 / L2: loan cards conserved.
    if !state.config.unlimited_loans {
        for loan in LoanKind::ALL {
            let held: usize = state
                .players
                .iter()
                .map(|p| p.loans.iter().filter(|c| c.loan == loan).count())
                .sum();
            assert_eq!(
                held + usize::from(state.loan_cards_left[loan.index()]),
                usize::from(loan.terms().cards)
            );
        }
    }
    // Tracks: nothing beyond the chain, never on the unbuildable space, at most 2 factories.
    for city in &state.cities {
        let highest = city
            .track
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |i| i + 1);
        assert!(highest <= usize::from(city.chain_length));
        assert!(
            city.track[usize::from(b.unbuildable_space)].is_none(),
            "TY-HOTEL-4"
        );
        assert!(
            city.factories.len() <= c.factory_fields_per_city,
            "TY-FAC-3"
        );
    }
    // TY-LAND-2: at most one plane per landing field.
    let mut fields = Vec::new();
    for p in &state.players {
        if let Plane::City {
            city,
            field: Some(f),
        } = p.plane
        {
            assert!(
                !fields.contains(&(city, f)),
                "two planes on one landing field"
            );
            fields.push((city, f));
        }
    }
    if let Some(outcome) = &state.outcome {
        let scores: Vec<i64> = state.players.iter().map(|p| i64::from(p.cash)).collect();
        assert_eq!(outcome.scores, scores, "TY-END-3: the score is the money");
        let best = scores.iter().max().unwrap();
        let richest: Vec<Seat> = state
            .seats()
            .filter(|s| scores[s.index()] == *best)
            .collect();
        assert_eq!(
            outcome.winners, richest,
            "TY-END-3: the richest win, all of them on a tie"
        );
        assert!(
            state.players.iter().all(|p| p.loans.is_empty()),
            "TY-END-2: all loans repaid"
        );
    }
}

fn playouts(players: usize) {
    let mut total = 0;
    for seed in 0..GAMES_PER_COUNT {
        total += play(players, seed, Config::default(), seed < 3).len();
    }
    assert!(total > 0);
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
fn random_playouts_with_the_optional_rules_end_and_keep_every_invariant() {
    let variant = Config {
        step_mode: StepMode::UpTo,
        tie_break: TieBreak::EarliestOnTrack,
        ..Config::default()
    };
    for seed in 0..50 {
        play(3, seed, variant.clone(), seed < 2);
        play_with(4, seed, variant.clone(), false, builder);
    }
}

#[test]
fn random_playouts_with_unlimited_loans_end_and_keep_every_invariant() {
    let variant = Config {
        unlimited_loans: true,
        ..Config::default()
    };
    let mut loans_beyond_the_cards = 0;
    for seed in 0..30 {
        let players = 2 + (seed % 3) as usize;
        let log = play_with(players, seed, variant.clone(), seed < 1, builder);
        // The most cards of each kind out at once.
        let (mut out, mut most) = ([0usize; 2], [0usize; 2]);
        for e in &log {
            match e {
                Event::LoanTaken { loan, .. } => out[loan.index()] += 1,
                Event::LoanRepaid { loan, .. } => out[loan.index()] -= 1,
                _ => {}
            }
            most = [most[0].max(out[0]), most[1].max(out[1])];
        }
        if LoanKind::ALL
            .into_iter()
            .any(|kind| most[kind.index()] > usize::from(kind.terms().cards))
        {
            loans_beyond_the_cards += 1;
        }
        assert!(
            !log.iter().any(|e| matches!(e, Event::Passed { .. })),
            "L2: with unlimited loans nobody has to pass"
        );
    }
    assert!(
        loans_beyond_the_cards > 0,
        "some game must borrow more cards than the deck holds, or the option is not played out"
    );
}

#[test]
fn playouts_are_deterministic_for_a_seed() {
    assert_eq!(
        play(4, 99, Config::default(), false),
        play(4, 99, Config::default(), false)
    );
}

#[test]
fn builder_playouts_reach_phase_triggers_red_spaces_renovations_and_reshuffles() {
    let mut seen = [0usize; 5];
    for players in 2..=4 {
        for seed in 0..100 {
            let log = play_with(players, 1000 + seed, Config::default(), seed < 2, builder);
            for e in &log {
                match e {
                    Event::PhaseEndTriggered { .. } => seen[0] += 1,
                    Event::HotelClosed { .. } => seen[1] += 1,
                    Event::HotelRenovated { .. } => seen[2] += 1,
                    Event::LoanExtended { .. } => seen[3] += 1,
                    Event::DeckShuffled { .. } => seen[4] += 1,
                    _ => {}
                }
            }
        }
    }
    // The builder must really exercise these rules, or the invariants above prove little.
    assert!(
        seen.iter().all(|&n| n >= 5),
        "coverage of triggers, closures, renovations, extensions, reshuffles: {seen:?}"
    );
}
