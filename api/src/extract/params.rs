//! Path segments and query numbers, parsed once: a game id, a seq, and numbers within their
//! documented bounds.

use std::future::{ready, Ready};
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use uuid::Uuid;

use crate::error::ApiError;

/// A number from a query string within documented bounds: out of range is a 400
/// (`invalid_query`) naming the parameter and its range, never a silent clamp.
macro_rules! bounded {
    ($(#[$doc:meta])* $name:ident, $param:literal, $min:expr, $max:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
        #[serde(try_from = "i64")]
        pub struct $name(i64);

        impl $name {
            /// The smallest accepted value.
            pub const MIN: i64 = $min;
            /// The largest accepted value.
            pub const MAX: i64 = $max;

            /// The value.
            pub fn get(self) -> i64 {
                self.0
            }
        }

        impl TryFrom<i64> for $name {
            type Error = String;

            fn try_from(value: i64) -> Result<Self, String> {
                if (Self::MIN..=Self::MAX).contains(&value) {
                    Ok($name(value))
                } else {
                    Err(format!(
                        "{} must be between {} and {}, not {value}",
                        $param,
                        Self::MIN,
                        Self::MAX
                    ))
                }
            }
        }
    };
}

bounded!(
    /// `?wait=N` of a long poll: 0 to 30 seconds.
    WaitSeconds,
    "wait",
    0,
    30
);
bounded!(
    /// `?after_version=N`: a version the client has, 0 or more.
    AfterVersion,
    "after_version",
    0,
    i64::MAX
);
bounded!(
    /// `?after=N` of the event log: a seq, 0 or more.
    EventsAfter,
    "after",
    0,
    i64::MAX
);
bounded!(
    /// `?limit=N` of the event log: 1 to 1000.
    EventsLimit,
    "limit",
    1,
    1000
);
bounded!(
    /// `?limit=N` of the game list: 1 to 100.
    GamesLimit,
    "limit",
    1,
    100
);

bounded!(
    /// `?limit=N` of a player's records: 1 to 50 games a page.
    RecordsLimit,
    "limit",
    1,
    50
);

impl WaitSeconds {
    /// The wait.
    pub fn duration(self) -> Duration {
        Duration::from_secs(self.0.unsigned_abs())
    }
}

/// The `{id}` path segment: a game id (400 `invalid_id` when it is not a UUID: a malformed
/// id is a client error, not a missing resource).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameId(pub Uuid);

impl FromRequest for GameId {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let segment = req.match_info().get("id").unwrap_or_default();
        ready(Uuid::try_parse(segment).map(GameId).map_err(|_| {
            ApiError::bad_request(
                "invalid_id",
                "the game id in the path is not a UUID (ids come from POST /v1/games)",
            )
        }))
    }
}

/// The `{seq}` path segment: an event's position in the log (400 `invalid_seq` when it is
/// not a number; a number outside the log is the handler's 404).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seq(pub i64);

impl FromRequest for Seq {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let segment = req.match_info().get("seq").unwrap_or_default();
        ready(segment.parse().map(Seq).map_err(|_| {
            ApiError::bad_request("invalid_seq", "seq in the path is not a whole number")
        }))
    }
}

/// The `{seat}` path segment: a seat number (400 `invalid_seat_number` when it is not one; a
/// seat that is not the caller's is the handler's 403).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatNumber(pub i32);

impl FromRequest for SeatNumber {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let segment = req.match_info().get("seat").unwrap_or_default();
        ready(
            segment
                .parse::<u8>()
                .map(|s| SeatNumber(i32::from(s)))
                .map_err(|_| {
                    ApiError::bad_request(
                        "invalid_seat_number",
                        "the seat in the path is a seat number (0, 1, ...)",
                    )
                }),
        )
    }
}
