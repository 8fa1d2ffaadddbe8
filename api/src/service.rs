//! The synchronous work of each request: store calls and engine calls, run inside
//! `web::block` (see [`crate::state::AppState::db`]). Handlers parse the request, call one of
//! these, and turn the result into a response.

use std::cell::RefCell;
use std::sync::Arc;

use db::store::{
    self, ApplyOutcome, ApplyRequest, Decision, IdempotencyKey, NewGame, NewSeat, Roster,
};
use db::{
    EventRow, GameRow, JsonText, NewEvent, PooledConn, RngSeed, SeatRow, StoreError, StoredResponse,
};
use engine::chance::{new_seed, rng_for};
use engine::{ActionTemplate, DynGame, DynState, Seat, Viewer};
use serde_json::Value;
use uuid::Uuid;

use crate::dto::{
    ActionRequest, ActionResponse, CreatedGame, CreatedSeat, DryRunResponse, EventDto, EventPage,
    GameDocument, GameStatus, JoinedSeat, LegalActions, SeatInfo, StateDocument,
};
use crate::error::{ApiError, Refusal};
use crate::state::Context;

/// The engine of a stored game; a type that is no longer hosted is a server fault.
pub fn stored_kind(game_type: &str) -> Result<&'static dyn DynGame, ApiError> {
    engine::registry::find(game_type)
        .ok_or_else(|| ApiError::internal(format!("stored game of unknown type {game_type}")))
}

fn viewer(seat: Option<i32>) -> Viewer {
    match seat {
        Some(s) => Viewer::Seat(engine_seat(s)),
        None => Viewer::Spectator,
    }
}

fn engine_seat(seat: i32) -> Seat {
    Seat(u8::try_from(seat).unwrap_or(u8::MAX))
}

/// Game `id`'s roster and the caller's seat in it: `None` for a spectator (no token), the
/// seat for a token of this game; 401 for an unknown token, 403 for a token of another game.
///
/// # Errors
/// 404 for an unknown game, as above, plus store errors.
pub fn resolve_caller(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&str>,
) -> Result<(Arc<Roster>, Option<i32>), ApiError> {
    let roster = cx.rosters.get(conn, id)?;
    let Some(token) = token else {
        return Ok((roster, None));
    };
    if let Some(seat) = roster.seat_of(token) {
        return Ok((roster, Some(seat)));
    }
    match store::seat_by_token(conn, token)? {
        Some(_) => Err(ApiError::forbidden(
            "token_for_other_game",
            "this token belongs to a seat of another game",
        )),
        None => Err(ApiError::unauthorized(
            "invalid_token",
            "the bearer token is not a seat token",
        )),
    }
}

/// Like [`resolve_caller`], but a token is required.
///
/// # Errors
/// 401 `missing_token` without a token; see [`resolve_caller`].
pub fn require_seat(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&str>,
) -> Result<(Arc<Roster>, i32), ApiError> {
    if token.is_none() {
        return Err(missing_token());
    }
    let (roster, seat) = resolve_caller(conn, cx, id, token)?;
    Ok((roster, seat.unwrap_or_default()))
}

pub fn missing_token() -> ApiError {
    ApiError::unauthorized(
        "missing_token",
        "this needs a seat token: Authorization: Bearer <token>",
    )
}

/// The entity tag of the document `viewer` gets: version-based, different per viewer (views may
/// differ), and for open games also per number of taken seats (joins do not bump the version).
pub fn etag(game: &GameRow, seats: &[SeatRow], seat: Option<i32>) -> String {
    let who = match seat {
        Some(s) => format!("seat{s}"),
        None => "spectator".to_string(),
    };
    if game.status == db::GameStatus::Open {
        let taken = seats.iter().filter(|s| !s.is_open()).count();
        format!("\"v{}-j{taken}-{who}\"", game.version)
    } else {
        format!("\"v{}-{who}\"", game.version)
    }
}

/// The version an entity tag we issued carries (`"v12-seat0"` -> 12).
pub fn etag_version(tag: &str) -> Option<i64> {
    let tag = tag.trim().trim_start_matches("W/").trim_matches('"');
    let rest = tag.strip_prefix('v')?;
    let digits = rest.split('-').next()?;
    digits.parse().ok()
}

