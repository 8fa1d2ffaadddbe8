//! Bots against bots, directly on the engine (no HTTP): whole games with rotating seats, win
//! rates with 95 % confidence intervals, score margins and the search's speed. The `arena`
//! binary is the command-line face of [`play_match`].

use crate::{Bot, BotGame};
use engine::{Outcome, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// Far above any real game; reaching it means a bot that never ends the game.
const MAX_MOVES: usize = 20_000;

/// One match: `bots[k]` is entry k of the lineup; in game `i` it sits at seat `(k + i) % n`,
/// so every entry plays every seat equally often.
#[derive(Debug, Clone)]
pub struct Match {
    pub bots: Vec<Bot>,
    pub games: usize,
    /// Game `i` is dealt from seed `seed + i`.
    pub seed: u64,
    /// Worker threads, each playing whole games.
    pub threads: usize,
}

/// What one lineup entry did over a match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    pub games: usize,
    /// Games won; a shared win of k seats counts 1/k.
    pub wins: f64,
    /// Sum over games of the final score minus the best other seat's.
    pub margin: f64,
    pub moves: u64,
    /// CPU time spent choosing moves (the machine may be shared; wall time would mislead).
    pub thinking: Duration,
    /// CPU time of the slowest move.
    pub longest_move: Duration,
    pub iterations: u64,
    pub simulated_actions: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.margin += other.margin;
        self.moves += other.moves;
        self.thinking += other.thinking;
        self.longest_move = self.longest_move.max(other.longest_move);
        self.iterations += other.iterations;
        self.simulated_actions += other.simulated_actions;
    }

    pub fn win_rate(&self) -> f64 {
        self.wins / self.games as f64
    }

    /// The Wilson score interval of the win rate at 95 %.
    pub fn win_rate_ci(&self) -> (f64, f64) {
        wilson(self.wins, self.games as f64)
    }

    pub fn average_margin(&self) -> f64 {
        self.margin / self.games as f64
    }

    /// Search iterations (each one simulated game sample) per second of thinking.
    pub fn iterations_per_second(&self) -> f64 {
        self.iterations as f64 / self.thinking.as_secs_f64()
    }

    /// Simulated actions (tree and rollouts) per second of thinking.
    pub fn simulated_actions_per_second(&self) -> f64 {
        self.simulated_actions as f64 / self.thinking.as_secs_f64()
    }

    pub fn average_move(&self) -> Duration {
        self.thinking / self.moves.max(1) as u32
    }
}

/// The Wilson score interval at 95 % for `successes` out of `n`.
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let p = successes / n;
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Plays the match with games of `config`; one [`Tally`] per lineup entry. Games are
/// independent and seeded, so the result does not depend on the number of threads.
pub fn play_match<G: BotGame>(config: &G::Config, m: &Match) -> Vec<Tally>
where
    G::Config: Sync,
{
    let n = m.bots.len();
    let threads = m.threads.clamp(1, m.games.max(1));
    let mut total = vec![Tally::default(); n];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                scope.spawn(move || {
                    let mut tallies = vec![Tally::default(); n];
                    for i in (w..m.games).step_by(threads) {
                        let lineup: Vec<Bot> =
                            (0..n).map(|s| m.bots[(s + n - i % n) % n]).collect();
                        let mut seats = vec![Tally::default(); n];
                        play_game::<G>(config, &lineup, m.seed + i as u64, &mut seats);
                        for (s, seat) in seats.iter().enumerate() {
                            tallies[(s + n - i % n) % n].add(seat);
                        }
                    }
                    tallies
                })
            })
            .collect();
        for worker in workers {
            for (t, w) in total.iter_mut().zip(worker.join().expect("arena worker")) {
                t.add(&w);
            }
        }
    });
    total
}

/// Plays one game with `bots[s]` at seat `s`, adding each seat's result to `tallies[s]`.
///
/// # Panics
/// When a bot passes although its seat is active, when the rules refuse a bot's move, or when
/// the game does not end: all bugs.
pub fn play_game<G: BotGame>(
    config: &G::Config,
    bots: &[Bot],
    seed: u64,
    tallies: &mut [Tally],
) -> Outcome {
    // The table's chance and the bots' own randomness come from separate streams, so a bot's
    // choices never consume the game's dice.
    let mut table = ChaCha8Rng::seed_from_u64(seed);
    let mut bot_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_b075);
    let mut state = G::replay(&G::setup(config, bots.len(), &mut table).expect("valid setup"));
    for moves in 0.. {
        if let Some(outcome) = G::outcome(&state) {
            score(&outcome, tallies);
            return outcome;
        }
        assert!(moves < MAX_MOVES, "{} game {seed} did not end", G::NAME);
        let seat = G::active_seats(&state)[0];
        let bot = &bots[seat.index()];
        let start = thread_cpu_time();
        let decision = bot.choose::<G>(&state, seat, &mut bot_rng);
        let took = thread_cpu_time().saturating_sub(start);
        let tally = &mut tallies[seat.index()];
        tally.moves += 1;
        tally.thinking += took;
        tally.longest_move = tally.longest_move.max(took);
        tally.iterations += u64::from(decision.iterations);
        tally.simulated_actions += decision.simulated_actions;
        let action = decision
            .action
            .unwrap_or_else(|| panic!("{} passed although {seat} is active", bot.level));
        let events = G::decide(&state, seat, &action, &mut table)
            .unwrap_or_else(|e| panic!("{} played {action:?} for {seat}, refused: {e}", bot.level));
        for event in &events {
            G::evolve(&mut state, event);
        }
    }
    unreachable!("the loop returns or panics")
}

/// CPU time of the calling thread.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes one timespec through a valid, exclusive pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "the thread CPU clock is readable");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn score(outcome: &Outcome, tallies: &mut [Tally]) {
    let mut leads = Vec::new();
    let scores: Vec<f64> = outcome.scores.iter().map(|&s| s as f64).collect();
    crate::evaluate::leads(&scores, &mut leads);
    for (s, tally) in tallies.iter_mut().enumerate() {
        tally.games += 1;
        tally.margin += leads[s];
        if outcome.winners.contains(&Seat(s as u8)) {
            tally.wins += 1.0 / outcome.winners.len() as f64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;
    use engine::acquire::Acquire;

    #[test]
    fn the_wilson_interval_brackets_the_rate_and_narrows_with_more_games() {
        let (lo, hi) = wilson(9.0, 10.0);
        assert!(lo < 0.9 && 0.9 < hi && hi < 1.0);
        let (lo100, hi100) = wilson(90.0, 100.0);
        assert!(lo < lo100 && hi100 < hi);
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
        let (lo, _) = wilson(0.0, 20.0);
        assert_eq!(lo, 0.0);
    }

    #[test]
    fn seats_rotate_and_every_game_is_counted_once_per_entry() {
        let m = Match {
            bots: vec![Bot::new(Level::Random); 3],
            games: 6,
            seed: 1,
            threads: 2,
        };
        let tallies = play_match::<Acquire>(&Default::default(), &m);
        let wins: f64 = tallies.iter().map(|t| t.wins).sum();
        assert!((wins - 6.0).abs() < 1e-9, "one win shared per game");
        assert!(tallies.iter().all(|t| t.games == 6));
        let single = play_match::<Acquire>(&Default::default(), &Match { threads: 1, ..m });
        assert_eq!(
            single.iter().map(|t| t.wins).collect::<Vec<_>>(),
            tallies.iter().map(|t| t.wins).collect::<Vec<_>>()
        );
    }
}
