//! The seats' lifecycle as a fold of the log: who stands in for whom, who left, each seat's
//! clock. Pure: times come in as data (commit times from the log), never from a clock here.
//!
//! A fold step is one commit: [`Lifecycle::settle`] with the time of the commit before it
//! (what that commit started or stopped gets its time), [`Lifecycle::apply`] for each of its
//! lifecycle events, then [`Lifecycle::close_commit`] with the seats the game waits for after
//! it. Times are kept in microseconds, the resolution of the log's timestamps, so the sums
//! are exact. What the fold tells its readers (a seat's status, its clock, the dues) is read
//! in `queries.rs` beside this file.

use chrono::{DateTime, TimeDelta, Utc};
use engine::Seat;

use super::events::LifecycleEvent;
use crate::dto::{BotLevel, Clock, LeftReason};

/// Every seat's lifecycle, as of the latest commit (see the module documentation). The store
/// keeps it beside the game's snapshot in a form of its own,
/// [`StoredLifecycle`](crate::stored::StoredLifecycle).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lifecycle {
    pub seats: Vec<SeatLife>,
    /// The seat that aborted the game, once one did.
    pub aborted_by: Option<u8>,
}

/// One seat's lifecycle.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SeatLife {
    /// The server's bot playing this seat for its absent player (after a timeout, or for good
    /// after a resignation); `None` while the seat's own player (or the bot seated at
    /// creation) plays it.
    pub stand_in: Option<BotLevel>,
    /// Why and at which seq the seat left the game, while it is gone.
    pub left: Option<Left>,
    /// The seat's clock; `None` for a game without one and for a seat of the server's bot.
    pub clock: Option<ClockState>,
}

/// A seat that left: why, and the seq of the event that says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Left {
    pub reason: LeftReason,
    pub seq: i64,
}

/// A seat's clock: the time it has left as of `run`'s reference point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockState {
    /// Microseconds left: at the start of the running stretch, or now while idle.
    pub left_us: i64,
    pub run: Run,
}

/// Whether a clock runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Run {
    /// The game does not wait for the seat.
    #[default]
    Idle,
    /// The game waits for the seat since `since`; `None`: since the latest commit, whose time
    /// is settled at the next step.
    Running { since: Option<DateTime<Utc>> },
    /// The stretch that ran since `since` ended with the latest commit; its time is charged
    /// (and a Fischer increment added) when that commit's time is settled.
    Stopping { since: DateTime<Utc> },
}

/// When a running clock runs out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// At this time.
    At(DateTime<Utc>),
    /// This long after the latest commit (a clock it started).
    AfterCommit(TimeDelta),
}

pub(super) fn micros(d: TimeDelta) -> i64 {
    d.num_microseconds().unwrap_or(i64::MAX)
}

/// The time a seat has for a move (per move), or starts with (Fischer), in microseconds.
fn fresh_us(clock: &Clock) -> Option<i64> {
    match clock {
        Clock::Unlimited => None,
        Clock::PerMove { seconds, .. } => Some(i64::from(*seconds) * 1_000_000),
        Clock::Fischer { initial, .. } => Some(i64::from(*initial) * 1_000_000),
    }
}

impl Lifecycle {
    /// Before the first commit: everyone playing, every person's clock full and idle.
    /// `native_bots[i]`: seat `i` is played by the server's bot from creation (no clock).
    pub fn new(clock: &Clock, native_bots: &[bool]) -> Lifecycle {
        Lifecycle {
            seats: native_bots
                .iter()
                .map(|&bot| SeatLife {
                    stand_in: None,
                    left: None,
                    clock: fresh_us(clock).filter(|_| !bot).map(|left_us| ClockState {
                        left_us,
                        run: Run::Idle,
                    }),
                })
                .collect(),
            aborted_by: None,
        }
    }

    fn seat_mut(&mut self, seat: u8) -> Option<&mut SeatLife> {
        self.seats.get_mut(usize::from(seat))
    }

    /// Seat `seat`'s lifecycle (a default one outside the table).
    pub fn seat(&self, seat: Seat) -> SeatLife {
        self.seats.get(seat.index()).cloned().unwrap_or_default()
    }

