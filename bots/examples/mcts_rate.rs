//! MCTS iterations per CPU second for every hosted game, side by side: how much search the
//! engines' step cost leaves a bot within its budget.
//!
//! For each game, plays seeded uniformly random games to positions spread over a game and lets
//! the `mcts` bot search the active seat's move there with a fixed iteration budget; prints the
//! iterations and simulated actions per second of the thread's CPU time (Linux; wall time
//! elsewhere).
//!
//! ```sh
//! cargo run --release -p bots --example mcts_rate            # 4 players, 12 positions each
//! cargo run --release -p bots --example mcts_rate -- 30 500  # positions, iterations per search
//! ```

use std::time::Instant;

use bots::{Bot, BotGame, Budget, Level};
use engine::playout;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Searches `positions` positions of 4-player games of `config`, each with `iterations`.
fn rate<G: BotGame>(label: &str, config: &G::Config, positions: u64, iterations: u32) {
    let mut bot = Bot::new(Level::Mcts);
    bot.budget = Budget::iterations(iterations);
    let (mut searched, mut simulated, mut seconds) = (0u64, 0u64, 0.0);
    for seed in 0..positions {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = G::replay(&G::setup(config, 4, &mut rng).expect("valid setup"));
        // Positions from the opening to late in the game, a different depth per seed.
        let depth = 10 + seed * 37 % 300;
        for _ in 0..depth {
            if G::outcome(&state).is_some() {
                break;
            }
            let choice = playout::random_choice::<G>(&state, &mut rng).expect("someone may act");
            for event in G::decide(&state, choice.seat, &choice.action, &mut rng)
                .expect("listed actions are legal")
            {
                G::evolve(&mut state, &event);
            }
        }
        let Some(&seat) = G::active_seats(&state).first() else {
            continue;
        };
        let (cpu, wall) = (cpu_time(), Instant::now());
        let decision = bot.choose::<G>(&state, seat, &mut rng);
        seconds += cpu
            .zip(cpu_time())
            .map_or(wall.elapsed().as_secs_f64(), |(start, end)| end - start);
        searched += u64::from(decision.iterations);
        simulated += decision.simulated_actions;
    }
    println!(
        "{label}: {:.0} iterations and {:.0} simulated actions per CPU second ({searched} iterations in {seconds:.2} s)",
        searched as f64 / seconds,
        simulated as f64 / seconds,
    );
}

/// This thread's time on a CPU so far, in seconds (Linux's scheduler statistics): on a shared
/// machine wall time counts the other processes' work too.
fn cpu_time() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(nanos as f64 * 1e-9)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let positions = args
        .next()
        .map_or(12, |s| s.parse().expect("a position count"));
    let iterations = args
        .next()
        .map_or(200, |s| s.parse().expect("an iteration count"));
    rate::<engine::tycoon::Tycoon>("tycoon", &Default::default(), positions, iterations);
    rate::<engine::acquire::Acquire>("acquire", &Default::default(), positions, iterations);
    let monopoly = engine::monopoly::Config {
        round_limit: Some(100),
        ..Default::default()
    };
    rate::<engine::monopoly::Monopoly>("monopoly", &monopoly, positions, iterations);
    rate::<engine::tyros::Tyros>("tyros", &Default::default(), positions, iterations);
}
