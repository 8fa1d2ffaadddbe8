//! Bots against bots, directly on the engine (no HTTP): whole games with rotating seats, win
//! rates with 95 % confidence intervals, score margins, think times and game lengths. The
//! `arena` binary is the command-line face of [`play_match`].
//!
//! The table runs as the service runs a table of bots: the next to move is a seat with a
//! standing action to take ([`BotGame::wants_to_act`]), else the lowest seat the game waits
//! for ([`next_actor`]), and every bot remembers the last [`RECENT_EVENTS`] events of the log.

use crate::cpu::thread_cpu_time;
use crate::evaluate::next_actor;
use crate::{Bot, BotGame, InfoSet, RECENT_EVENTS};
use engine::playout::{self, Choice};
use engine::{Outcome, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The default cap on a game's actions: far above any finished game measured (see
/// `docs/bots.md`); reaching it means a table of bots that does not end its game.
pub const MAX_ACTIONS: usize = 100_000;

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
    /// Actions after which a game counts as stalled and is abandoned.
    pub max_actions: usize,
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
    /// CPU time of each move, in the order made.
    pub think_times: Vec<Duration>,
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
        self.think_times.extend_from_slice(&other.think_times);
        self.iterations += other.iterations;
        self.simulated_actions += other.simulated_actions;
    }

    pub fn win_rate(&self) -> f64 {
        self.wins / self.games.max(1) as f64
    }

    /// The Wilson score interval of the win rate at 95 %.
    pub fn win_rate_ci(&self) -> (f64, f64) {
        wilson(self.wins, self.games as f64)
    }

    pub fn average_margin(&self) -> f64 {
        self.margin / self.games.max(1) as f64
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

    /// The think time below which the fraction `q` (0..=1) of the moves lie.
    pub fn think_time_quantile(&self, q: f64) -> Duration {
        quantile(&self.think_times, q)
    }
}

/// What a match gave: one [`Tally`] per lineup entry, and the length of every game.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchReport {
    pub tallies: Vec<Tally>,
    /// Actions (every seat's, standing actions included) of each finished game.
    pub game_lengths: Vec<usize>,
    /// Games abandoned at [`Match::max_actions`].
    pub stalled: usize,
}

/// The value below which the fraction `q` of `values` lie (nearest rank); zero when empty.
pub fn quantile(values: &[Duration], q: f64) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
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

/// Plays the match with games of `config`. Games are independent and seeded, so the result
/// does not depend on the number of threads (think times aside).
pub fn play_match<G: BotGame>(config: &G::Config, m: &Match) -> MatchReport
where
    G::Config: Sync,
{
    let n = m.bots.len();
    let threads = m.threads.clamp(1, m.games.max(1));
    let mut report = MatchReport {
        tallies: vec![Tally::default(); n],
        ..MatchReport::default()
    };
    let mut lengths = Vec::new();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                scope.spawn(move || {
                    let mut tallies = vec![Tally::default(); n];
                    let mut lengths = Vec::new();
                    let mut stalled = 0;
                    for i in (w..m.games).step_by(threads) {
                        let lineup: Vec<Bot> =
                            (0..n).map(|s| m.bots[(s + n - i % n) % n]).collect();
                        let mut seats = vec![Tally::default(); n];
                        let played = play_game::<G>(
                            config,
                            &lineup,
                            m.seed + i as u64,
                            m.max_actions,
                            &mut seats,
                        );
                        match played {
                            Ok((_, length)) => lengths.push((i, length)),
                            Err(_) => stalled += 1,
                        }
                        for (s, seat) in seats.iter().enumerate() {
                            tallies[(s + n - i % n) % n].add(seat);
                        }
                    }
                    (tallies, lengths, stalled)
                })
            })
            .collect();
        for worker in workers {
            let (tallies, worker_lengths, stalled) = worker.join().expect("arena worker");
            for (t, w) in report.tallies.iter_mut().zip(tallies) {
                t.add(&w);
            }
            lengths.extend(worker_lengths);
            report.stalled += stalled;
        }
    });
    lengths.sort_unstable();
    report.game_lengths = lengths.into_iter().map(|(_, l)| l).collect();
    report
}