    /// Gives the latest commit its time: clocks it started run since then, stretches it ended
    /// are charged (never below zero) and get their Fischer increment (per move, the next move
    /// gets the full time again).
    pub fn settle(&mut self, latest_commit: DateTime<Utc>, clock: &Clock) {
        for seat in &mut self.seats {
            let Some(c) = seat.clock.as_mut() else {
                continue;
            };
            match c.run {
                Run::Running { since: None } => {
                    c.run = Run::Running {
                        since: Some(latest_commit),
                    }
                }
                Run::Stopping { since } => {
                    let used = micros(latest_commit - since).max(0);
                    c.left_us = match clock {
                        Clock::Fischer { increment, .. } => {
                            (c.left_us - used).max(0) + i64::from(*increment) * 1_000_000
                        }
                        _ => fresh_us(clock).unwrap_or(0),
                    };
                    c.run = Run::Idle;
                }
                Run::Idle | Run::Running { since: Some(_) } => {}
            }
        }
    }

    /// Folds one lifecycle event (at `seq`) of the commit being made.
    pub fn apply(&mut self, event: &LifecycleEvent, seq: i64, clock: &Clock) {
        match *event {
            LifecycleEvent::SeatTimedOut { seat } => {
                if let Some(s) = self.seat_mut(seat) {
                    s.left = Some(Left {
                        reason: LeftReason::TimedOut,
                        seq,
                    });
                    if let Some(c) = s.clock.as_mut() {
                        // The whole time is used; no increment for a move never made.
                        c.left_us = 0;
                        c.run = Run::Idle;
                    }
                }
            }
            LifecycleEvent::BotTookOver { seat, level } => {
                if let Some(s) = self.seat_mut(seat) {
                    s.stand_in = Some(level);
                    if let Some(c) = s.clock.as_mut() {
                        c.run = Run::Idle;
                    }
                }
            }
            LifecycleEvent::SeatResigned { seat } => {
                if let Some(s) = self.seat_mut(seat) {
                    s.left = Some(Left {
                        reason: LeftReason::Resigned,
                        seq,
                    });
                    if let Some(c) = s.clock.as_mut() {
                        c.run = Run::Idle;
                    }
                }
            }
            LifecycleEvent::SeatReclaimed { seat } => {
                if let Some(s) = self.seat_mut(seat) {
                    s.stand_in = None;
                    s.left = None;
                    // The clock rules apply again from now, with a fresh clock.
                    if let (Some(c), Some(fresh)) = (s.clock.as_mut(), fresh_us(clock)) {
                        c.left_us = fresh;
                        c.run = Run::Idle;
                    }
                }
            }
            LifecycleEvent::GameAborted { seat } => self.aborted_by = Some(seat),
        }
    }

