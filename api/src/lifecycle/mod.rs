//! Games that end: clocks, resignation, the server's bots standing in for absent players,
//! abort. None of it is a game rule, so none of it is in the engine: it lives here, beside
//! the game, and in the log as event kinds of its own ([`LifecycleEvent`]) between the
//! game's events.
//!
//! The seats' [`Lifecycle`] (who stands in for whom, who left, each seat's clock) is a fold
//! of the log like the game's state: the lifecycle events, the seats the game waits for after
//! each commit, and each commit's time (every event of a commit carries it, and commits of a
//! game have strictly increasing times, migration 10). The store keeps the fold beside the
//! game's snapshot so that reads need no replay; [`replay`] rebuilds it from the log for any
//! seq, so `states/{seq}`, replays and every process agree on every remaining time.
//!
//! A commit's own time is known only once it is written, so the fold is kept *as of the
//! latest commit*: what that commit started or stopped is recorded against it
//! ([`Lifecycle::close_commit`]) and settled with its time at the next step
//! ([`Lifecycle::settle`]), by every reader the same way.
//!
//! ```
//! use api::dto::{BotLevel, Clock, OnTimeout};
//! use api::lifecycle::Lifecycle;
//! use chrono::{TimeDelta, Utc};
//! use engine::Seat;
//!
//! let clock = Clock::Fischer { initial: 60, increment: 5, on_timeout: OnTimeout::Bot, bot: BotLevel::Greedy };
//! let start = Utc::now();
//! let mut life = Lifecycle::new(&clock, &[false, false]);
//! life.close_commit(&[Seat(0)], false, &clock); // the setup commit: seat 0 to move
//! life.settle(start, &clock);
//! life.close_commit(&[Seat(1)], false, &clock); // seat 0 moved 10 s later
//! life.settle(start + TimeDelta::seconds(10), &clock);
//! assert_eq!(life.seat_clock(Seat(0), start + TimeDelta::seconds(10)).unwrap().remaining_ms, 55_000);
//! ```

pub mod events;
pub mod fold;
pub mod outcome;
mod queries;
pub mod replay;

pub use events::{is_lifecycle, LifecycleEvent};
pub use fold::{Due, Lifecycle, SeatLife};