/// A game that reached the cap on actions without ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stalled;

/// Plays one game with `bots[s]` at seat `s`, adding each seat's result to `tallies[s]`;
/// the outcome and the number of actions, or [`Stalled`] after `max_actions` (then only the
/// think times are counted).
///
/// # Panics
/// When a bot passes although its seat is to move or when the rules refuse a bot's move: bugs.
pub fn play_game<G: BotGame>(
    config: &G::Config,
    bots: &[Bot],
    seed: u64,
    max_actions: usize,
    tallies: &mut [Tally],
) -> Result<(Outcome, usize), Stalled> {
    play_observed::<G>(
        config,
        bots,
        seed,
        max_actions,
        tallies,
        &mut |_, _, _, _| {},
    )
}

/// What [`play_observed`] shows of each move: the position before it, the seat, its action
/// and the events it caused.
pub type Observer<'a, G> = dyn FnMut(
        &<G as engine::Game>::State,
        Seat,
        &<G as engine::Game>::Action,
        &[<G as engine::Game>::Event],
    ) + 'a;

/// [`play_game`], showing every move to `observe` (the manners tests read the table's log).
///
/// # Panics
/// As [`play_game`].
pub fn play_observed<G: BotGame>(
    config: &G::Config,
    bots: &[Bot],
    seed: u64,
    max_actions: usize,
    tallies: &mut [Tally],
    observe: &mut Observer<'_, G>,
) -> Result<(Outcome, usize), Stalled> {
    // The table's chance and the bots' own randomness come from separate streams, so a bot's
    // choices never consume the game's dice.
    let mut table = ChaCha8Rng::seed_from_u64(seed);
    let mut bot_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_b075);
    let setup = G::setup(config, bots.len(), &mut table).expect("valid setup");
    let mut state = G::replay(&setup);
    let mut recent: VecDeque<G::Event> = setup.into_iter().collect();
    for actions in 0.. {
        let Some(seat) = next_actor::<G>(&state) else {
            let outcome = G::outcome(&state).expect("a running game has someone to move");
            score(&outcome, tallies);
            return Ok((outcome, actions));
        };
        if actions >= max_actions {
            return Err(Stalled);
        }
        while recent.len() > RECENT_EVENTS {
            recent.pop_front();
        }
        let bot = &bots[seat.index()];
        let log: Vec<G::Event> = recent.iter().cloned().collect();
        let start = thread_cpu_time();
        let decision = bot.decide(&InfoSet::<G>::with_log(&state, seat, &log), &mut bot_rng);
        let took = thread_cpu_time().saturating_sub(start);
        let tally = &mut tallies[seat.index()];
        tally.moves += 1;
        tally.thinking += took;
        tally.think_times.push(took);
        tally.iterations += u64::from(decision.iterations);
        tally.simulated_actions += decision.simulated_actions;
        let action = decision
            .action
            .unwrap_or_else(|| panic!("{} passed although {seat} is to move", bot.level));
        let events = G::decide(&state, seat, &action, &mut table)
            .unwrap_or_else(|e| panic!("{} played {action:?} for {seat}, refused: {e}", bot.level));
        observe(&state, seat, &action, &events);
        for event in events {
            G::evolve(&mut state, &event);
            recent.push_back(event);
        }
    }
    unreachable!("the loop returns")
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

/// How long whole simulated games are under one way of playing them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlayoutLengths {
    /// Actions of each finished game.
    pub lengths: Vec<usize>,
    /// Games cut off at the cap.
    pub unfinished: usize,
    /// CPU time for all of them.
    pub cpu: Duration,
}

