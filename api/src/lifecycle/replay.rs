//! Rebuilding a game from its log as of any seq: the game's state and the seats' lifecycle
//! together, commit by commit (a commit is the run of events sharing one timestamp), exactly
//! as the action path built them one commit at a time.

use chrono::{DateTime, Utc};
use db::EventRow;
use engine::{DynGame, DynState, Seat};

use super::events::{is_lifecycle, LifecycleEvent};
use super::fold::Lifecycle;
use crate::dto::Clock;
use crate::error::ApiError;

/// The status of a game whose state is `state` and whose seats' lifecycle is `life`.
pub fn status_of(state: &dyn DynState, life: &Lifecycle) -> db::GameStatus {
    if life.aborted_by.is_some() {
        db::GameStatus::Aborted
    } else if state.outcome().is_some() || life.ended_by_resignation() {
        db::GameStatus::Finished
    } else {
        db::GameStatus::Active
    }
}

/// The seats a game in `state` with `status` waits for: none unless it is active.
pub fn awaited(state: &dyn DynState, status: db::GameStatus) -> Vec<Seat> {
    if status == db::GameStatus::Active {
        state.active_seats()
    } else {
        Vec::new()
    }
}

/// A game rebuilt from its log.
pub struct Replayed {
    pub state: Box<dyn DynState>,
    /// Settled with the time of the last commit folded.
    pub life: Lifecycle,
    /// The time of the last commit folded (`None` for an empty log).
    pub latest_commit: Option<DateTime<Utc>>,
}

/// Folds `rows` (a game's log from seq 1, in order) of a game of `kind` with `clock` whose
/// seats `native_bots` are the server's bots from creation. A last commit cut short by the
/// end of `rows` counts as a commit of its own.
///
/// # Errors
/// 500 when a stored event is unreadable.
pub fn replay(
    kind: &dyn DynGame,
    rows: &[EventRow],
    clock: &Clock,
    native_bots: &[bool],
) -> Result<Replayed, ApiError> {
    let mut state = kind.empty();
    let mut life = Lifecycle::new(clock, native_bots);
    let mut latest_commit: Option<DateTime<Utc>> = None;
    for commit in rows.chunk_by(|a, b| a.created_at == b.created_at) {
        if let Some(previous) = latest_commit {
            life.settle(previous, clock);
        }
        for row in commit {
            if is_lifecycle(&row.event) {
                let event: LifecycleEvent = serde_json::from_value(row.event.clone())
                    .map_err(|e| ApiError::internal(format!("lifecycle event {}: {e}", row.seq)))?;
                life.apply(&event, row.seq, clock);
            } else {
                state.evolve(&row.event)?;
            }
        }
        let status = status_of(state.as_ref(), &life);
        life.close_commit(
            &awaited(state.as_ref(), status),
            status != db::GameStatus::Active,
            clock,
        );
        latest_commit = Some(commit[0].created_at);
    }
    if let Some(latest) = latest_commit {
        life.settle(latest, clock);
    }
    Ok(Replayed {
        state,
        life,
        latest_commit,
    })
}