/// The caller's document of `game`, from `state` (the snapshot, loaded) when started.
pub fn build_document(
    game: &GameRow,
    seats: &[SeatRow],
    state: Option<&dyn DynState>,
    seat: Option<i32>,
) -> GameDocument {
    GameDocument {
        game_id: game.id,
        type_: game.game_type.clone(),
        rules_version: game.rules_version,
        version: game.version,
        status: game.status.into(),
        active_seats: state
            .map(|s| s.active_seats().iter().map(|s| s.0).collect())
            .unwrap_or_default(),
        seat,
        seats: seats
            .iter()
            .map(|s| SeatInfo {
                seat: s.seat,
                name: s.name.clone(),
                open: s.is_open(),
            })
            .collect(),
        view: state.map(|s| s.view(viewer(seat))),
        legal_actions: seat_actions(game, state, seat),
        action_templates: seat_templates(game, state, seat),
        outcome: state.and_then(|s| s.outcome()).map(Into::into),
    }
}

/// The legal actions of `seat` in an active game; none for spectators or before the start.
fn seat_actions(game: &GameRow, state: Option<&dyn DynState>, seat: Option<i32>) -> Vec<Value> {
    match (seat, state) {
        (Some(s), Some(state)) if game.status == db::GameStatus::Active => {
            state.legal_actions(engine_seat(s))
        }
        _ => Vec::new(),
    }
}

/// The action templates of `seat` in an active game; none for spectators or before the start.
fn seat_templates(
    game: &GameRow,
    state: Option<&dyn DynState>,
    seat: Option<i32>,
) -> Vec<ActionTemplate> {
    match (seat, state) {
        (Some(s), Some(state)) if game.status == db::GameStatus::Active => {
            state.action_templates(engine_seat(s))
        }
        _ => Vec::new(),
    }
}

fn load_state(kind: &dyn DynGame, game: &GameRow) -> Result<Option<Box<dyn DynState>>, ApiError> {
    match &game.snapshot {
        Some(snapshot) => Ok(Some(kind.load(snapshot.as_str())?)),
        None => Ok(None),
    }
}

/// `GET /v1/games/{id}`: the document and its entity tag.
///
/// # Errors
/// 404, 401/403, store errors.
pub fn load_document(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&str>,
) -> Result<(GameDocument, String), ApiError> {
    let game = store::get_game(conn, id)?;
    let (roster, seat) = resolve_caller(conn, cx, id, token)?;
    let kind = stored_kind(&game.game_type)?;
    let state = load_state(kind, &game)?;
    let doc = build_document(&game, roster.seats(), state.as_deref(), seat);
    Ok((doc, etag(&game, roster.seats(), seat)))
}

/// `GET /v1/games/{id}/legal-actions`. Spectators get an empty list.
///
/// # Errors
/// 404, 401/403, store errors.
pub fn legal_actions(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&str>,
) -> Result<LegalActions, ApiError> {
    let game = store::get_game(conn, id)?;
    let (_, seat) = resolve_caller(conn, cx, id, token)?;
    let kind = stored_kind(&game.game_type)?;
    let state = load_state(kind, &game)?;
    Ok(LegalActions {
        game_id: id,
        version: game.version,
        seat,
        actions: seat_actions(&game, state.as_deref(), seat),
        templates: seat_templates(&game, state.as_deref(), seat),
    })
}

/// A validated seat list of a create request.
pub enum SeatPlan {
    Taken(String),
    Open,
}

