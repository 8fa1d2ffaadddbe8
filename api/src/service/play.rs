//! Reading a game and acting in it: the play endpoint family.
//!
//! The action path, straight: the store reads the game, hands it to `decide` (the engine
//! decides and evolves), appends what it decided, and hands that same decision's state to
//! `respond`, which builds the answer that is sent and, under an idempotency key, stored with
//! the new version.

use db::store::{self, ApplyOutcome, ApplyRequest, LockWait, Roster};
use db::{GameRow, JsonText, PooledConn, StoredResponse};
use engine::{DynGame, DynState, Seat};
use uuid::Uuid;

use super::caller::{self, require_seat, stored_kind, wire_seat};
use super::chance;
use super::decision::{lifecycle_of, Table};
use super::document;
use crate::dto::{ActionRequest, ActionResponse, DryRunResponse, GameDocument, LegalActions};
use crate::error::{ApiError, Refusal};
use crate::extract::{missing_token, IdempotencyKey, Precondition, SeatToken};
use crate::state::Context;

/// `GET /v1/games/{id}`: the document and its entity tag.
///
/// # Errors
/// 404, 401/403, store errors.
pub fn load_document(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
) -> Result<(GameDocument, String), ApiError> {
    let loaded = caller::load(conn, cx, id, token)?;
    let state = loaded.state()?;
    document_of(&loaded.game, &loaded.roster, state.as_deref(), loaded.seat)
}

/// `seat`'s document of `game` and its entity tag, from `state` (the snapshot, loaded) when
/// started.
///
/// # Errors
/// 500 when the game's stored lifecycle is unreadable.
pub fn document_of(
    game: &GameRow,
    roster: &Roster,
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
) -> Result<(GameDocument, String), ApiError> {
    let seats = roster.seats();
    let doc = document::build(game, seats, state, seat)?;
    Ok((doc, document::etag(game, seats, seat)))
}

/// `GET /v1/games/{id}/legal-actions`. Spectators get an empty list.
///
/// # Errors
/// 404, 401/403, store errors.
pub fn legal_actions(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
) -> Result<LegalActions, ApiError> {
    let loaded = caller::load(conn, cx, id, token)?;
    let state = loaded.state()?;
    legal_actions_of(&loaded.game, &loaded.roster, state.as_deref(), loaded.seat)
}

/// What `seat` may do in `game` (with `state`, the snapshot loaded).
///
/// # Errors
/// 500 when the game's stored lifecycle is unreadable.
pub fn legal_actions_of(
    game: &GameRow,
    roster: &Roster,
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
) -> Result<LegalActions, ApiError> {
    let (_, life) = lifecycle_of(game, roster.seats())?;
    Ok(LegalActions {
        game_id: game.id,
        type_: game.game_type.clone(),
        version: game.version,
        seat: seat.map(wire_seat),
        actions: document::seat_actions(game, &life, state, seat),
        templates: document::seat_templates(game, &life, state, seat),
    })
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

/// The engine and the state after an action: what `decide` hands to `respond`.
struct Decided {
    kind: &'static dyn DynGame,
    state: Box<dyn DynState>,
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

/// `POST /v1/games/{id}/actions`: one transaction via [`store::apply_action`].
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
    // The roster is usually in memory; the game row (snapshot included) is read by the store.
    let (roster, seat) = require_seat(conn, cx, id, token)?;
    let req = ApplyRequest {
        game_id: id,
        expected_version: precondition.version,
        idempotency: key.map(|k| db::store::IdempotencyKey {
            seat: wire_seat(seat),
            key: k.into_string(),
            fingerprint: fingerprint(id, body, precondition),
        }),
        lock_wait,
    };
    act_as(conn, cx, &req, &roster, seat, Actor::Player, body)
}

/// The stored answer of an action applied at `applied` whose answer failed with `cause`.
fn unanswered(applied: &store::Applied, cause: &ApiError) -> StoredResponse {
    let error = ApiError::applied_unanswered(applied.game.id, applied.game.version, cause);
    StoredResponse {
        status: i32::from(error.status.as_u16()),
        body: JsonText::new(serde_json::to_string(&error.problem()).expect("problems serialize")),
    }
}

/// Applies `body` for `seat` of the game `req` names, under its guards: the action path of
/// people ([`act`]) and of the server's bots alike (`actor`).
///
/// # Errors
/// As [`act`], after the caller is known; 409 as [`check_actor`].
pub fn act_as(
    conn: &mut PooledConn,
    cx: &Context,
    req: &ApplyRequest,
    roster: &Roster,
    seat: Seat,
    actor: Actor,
    body: &ActionRequest,
) -> Result<ActionResult, ApiError> {
    let id = req.game_id;
    let decide = |game: &GameRow| {
        check_shape(cx, &game.game_type, body)?;
        let kind = stored_kind(&game.game_type)?;
        let mut table = Table::of_game(game, roster.seats(), cx.bots.move_delay_ms)?;
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
        let decided = table.close(state.as_ref());
        Ok::<_, Refusal>((decided, Decided { kind, state }))
    };
    let respond = |applied: &store::Applied, after: Decided| {
        // After the commit (an unkeyed action's write is its own transaction): a document
        // that cannot be built is a fault to log and a 500 that says the action was applied,
        // stored under the key like any answer.
        let doc = match document::build(
            &applied.game,
            roster.seats(),
            Some(after.state.as_ref()),
            Some(seat),
        ) {
            Ok(doc) => doc,
            Err(e) => return unanswered(applied, &e),
        };
        let finished = applied.game.status == db::GameStatus::Finished;
        let events = applied
            .events
            .iter()
            .filter_map(|e| document::redact_row(after.kind, e, Some(seat), finished))
            .collect();
        let body = ActionResponse {
            type_: applied.game.game_type.clone(),
            game: doc,
            events,
        };
        StoredResponse {
            status: 200,
            // Serialized once, here: stored as this text under an idempotency key and sent
            // as it is.
            body: JsonText::new(serde_json::to_string(&body).expect("documents serialize to JSON")),
        }
    };
    Ok(match store::apply_action(conn, req, decide, respond)? {
        ApplyOutcome::Applied { response, applied } => {
            cx.changes.committed(&applied);
            tracing::info!(game_id = %id, seat = seat.0, version = applied.game.version, "action applied");
            ActionResult {
                response,
                replayed: false,
                seat,
                version: Some(applied.game.version),
            }
        }
        ApplyOutcome::Replayed { response, version } => ActionResult {
            response,
            replayed: true,
            seat,
            version,
        },
    })
}

/// `?dry_run=true`: the same checks as [`act`] ([`store::check_actionable`], then `decide`),
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
