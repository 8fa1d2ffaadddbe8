//! Bots for every hosted game, playing from what their seat may see.
//!
//! Three levels: [`Level::Random`] (a uniformly random legal move), [`Level::Greedy`] (one ply
//! with the game's hand-written evaluation) and [`Level::Mcts`] (information-set Monte Carlo
//! tree search over samples of the unseen). Every level sees the position only through an
//! [`InfoSet`], whose one view of the state is [`engine::Game::determinize`]: bots play with the
//! information of a person in their seat. They choose among their seat's listed actions and
//! instantiated templates, only when the game waits for their seat.
//!
//! The service calls [`choose_json`] with a stored snapshot; the arena binary
//! (`cargo run --release -p bots --bin arena -- --help`) plays bots against each other.
//!
//! ```
//! use bots::{Bot, Level};
//! use engine::acquire::{Acquire, Config};
//! use engine::Game;
//! use rand::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let state = Acquire::replay(&Acquire::setup(&Config::default(), 3, &mut rng).unwrap());
//! let seat = Acquire::active_seats(&state)[0];
//! let decision = Bot::new(Level::Greedy).choose::<Acquire>(&state, seat, &mut rng);
//! let action = decision.action.expect("the active seat has a move");
//! assert!(Acquire::decide(&state, seat, &action, &mut rng).is_ok());
//! ```

pub mod arena;
mod candidates;
mod cpu;
mod erased;
mod evaluate;
mod games;
mod greedy;
mod info;
#[cfg(test)]
mod manners_tests;
pub mod mcts;
mod random;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod toy;

pub use erased::{arena_match, arena_playouts, bot_games, choose_json, standing_seat, BotError};

/// How many of the last events of a game's log a bot is shown ([`choose_json`]'s `recent`):
/// enough for its manners to see back to the start of its turn and to the offers refused
/// since the board last changed in any but freak positions (manners err towards restraint
/// where the log is cut). The arena keeps as many for its bots.
pub const RECENT_EVENTS: usize = 256;
pub use evaluate::{next_actor, utilities, BotGame};
pub use info::InfoSet;

use engine::Seat;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How strong a bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// A uniformly random legal move.
    Random,
    /// The move whose result the game's evaluation likes best, one ply ahead.
    Greedy,
    /// Information-set Monte Carlo tree search within a budget.
    Mcts,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Random, Level::Greedy, Level::Mcts];

    /// The stable name used in the API and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Mcts => "mcts",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|level| level.name() == s)
            .ok_or_else(|| format!("unknown bot level {s:?} (random, greedy or mcts)"))
    }
}

/// How long a search may think about one move: a number of iterations and, optionally, limits
/// on the wall-clock time and on the thread's CPU time, whichever ends first. Only
/// [`Level::Mcts`] searches; the other levels ignore it.
///
/// An iteration budget makes a bot's move a function of position and seed, which tests and the
/// arena rely on; the time limits are safety caps for the service, where machines differ and
/// are shared (the CPU cap keeps the effort fair under load, the wall-clock cap keeps the
/// person waiting from waiting long).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub iterations: u32,
    pub time: Option<Duration>,
    pub cpu: Option<Duration>,
}

impl Budget {
    /// The default iterations per move.
    pub const DEFAULT_ITERATIONS: u32 = 1_000;
    /// The default cap on the CPU time of one move: a move never takes longer than a second of
    /// CPU, whatever the game and position (figures in `docs/bots.md`).
    pub const DEFAULT_CPU: Duration = Duration::from_millis(900);

    /// `iterations` and no time limit: a move that depends only on position and seed.
    pub fn iterations(iterations: u32) -> Self {
        Budget {
            iterations,
            time: None,
            cpu: None,
        }
    }

    /// Whether a search that began at `start` (wall clock) and `cpu_start` (thread CPU time)
    /// has used up its time.
    pub(crate) fn spent(&self, start: std::time::Instant, cpu_start: Duration) -> bool {
        self.time.is_some_and(|t| start.elapsed() >= t)
            || self
                .cpu
                .is_some_and(|t| cpu::thread_cpu_time().saturating_sub(cpu_start) >= t)
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            cpu: Some(Budget::DEFAULT_CPU),
            ..Budget::iterations(Budget::DEFAULT_ITERATIONS)
        }
    }
}

/// A bot's move and what finding it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision<A> {
    /// The move; `None` when the game does not wait for the seat (bots never act out of turn).
    pub action: Option<A>,
    /// Search iterations run (0 for the levels that do not search, or a forced move).
    pub iterations: u32,
    /// Actions simulated while searching.
    pub simulated_actions: u64,
}

/// A bot: its level, its budget per move and its search settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bot {
    pub level: Level,
    pub budget: Budget,
    pub settings: mcts::Settings,
}

impl Bot {
    /// A bot of `level` with the default budget and settings.
    pub fn new(level: Level) -> Self {
        Bot {
            level,
            budget: Budget::default(),
            settings: mcts::Settings::default(),
        }
    }

    /// The move this bot plays for `seat` in `state`, seeing only what the seat may see and
    /// remembering nothing of the log.
    pub fn choose<G: BotGame>(
        &self,
        state: &G::State,
        seat: Seat,
        rng: &mut dyn RngCore,
    ) -> Decision<G::Action> {
        self.decide(&InfoSet::<G>::new(state, seat), rng)
    }

    /// The move this bot plays in the position `info`: for a seat the game waits for, or for
    /// one that [`BotGame::wants_to_act`] outside its turn; `None` otherwise.
    pub fn decide<G: BotGame>(
        &self,
        info: &InfoSet<G>,
        rng: &mut dyn RngCore,
    ) -> Decision<G::Action> {
        let unsearched = |action| Decision {
            action,
            iterations: 0,
            simulated_actions: 0,
        };
        match self.level {
            Level::Random => unsearched(random::choose(info, rng)),
            Level::Greedy => unsearched(greedy::choose(info, rng)),
            Level::Mcts => mcts::search(info, &self.budget, &self.settings, rng),
        }
    }
}
