//! Playing: the game document (with long polling), legal actions, and acting.

use std::sync::Arc;
use std::time::Instant;

use actix_web::http::header::{self, ContentType};
use actix_web::http::StatusCode;
use actix_web::web::{Data, Query};
use actix_web::{get, post, HttpResponse};
use db::store::LockWait;

use crate::caching::{self, Audience, Lifetime};
use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{
    Bearer, GameId, Idempotency, IfMatch, IfNoneMatch, Precondition, SeatToken, StrictJson,
};
use crate::metrics::Metrics;
use crate::service::{act, play};
use crate::state::AppState;
use crate::watch::long_poll::{self, Wait};
use crate::watch::Watches;

/// The game as the caller sees it.
///
/// A seat by its bearer token, a spectator without one. `ETag` is version-based and differs
/// per viewer; `If-None-Match` gives 304. `?wait=N` long-polls up to N seconds (at most 30)
/// for a version newer than the client's (`after_version`, or the one in `If-None-Match`) and
/// answers as soon as it exists; after the wait the current document (or 304) comes back.
/// A finished game's document never changes again: it is `Cache-Control: immutable`
/// (`private` with a token); others are `no-cache` (revalidate with the `ETag`).
#[utoipa::path(
    tag = "play",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        GetGameQuery,
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier response"),
    ),
    responses(
        (status = 200, description = "The game document", body = GameDocument,
         headers(("ETag" = String, description = "Strong, version-based, per viewer"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
        (status = 400, description = "Malformed id, bad or out-of-range query (`invalid_id`, `invalid_query`)"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}")]
pub async fn get_game(
    state: Data<AppState>,
    watches: Data<Watches>,
    metrics: Data<Metrics>,
    GameId(id): GameId,
    q: Query<GetGameQuery>,
    bearer: Bearer,
    if_none_match: IfNoneMatch,
) -> Result<HttpResponse, ApiError> {
    let audience = Audience::of(bearer.token().is_some());
    let known = q
        .after_version
        .map(|v| v.get())
        .or_else(|| if_none_match.known_version());
    let wait = Wait {
        known,
        wait: q.wait.map_or(std::time::Duration::ZERO, |w| w.duration()),
    };
    let answer = long_poll::document(&state, &watches, &metrics, id, &bearer, wait).await?;
    let (doc, etag) = &*answer;
    // A finished game's document never changes again.
    let lifetime = if doc.status == GameStatus::Finished {
        Lifetime::Immutable
    } else {
        Lifetime::Revalidate
    };
    let fresh = if_none_match.matches(etag);
    let mut res = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    caching::mark(&mut res, etag, audience, lifetime);
    Ok(if fresh { res.finish() } else { res.json(doc) })
}

/// What the caller's seat may do now.
///
/// The listed actions and the templates of actions whose parameters cannot be listed, with
/// the version they are legal at. Spectators (no token) get empty lists with `seat: null`,
/// not an error, so one client loop serves players and watchers alike. `after_version` (the
/// version the client has, from an action's answer or a document) makes sure the answer is
/// not older, also where reads are served by a replica; a version past the game's is refused
/// (400 `invalid_query`), since no answer can be that new.
#[utoipa::path(
    tag = "play",
    params(("id" = Uuid, Path, description = "Game id"), LegalActionsQuery),
    responses(
        (status = 200, description = "Legal actions at `version`", body = LegalActions,
         headers(("ETag" = String, description = "Strong, per version and viewer"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
        (status = 400, description = "Malformed id or query, or `after_version` past the game's version (`invalid_id`, `invalid_query`)"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}/legal-actions")]
pub async fn legal_actions(
    state: Data<AppState>,
    watches: Data<Watches>,
    GameId(id): GameId,
    q: Query<LegalActionsQuery>,
    bearer: Bearer,
    if_none_match: IfNoneMatch,
) -> Result<HttpResponse, ApiError> {
    let audience = Audience::of(bearer.token().is_some());
    let at_least = q.after_version.map(|v| v.get());
    let shared = match at_least {
        Some(version) => long_poll::legal_actions(&state, &watches, id, &bearer, version)?,
        None => None,
    };
    let legal = match shared {
        Some(legal) => legal,
        None => Arc::new(
            state
                .read(at_least, move |conn, cx| {
                    play::legal_actions(conn, cx, id, bearer.token())
                })
                .await?,
        ),
    };
    // A read that falls short of `after_version` came from the primary (a replica behind it
    // is waited for, then passed over): the game has no such version, and a client cannot
    // have it from this server.
    if let Some(named) = at_least.filter(|&v| v > legal.version) {
        return Err(ApiError::bad_request(
            "invalid_query",
            format!(
                "after_version {named} is past the game's version {}: name a version this \
                 server answered (an action's answer, a document, a stream)",
                legal.version
            ),
        ));
    }
    // What a seat may do is decided by the version (lifecycle changes are versions too).
    let etag = format!("\"l{}-{}\"", legal.version, caching::viewer_tag(legal.seat));
    let fresh = if_none_match.matches(&etag);
    let mut res = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    caching::mark(&mut res, &etag, audience, Lifetime::Revalidate);
    Ok(if fresh {
        res.finish()
    } else {
        res.json(&*legal)
    })
}

/// Submit one action for the caller's seat.
///
/// One transaction: a rejected action writes nothing. `expected_version` (or `If-Match`)
/// guards against acting on a stale view; `Idempotency-Key` makes retries safe (same key and
/// body: the stored response again, with `Idempotency-Replayed: true`). The answer is the
/// game after the action and the events it caused, as the caller may see them.
///
/// One request per move: the answer's `game` is the caller's whole document (`version`,
/// `active_seats`, `legal_actions`, `action_templates`), so a client whose seat is still
/// active acts again straight from it, with `expected_version` set to `game.version`, and
/// reads the game again (`GET`, long poll or the stream) only once its seat is no longer
/// active. This is the protocol the server is built and measured for. An action
/// that is not a well-formed action of the game is a 400 `invalid_action`; a well-formed one
/// the rules refuse is a 422 with the game's code. The operation takes no query parameter
/// (dry runs are `POST …/actions/dry-run`).
#[utoipa::path(
    tag = "play",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("If-Match" = Option<String>, Header, description = "ETag of the version the action is meant for (412 otherwise)"),
        ("Idempotency-Key" = Option<String>, Header, description = "1 to 255 visible ASCII characters, per seat"),
    ),
    request_body = ActionRequest,
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "Applied (or replayed)", body = ActionResponse,
         headers(("ETag" = String, description = "Of the new version"),
                 ("Idempotency-Replayed" = String, description = "`true` when this is a stored response"))),
        (status = 400, description = "Malformed body, unknown field, not an action of the game, bad header or a query parameter (`malformed_json`, `invalid_body`, `invalid_action`, `invalid_id`, `invalid_query`, `invalid_idempotency_key`, `conflicting_versions`)"),
        (status = 401, description = "Missing or unknown token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
        (status = 409, description = "Version conflict (with `current_version`), key in flight, game not started or over"),
        (status = 412, description = "If-Match does not match (with `current_version`)"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "Rule violation (the game's code, e.g. `not_your_turn`, `tycoon.landing_fields_full`), or `idempotency_key_reused`"),
    )
)]
#[post("/v1/games/{id}/actions")]
#[allow(clippy::too_many_arguments)] // one per parsed request part
pub async fn post_action(
    state: Data<AppState>,
    metrics: Data<Metrics>,
    GameId(id): GameId,
    body: StrictJson<ActionRequest>,
    token: SeatToken,
    if_match: IfMatch,
    idempotency: Idempotency,
) -> Result<HttpResponse, ApiError> {
    let started = Instant::now();
    let result = act(&state, id, body.into_inner(), token, if_match, idempotency).await;
    let label = match &result {
        Ok((_, label)) => label.to_string(),
        Err(e) => e.status.as_str().to_string(),
    };
    metrics.observe_action(&label, started.elapsed());
    result.map(|(res, _)| res)
}

async fn act(
    state: &AppState,
    id: uuid::Uuid,
    body: ActionRequest,
    token: SeatToken,
    if_match: IfMatch,
    Idempotency(key): Idempotency,
) -> Result<(HttpResponse, &'static str), ApiError> {
    let precondition = Precondition::combine(body.expected_version, if_match)?;
    // A request with a key locks the game's row (to check and store the key): it may wait.
    let result = match key {
        None => {
            state
                .db_here(move |conn, cx, wait| {
                    act::act(conn, cx, id, &token, &body, precondition, None, wait)
                })
                .await
        }
        Some(key) => {
            state
                .db(move |conn, cx| {
                    let wait = LockWait::Allowed;
                    act::act(conn, cx, id, &token, &body, precondition, Some(key), wait)
                })
                .await
        }
    }
    .map_err(|e| precondition.refine(e))?;
    let status = StatusCode::from_u16(result.response.status as u16).unwrap_or(StatusCode::OK);
    let mut res = HttpResponse::build(status);
    if let Some(v) = result.version {
        res.insert_header((header::ETAG, format!("\"v{v}-seat{}\"", result.seat.0)));
    }
    let label = if result.replayed {
        res.insert_header(("Idempotency-Replayed", "true"));
        "replayed"
    } else {
        "applied"
    };
    let body = result.response.body.into_string();
    // An answer is a document, or the problem of an action applied without one.
    let content_type = if status.is_success() {
        ContentType::json()
    } else {
        ContentType(crate::error::PROBLEM_JSON.parse().expect("a media type"))
    };
    Ok((res.content_type(content_type).body(body), label))
}

/// Check an action without applying it.
///
/// The same checks as `POST …/actions` (token, status, version, the game's rules), with the
/// same errors; nothing is written and the would-be events are not shown (they could reveal
/// hidden information such as the next card).
#[utoipa::path(
    tag = "play",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("If-Match" = Option<String>, Header, description = "ETag of the version the action is meant for (412 otherwise)"),
    ),
    request_body = ActionRequest,
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The action would be accepted now", body = DryRunResponse),
        (status = 400, description = "Malformed body, unknown field, not an action of the game, bad header (`malformed_json`, `invalid_body`, `invalid_action`, `invalid_id`, `conflicting_versions`)"),
        (status = 401, description = "Missing or unknown token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
        (status = 409, description = "Version conflict (with `current_version`), game not started or over"),
        (status = 412, description = "If-Match does not match (with `current_version`)"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "Rule violation (the game's code)"),
    )
)]
#[post("/v1/games/{id}/actions/dry-run")]
pub async fn dry_run_action(
    state: Data<AppState>,
    metrics: Data<Metrics>,
    GameId(id): GameId,
    body: StrictJson<ActionRequest>,
    token: SeatToken,
    if_match: IfMatch,
) -> Result<HttpResponse, ApiError> {
    let started = Instant::now();
    let body = body.into_inner();
    let result = match Precondition::combine(body.expected_version, if_match) {
        Ok(precondition) => state
            .db_here(move |conn, cx, _| act::dry_run(conn, cx, id, &token, &body, precondition))
            .await
            .map_err(|e| precondition.refine(e)),
        Err(e) => Err(e),
    };
    let label = match &result {
        Ok(_) => "dry_run".to_string(),
        Err(e) => e.status.as_str().to_string(),
    };
    metrics.observe_action(&label, started.elapsed());
    result.map(|res| HttpResponse::Ok().json(res))
}