/// Plays `games` whole games of `players` from seeds `seed..` with the engine's uniformly
/// random driver ([`playout::random_choice`]: any seat, any listed action or template) and
/// with the bots' playout policy ([`BotGame::playout_move`]), each cut off after
/// `max_actions`: the lengths of the simulated games a search would play with and without a
/// policy that resembles play.
pub fn playout_lengths<G: BotGame>(
    config: &G::Config,
    players: usize,
    games: usize,
    seed: u64,
    max_actions: usize,
) -> [PlayoutLengths; 2] {
    let uniform = |state: &G::State, rng: &mut ChaCha8Rng, _: &mut Vec<Choice<G::Action>>| {
        playout::random_choice::<G>(state, rng).map(|c| (c.seat, c.action))
    };
    let policy = |state: &G::State, rng: &mut ChaCha8Rng, buffer: &mut Vec<Choice<G::Action>>| {
        G::playout_move(state, rng, buffer)
    };
    [
        measure_playouts::<G>(config, players, games, seed, max_actions, uniform),
        measure_playouts::<G>(config, players, games, seed, max_actions, policy),
    ]
}

fn measure_playouts<G: BotGame>(
    config: &G::Config,
    players: usize,
    games: usize,
    seed: u64,
    max_actions: usize,
    next: impl Fn(&G::State, &mut ChaCha8Rng, &mut Vec<Choice<G::Action>>) -> Option<(Seat, G::Action)>,
) -> PlayoutLengths {
    let mut out = PlayoutLengths::default();
    let start = thread_cpu_time();
    let mut buffer = Vec::new();
    for i in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed + i as u64);
        let mut state = G::replay(&G::setup(config, players, &mut rng).expect("valid setup"));
        let mut actions = 0;
        let finished = loop {
            if G::outcome(&state).is_some() {
                break true;
            }
            if actions >= max_actions {
                break false;
            }
            let Some((seat, action)) = next(&state, &mut rng, &mut buffer) else {
                break false;
            };
            crate::candidates::apply::<G>(&mut state, seat, &action, &mut rng);
            actions += 1;
        };
        if finished {
            out.lengths.push(actions);
        } else {
            out.unfinished += 1;
        }
    }
    out.cpu = thread_cpu_time().saturating_sub(start);
    out
}

/// Wall-clock seconds since `start`, for progress lines.
pub fn elapsed_s(start: Instant) -> f64 {
    start.elapsed().as_secs_f64()
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
    fn quantiles_pick_the_nearest_rank() {
        let ms = |v: u64| Duration::from_millis(v);
        let values: Vec<Duration> = (1..=10).map(ms).collect();
        assert_eq!(quantile(&values, 0.5), ms(5));
        assert_eq!(quantile(&values, 0.9), ms(9));
        assert_eq!(quantile(&values, 1.0), ms(10));
        assert_eq!(quantile(&values, 0.0), ms(1));
        assert_eq!(quantile(&[], 0.5), Duration::ZERO);
    }

    #[test]
    fn seats_rotate_and_every_game_is_counted_once_per_entry() {
        let m = Match {
            bots: vec![Bot::new(Level::Random); 3],
            games: 6,
            seed: 1,
            threads: 2,
            max_actions: MAX_ACTIONS,
        };
        let report = play_match::<Acquire>(&Default::default(), &m);
        let wins: f64 = report.tallies.iter().map(|t| t.wins).sum();
        assert!((wins - 6.0).abs() < 1e-9, "one win shared per game");
        assert!(report.tallies.iter().all(|t| t.games == 6));
        assert_eq!(report.game_lengths.len(), 6);
        assert_eq!(report.stalled, 0);
        let single = play_match::<Acquire>(&Default::default(), &Match { threads: 1, ..m });
        assert_eq!(
            single.tallies.iter().map(|t| t.wins).collect::<Vec<_>>(),
            report.tallies.iter().map(|t| t.wins).collect::<Vec<_>>()
        );
        assert_eq!(single.game_lengths, report.game_lengths);
    }
}
