//! Acting in a game: the action path of people ([`act`]) and of the server's bots
//! ([`act_as`]), top to bottom in `apply`.
//!
//! 1. Read the game: without a lock for a request without an `Idempotency-Key`, locked in a
//!    transaction for one with a key (or after [`OPTIMISTIC_ATTEMPTS`] overtaken writes).
//! 2. A keyed request whose key was used before gets the stored answer again
//!    ([`store::stored_response`]), checked before the version, so a retry of a request that
//!    moved the version replays instead of conflicting.
//! 3. Check that the game is active and at the expected version
//!    ([`store::check_actionable`]).
//! 4. Decide (`decide`): the engine's verdict and the seats' lifecycle ([`Table`]) become one
//!    plain [`Decision`].
//! 5. Hand it to the store, which writes it and returns what it wrote ([`store::Applied`]).
//!    Unlocked, the write refuses when another action came first
//!    ([`store::AppendError::VersionMoved`]): back to 1, deciding again on the newer game.
//! 6. Build the answer from what was written (`respond`); under a key, store it with the new
//!    version in the same transaction ([`store::remember_response`]), so the first answer and
//!    every replay are byte for byte the same.
//!
//! The store calls nothing back: the api decides and the store only reads and writes.

use db::store::{self, AppendError, Decision, LockWait, Roster};
use db::{GameRow, JsonText, PooledConn, StoredResponse};
use engine::{DynGame, DynState, Seat};
use uuid::Uuid;

use super::caller::{self, require_seat, stored_kind, wire_seat};
use super::chance;
use super::decision::{Closed, GameRead, Table};
use super::document;
use crate::dto::{ActionRequest, ActionResponse, Clock, DryRunResponse};
use crate::error::{ApiError, Refusal};
use crate::extract::{missing_token, IdempotencyKey, Precondition, SeatToken};
use crate::lifecycle::Lifecycle;
use crate::state::Context;

/// How often the action path reads and decides again when another action on the same game committed
/// between its read and its write, before it falls back to locking the row first.
pub const OPTIMISTIC_ATTEMPTS: usize = 3;

/// Which game to act on and the request's optimistic and idempotency guards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyRequest {
    /// The game.
    pub game_id: Uuid,
    /// Refuse with `version_conflict` unless the game is at this version.
    pub expected_version: Option<i64>,
    /// Replay the stored response when this key was already used for the same request.
    pub idempotency: Option<store::IdempotencyKey>,
    /// Whether the request may wait for another transaction's lock on the game's row: with
    /// [`LockWait::Refused`] the read takes no lock and the write only a free one, `busy`
    /// (nothing written) where the path would wait, including any request with a key.
    pub lock_wait: LockWait,
}

/// What the action endpoint answers: the response (stored under a key, or new), whether it is
/// a replay, and the version it reports (for its `ETag`).
pub struct ActionResult {
    pub response: StoredResponse,
    pub replayed: bool,
    pub seat: Seat,
    /// `None` only for a replay stored before versions were kept beside responses.
    pub version: Option<i64>,
}

/// Who acts for a seat: its player (with the seat's token), or the server's bot (seated at
/// creation, or standing in for an absent player).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    Player,
    Bot,
}

/// Whether `actor` may act for `seat` at `table`: a player not while the server's bot plays
/// the seat (after a timeout: reclaim it first; after a resignation: never again), the
/// server's bot only while it does.
///
/// # Errors
/// 409 `seat_taken_over`, `seat_resigned`, or `seat_not_taken_over` (a bot move for a seat
/// its player took back).
pub fn check_actor(table: &Table, seat: Seat, actor: Actor) -> Result<(), ApiError> {
    use crate::dto::SeatStatus;
    match (actor, table.life().status(seat), table.bot_plays(seat)) {
        (Actor::Player, SeatStatus::Resigned, _) => Err(ApiError::conflict(
            "seat_resigned",
            format!("seat {} has resigned; it takes no more actions", seat.0),
        )),
        (Actor::Player, _, true) => Err(ApiError::conflict(
            "seat_taken_over",
            format!(
                "the server's bot plays seat {} since its clock ran out; reclaim the seat \
                 (POST /v1/games/{{id}}/seats/{}/reclaim) to play it again",
                seat.0, seat.0
            ),
        )),
        (Actor::Bot, _, false) => Err(ApiError::conflict(
            "seat_not_taken_over",
            format!("no bot plays seat {}", seat.0),
        )),
        _ => Ok(()),
    }
}

/// One action to apply: who asks, for which seat, what.
struct Move<'a> {
    cx: &'a Context,
    roster: &'a Roster,
    seat: Seat,
    actor: Actor,
    body: &'a ActionRequest,
}

/// A decided action: what the store writes, and what the answer is built from.
struct Decided {
    decision: Decision,
    after: After,
}

