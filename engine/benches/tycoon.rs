//! Tycoon speed: full random games (legal_actions + decide + evolve at every step, the same
//! work a playout does) and the cost per action. Run with `cargo bench -p engine --bench tycoon`.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use engine::tycoon::{Config, State, Tycoon};
use engine::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays one uniformly random game to the end; returns the number of actions taken.
fn random_game(players: usize, seed: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let setup = Tycoon::setup(&Config::default(), players, &mut rng).expect("valid setup");
    let mut state = Tycoon::replay(&setup);
    let mut actions = 0;
    while Tycoon::outcome(&state).is_none() {
        let seat = Tycoon::active_seats(&state)[0];
        let legal = Tycoon::legal_actions(&state, seat);
        let action = legal[rng.random_range(0..legal.len())];
        let events =
            Tycoon::decide(&state, seat, &action, &mut rng).expect("listed actions are legal");
        for event in &events {
            Tycoon::evolve(&mut state, event);
        }
        actions += 1;
    }
    actions
}

/// A mid-game position (after `steps` random actions) to time single actions from.
fn position(steps: usize) -> State {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut state = Tycoon::replay(&Tycoon::setup(&Config::default(), 4, &mut rng).unwrap());
    for _ in 0..steps {
        let seat = Tycoon::active_seats(&state)[0];
        let legal = Tycoon::legal_actions(&state, seat);
        let action = legal[rng.random_range(0..legal.len())];
        for event in Tycoon::decide(&state, seat, &action, &mut rng).unwrap() {
            Tycoon::evolve(&mut state, &event);
        }
    }
    state
}

fn full_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("tycoon_full_game");
    for players in [2, 4] {
        group.throughput(Throughput::Elements(1));
        let mut seed = 0;
        group.bench_function(format!("{players}_players"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_game(players, seed))
            })
        });
    }
    group.finish();
    let actions: u64 = (0..200).map(|seed| random_game(4, seed)).sum();
    println!(
        "4-player random games average {:.0} actions",
        actions as f64 / 200.0
    );
}

fn per_action(c: &mut Criterion) {
    let mut group = c.benchmark_group("tycoon_action");
    let state = position(60);
    let seat = Tycoon::active_seats(&state)[0];
    group.bench_function("legal_actions", |b| {
        b.iter(|| black_box(Tycoon::legal_actions(&state, seat)))
    });
    let action = Tycoon::legal_actions(&state, seat)[0];
    group.bench_function("decide_and_evolve", |b| {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        b.iter_batched(
            || state.clone(),
            |mut s| {
                for e in Tycoon::decide(&s, seat, &action, &mut rng).unwrap() {
                    Tycoon::evolve(&mut s, &e);
                }
                s
            },
            BatchSize::SmallInput,
        )
    });
    // The stored snapshot's round trip, as the service pays it once per request.
    let json = serde_json::to_string(&state).unwrap();
    group.bench_function("state_from_json", |b| {
        b.iter(|| black_box(serde_json::from_str::<State>(&json).unwrap()))
    });
    group.bench_function("state_to_json", |b| {
        b.iter(|| black_box(serde_json::to_string(&state).unwrap()))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(4));
    targets = full_games, per_action
}
criterion_main!(benches);
