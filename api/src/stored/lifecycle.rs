//! The seats' lifecycle as the `games.lifecycle` column holds it: the fold
//! ([`crate::lifecycle::Lifecycle`]) as of the game's latest commit, kept so that reads need no
//! replay of the log.
//!
//! `db/src/store/games.rs` also reads one key of it in SQL (`seats[i].stand_in`, to list the
//! games that wait for a person): that key's name and its `null`-when-absent meaning are part
//! of this shape.

use chrono::{DateTime, Utc};
use db::JsonText;
use serde::{Deserialize, Serialize};

use super::StoredBot;
use crate::dto::LeftReason;
use crate::error::ApiError;
use crate::lifecycle::fold::{ClockState, Left, Run};
use crate::lifecycle::{Lifecycle, SeatLife};

/// Every seat's lifecycle, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredLifecycle {
    pub seats: Vec<StoredSeat>,
    /// The seat that aborted the game, once one did (absent before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aborted_by: Option<u8>,
}

/// One seat's lifecycle, as stored; an absent key is `None`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeat {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stand_in: Option<StoredBot>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left: Option<StoredLeft>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<StoredSeatClock>,
}

/// A seat that left, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredLeft {
    pub reason: StoredLeftReason,
    pub seq: i64,
}

/// Why a seat left, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoredLeftReason {
    Resigned,
    TimedOut,
}

/// A seat's clock, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeatClock {
    pub left_us: i64,
    pub run: StoredRun,
}

/// Whether a seat's clock runs, as stored (`since` in RFC 3339, as chrono writes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum StoredRun {
    Idle,
    Running { since: Option<DateTime<Utc>> },
    Stopping { since: DateTime<Utc> },
}

impl StoredLifecycle {
    /// The column's text for `life`.
    pub fn write(life: &Lifecycle) -> JsonText {
        JsonText::new(
            serde_json::to_string(&StoredLifecycle::from(life)).expect("a lifecycle serializes"),
        )
    }

    /// The lifecycle a column holds.
    ///
    /// # Errors
    /// 500 for text that is no stored lifecycle: never taken for a fresh one.
    pub fn read(stored: &JsonText) -> Result<Lifecycle, ApiError> {
        let stored: StoredLifecycle = serde_json::from_str(stored.as_str())
            .map_err(|e| ApiError::internal(format!("a stored lifecycle does not read: {e}")))?;
        Ok(stored.into())
    }
}

impl From<&Lifecycle> for StoredLifecycle {
    fn from(life: &Lifecycle) -> Self {
        StoredLifecycle {
            seats: life
                .seats
                .iter()
                .map(|s| StoredSeat {
                    stand_in: s.stand_in.map(StoredBot::from),
                    left: s.left.map(|l| StoredLeft {
                        reason: l.reason.into(),
                        seq: l.seq,
                    }),
                    clock: s.clock.map(|c| StoredSeatClock {
                        left_us: c.left_us,
                        run: c.run.into(),
                    }),
                })
                .collect(),
            aborted_by: life.aborted_by,
        }
    }
}

impl From<StoredLifecycle> for Lifecycle {
    fn from(stored: StoredLifecycle) -> Self {
        Lifecycle {
            seats: stored
                .seats
                .into_iter()
                .map(|s| SeatLife {
                    stand_in: s.stand_in.map(Into::into),
                    left: s.left.map(|l| Left {
                        reason: l.reason.into(),
                        seq: l.seq,
                    }),
                    clock: s.clock.map(|c| ClockState {
                        left_us: c.left_us,
                        run: c.run.into(),
                    }),
                })
                .collect(),
            aborted_by: stored.aborted_by,
        }
    }
}

impl From<LeftReason> for StoredLeftReason {
    fn from(reason: LeftReason) -> Self {
        match reason {
            LeftReason::Resigned => StoredLeftReason::Resigned,
            LeftReason::TimedOut => StoredLeftReason::TimedOut,
        }
    }
}

impl From<StoredLeftReason> for LeftReason {
    fn from(stored: StoredLeftReason) -> Self {
        match stored {
            StoredLeftReason::Resigned => LeftReason::Resigned,
            StoredLeftReason::TimedOut => LeftReason::TimedOut,
        }
    }
}

impl From<Run> for StoredRun {
    fn from(run: Run) -> Self {
        match run {
            Run::Idle => StoredRun::Idle,
            Run::Running { since } => StoredRun::Running { since },
            Run::Stopping { since } => StoredRun::Stopping { since },
        }
    }
}

