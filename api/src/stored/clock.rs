//! A game's time control as its `clock` column holds it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::StoredBot;
use crate::dto::{Clock, ClockKind, OnTimeout};
use crate::error::ApiError;

/// A game's (or seek's, challenge's, tournament's) time control in its `clock` column.
/// No clock is stored as SQL `NULL` (also what games created before clocks have).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StoredClock {
    /// Never written (no clock is `NULL`), but read should a row hold it.
    #[serde(rename = "none")]
    Unlimited,
    PerMove {
        seconds: u32,
        #[serde(default)]
        on_timeout: StoredOnTimeout,
        #[serde(default)]
        bot: StoredBot,
    },
    Fischer {
        initial: u32,
        increment: u32,
        #[serde(default)]
        on_timeout: StoredOnTimeout,
        #[serde(default)]
        bot: StoredBot,
    },
}

/// What a clock that runs out does to its seat, as stored (`bot` when a row has none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StoredOnTimeout {
    #[default]
    Bot,
    Resign,
}

impl StoredClock {
    /// The stored form of `clock`; `None` for no clock.
    pub fn of(clock: &Clock) -> Option<StoredClock> {
        match *clock {
            Clock::Unlimited => None,
            Clock::PerMove {
                seconds,
                on_timeout,
                bot,
            } => Some(StoredClock::PerMove {
                seconds,
                on_timeout: on_timeout.into(),
                bot: bot.into(),
            }),
            Clock::Fischer {
                initial,
                increment,
                on_timeout,
                bot,
            } => Some(StoredClock::Fischer {
                initial,
                increment,
                on_timeout: on_timeout.into(),
                bot: bot.into(),
            }),
        }
    }

    /// The clock a column holds (`None`, or JSON `null` in a column that may not be `NULL`:
    /// no clock).
    ///
    /// # Errors
    /// 500 for a value that is no stored clock.
    pub fn read(stored: Option<&Value>) -> Result<Clock, ApiError> {
        let Some(value) = stored.filter(|v| !v.is_null()) else {
            return Ok(Clock::Unlimited);
        };
        let stored = StoredClock::deserialize(value)
            .map_err(|e| ApiError::internal(format!("a stored clock does not read: {e}")))?;
        Ok(stored.into())
    }
}

impl From<StoredClock> for Clock {
    fn from(stored: StoredClock) -> Clock {
        match stored {
            StoredClock::Unlimited => Clock::Unlimited,
            StoredClock::PerMove {
                seconds,
                on_timeout,
                bot,
            } => Clock::PerMove {
                seconds,
                on_timeout: on_timeout.into(),
                bot: bot.into(),
            },
            StoredClock::Fischer {
                initial,
                increment,
                on_timeout,
                bot,
            } => Clock::Fischer {
                initial,
                increment,
                on_timeout: on_timeout.into(),
                bot: bot.into(),
            },
        }
    }
}

impl From<OnTimeout> for StoredOnTimeout {
    fn from(on_timeout: OnTimeout) -> Self {
        match on_timeout {
            OnTimeout::Bot => StoredOnTimeout::Bot,
            OnTimeout::Resign => StoredOnTimeout::Resign,
        }
    }
}

impl From<StoredOnTimeout> for OnTimeout {
    fn from(stored: StoredOnTimeout) -> Self {
        match stored {
            StoredOnTimeout::Bot => OnTimeout::Bot,
            StoredOnTimeout::Resign => OnTimeout::Resign,
        }
    }
}

/// The games listed for a kind of clock: the stored clocks of that `kind` (the tags of
/// [`StoredClock`]), or no stored clock.
pub fn clock_kind(kind: ClockKind) -> db::store::ClockKind {
    match kind {
        ClockKind::None => db::store::ClockKind::Unlimited,
        ClockKind::PerMove => db::store::ClockKind::Kind("per_move"),
        ClockKind::Fischer => db::store::ClockKind::Kind("fischer"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dto::BotLevel;
    use serde_json::json;

    /// A per-move clock and a Fischer clock, with settings other than the defaults.
    fn sample_clocks() -> [Clock; 2] {
        [
            Clock::PerMove {
                seconds: 86_400,
                on_timeout: OnTimeout::Resign,
                bot: BotLevel::Mcts,
            },
            Clock::Fischer {
                initial: 300,
                increment: 5,
                on_timeout: OnTimeout::Bot,
                bot: BotLevel::Greedy,
            },
        ]
    }

    /// The stored JSON of every clock, as rows hold it: changing it strands stored games.
    #[test]
    fn stored_clocks_keep_their_json() {
        let [per_move, fischer] = sample_clocks();
        let as_stored = |clock: &Clock| serde_json::to_value(StoredClock::of(clock)).unwrap();
        assert_eq!(as_stored(&Clock::Unlimited), Value::Null);
        assert_eq!(
            StoredClock::read(Some(&Value::Null)).unwrap(),
            Clock::Unlimited
        );
        assert_eq!(
            as_stored(&per_move),
            json!({"kind": "per_move", "seconds": 86400, "on_timeout": "resign", "bot": "mcts"})
        );
        assert_eq!(
            as_stored(&fischer),
            json!({"kind": "fischer", "initial": 300, "increment": 5, "on_timeout": "bot",
                   "bot": "greedy"})
        );
        for clock in [Clock::Unlimited, per_move, fischer] {
            let stored = as_stored(&clock);
            let column = (!stored.is_null()).then_some(&stored);
            assert_eq!(StoredClock::read(column).unwrap(), clock);
        }
    }

    /// Listing by a kind of clock names the stored clocks' own tags.
    #[test]
    fn a_listed_clock_kind_is_the_stored_clocks_tag() {
        let tag =
            |clock: &Clock| serde_json::to_value(StoredClock::of(clock)).unwrap()["kind"].clone();
        let [per_move, fischer] = sample_clocks();
        for (kind, clock) in [
            (ClockKind::PerMove, per_move),
            (ClockKind::Fischer, fischer),
        ] {
            let db::store::ClockKind::Kind(listed) = clock_kind(kind) else {
                panic!("{kind:?} lists no stored kind");
            };
            assert_eq!(tag(&clock), listed, "{kind:?}");
        }
        assert_eq!(clock_kind(ClockKind::None), db::store::ClockKind::Unlimited);
        assert_eq!(
            StoredClock::of(&Clock::Unlimited),
            None,
            "no clock is stored as NULL"
        );
    }

    /// A row without the fields added later reads with their defaults; one that is no clock
    /// is an error, never "no clock".
    #[test]
    fn a_stored_clock_reads_its_defaults_and_refuses_what_is_none() {
        assert_eq!(
            StoredClock::read(Some(&json!({"kind": "per_move", "seconds": 60}))).unwrap(),
            Clock::PerMove {
                seconds: 60,
                on_timeout: OnTimeout::Bot,
                bot: BotLevel::Greedy,
            }
        );
        for bad in [
            json!({"kind": "hourglass"}),
            json!({"seconds": 60}),
            json!("60 s"),
        ] {
            assert!(StoredClock::read(Some(&bad)).is_err(), "{bad}");
        }
    }
}
