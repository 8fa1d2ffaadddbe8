//! What every game's bench measures, generic over [`Game`]: full uniformly random games
//! (`legal_actions`, `decide` and `evolve` at every step, the work of a playout) and the cost
//! of single steps in a mid-game position.

use criterion::{black_box, BatchSize, Criterion, Throughput};
use engine::{playout, Game};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays from `state` with uniformly random choices of any seat (templates filled in at
/// random) until the game ends or `limit` actions were taken; returns the number taken.
fn play<G: Game>(state: &mut G::State, rng: &mut ChaCha8Rng, limit: usize) -> usize {
    let mut actions = 0;
    while actions < limit && G::outcome(state).is_none() {
        let choice = playout::random_choice::<G>(state, rng).expect("someone may act");
        let events =
            G::decide(state, choice.seat, &choice.action, rng).expect("listed actions are legal");
        for event in &events {
            G::evolve(state, event);
        }
        actions += 1;
    }
    actions
}

/// A fresh game of `players` with `config`.
fn new_game<G: Game>(config: &G::Config, players: usize, rng: &mut ChaCha8Rng) -> G::State {
    G::replay(&G::setup(config, players, rng).expect("valid setup"))
}

/// One uniformly random game played to the end; returns the number of actions.
fn random_game<G: Game>(config: &G::Config, players: usize, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = new_game::<G>(config, players, &mut rng);
    play::<G>(&mut state, &mut rng, usize::MAX)
}

/// Benchmark groups `<name>_full_game` (one per player count) and `<name>_action`, with games
/// of `config`.
pub fn bench_game<G: Game>(
    c: &mut Criterion,
    name: &str,
    player_counts: &[usize],
    config: &G::Config,
) {
    let mut group = c.benchmark_group(format!("{name}_full_game"));
    for &players in player_counts {
        group.throughput(Throughput::Elements(1));
        let mut seed = 0;
        group.bench_function(format!("{players}_players"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_game::<G>(config, players, seed))
            })
        });
    }
    group.finish();
    let actions: usize = (0..200).map(|seed| random_game::<G>(config, 4, seed)).sum();
    println!(
        "4-player random games average {:.0} actions",
        actions as f64 / 200.0
    );

    let mut group = c.benchmark_group(format!("{name}_action"));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut state = new_game::<G>(config, 4, &mut rng);
    play::<G>(&mut state, &mut rng, 60);
    let seat = G::active_seats(&state)[0];
    group.bench_function("legal_actions", |b| {
        b.iter(|| black_box(G::legal_actions(&state, seat)))
    });
    let action = G::legal_actions(&state, seat)[0].clone();
    group.bench_function("decide_and_evolve", |b| {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        b.iter_batched(
            || state.clone(),
            |mut s| {
                for e in G::decide(&s, seat, &action, &mut rng).unwrap() {
                    G::evolve(&mut s, &e);
                }
                s
            },
            BatchSize::SmallInput,
        )
    });
    // The stored snapshot's round trip, as the service pays it once per request.
    let json = serde_json::to_string(&state).unwrap();
    group.bench_function("state_from_json", |b| {
        b.iter(|| black_box(serde_json::from_str::<G::State>(&json).unwrap()))
    });
    group.bench_function("state_to_json", |b| {
        b.iter(|| black_box(serde_json::to_string(&state).unwrap()))
    });
    group.finish();
}
