//! Bots against bots on the engine, no HTTP: win rates with 95 % confidence intervals, score
//! margins and search speed.
//!
//! ```text
//! cargo run --release -p bots --bin arena -- --game acquire --players 4 --games 200 \
//!     --seats mcts,random,random,random
//! ```

use bots::arena::{Match, Tally};
use bots::{arena_match, Bot, Budget, Level};
use clap::Parser;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(about = "Play bots against each other with rotating seats and report win rates")]
struct Args {
    /// Game type name (see the catalogue).
    #[arg(long)]
    game: String,
    /// Seats at the table: as many as --seats names.
    #[arg(long)]
    players: usize,
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// One level per seat, comma separated (random, greedy, mcts).
    #[arg(long, value_delimiter = ',', required = true)]
    seats: Vec<Level>,
    /// MCTS iterations per move.
    #[arg(long, default_value_t = Budget::DEFAULT_ITERATIONS)]
    iterations: u32,
    /// Optional MCTS time limit per move in milliseconds.
    #[arg(long)]
    time_ms: Option<u64>,
    /// MCTS rollout depth in actions (default: the bots' default).
    #[arg(long)]
    rollout_depth: Option<usize>,
    /// MCTS exploration constant (default: the bots' default).
    #[arg(long)]
    exploration: Option<f64>,
    /// MCTS lead scale (default: the bots' default).
    #[arg(long)]
    lead_scale: Option<f64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

fn main() {
    let args = Args::parse();
    if args.seats.len() != args.players {
        eprintln!(
            "--seats names {} bots for {} players",
            args.seats.len(),
            args.players
        );
        std::process::exit(2);
    }
    let bots: Vec<Bot> = args
        .seats
        .iter()
        .map(|&level| {
            let mut bot = Bot::new(level);
            bot.budget = Budget {
                iterations: args.iterations,
                time: args.time_ms.map(Duration::from_millis),
            };
            if let Some(depth) = args.rollout_depth {
                bot.settings.rollout_depth = depth;
            }
            if let Some(scale) = args.lead_scale {
                bot.settings.lead_scale = scale;
            }
            if let Some(c) = args.exploration {
                bot.settings.exploration = c;
            }
            bot
        })
        .collect();
    let m = Match {
        bots,
        games: args.games,
        seed: args.seed,
        threads: args.threads,
    };
    let start = Instant::now();
    let tallies = match arena_match(&args.game, &m) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    println!(
        "{} · {} players · {} games · seats rotate · mcts {} iterations{} · seed {} · {:.0} s",
        args.game,
        args.players,
        args.games,
        args.iterations,
        args.time_ms
            .map_or(String::new(), |t| format!(" or {t} ms")),
        args.seed,
        start.elapsed().as_secs_f64()
    );
    println!(
        "| entry | bot | win rate | 95 % CI | avg margin | CPU ms/move avg | CPU ms/move max | iterations per CPU s | simulated actions per CPU s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (k, (tally, level)) in tallies.iter().zip(&args.seats).enumerate() {
        print_row(&k.to_string(), *level, tally);
    }
    for level in Level::ALL {
        let entries: Vec<&Tally> = tallies
            .iter()
            .zip(&args.seats)
            .filter(|(_, l)| **l == level)
            .map(|(t, _)| t)
            .collect();
        if entries.len() > 1 {
            // Entries of one level share games: their wins add up, their games do not.
            let mut all = Tally::default();
            for t in &entries {
                all.wins += t.wins;
                all.margin += t.margin;
                all.moves += t.moves;
                all.thinking += t.thinking;
                all.longest_move = all.longest_move.max(t.longest_move);
            }
            all.games = args.games;
            println!(
                "| any {level} ({} seats) | {level} | {:.1} % | | | | | | |",
                entries.len(),
                100.0 * all.wins / args.games as f64
            );
        }
    }
}

fn print_row(entry: &str, level: Level, t: &Tally) {
    let (lo, hi) = t.win_rate_ci();
    let searched = level == Level::Mcts && t.iterations > 0;
    println!(
        "| {entry} | {level} | {:.1} % | {:.1}–{:.1} % | {:+.0} | {:.2} | {:.0} | {} | {} |",
        100.0 * t.win_rate(),
        100.0 * lo,
        100.0 * hi,
        t.average_margin(),
        t.average_move().as_secs_f64() * 1e3,
        t.longest_move.as_secs_f64() * 1e3,
        if searched {
            format!("{:.0}", t.iterations_per_second())
        } else {
            "–".into()
        },
        if searched {
            format!("{:.0}", t.simulated_actions_per_second())
        } else {
            "–".into()
        },
    );
}