    /// Ends the commit being made: the clocks of the seats the game now waits for (`awaited`)
    /// run, from this commit on if they did not already; the others stop. Nothing runs once
    /// the game is `over`, nor for a seat the server's bot plays.
    pub fn close_commit(&mut self, awaited: &[Seat], over: bool, clock: &Clock) {
        for (i, seat) in self.seats.iter_mut().enumerate() {
            let runs = !over
                && seat.stand_in.is_none()
                && seat.left.is_none()
                && awaited.iter().any(|s| s.index() == i);
            let Some(c) = seat.clock.as_mut() else {
                continue;
            };
            c.run = match (c.run, runs) {
                (Run::Running { since }, true) => Run::Running { since },
                (Run::Running { since: Some(since) }, false) => Run::Stopping { since },
                // Started and stopped within one commit cannot happen (the latest commit is
                // settled before the next is made); nothing to charge.
                (Run::Running { since: None }, false) => Run::Idle,
                (Run::Idle | Run::Stopping { .. }, true) => {
                    if let (Clock::PerMove { .. }, Some(fresh)) = (clock, fresh_us(clock)) {
                        c.left_us = fresh;
                    }
                    Run::Running { since: None }
                }
                (Run::Idle, false) => Run::Idle,
                (Run::Stopping { since }, false) => Run::Stopping { since },
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dto::{OnTimeout, SeatStatus};

    fn t(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000 + s, 0).unwrap()
    }

    fn fischer() -> Clock {
        Clock::Fischer {
            initial: 60,
            increment: 5,
            on_timeout: OnTimeout::Bot,
            bot: BotLevel::Greedy,
        }
    }

    fn per_move() -> Clock {
        Clock::PerMove {
            seconds: 30,
            on_timeout: OnTimeout::Bot,
            bot: BotLevel::Random,
        }
    }

    /// Folds commits `(time, awaited)` as the store writes them and settles the last.
    fn fold(clock: &Clock, commits: &[(i64, &[u8])]) -> Lifecycle {
        let mut life = Lifecycle::new(clock, &[false, false, true]);
        let mut previous = None;
        for (at, awaited) in commits {
            if let Some(p) = previous {
                life.settle(t(p), clock);
            }
            let awaited: Vec<Seat> = awaited.iter().map(|&s| Seat(s)).collect();
            life.close_commit(&awaited, false, clock);
            previous = Some(*at);
        }
        life.settle(t(previous.unwrap()), clock);
        life
    }

    #[test]
    fn fischer_charges_each_stretch_and_adds_the_increment_when_the_turn_passes() {
        let clock = fischer();
        // Seat 0 waits from 0 to 10, seat 1 from 10 to 40, seat 0 again from 40.
        let life = fold(&clock, &[(0, &[0]), (10, &[1]), (40, &[0]), (45, &[0])]);
        let zero = life.seat_clock(Seat(0), t(45)).unwrap();
        assert_eq!(zero.remaining_ms, (60 - 10 + 5 - 5) * 1000);
        assert_eq!(zero.deadline, Some(t(40 + 55)));
        let one = life.seat_clock(Seat(1), t(45)).unwrap();
        assert_eq!(one.remaining_ms, (60 - 30 + 5) * 1000);
        assert!(!one.running);
        assert_eq!(life.seat_clock(Seat(2), t(45)), None, "bots have no clock");
    }

    #[test]
    fn per_move_gives_every_stretch_the_full_time_however_many_actions_it_takes() {
        let clock = per_move();
        let life = fold(&clock, &[(0, &[0]), (5, &[0]), (20, &[1]), (22, &[0, 1])]);
        let zero = life.seat_clock(Seat(0), t(22)).unwrap();
        assert_eq!((zero.remaining_ms, zero.deadline), (30_000, Some(t(52))));
        let one = life.seat_clock(Seat(1), t(22)).unwrap();
        assert_eq!(one.deadline, Some(t(50)), "still the stretch begun at 20");
        assert_eq!(one.remaining_ms, 28_000);
        assert_eq!(life.run_out(t(50)), vec![Seat(1)]);
    }

    #[test]
    fn a_clock_never_goes_below_zero_and_a_timeout_uses_it_all() {
        let clock = fischer();
        // Seat 0 acts 100 s into a 60 s bank (before any timeout was recorded).
        let mut life = fold(&clock, &[(0, &[0]), (100, &[1])]);
        assert_eq!(
            life.seat_clock(Seat(0), t(100)).unwrap().remaining_ms,
            5_000
        );
        life.apply(&LifecycleEvent::SeatTimedOut { seat: 1 }, 9, &clock);
        life.apply(
            &LifecycleEvent::BotTookOver {
                seat: 1,
                level: BotLevel::Greedy,
            },
            10,
            &clock,
        );
        life.close_commit(&[Seat(1)], false, &clock);
        life.settle(t(160), &clock);
        let one = life.seat_clock(Seat(1), t(160)).unwrap();
        assert_eq!((one.remaining_ms, one.running), (0, false));
        assert_eq!(life.status(Seat(1)), SeatStatus::TakenOver);
        assert_eq!(life.stand_in(Seat(1)), Some(BotLevel::Greedy));
        assert_eq!(life.dues(), vec![], "a stand-in bot runs no clock");
        // Reclaimed: a fresh clock, running again while the game waits for the seat.
        life.apply(&LifecycleEvent::SeatReclaimed { seat: 1 }, 11, &clock);
        life.close_commit(&[Seat(1)], false, &clock);
        life.settle(t(170), &clock);
        let one = life.seat_clock(Seat(1), t(170)).unwrap();
        assert_eq!((one.remaining_ms, one.deadline), (60_000, Some(t(230))));
        assert_eq!(life.status(Seat(1)), SeatStatus::Playing);
    }

    #[test]
    fn resigning_leaves_for_good_and_two_resignations_of_three_end_the_game() {
        let clock = Clock::Unlimited;
        let mut life = Lifecycle::new(&clock, &[false, false, false]);
        life.apply(&LifecycleEvent::SeatResigned { seat: 2 }, 7, &clock);
        assert!(!life.ended_by_resignation());
        life.apply(&LifecycleEvent::SeatResigned { seat: 0 }, 9, &clock);
        assert!(life.ended_by_resignation());
        assert_eq!(life.status(Seat(0)), SeatStatus::Resigned);
        assert_eq!(life.left_seats().len(), 2);
    }
}
