//! The store's one error type, split by who is at fault so the api can map each variant to a
//! status in one place: `NotFound` 404, `VersionConflict`/`IdempotencyInFlight` 409,
//! `IdempotencyMismatch` 422, `Rejected` whatever the caller's error means (a rule violation:
//! 422), `WrongStatus`/`SeatUnavailable`/`NoSuchSeat` 409 or 422, `Unavailable` 503,
//! `Database` a logged opaque 500.

use std::convert::Infallible;

use crate::models::GameStatus;

/// What went wrong in a store call. `E` is the error of a caller-supplied decision closure
/// (`Infallible` for calls that take none).
#[derive(Debug, thiserror::Error)]
pub enum StoreError<E = Infallible> {
    /// No game with that id.
    #[error("game not found")]
    NotFound,
    /// The caller's expected version is stale; nothing was written.
    #[error("version conflict: the game is at version {current}")]
    VersionConflict {
        /// The game's version now.
        current: i64,
    },
    /// The idempotency key was used before for a different request.
    #[error("idempotency key already used for a different request")]
    IdempotencyMismatch,
    /// A request with this idempotency key has not finished yet.
    #[error("a request with this idempotency key is still in flight")]
    IdempotencyInFlight,
    /// The game is not in the status this operation needs.
    #[error("the game is {current}, this needs it to be {required}")]
    WrongStatus {
        /// The game's status.
        current: GameStatus,
        /// The status the operation needs.
        required: GameStatus,
    },
    /// The requested seat is taken (`seat: Some`) or no seat is open (`seat: None`).
    #[error("{}", match seat { Some(s) => format!("seat {s} is already taken"), None => "no open seat left".to_string() })]
    SeatUnavailable {
        /// The seat asked for, if any.
        seat: Option<i32>,
    },
    /// The seat number does not exist in this game.
    #[error("the game has no seat {seat}")]
    NoSuchSeat {
        /// The seat asked for.
        seat: i32,
    },
    /// The player already holds a seat of this game.
    #[error("the player already holds a seat of this game")]
    AlreadySeated,
    /// The caller's decision closure refused; nothing was written.
    #[error("{0}")]
    Rejected(E),
    /// The request may not wait ([`crate::store::LockWait::Refused`]) and would have had to
    /// wait for another transaction's lock on the game; nothing was written. The caller
    /// retries on a thread that may wait; never an answer to a client.
    #[error("the game's row is locked by another transaction")]
    Busy,
    /// No connection to the database (pool exhausted or timed out, connection lost): retry
    /// later, 503.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// Any other database error: a bug or a broken invariant, logged and reported as 500.
    #[error("database error: {0}")]
    Database(diesel::result::Error),
}

impl<E> StoreError<E> {
    /// Whether retrying later may succeed because the database was unreachable (503).
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Unavailable(_))
    }
}

impl StoreError<Infallible> {
    /// Turns an error of a closure-less call into one with any closure error type, so both
    /// kinds of call can share `?` in one function.
    pub fn widen<E>(self) -> StoreError<E> {
        match self {
            StoreError::NotFound => StoreError::NotFound,
            StoreError::VersionConflict { current } => StoreError::VersionConflict { current },
            StoreError::IdempotencyMismatch => StoreError::IdempotencyMismatch,
            StoreError::IdempotencyInFlight => StoreError::IdempotencyInFlight,
            StoreError::WrongStatus { current, required } => {
                StoreError::WrongStatus { current, required }
            }
            StoreError::SeatUnavailable { seat } => StoreError::SeatUnavailable { seat },
            StoreError::NoSuchSeat { seat } => StoreError::NoSuchSeat { seat },
            StoreError::AlreadySeated => StoreError::AlreadySeated,
            StoreError::Rejected(never) => match never {},
            StoreError::Busy => StoreError::Busy,
            StoreError::Unavailable(msg) => StoreError::Unavailable(msg),
            StoreError::Database(e) => StoreError::Database(e),
        }
    }
}

impl<E> From<diesel::result::Error> for StoreError<E> {
    fn from(e: diesel::result::Error) -> Self {
        match e {
            diesel::result::Error::NotFound => StoreError::NotFound,
            e if server_gone(&e) => StoreError::Unavailable(e.to_string()),
            other => StoreError::Database(other),
        }
    }
}

/// Whether `e` means the connection or the server went away (a 503 to retry), including a
/// commit that failed because of it.
fn server_gone(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    match e {
        Error::DatabaseError(
            DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
            _,
        )
        | Error::BrokenTransactionManager => true,
        Error::DatabaseError(_, info) => lost_server(info.message()),
        Error::RollbackErrorOnCommit {
            rollback_error,
            commit_error,
        } => server_gone(commit_error) || server_gone(rollback_error),
        _ => false,
    }
}

/// Whether a database error means the server went away or cannot serve this connection now
/// rather than a fault in the statement: shutdown, crash, restart (SQLSTATE class 57 and
/// libpq's connection-loss messages), a server that is no longer the primary (a demoted one
/// refuses writes as a read-only transaction, 25006), and a standby cancelling a read that
/// conflicts with the WAL it replays (40001 "conflict with recovery"). diesel exposes no
/// SQLSTATE, so the messages are matched; such errors are 503s, never 500s, and the
/// connection is not reused.
fn lost_server(message: &str) -> bool {
    const LOST: [&str; 13] = [
        "terminating connection",
        "the database system is shutting down",
        "the database system is starting up",
        "the database system is in recovery mode",
        "the database system is not yet accepting connections",
        "server closed the connection unexpectedly",
        "no connection to the server",
        "could not receive data from server",
        "could not send data to server",
        "SSL connection has been closed unexpectedly",
        "SSL SYSCALL error",
        "in a read-only transaction",
        "conflict with recovery",
    ];
    LOST.iter().any(|lost| message.contains(lost))
}

impl<E> From<r2d2::Error> for StoreError<E> {
    fn from(e: r2d2::Error) -> Self {
        StoreError::Unavailable(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::lost_server;

    #[test]
    fn a_server_going_away_is_told_apart_from_a_faulty_statement() {
        for gone in [
            "terminating connection due to administrator command",
            "terminating connection due to immediate shutdown command",
            "FATAL:  the database system is shutting down",
            "server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally",
            "no connection to the server",
            // A demoted primary (the connection outlived a failover).
            "cannot execute UPDATE in a read-only transaction",
            "canceling statement due to conflict with recovery",
        ] {
            assert!(lost_server(gone), "{gone}");
        }
        for fault in [
            "syntax error at or near \"SELEC\"",
            "duplicate key value violates unique constraint",
        ] {
            assert!(!lost_server(fault), "{fault}");
        }
    }
}
