//! What the seats' lifecycle tells its readers: who is in play, who stands in for whom, who
//! left, when each running clock runs out and what a seat's clock shows. The fold that keeps
//! the lifecycle is [`super::fold`]; these read it and change nothing.

use chrono::{DateTime, TimeDelta, Utc};
use engine::Seat;

use super::fold::{micros, Left, Lifecycle, Run};
use super::Due;
use crate::dto::{BotLevel, LeftReason, LeftSeat, SeatClock, SeatStatus};

impl Lifecycle {
    /// How many seats have not resigned.
    pub fn in_play(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| {
                !matches!(
                    s.left,
                    Some(Left {
                        reason: LeftReason::Resigned,
                        ..
                    })
                )
            })
            .count()
    }

    /// Whether resignations left fewer than two seats in the game: it is over.
    pub fn ended_by_resignation(&self) -> bool {
        self.in_play() < 2
    }

    /// The server's bot playing seat `seat` for its absent player, if any.
    pub fn stand_in(&self, seat: Seat) -> Option<BotLevel> {
        self.seats.get(seat.index()).and_then(|s| s.stand_in)
    }

    /// Whether any seat is played by a stand-in bot.
    pub fn any_stand_in(&self) -> bool {
        self.seats.iter().any(|s| s.stand_in.is_some())
    }

    /// Where seat `seat` stands.
    pub fn status(&self, seat: Seat) -> SeatStatus {
        match self.seats.get(seat.index()).and_then(|s| s.left) {
            None => SeatStatus::Playing,
            Some(Left {
                reason: LeftReason::Resigned,
                ..
            }) => SeatStatus::Resigned,
            Some(Left {
                reason: LeftReason::TimedOut,
                ..
            }) => SeatStatus::TakenOver,
        }
    }

    /// The seats gone from the game now (resigned, or taken over and not reclaimed).
    pub fn left_seats(&self) -> Vec<LeftSeat> {
        (0..=u8::MAX)
            .zip(&self.seats)
            .filter_map(|(seat, s)| {
                s.left.map(|l| LeftSeat {
                    seat,
                    reason: l.reason,
                    seq: l.seq,
                })
            })
            .collect()
    }

    /// When each running clock runs out.
    pub fn dues(&self) -> Vec<(Seat, Due)> {
        (0..=u8::MAX)
            .zip(&self.seats)
            .filter_map(|(seat, s)| {
                let c = s.clock?;
                let left = TimeDelta::microseconds(c.left_us);
                match c.run {
                    Run::Running { since: Some(t) } => Some((Seat(seat), Due::At(t + left))),
                    Run::Running { since: None } => Some((Seat(seat), Due::AfterCommit(left))),
                    _ => None,
                }
            })
            .collect()
    }

    /// The running seats whose time is up at `now` (after [`Lifecycle::settle`]).
    pub fn run_out(&self, now: DateTime<Utc>) -> Vec<Seat> {
        self.dues()
            .into_iter()
            .filter(|(_, due)| matches!(due, Due::At(t) if *t <= now))
            .map(|(s, _)| s)
            .collect()
    }

    /// Seat `seat`'s clock as of `latest_commit` (the time this fold was settled with);
    /// `None` for a seat without one.
    pub fn seat_clock(&self, seat: Seat, latest_commit: DateTime<Utc>) -> Option<SeatClock> {
        let c = self.seats.get(seat.index())?.clock?;
        let (left_us, deadline) = match c.run {
            Run::Running { since: Some(t) } => (
                (c.left_us - micros(latest_commit - t)).max(0),
                Some(t + TimeDelta::microseconds(c.left_us)),
            ),
            Run::Running { since: None } => (
                c.left_us,
                Some(latest_commit + TimeDelta::microseconds(c.left_us)),
            ),
            Run::Idle | Run::Stopping { .. } => (c.left_us, None),
        };
        Some(SeatClock {
            remaining_ms: left_us.div_euclid(1000),
            running: deadline.is_some(),
            deadline,
        })
    }
}
