//! The api's action path in miniature (`api/src/service/act.rs`), driving the store's plain
//! steps the way the api does, so that these tests check what the steps guarantee together:
//! the version guard, the retry on an overtaken write, replays under a key, locks. Here the
//! decision and the answer are closures (tests vary them); the api's are functions.

use db::store::{self, AppendError, Applied, Decision, IdempotencyKey, LockWait, Replay};
use db::{GameRow, StoreError, StoredResponse};
use diesel::{Connection, PgConnection};
use uuid::Uuid;

/// As the api's: the optimistic write is tried this often before the row is locked.
pub const OPTIMISTIC_ATTEMPTS: usize = 3;

/// Which game to act on and the request's guards (the api's `ApplyRequest`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyRequest {
    pub game_id: Uuid,
    pub expected_version: Option<i64>,
    pub idempotency: Option<IdempotencyKey>,
    pub lock_wait: LockWait,
}

/// What [`apply_action`] did.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum ApplyOutcome {
    Applied {
        applied: Applied,
        response: StoredResponse,
    },
    Replayed {
        response: StoredResponse,
        version: Option<i64>,
    },
}

/// Reads (or locks), checks, decides, appends, answers and remembers the answer, as the api's
/// `apply` does; `decide`'s refusal is `Rejected`.
pub fn apply_action<T, E>(
    conn: &mut PgConnection,
    req: &ApplyRequest,
    mut decide: impl FnMut(&GameRow) -> Result<(Decision, T), E>,
    respond: impl FnOnce(&Applied, T) -> StoredResponse,
) -> Result<ApplyOutcome, StoreError<E>> {
    if req.idempotency.is_none() {
        for _ in 0..OPTIMISTIC_ATTEMPTS {
            let game = store::get_game(conn, req.game_id).map_err(StoreError::widen)?;
            store::check_actionable(&game, req.expected_version).map_err(StoreError::widen)?;
            let (decision, decided) = decide(&game).map_err(StoreError::Rejected)?;
            match store::append_at_version(conn, &game, decision, req.lock_wait) {
                Ok(applied) => {
                    let response = respond(&applied, decided);
                    return Ok(ApplyOutcome::Applied { applied, response });
                }
                Err(AppendError::VersionMoved) => continue,
                Err(AppendError::Store(e)) => return Err(e.widen()),
            }
        }
    }
    if req.lock_wait == LockWait::Refused {
        return Err(StoreError::Busy);
    }
    conn.transaction(|conn| {
        let game = store::read_locked(conn, req.game_id).map_err(StoreError::widen)?;
        if let Some(key) = &req.idempotency {
            if let Some(Replay { response, version }) =
                store::stored_response(conn, req.game_id, key).map_err(StoreError::widen)?
            {
                return Ok(ApplyOutcome::Replayed { response, version });
            }
        }
        store::check_actionable(&game, req.expected_version).map_err(StoreError::widen)?;
        let (decision, decided) = decide(&game).map_err(StoreError::Rejected)?;
        let applied = store::append_locked(conn, &game, decision).map_err(StoreError::widen)?;
        let response = respond(&applied, decided);
        if let Some(key) = &req.idempotency {
            store::remember_response(conn, req.game_id, key, &response, applied.game.version)
                .map_err(StoreError::widen)?;
        }
        Ok(ApplyOutcome::Applied { applied, response })
    })
}