/// The game after a decided action, for its answer: the engine, the state, and the clock and
/// seats' lifecycle the commit leaves (so the answer needs no parse of what was stored).
struct After {
    kind: &'static dyn DynGame,
    state: Box<dyn DynState>,
    closed: Closed,
}

/// What [`apply`] did: applied now (with the answer it built), or replayed an answer stored
/// under the request's key.
// One value per request, moved once: boxing `Applied` would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum Outcome {
    Applied {
        applied: store::Applied,
        response: StoredResponse,
    },
    Replayed(store::Replay),
}

/// `POST /v1/games/{id}/actions`: one transaction, as the module documentation says.
///
/// # Errors
/// 404, 401/403, 409 `version_conflict`/`game_over`/`game_not_started`, 422 rule violations,
/// `invalid_action` and `idempotency_key_reused`.
#[allow(clippy::too_many_arguments)] // one per part of the request, and where it runs
pub fn act(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: &SeatToken,
    body: &ActionRequest,
    precondition: Precondition,
    key: Option<IdempotencyKey>,
    lock_wait: LockWait,
) -> Result<ActionResult, ApiError> {
    // The roster is usually in memory; the game row (snapshot included) is read by `apply`.
    let (roster, seat) = require_seat(conn, cx, id, token)?;
    let req = ApplyRequest {
        game_id: id,
        expected_version: precondition.version,
        idempotency: key.map(|k| store::IdempotencyKey {
            seat: wire_seat(seat),
            key: k.into_string(),
            fingerprint: fingerprint(id, body, precondition),
        }),
        lock_wait,
    };
    act_as(conn, cx, &req, &roster, seat, Actor::Player, body, None)
}

/// Applies `body` for `seat` of the game `req` names, under its guards: the action path of
/// people ([`act`]) and of the server's bots alike (`actor`). `read`: the game as the caller
/// read it already (the bot runner, before its bot thought), decided on first in place of a
/// read of its own; a game that moved since is read again, as after any overtaken write.
///
/// # Errors
/// As [`act`], after the caller is known; 409 as [`check_actor`].
#[allow(clippy::too_many_arguments)] // one per part of the request, and what was read
pub fn act_as(
    conn: &mut PooledConn,
    cx: &Context,
    req: &ApplyRequest,
    roster: &Roster,
    seat: Seat,
    actor: Actor,
    body: &ActionRequest,
    read: Option<GameRead>,
) -> Result<ActionResult, ApiError> {
    let action = Move {
        cx,
        roster,
        seat,
        actor,
        body,
    };
    Ok(match apply(conn, req, &action, read)? {
        Outcome::Applied { applied, response } => {
            cx.changes.committed(&applied);
            tracing::info!(game_id = %req.game_id, seat = seat.0, version = applied.game.version, "action applied");
            ActionResult {
                response,
                replayed: false,
                seat,
                version: Some(applied.game.version),
            }
        }
        Outcome::Replayed(store::Replay { response, version }) => ActionResult {
            response,
            replayed: true,
            seat,
            version,
        },
    })
}

/// The action path, steps 1 to 6 of the module documentation. [`decide`] may run more than
/// once (each time on a newer version of the game); only the last decision is written and
/// answered.
fn apply(
    conn: &mut PooledConn,
    req: &ApplyRequest,
    action: &Move<'_>,
    mut read: Option<GameRead>,
) -> Result<Outcome, ApiError> {
    if req.idempotency.is_none() {
        for _ in 0..OPTIMISTIC_ATTEMPTS {
            let (game, parsed) = match read.take() {
                Some(GameRead { game, clock, life }) => (game, Some((clock, life))),
                None => (store::get_game(conn, req.game_id)?, None),
            };
            store::check_actionable(&game, req.expected_version)?;
            let Decided { decision, after } = decide(action, &game, parsed)?;
            match store::append_at_version(conn, &game, decision, req.lock_wait) {
                Ok(applied) => {
                    let response = respond(action, &applied, after);
                    return Ok(Outcome::Applied { applied, response });
                }
                Err(AppendError::VersionMoved) => continue,
                Err(AppendError::Store(e)) => return Err(e.into()),
            }
        }
    }
    if req.lock_wait == LockWait::Refused {
        return Err(ApiError::busy());
    }
    store::atomically(conn, |conn| {
        let game = store::read_locked(conn, req.game_id)?;
        if let Some(key) = &req.idempotency {
            if let Some(replay) = store::stored_response(conn, req.game_id, key)? {
                return Ok(Outcome::Replayed(replay));
            }
        }
        store::check_actionable(&game, req.expected_version)?;
        let Decided { decision, after } = decide(action, &game, None)?;
        let applied = store::append_locked(conn, &game, decision)?;
        let response = respond(action, &applied, after);
        if let Some(key) = &req.idempotency {
            store::remember_response(conn, req.game_id, key, &response, applied.game.version)?;
        }
        Ok(Outcome::Applied { applied, response })
    })
}