/// `POST /v1/games` after validation: sets up the game (validating the config even when seats
/// are open) and stores it, started when every seat is taken.
///
/// # Errors
/// 422 `invalid_config`, store errors.
pub fn create_game(
    conn: &mut PooledConn,
    kind: &'static dyn DynGame,
    config: Value,
    seats: Vec<SeatPlan>,
    seed: Option<u64>,
) -> Result<CreatedGame, ApiError> {
    let info = kind.info();
    let rng_seed = RngSeed(new_seed(seed));
    let (state, events) = kind.setup(&config, seats.len(), &mut rng_for(&rng_seed.0, 0))?;
    let full = seats.iter().all(|s| matches!(s, SeatPlan::Taken(_)));
    let initial = full.then(|| Decision {
        events: events.into_iter().map(NewEvent::system).collect(),
        snapshot: JsonText::new(state.snapshot()),
        status: status_of(state.as_ref()),
    });
    let mut created = Vec::new();
    let new_seats = seats
        .into_iter()
        .enumerate()
        .map(|(i, s)| match s {
            SeatPlan::Taken(name) => {
                let token = db::token::new_token();
                created.push(CreatedSeat {
                    seat: i as i32,
                    name: Some(name.clone()),
                    open: false,
                    token: Some(token.clone()),
                });
                NewSeat::Taken { name, token }
            }
            SeatPlan::Open => {
                created.push(CreatedSeat {
                    seat: i as i32,
                    name: None,
                    open: true,
                    token: None,
                });
                NewSeat::Open
            }
        })
        .collect();
    let game = store::create_game(
        conn,
        NewGame {
            id: Uuid::new_v4(),
            game_type: info.name.to_string(),
            rules_version: info.rules_version as i32,
            config,
            rng_seed,
            seats: new_seats,
            initial,
        },
    )?;
    tracing::info!(game_id = %game.id, game_type = %game.game_type, "game created");
    Ok(CreatedGame {
        game_id: game.id,
        type_: game.game_type,
        version: game.version,
        status: game.status.into(),
        seats: created,
    })
}

fn status_of(state: &dyn DynState) -> db::GameStatus {
    if state.outcome().is_some() {
        db::GameStatus::Finished
    } else {
        db::GameStatus::Active
    }
}

/// Starts an open game whose seats are all taken, and announces it to long polls.
fn start(conn: &mut PooledConn, cx: &Context, id: Uuid) -> Result<GameRow, StoreError<Refusal>> {
    let applied = store::start_game(conn, id, |game: &GameRow, seats: &[SeatRow]| {
        let kind = stored_kind(&game.game_type)?;
        // The rules version the game was created under decides the defaults of its config.
        let (state, events) = kind.setup_as(
            u32::try_from(game.rules_version).unwrap_or(0),
            &game.config,
            seats.len(),
            &mut rng_for(&game.rng_seed.0, 0),
        )?;
        Ok::<_, Refusal>(Decision {
            events: events.into_iter().map(NewEvent::system).collect(),
            snapshot: JsonText::new(state.snapshot()),
            status: status_of(state.as_ref()),
        })
    })?;
    cx.announcer.announce(applied.change());
    tracing::info!(game_id = %id, "game started");
    Ok(applied.game)
}

