//! Bots against bots on the engine, no HTTP: win rates with 95 % confidence intervals, score
//! margins, think-time distributions, game lengths and search speed; with `--playouts`, the
//! lengths of whole simulated games with and without the bots' playout policy.
//!
//! ```text
//! cargo run --release -p bots --bin arena -- --game acquire --players 4 --games 200 \
//!     --seats mcts,random,random,random
//! cargo run --release -p bots --bin arena -- --game monopoly --players 4 --playouts 100
//! ```

use bots::arena::{Match, PlayoutLengths, Tally, MAX_ACTIONS};
use bots::{arena_match, arena_playouts, Bot, Budget, Level};
use clap::Parser;
use serde_json::Value;
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
    #[arg(long, value_delimiter = ',')]
    seats: Vec<Level>,
    /// The game's config as JSON, as in a create request.
    #[arg(long, default_value = "{}")]
    config: String,
    /// MCTS iterations per move.
    #[arg(long, default_value_t = Budget::DEFAULT_ITERATIONS)]
    iterations: u32,
    /// MCTS cap on the CPU time of a move in milliseconds (0: none).
    #[arg(long, default_value_t = Budget::DEFAULT_CPU.as_millis() as u64)]
    cpu_ms: u64,
    /// Optional MCTS wall-clock limit per move in milliseconds.
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
    /// MCTS prior visits of a new node's evaluation (default: the bots' default).
    #[arg(long)]
    prior_visits: Option<f64>,
    /// MCTS share of greedy moves in playouts (default: the bots' default).
    #[arg(long)]
    greedy_playout: Option<f64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Actions after which a game counts as stalled.
    #[arg(long, default_value_t = MAX_ACTIONS)]
    max_actions: usize,
    /// Instead of a match: play this many whole games with the engine's uniformly random
    /// driver and with the bots' playout policy, and report their lengths.
    #[arg(long)]
    playouts: Option<usize>,
}

fn main() {
    let args = Args::parse();
    let config: Value = serde_json::from_str(&args.config).unwrap_or_else(|e| {
        eprintln!("--config is not JSON: {e}");
        std::process::exit(2);
    });
    if let Some(games) = args.playouts {
        playouts(&args, &config, games);
        return;
    }
    if args.seats.len() != args.players {
        eprintln!(
            "--seats names {} bots for {} players",
            args.seats.len(),
            args.players
        );
        std::process::exit(2);
    }
    let bots: Vec<Bot> = args.seats.iter().map(|&level| bot(&args, level)).collect();
    let m = Match {
        bots,
        games: args.games,
        seed: args.seed,
        threads: args.threads,
        max_actions: args.max_actions,
    };
    let start = Instant::now();
    let report = arena_match(&args.game, &config, &m).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    println!(
        "{} {} · {} players · {} games · seats rotate · mcts {} iterations or {} ms CPU{} · seed {} · {:.0} s",
        args.game,
        args.config,
        args.players,
        args.games,
        args.iterations,
        args.cpu_ms,
        args.time_ms
            .map_or(String::new(), |t| format!(" or {t} ms")),
        args.seed,
        start.elapsed().as_secs_f64()
    );
    println!(
        "| entry | bot | win rate | 95 % CI | avg margin | CPU ms/move p50 | p90 | p99 | max | avg | iterations per CPU s | simulated actions per CPU s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (k, (tally, level)) in report.tallies.iter().zip(&args.seats).enumerate() {
        print_row(&k.to_string(), *level, tally);
    }
    for level in Level::ALL {
        let entries: Vec<&Tally> = report
            .tallies
            .iter()
            .zip(&args.seats)
            .filter(|(_, l)| **l == level)
            .map(|(t, _)| t)
            .collect();
        if entries.len() > 1 {
            // Entries of one level share games: their wins add up, their games do not.
            let wins: f64 = entries.iter().map(|t| t.wins).sum();
            println!(
                "| any {level} ({} seats) | {level} | {:.1} % | | | | | | | | | |",
                entries.len(),
                100.0 * wins / args.games as f64
            );
        }
    }
    let lengths = &report.game_lengths;
    if !lengths.is_empty() {
        println!(
            "game length in actions: mean {:.0}, median {}, longest {} · stalled games (over {} actions): {}",
            lengths.iter().sum::<usize>() as f64 / lengths.len() as f64,
            median(lengths),
            lengths.iter().max().copied().unwrap_or(0),
            args.max_actions,
            report.stalled
        );
    }
}

fn bot(args: &Args, level: Level) -> Bot {
    let mut bot = Bot::new(level);
    bot.budget = Budget {
        iterations: args.iterations,
        time: args.time_ms.map(Duration::from_millis),
        cpu: (args.cpu_ms > 0).then(|| Duration::from_millis(args.cpu_ms)),
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
    if let Some(p) = args.prior_visits {
        bot.settings.prior_visits = p;
    }
    if let Some(g) = args.greedy_playout {
        bot.settings.greedy_playout = Some(g);
    }
    bot
}

fn playouts(args: &Args, config: &Value, games: usize) {
    let [uniform, policy] = arena_playouts(
        &args.game,
        config,
        args.players,
        games,
        args.seed,
        args.max_actions,
    )
    .unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    println!(
        "{} {} · {} players · {games} whole simulated games each · seed {}",
        args.game, args.config, args.players, args.seed
    );
    println!("| driver | finished | mean actions | median | longest | unfinished (over {} actions) | games per CPU s |", args.max_actions);
    println!("|---|---|---|---|---|---|---|");
    for (name, p) in [
        ("uniformly random (engine)", &uniform),
        ("bots' playout policy", &policy),
    ] {
        print_playouts(name, p, games);
    }
}

fn print_playouts(name: &str, p: &PlayoutLengths, games: usize) {
    let n = p.lengths.len();
    println!(
        "| {name} | {n} | {:.0} | {} | {} | {} | {:.0} |",
        p.lengths.iter().sum::<usize>() as f64 / n.max(1) as f64,
        median(&p.lengths),
        p.lengths.iter().max().copied().unwrap_or(0),
        p.unfinished,
        games as f64 / p.cpu.as_secs_f64()
    );
}

fn median(values: &[usize]) -> usize {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied().unwrap_or(0)
}

/// Milliseconds with three significant digits or so: 0.031, 4.27, 88.6, 912.
fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1e3;
    match ms {
        m if m < 1.0 => format!("{m:.3}"),
        m if m < 10.0 => format!("{m:.2}"),
        m if m < 100.0 => format!("{m:.1}"),
        m => format!("{m:.0}"),
    }
}

fn print_row(entry: &str, level: Level, t: &Tally) {
    let (lo, hi) = t.win_rate_ci();
    let searched = level == Level::Mcts && t.iterations > 0;
    println!(
        "| {entry} | {level} | {:.1} % | {:.1}–{:.1} % | {:+.0} | {} | {} | {} | {} | {} | {} | {} |",
        100.0 * t.win_rate(),
        100.0 * lo,
        100.0 * hi,
        t.average_margin(),
        ms(t.think_time_quantile(0.5)),
        ms(t.think_time_quantile(0.9)),
        ms(t.think_time_quantile(0.99)),
        ms(t.think_time_quantile(1.0)),
        ms(t.average_move()),
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
