//! Time controls and the seats' lifecycle as clients see them: the clock chosen at creation,
//! each seat as a document shows it (who holds it, its clock and standing), the deadlines of
//! the push stream, and how a finished game ranks the seats that left it.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::games::{BotInfo, BotLevel};

/// The longest clock: 30 days, in seconds (a move in correspondence play takes days, not
/// months).
pub const MAX_CLOCK_SECONDS: u32 = 30 * 24 * 3600;

/// A time control, as chosen at creation and shown in the game document and the game list
/// (with the defaults filled in).
///
/// - `none`: no clock (the default).
/// - `per_move`: correspondence style. Each time the game starts waiting for a seat, that
///   seat has `seconds` to act; its move is the whole stretch the game waits for it, however
///   many actions that takes (a Tycoon turn, a Monopoly turn with its trades).
/// - `fischer`: live style. Each seat has a bank of `initial` seconds that runs only while
///   the game waits for that seat, and gets `increment` seconds when the game stops waiting
///   for it.
///
/// Several seats can be awaited at once (auctions, sealed choices): each awaited seat's clock
/// runs. Actions a seat may take while the game does not wait for it (Monopoly's rent claims
/// and offers) run no clock, and neither does a seat played by the server's bot. When a
/// clock runs out, `on_timeout` says what happens to the seat: `bot` (the server's bot of
/// level `bot` plays it on until its player reclaims it) or `resign`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Clock {
    /// No clock: the game waits for its players as long as they take.
    #[serde(rename = "none")]
    Unlimited,
    /// Each move has `seconds`.
    PerMove {
        #[schema(minimum = 1, maximum = 2_592_000)]
        seconds: u32,
        on_timeout: OnTimeout,
        /// The server's bot that takes over a seat whose clock ran out, or plays on for a
        /// seat that resigned.
        bot: BotLevel,
    },
    /// A bank of `initial` seconds per seat, `increment` seconds more whenever the game stops
    /// waiting for the seat.
    Fischer {
        #[schema(minimum = 1, maximum = 2_592_000)]
        initial: u32,
        #[schema(minimum = 0, maximum = 2_592_000)]
        increment: u32,
        on_timeout: OnTimeout,
        /// As in `per_move`.
        bot: BotLevel,
    },
}

impl Clock {
    /// Whether the game has a clock.
    pub fn is_on(&self) -> bool {
        !matches!(self, Clock::Unlimited)
    }

    /// The server's bot that plays for absent seats (after a timeout or a resignation):
    /// the clock's, or `greedy` for a game without a clock.
    pub fn stand_in(&self) -> BotLevel {
        match self {
            Clock::Unlimited => BotLevel::Greedy,
            Clock::PerMove { bot, .. } | Clock::Fischer { bot, .. } => *bot,
        }
    }

    /// The stored form (`None` for no clock, as games created before clocks have): a
    /// [`StoredClock`](crate::stored::StoredClock).
    pub fn stored(&self) -> Option<serde_json::Value> {
        crate::stored::StoredClock::of(self)
            .map(|s| serde_json::to_value(s).expect("a clock serializes"))
    }

    /// Reads the stored form back (`None`: no clock).
    ///
    /// # Errors
    /// 500 for a value that is no stored clock: never taken for no clock.
    pub fn read_stored(
        stored: Option<&serde_json::Value>,
    ) -> Result<Clock, crate::error::ApiError> {
        crate::stored::StoredClock::read(stored)
    }
}

/// What happens to a seat whose clock ran out: `bot` (the default) hands it to the server's
/// bot until its player reclaims it; `resign` resigns it (in a two-seat game the other seat
/// wins; with more, the game goes on with the server's bot in the seat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OnTimeout {
    Bot,
    Resign,
}

/// The `clock` of `POST /v1/games`: `{"kind": "none"}`, `{"kind": "per_move", "seconds":
/// 86400}` or `{"kind": "fischer", "initial": 300, "increment": 5}`, with optional
/// `on_timeout` (default `bot`) and `bot` (the level of the bot that takes over, default
/// `greedy`). Times are whole seconds, from 1 to 2,592,000 (30 days); an increment may be 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClockRequest {
    /// No clock.
    #[serde(rename = "none")]
    Unlimited,
    PerMove {
        #[schema(minimum = 1, maximum = 2_592_000)]
        seconds: u32,
        #[serde(default)]
        on_timeout: Option<OnTimeout>,
        #[serde(default)]
        bot: Option<BotLevel>,
    },
    Fischer {
        #[schema(minimum = 1, maximum = 2_592_000)]
        initial: u32,
        /// Default 0.
        #[serde(default)]
        #[schema(minimum = 0, maximum = 2_592_000)]
        increment: Option<u32>,
        #[serde(default)]
        on_timeout: Option<OnTimeout>,
        #[serde(default)]
        bot: Option<BotLevel>,
    },
}

