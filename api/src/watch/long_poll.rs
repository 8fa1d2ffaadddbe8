//! Reads that wait for a version: the long poll of `GET /v1/games/{id}?wait=` and
//! `legal-actions?after_version=`.
//!
//! A read that names the client's version is answered from the game's shared copy
//! ([`super::GameWatch`]) when something follows the game and the copy holds that version (a
//! stream's seat reading its document after its `version` message costs no read); otherwise
//! it is the caller's own read. While waiting a long poll holds no database connection; each
//! wake-up reads the shared copy, so that every long poll of a game in the process wakes on
//! one read. Legal actions that name a version come from the same copy.

use std::sync::Arc;

use tokio::time::Instant;
use uuid::Uuid;

use super::head::Document;
use crate::dto::GameStatus;
use crate::dto::LegalActions;
use crate::error::ApiError;
use crate::extract::Bearer;
use crate::hub::wait_for_change;
use crate::metrics::Metrics;
use crate::service::caller::engine_seat;
use crate::service::play;
use crate::state::{AppState, Context};
use crate::workers::OUTAGE_RETRY;

/// What the client asked to wait for.
pub struct Wait {
    /// The version the client has (`after_version`, or the one in `If-None-Match`).
    pub known: Option<i64>,
    /// How long it may wait; zero: answer at once.
    pub wait: std::time::Duration,
}

/// The caller's document of game `id`: at once when the client named no version, or when the
/// game is past it; else as soon as a newer version (or, for an open game, another status)
/// exists, or the current document once the wait is over.
///
/// # Errors
/// The first read's (404, 401/403, 503, ...). A database outage while waiting (a failover)
/// is ridden out; at the deadline the document read before it is the answer.
pub async fn document(
    state: &AppState,
    watches: &super::Watches,
    metrics: &Metrics,
    id: Uuid,
    bearer: &Bearer,
    wait: Wait,
) -> Result<Arc<Document>, ApiError> {
    let deadline = Instant::now() + wait.wait;
    let waiting = match wait.known {
        Some(known) if !wait.wait.is_zero() => {
            Some((known, state.hub.subscribe(id), watches.watch(id)))
        }
        _ => None,
    };
    // A client that names its version may be answered from a followed game's copy.
    let shared = wait
        .known
        .and_then(|known| watches.current(id, known))
        .and_then(|head| {
            let seat = head.caller(&state.context, bearer.token())?;
            Some(head.document(seat))
        })
        .transpose()?;
    let first = match shared {
        Some(doc) => doc,
        None => {
            let b = bearer.clone();
            let read = state
                .read(wait.known, move |conn, cx| {
                    play::load_document(conn, cx, id, b.token())
                })
                .await?;
            Arc::new(read)
        }
    };
    let Some((known, mut rx, watch)) = waiting else {
        return Ok(first);
    };
    let first_status = first.0.status;
    let seat = first.0.seat.map(engine_seat).transpose()?;
    let mut answer = first;
    loop {
        let doc = &answer.0;
        // An open game that ends (aborted, expired) keeps version 0: its status is the news.
        if doc.version > known || doc.status != first_status || Instant::now() >= deadline {
            return Ok(answer);
        }
        let known = if doc.status == GameStatus::Open {
            known - 1
        } else {
            known
        };
        // No database connection is held while waiting.
        metrics.long_polls.inc();
        let woke = wait_for_change(&mut rx, known, deadline).await;
        metrics.long_polls.dec();
        // At the deadline, one more read: the current document, even if a wake-up was missed.
        let at_least = woke.unwrap_or(known);
        loop {
            match reread(state, &watch, id, bearer, seat, first_status, at_least).await {
                Ok(doc) => {
                    answer = doc;
                    break;
                }
                // A database outage shorter than the wait (a failover) is ridden out.
                Err(e) if e.is_unavailable() => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(answer);
                    }
                    metrics.long_polls.inc();
                    tokio::time::sleep(OUTAGE_RETRY.min(left)).await;
                    metrics.long_polls.dec();
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// The document after a wake-up: built from the game's shared copy, unless the game is open
/// (its news is its status, which only the primary can be trusted to have) or the caller is
/// recognised only by the database (a player's token, which may have been rotated).
async fn reread(
    state: &AppState,
    watch: &super::GameWatch,
    id: Uuid,
    bearer: &Bearer,
    seat: Option<engine::Seat>,
    first_status: GameStatus,
    at_least: i64,
) -> Result<Arc<Document>, ApiError> {
    let from_memory =
        first_status != GameStatus::Open && bearer.token().is_none_or(|t| !t.is_player());
    if from_memory {
        let head = watch.head(state, at_least).await?;
        if !head.is_open() {
            return head.document(seat);
        }
    }
    let b = bearer.clone();
    let load =
        move |conn: &mut db::PooledConn, cx: &Context| play::load_document(conn, cx, id, b.token());
    let doc = if first_status == GameStatus::Open {
        state.db_here(move |conn, cx, _| load(conn, cx)).await?
    } else {
        state.read(Some(at_least), load).await?
    };
    Ok(Arc::new(doc))
}

/// What the caller may do in game `id` at least at `version`, from the game's shared copy:
/// `None` when no copy holds that version current (nobody follows the game, or the copy has
/// not heard of it yet) or the caller is one the database must recognise, and the caller
/// reads the database instead.
///
/// # Errors
/// 500 when the stored snapshot or lifecycle does not read.
pub fn legal_actions(
    state: &AppState,
    watches: &super::Watches,
    id: Uuid,
    bearer: &Bearer,
    version: i64,
) -> Result<Option<Arc<LegalActions>>, ApiError> {
    let Some(head) = watches.current(id, version) else {
        return Ok(None);
    };
    match head.caller(&state.context, bearer.token()) {
        Some(seat) => head.legal_actions(seat).map(Some),
        None => Ok(None),
    }
}