/// Step 4: the engine decides the action on `game` and the seats' lifecycle closes the
/// commit, into one [`Decision`]. `parsed`: the game's clock and lifecycle when the caller
/// parsed them already ([`GameRead`]); otherwise they are parsed here.
///
/// # Errors
/// `invalid_action` (400), a rule (422), 409 as [`check_actor`], 500 for a game that does not
/// load.
fn decide(
    action: &Move<'_>,
    game: &GameRow,
    parsed: Option<(Clock, Lifecycle)>,
) -> Result<Decided, Refusal> {
    let Move {
        cx,
        roster,
        seat,
        actor,
        body,
    } = *action;
    check_shape(cx, &game.game_type, body)?;
    let kind = stored_kind(&game.game_type)?;
    let delay_ms = cx.bots.move_delay_ms;
    let mut table = match parsed {
        Some((clock, life)) => Table::of_parsed(game, roster.seats(), delay_ms, clock, life),
        None => Table::of_game(game, roster.seats(), delay_ms)?,
    };
    check_actor(&table, seat, actor)?;
    let snapshot = game
        .snapshot
        .as_ref()
        .ok_or_else(|| ApiError::internal("active game without a snapshot"))?;
    let mut state = kind.load(snapshot.as_str())?;
    let events = state.apply(
        seat,
        &body.action,
        chance::at(game, roster.seats(), game.version).as_dyn(),
    )?;
    table.action(seat, &body.action, events);
    let (decision, closed) = table.close_keeping(state.as_ref());
    Ok(Decided {
        decision,
        after: After {
            kind,
            state,
            closed,
        },
    })
}

/// Step 6: the answer to the action, from what the store wrote and the game after it. The
/// document is built from the commit's own lifecycle rather than the stored one parsed back,
/// so building it cannot fail (before, an unreadable lifecycle here was a logged 500 that said
/// the action was applied, `applied_unanswered`: now only a lifecycle that does not read
/// *before* the action refuses it, with nothing written).
fn respond(action: &Move<'_>, applied: &store::Applied, after: After) -> StoredResponse {
    let After {
        kind,
        state,
        closed,
    } = after;
    let (clock, life) = closed.settled(applied.game.updated_at);
    let doc = document::build_with(
        &applied.game,
        action.roster.seats(),
        Some(state.as_ref()),
        Some(action.seat),
        clock,
        &life,
    );
    let finished = applied.game.status == db::GameStatus::Finished;
    let events = applied
        .events
        .iter()
        .filter_map(|e| document::redact_row(kind, e, Some(action.seat), finished))
        .collect();
    let body = ActionResponse {
        type_: applied.game.game_type.clone(),
        game: doc,
        events,
    };
    StoredResponse {
        status: 200,
        // Serialized once, here: stored as this text under an idempotency key and sent as it
        // is.
        body: JsonText::new(serde_json::to_string(&body).expect("documents serialize to JSON")),
    }
}

/// The fingerprint an `Idempotency-Key` is stored with: what the request asks (route, game,
/// body, precondition), so the same key with another request is refused.
fn fingerprint(id: Uuid, body: &ActionRequest, precondition: Precondition) -> Vec<u8> {
    let canonical = serde_json::to_vec(body).unwrap_or_default();
    let expected = precondition
        .version
        .map(|v| v.to_string())
        .unwrap_or_default();
    db::token::fingerprint(&[
        b"POST /v1/games/{id}/actions",
        id.as_bytes(),
        &canonical,
        expected.as_bytes(),
    ])
}

/// The action must be an action of the game's shape (no unknown field, objects where the
/// game's schema has them): anything else is a 400 `invalid_action`, like JSON the engine
/// cannot read as an action.
fn check_shape(cx: &Context, game_type: &str, body: &ActionRequest) -> Result<(), ApiError> {
    cx.schemas
        .check_action(game_type, &body.action)
        .map_err(|e| ApiError::bad_request("invalid_action", e.to_string()))
}

/// `?dry_run=true`: the same checks as [`act`] ([`store::check_actionable`], then the engine's check),
/// nothing written, no events shown.
///
/// # Errors
/// As [`act`].
pub fn dry_run(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: &SeatToken,
    body: &ActionRequest,
    precondition: Precondition,
) -> Result<DryRunResponse, ApiError> {
    let loaded = caller::load(conn, cx, id, Some(token))?;
    let seat = loaded.seat.ok_or_else(missing_token)?;
    store::check_actionable(&loaded.game, precondition.version)?;
    check_shape(cx, &loaded.game.game_type, body)?;
    let table = Table::of_game(&loaded.game, loaded.roster.seats(), cx.bots.move_delay_ms)?;
    check_actor(&table, seat, Actor::Player)?;
    let state = loaded.started_state()?;
    state.check(
        seat,
        &body.action,
        chance::at(&loaded.game, loaded.roster.seats(), loaded.game.version).as_dyn(),
    )?;
    Ok(DryRunResponse {
        dry_run: true,
        accepted: true,
        version: loaded.game.version,
    })
}