/// Why a clock request is refused: the field and its bounds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("clock.{field} must be between {min} and {max} seconds (30 days), not {value}")]
pub struct ClockOutOfBounds {
    pub field: &'static str,
    pub min: u32,
    pub max: u32,
    pub value: u32,
}

impl TryFrom<ClockRequest> for Clock {
    type Error = ClockOutOfBounds;

    fn try_from(req: ClockRequest) -> Result<Clock, ClockOutOfBounds> {
        let within = |field, min, value| {
            if (min..=MAX_CLOCK_SECONDS).contains(&value) {
                Ok(value)
            } else {
                Err(ClockOutOfBounds {
                    field,
                    min,
                    max: MAX_CLOCK_SECONDS,
                    value,
                })
            }
        };
        Ok(match req {
            ClockRequest::Unlimited => Clock::Unlimited,
            ClockRequest::PerMove {
                seconds,
                on_timeout,
                bot,
            } => Clock::PerMove {
                seconds: within("seconds", 1, seconds)?,
                on_timeout: on_timeout.unwrap_or(OnTimeout::Bot),
                bot: bot.unwrap_or(BotLevel::Greedy),
            },
            ClockRequest::Fischer {
                initial,
                increment,
                on_timeout,
                bot,
            } => Clock::Fischer {
                initial: within("initial", 1, initial)?,
                increment: within("increment", 0, increment.unwrap_or(0))?,
                on_timeout: on_timeout.unwrap_or(OnTimeout::Bot),
                bot: bot.unwrap_or(BotLevel::Greedy),
            },
        })
    }
}

/// A seat in a game document.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatInfo {
    pub seat: i32,
    /// The player's name; `null` while the seat is open.
    #[schema(required = true)]
    pub name: Option<String>,
    pub open: bool,
    /// Who plays the seat.
    pub kind: SeatKind,
    /// The server's bot playing this seat: seated at creation (`kind: bot`), or standing in
    /// for the seat's absent player (`status` `taken_over` or `resigned`); `null` while a
    /// person plays the seat, and for an open one.
    #[schema(required = true)]
    pub bot: Option<BotInfo>,
    /// Where the seat stands (`playing`, `taken_over`, `resigned`).
    pub status: SeatStatus,
    /// The seat's clock; `null` for a game without one and for a seat of the server's bot.
    #[schema(required = true)]
    pub clock: Option<SeatClock>,
    /// The player the seat belongs to (taken with a player token); `null` otherwise.
    #[schema(required = true)]
    pub player_id: Option<Uuid>,
}

/// Who holds a seat: nobody yet, a person (with the seat's token), or the server's bot
/// (seated at creation). A person's seat stays `human` while the server's bot stands in for
/// its player (see `status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    Open,
    Human,
    Bot,
}

/// Where a seat stands: `playing` (its player, or the server's bot seated at creation, plays
/// it), `taken_over` (its clock ran out and the server's bot plays it until its player
/// reclaims it with the seat's token), `resigned` (it left the game for good; the server's
/// bot plays on for it while the game goes on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatStatus {
    Playing,
    TakenOver,
    Resigned,
}

/// A seat's clock at the document's version. Times are as of the moment that version was
/// committed (so every read of one version, every process and every replay agree); a
/// running clock keeps running after it: count down to `deadline`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatClock {
    /// Time left, in milliseconds (per move: the whole move's time while the clock does not
    /// run).
    pub remaining_ms: i64,
    /// Whether the game waits for this seat, so its clock runs.
    pub running: bool,
    /// When the clock runs out, while it runs; `null` otherwise.
    #[schema(required = true)]
    pub deadline: Option<DateTime<Utc>>,
}

/// A seat the game waits for and the moment its clock runs out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatDeadline {
    pub seat: u8,
    pub deadline: DateTime<Utc>,
}

/// Why a seat is ranked below every seat that played to the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LeftReason {
    /// It resigned (by request, or when its clock ran out with `on_timeout: resign`).
    Resigned,
    /// Its clock ran out and its player had not reclaimed it when the game ended.
    TimedOut,
}

/// A seat that left the game before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LeftSeat {
    pub seat: u8,
    pub reason: LeftReason,
    /// The seq of the event at which it left.
    pub seq: i64,
}

/// What ended the game: its `rules`, or a `resignation` that left fewer than two seats in it
/// (the remaining seat wins; no scores).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndedBy {
    Rules,
    Resignation,
}
