//! Full uniformly random games, as the benches play them (`playout::random_choice`, `decide`,
//! `evolve`), with their length and rate: a quick figure between bench runs and a steady target
//! for a profiler (`perf record`, `valgrind --tool=callgrind`).
//!
//! ```sh
//! cargo run --release -p engine --example random_games -- monopoly 50
//! cargo run --release -p engine --example random_games -- tyros 200
//! ```
//!
//! Games: `tycoon`, `acquire`, `monopoly` (4 players, `round_limit = 100`, as benched),
//! `tyros` (4 players, base game), `tyros-all` (4 players, every variant). Rates are per second
//! of the thread's CPU time where Linux reports it (wall time otherwise). With `MIX=1` set, the
//! share of each action type among the actions played follows.

use std::time::Instant;

use engine::{playout, Game};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays `games` seeded games of `players` with `config`; prints the mean length and the rate.
fn run<G: Game>(label: &str, config: &G::Config, players: usize, games: u64) {
    let mix = std::env::var_os("MIX").is_some();
    let mut kinds: std::collections::BTreeMap<String, u64> = Default::default();
    let start = Instant::now();
    let cpu_start = cpu_time();
    let mut steps = 0u64;
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let setup = G::setup(config, players, &mut rng).expect("valid setup");
        let mut state = G::replay(&setup);
        while G::outcome(&state).is_none() {
            let choice = playout::random_choice::<G>(&state, &mut rng).expect("someone may act");
            let events = G::decide(&state, choice.seat, &choice.action, &mut rng)
                .expect("listed actions are legal");
            for event in &events {
                G::evolve(&mut state, event);
            }
            if mix {
                let json = serde_json::to_value(&choice.action).unwrap();
                *kinds
                    .entry(json["type"].as_str().unwrap_or("?").to_string())
                    .or_default() += 1;
            }
            steps += 1;
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_time().zip(cpu_start).map(|(end, start)| end - start);
    let (seconds, clock) = cpu.map_or((wall, "wall"), |cpu| (cpu, "CPU"));
    println!(
        "{label}, {players} players: {games} games, {:.0} actions each, {:.2} µs {clock} per action, {:.0} games per {clock} second",
        steps as f64 / games as f64,
        seconds * 1e6 / steps as f64,
        games as f64 / seconds
    );
    for (kind, n) in kinds {
        println!("  {kind}: {:.1} %", n as f64 * 100.0 / steps as f64);
    }
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
    let game = args.next().unwrap_or_else(|| "monopoly".into());
    let games: u64 = args.next().map_or(50, |s| s.parse().expect("a game count"));
    match game.as_str() {
        "tycoon" => run::<engine::tycoon::Tycoon>("tycoon", &Default::default(), 4, games),
        "acquire" => run::<engine::acquire::Acquire>("acquire", &Default::default(), 4, games),
        "monopoly" => {
            let config = engine::monopoly::Config {
                round_limit: Some(100),
                ..Default::default()
            };
            run::<engine::monopoly::Monopoly>("monopoly, round_limit 100", &config, 4, games);
        }
        "tyros" => run::<engine::tyros::Tyros>("tyros base", &Default::default(), 4, games),
        "tyros-all" => {
            let config = engine::tyros::Config {
                pirates: true,
                action_cards: true,
                galleys: true,
                bank_trade_once_per_round: true,
                player_trade_free: true,
                bonus_city_in_all_empires: 9,
                ..Default::default()
            };
            run::<engine::tyros::Tyros>("tyros every variant", &config, 4, games);
        }
        other => panic!("unknown game {other}"),
    }
}