/// `POST /v1/games/{id}/seats`: takes a seat; the join that fills the last seat starts the game.
///
/// # Errors
/// 404, 409 (`game_already_started`, `seat_taken`, `no_open_seat`), 422 `no_such_seat`.
pub fn join(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    seat: Option<i32>,
    name: String,
) -> Result<JoinedSeat, ApiError> {
    let token = db::token::new_token();
    let row = store::join_seat(conn, id, seat, &name, &token)?;
    let seats = store::seats(conn, id)?;
    if seats.iter().all(|s| !s.is_open()) {
        match start(conn, cx, id) {
            // Someone else started it meanwhile (an explicit start racing the last join).
            Ok(_) | Err(StoreError::WrongStatus { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let game = store::get_game(conn, id)?;
    Ok(JoinedSeat {
        game_id: id,
        seat: row.seat,
        name,
        token,
        status: game.status.into(),
        version: game.version,
    })
}

/// `POST /v1/games/{id}/start`, by a seated player of the game.
///
/// # Errors
/// 404, 401/403, 409 `seats_open` or `game_already_started`.
pub fn start_by(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&str>,
) -> Result<(GameDocument, String), ApiError> {
    store::get_game(conn, id)?;
    require_seat(conn, cx, id, token)?;
    start(conn, cx, id)?;
    load_document(conn, cx, id, token)
}

/// What the action endpoint answers: the stored response, and whether it is a replay.
pub struct ActionResult {
    pub response: StoredResponse,
    pub replayed: bool,
    pub seat: i32,
    /// The game's version in the response (for its `ETag`).
    pub version: Option<i64>,
}

/// The game's engine and its state after an action.
type Decided = (&'static dyn DynGame, Box<dyn DynState>);

/// `POST /v1/games/{id}/actions`: one transaction via [`store::apply_action`].
///
/// # Errors
/// 404, 401/403, 409 `version_conflict`/`game_over`/`game_not_started`, 422 rule violations,
/// `invalid_action` and `idempotency_key_reused`.
pub fn act(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: &str,
    body: &ActionRequest,
    expected_version: Option<i64>,
    idempotency: Option<(String, Vec<u8>)>,
) -> Result<ActionResult, ApiError> {
    // The roster is usually in memory; the game row (snapshot included) is read once, locked,
    // inside the transaction.
    let (roster, seat) = require_seat(conn, cx, id, Some(token))?;
    // What `decide` computed, for `respond`.
    let after: RefCell<Option<Decided>> = RefCell::new(None);
    let req = ApplyRequest {
        game_id: id,
        expected_version,
        idempotency: idempotency.map(|(key, fingerprint)| IdempotencyKey {
            seat,
            key,
            fingerprint,
        }),
    };
    let outcome = store::apply_action(
        conn,
        &req,
        |game: &GameRow| {
            let snapshot = game
                .snapshot
                .as_ref()
                .ok_or_else(|| ApiError::internal("active game without a snapshot"))?;
            let kind = stored_kind(&game.game_type)?;
            let mut state = kind.load(snapshot.as_str())?;
            let mut rng = rng_for(&game.rng_seed.0, game.version);
            let events = state.apply(engine_seat(seat), &body.action, &mut rng)?;
            let decision = Decision {
                events: events
                    .into_iter()
                    .map(|e| NewEvent::by_seat(seat, body.action.clone(), e))
                    .collect(),
                snapshot: JsonText::new(state.snapshot()),
                status: status_of(state.as_ref()),
            };
            *after.borrow_mut() = Some((kind, state));
            Ok::<_, Refusal>(decision)
        },
        |applied| {
            let after = after.borrow();
            let (kind, state) = after
                .as_ref()
                .expect("respond runs after a successful decide");
            let doc = build_document(&applied.game, roster.seats(), Some(&**state), Some(seat));
            let finished = applied.game.status == db::GameStatus::Finished;
            let events = applied
                .events
                .iter()
                .filter_map(|e| redact_row(*kind, e, Some(seat), finished))
                .collect();
            let body = ActionResponse { game: doc, events };
            StoredResponse {
                status: 200,
                // Serialized once, here: stored as this text under an idempotency key and
                // sent as it is.
                body: JsonText::new(
                    serde_json::to_string(&body).expect("documents serialize to JSON"),
                ),
            }
        },
    )?;
    Ok(match outcome {
        ApplyOutcome::Applied { response, applied } => {
            cx.announcer.announce(applied.change());
            tracing::info!(game_id = %id, seat, version = applied.game.version, "action applied");
            ActionResult {
                response,
                replayed: false,
                seat,
                version: Some(applied.game.version),
            }
        }
        ApplyOutcome::Replayed(response) => ActionResult {
            version: response
                .body
                .to_value()
                .ok()
                .and_then(|body| body["game"]["version"].as_i64()),
            response,
            replayed: true,
            seat,
        },
    })
}

/// `?dry_run=true`: the same checks as [`act`], nothing written, no events shown.
///
/// # Errors
/// As [`act`].
pub fn dry_run(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: &str,
    body: &ActionRequest,
    expected_version: Option<i64>,
) -> Result<DryRunResponse, ApiError> {
    let game = store::get_game(conn, id)?;
    let (_, seat) = require_seat(conn, cx, id, Some(token))?;
    if game.status != db::GameStatus::Active {
        return Err(StoreError::<std::convert::Infallible>::WrongStatus {
            current: game.status,
            required: db::GameStatus::Active,
        }
        .into());
    }
    if expected_version.is_some_and(|v| v != game.version) {
        return Err(ApiError::version_conflict(game.version));
    }
    let kind = stored_kind(&game.game_type)?;
    let state = load_state(kind, &game)?
        .ok_or_else(|| ApiError::internal("active game without a snapshot"))?;
    state.check(
        engine_seat(seat),
        &body.action,
        &mut rng_for(&game.rng_seed.0, game.version),
    )?;
    Ok(DryRunResponse {
        dry_run: true,
        accepted: true,
        version: game.version,
    })
}

/// An event row as `seat` may see it (`None`: hidden entirely).
pub fn redact_row(
    kind: &dyn DynGame,
    row: &EventRow,
    seat: Option<i32>,
    finished: bool,
) -> Option<EventDto> {
    match kind.redact(&row.event, viewer(seat), finished) {
        Ok(Some(event)) => Some(EventDto {
            seq: row.seq,
            seat: row.seat,
            event,
            created_at: row.created_at,
        }),
        Ok(None) => None,
        Err(e) => {
            tracing::error!(game_id = %row.game_id, seq = row.seq, error = %e, "unreadable event");
            None
        }
    }
}

/// A game's log as a viewer may read it: the game row (for `finished` and the version bound),
/// the viewer's seat and the engine.
pub struct LogAccess {
    pub kind: &'static dyn DynGame,
    pub seat: Option<i32>,
    pub version: i64,
    pub finished: bool,
}

/// Checks the game and the caller for a log read.
///
/// # Errors
/// 404, 401/403, store errors.
pub fn log_access(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&str>,
) -> Result<LogAccess, ApiError> {
    let game = store::get_game(conn, id)?;
    let (_, seat) = resolve_caller(conn, cx, id, token)?;
    Ok(LogAccess {
        kind: stored_kind(&game.game_type)?,
        seat,
        version: game.version,
        finished: game.status == db::GameStatus::Finished,
    })
}

/// Up to `limit` visible events after `after` (never past the version read in `access`, so a
/// page is consistent with the `finished` flag used to redact it).
///
/// # Errors
/// Store errors.
pub fn events_page(
    conn: &mut PooledConn,
    id: Uuid,
    access: &LogAccess,
    after: i64,
    limit: i64,
) -> Result<EventPage, ApiError> {
    let rows = store::events_after(conn, id, after, limit + 1)?;
    let rows: Vec<_> = rows
        .into_iter()
        .filter(|r| r.seq <= access.version)
        .collect();
    let more = rows.len() as i64 > limit;
    let rows = &rows[..rows.len().min(limit as usize)];
    let events = rows
        .iter()
        .filter_map(|r| redact_row(access.kind, r, access.seat, access.finished))
        .collect();
    Ok(EventPage {
        events,
        next_after: if more {
            rows.last().map(|r| r.seq)
        } else {
            None
        },
    })
}

/// `GET /v1/games/{id}/states/{seq}`: the fold of events `1..=seq`, as the caller sees it.
///
/// # Errors
/// 404 `no_such_state` when `seq` is outside `1..=version`; 404, 401/403, store errors.
pub fn state_at(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&str>,
    seq: i64,
) -> Result<StateDocument, ApiError> {
    let access = log_access(conn, cx, id, token)?;
    if seq < 1 || seq > access.version {
        return Err(ApiError::not_found(
            "no_such_state",
            format!("seq must be between 1 and {}", access.version),
        ));
    }
    let rows = store::events_up_to(conn, id, seq)?;
    let events: Vec<Value> = rows.into_iter().map(|r| r.event).collect();
    let state = access.kind.replay(&events)?;
    Ok(StateDocument {
        game_id: id,
        type_: access.kind.info().name.to_string(),
        seq,
        active_seats: state.active_seats().iter().map(|s| s.0).collect(),
        seat: access.seat,
        view: state.view(viewer(access.seat)),
        outcome: state.outcome().map(Into::into),
    })
}

/// The status a game document reports.
pub fn status(game: &GameRow) -> GameStatus {
    game.status.into()
}