impl From<StoredRun> for Run {
    fn from(stored: StoredRun) -> Self {
        match stored {
            StoredRun::Idle => Run::Idle,
            StoredRun::Running { since } => Run::Running { since },
            StoredRun::Stopping { since } => Run::Stopping { since },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dto::BotLevel;

    fn t(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000 + s, 0).unwrap()
    }

    /// One seat of every kind: a stand-in after a timeout, a resigned seat, clocks idle,
    /// running since a commit, running from the latest commit, stopping; a game aborted.
    fn every_kind() -> Lifecycle {
        let clock = |left_us, run| Some(ClockState { left_us, run });
        Lifecycle {
            seats: vec![
                SeatLife {
                    stand_in: Some(BotLevel::Mcts),
                    left: Some(Left {
                        reason: LeftReason::TimedOut,
                        seq: 9,
                    }),
                    clock: clock(0, Run::Idle),
                },
                SeatLife {
                    stand_in: Some(BotLevel::Random),
                    left: Some(Left {
                        reason: LeftReason::Resigned,
                        seq: 12,
                    }),
                    clock: clock(5_000_000, Run::Stopping { since: t(10) }),
                },
                SeatLife {
                    stand_in: None,
                    left: None,
                    clock: clock(60_000_000, Run::Running { since: Some(t(20)) }),
                },
                SeatLife {
                    stand_in: Some(BotLevel::Greedy),
                    left: None,
                    clock: clock(1, Run::Running { since: None }),
                },
                SeatLife::default(),
            ],
            aborted_by: Some(2),
        }
    }

    /// The exact text rows hold (byte for byte, keys in this order): changing it strands
    /// stored games, and `db/src/store/games.rs` reads `stand_in` in SQL.
    #[test]
    fn a_stored_lifecycle_keeps_its_json() {
        let written = StoredLifecycle::write(&every_kind());
        assert_eq!(
            written.as_str(),
            concat!(
                r#"{"seats":["#,
                r#"{"stand_in":"mcts","left":{"reason":"timed_out","seq":9},"#,
                r#""clock":{"left_us":0,"run":{"state":"idle"}}},"#,
                r#"{"stand_in":"random","left":{"reason":"resigned","seq":12},"#,
                r#""clock":{"left_us":5000000,"run":{"state":"stopping","since":"2023-11-14T22:13:30Z"}}},"#,
                r#"{"clock":{"left_us":60000000,"run":{"state":"running","since":"2023-11-14T22:13:40Z"}}},"#,
                r#"{"stand_in":"greedy","clock":{"left_us":1,"run":{"state":"running","since":null}}},"#,
                r#"{}"#,
                r#"],"aborted_by":2}"#,
            )
        );
        assert_eq!(StoredLifecycle::read(&written).unwrap(), every_kind());
    }

    /// Text as the server wrote it before the stored types were its own (the fold's types
    /// serialized directly), read unchanged: a fresh Fischer game of two people and a bot,
    /// and one whose seat timed out, with fractional commit times.
    #[test]
    fn a_lifecycle_written_by_earlier_servers_reads_unchanged() {
        let fresh = JsonText::new(
            r#"{"seats":[{"clock":{"left_us":60000000,"run":{"state":"running","since":null}}},{"clock":{"left_us":60000000,"run":{"state":"idle"}}},{}]}"#
                .to_string(),
        );
        let life = StoredLifecycle::read(&fresh).unwrap();
        assert_eq!(life.seats.len(), 3);
        assert_eq!(
            life.seats[0].clock,
            Some(ClockState {
                left_us: 60_000_000,
                run: Run::Running { since: None }
            })
        );
        assert_eq!(life.seats[2], SeatLife::default());
        assert_eq!(life.aborted_by, None);
        assert_eq!(
            StoredLifecycle::write(&life),
            fresh,
            "written back unchanged"
        );

        let timed_out = JsonText::new(
            r#"{"seats":[{"stand_in":"greedy","left":{"reason":"timed_out","seq":7},"clock":{"left_us":0,"run":{"state":"idle"}}},{"clock":{"left_us":42500000,"run":{"state":"running","since":"2026-12-03T06:50:53.123456Z"}}}]}"#
                .to_string(),
        );
        let life = StoredLifecycle::read(&timed_out).unwrap();
        assert_eq!(life.stand_in(engine::Seat(0)), Some(BotLevel::Greedy));
        assert_eq!(
            life.seats[0].left,
            Some(Left {
                reason: LeftReason::TimedOut,
                seq: 7
            })
        );
        assert_eq!(
            StoredLifecycle::write(&life),
            timed_out,
            "written back unchanged"
        );
    }

    /// A value that is no lifecycle is an error, never a fresh lifecycle.
    #[test]
    fn a_stored_lifecycle_that_does_not_read_is_an_error() {
        for bad in [
            r#"{}"#,
            r#"{"seats":[{"stand_in":"genius"}]}"#,
            r#"{"seats":[{"left":{"reason":"bored","seq":1}}]}"#,
            r#"{"seats":[{"clock":{"left_us":1,"run":{"state":"paused"}}}]}"#,
            r#"null"#,
        ] {
            assert!(
                StoredLifecycle::read(&JsonText::new(bad.to_string())).is_err(),
                "{bad}"
            );
        }
    }
}
