//! Every route, registered through utoipa's actix-web integration so that the router and the
//! OpenAPI document come from one list ([`configure`]).

use std::time::Instant;

use actix_web::http::header::{self, ContentType, HeaderMap};
use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes, Data, Json, Path, Query};
use actix_web::{get, post, HttpRequest, HttpResponse};
use futures_util::stream;
use utoipa_actix_web::service_config::ServiceConfig;
use uuid::Uuid;

use crate::dto::*;
use crate::error::ApiError;
use crate::service::{self, SeatPlan};
use crate::state::{wait_for_change, AppState, MAX_WAIT};

/// Registers every documented route.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list_game_types)
        .service(create_game)
        .service(list_games)
        .service(get_game)
        .service(join_seat)
        .service(start_game)
        .service(legal_actions)
        .service(post_action)
        .service(list_events)
        .service(get_state)
        .service(healthz)
        .service(readyz)
        .service(metrics);
}

/// Largest accepted request body.
pub const BODY_LIMIT: usize = 64 * 1024;

const NDJSON: &str = "application/x-ndjson";

/// The bearer token, if any. A malformed `Authorization` header is a 401, never a silent
/// downgrade to spectator.
fn bearer(req: &HttpRequest) -> Result<Option<String>, ApiError> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value
        .to_str()
        .map_err(|_| ApiError::unauthorized("invalid_token", "malformed Authorization header"))?;
    let token = value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= 256)
        .ok_or_else(|| {
            ApiError::unauthorized(
                "invalid_token",
                "expected Authorization: Bearer <seat token>",
            )
        })?;
    Ok(Some(token.to_string()))
}

fn header_str(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn json_response<T: serde::Serialize>(status: StatusCode, body: &T) -> HttpResponse {
    HttpResponse::build(status).json(body)
}

fn valid_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err(ApiError::unprocessable(
            "invalid_name",
            "a name has 1 to 64 characters and no control characters",
        ));
    }
    Ok(name.to_string())
}

/// The hosted game types.
#[utoipa::path(
    tag = "games",
    responses((status = 200, description = "The catalogue", body = GameTypeList))
)]
#[get("/v1/game-types")]
async fn list_game_types() -> HttpResponse {
    let schemas = engine::openapi::game_schemas();
    let names = engine::openapi::game_schema_names();
    let game_types = engine::registry::all()
        .iter()
        .map(|g| {
            let info = g.info();
            let config_schema = names
                .iter()
                .find(|n| n.game == info.name)
                .and_then(|n| schemas.iter().find(|(s, _)| *s == n.config))
                .and_then(|(_, s)| serde_json::to_value(s).ok())
                .unwrap_or(serde_json::Value::Null);
            GameType {
                type_: info.name.to_string(),
                title: info.title.to_string(),
                min_seats: info.min_seats,
                max_seats: info.max_seats,
                rules_version: info.rules_version,
                default_config: info.default_config,
                config_schema,
            }
        })
        .collect();
    json_response(StatusCode::OK, &GameTypeList { game_types })
}

/// Create a game. Named seats get their token in the response (once); a game without open
/// seats starts at once.
#[utoipa::path(
    tag = "games",
    request_body = CreateGameRequest,
    responses(
        (status = 201, description = "Created", body = CreatedGame,
         headers(("Location" = String, description = "The game's URL"))),
        (status = 400, description = "Malformed body or unknown field"),
        (status = 413, description = "Body over 64 KiB"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "Unknown type, bad seat list or config (`unknown_game_type`, `invalid_seat_count`, `invalid_seat`, `invalid_name`, `invalid_config`)"),
    )
)]
#[post("/v1/games")]
async fn create_game(
    state: Data<AppState>,
    body: Json<CreateGameRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let kind = engine::registry::find(&body.type_).ok_or_else(|| {
        ApiError::unprocessable(
            "unknown_game_type",
            format!("no game type {:?}; see GET /v1/game-types", body.type_),
        )
    })?;
    let info = kind.info();
    if !(info.min_seats..=info.max_seats).contains(&body.seats.len()) {
        return Err(ApiError::unprocessable(
            "invalid_seat_count",
            format!(
                "{} is for {} to {} seats, not {}",
                info.name,
                info.min_seats,
                info.max_seats,
                body.seats.len()
            ),
        ));
    }
    let seats = body
        .seats
        .iter()
        .map(|s| match (&s.name, s.open) {
            (Some(name), None | Some(false)) => Ok(SeatPlan::Taken(valid_name(name)?)),
            (None, Some(true)) => Ok(SeatPlan::Open),
            _ => Err(ApiError::unprocessable(
                "invalid_seat",
                "each seat is either {\"name\": ...} or {\"open\": true}",
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let config = body.config.unwrap_or(info.default_config);
    let seed = body.seed;
    let created = state
        .db(move |conn, _| service::create_game(conn, kind, config, seats, seed))
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/games/{}", created.game_id)))
        .json(created))
}

/// List games, newest first, with cursor pagination.
#[utoipa::path(
    tag = "games",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of games", body = GameList,
         headers(("Link" = String, description = "`<...>; rel=\"next\"` when there is a next page"))),
        (status = 400, description = "Bad query (`invalid_query`, `invalid_cursor`)"),
    )
)]
#[get("/v1/games")]
async fn list_games(state: Data<AppState>, q: Query<ListQuery>) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    // PostgreSQL text cannot hold NUL: refuse control characters here rather than fail in SQL.
    if q.type_
        .as_deref()
        .is_some_and(|t| t.chars().any(char::is_control))
    {
        return Err(ApiError::bad_request(
            "invalid_query",
            "type must be a game type name (no control characters)",
        ));
    }
    let after = match &q.cursor {
        Some(c) => Some(db::store::Cursor::decode(c).ok_or_else(|| {
            ApiError::bad_request("invalid_cursor", "cursor is not a next_cursor of this API")
        })?),
        None => None,
    };
    let limit = i64::from(q.limit.unwrap_or(20).clamp(1, 100));
    let filter = db::store::GameFilter {
        game_type: q.type_.clone(),
        status: q.status.map(Into::into),
    };
    let page = state
        .db(move |conn, _| Ok(db::store::list_games(conn, &filter, after, limit)?))
        .await?;
    let next_cursor = page.next.map(|c| c.encode());
    let list = GameList {
        games: page
            .games
            .into_iter()
            .map(|g| GameSummary {
                game_id: g.id,
                type_: g.game_type,
                rules_version: g.rules_version,
                status: g.status.into(),
                version: g.version,
                seat_count: g.seat_count,
                created_at: g.created_at,
                updated_at: g.updated_at,
                finished_at: g.finished_at,
            })
            .collect(),
        next_cursor: next_cursor.clone(),
    };
    let mut res = HttpResponse::Ok();
    if let Some(c) = next_cursor {
        // Percent-encoded, so that any filter value makes a valid URL and header.
        let status = q.status.map(|s| db::GameStatus::from(s).as_str());
        let query = serde_urlencoded::to_string([
            ("cursor", Some(c.as_str())),
            ("limit", Some(&limit.to_string())),
            ("type", q.type_.as_deref()),
            ("status", status),
        ])
        .map_err(|e| ApiError::internal(format!("next-page link: {e}")))?;
        res.insert_header((header::LINK, format!("</v1/games?{query}>; rel=\"next\"")));
    }
    Ok(res.json(list))
}

/// The game as the caller sees it (seat by bearer token, spectator without). `ETag` is
/// version-based and differs per viewer; `If-None-Match` gives 304. `?wait=N` long-polls up to
/// N seconds (capped at 30) for a version newer than the client's (`after_version`, or the one in
/// `If-None-Match`) and answers as soon as it exists; after the wait the current document (or
/// 304) comes back.
#[utoipa::path(
    tag = "play",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        GetGameQuery,
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier response"),
    ),
    security((), ("seat_token" = [])),
    responses(
        (status = 200, description = "The game document", body = GameDocument,
         headers(("ETag" = String, description = "Strong, version-based, per viewer"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
        (status = 400, description = "Bad query"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}")]
async fn get_game(
    state: Data<AppState>,
    req: HttpRequest,
    id: Path<Uuid>,
    q: Query<GetGameQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let token = bearer(&req)?;
    let inm = header_str(req.headers(), header::IF_NONE_MATCH).map(str::to_string);
    let known = q.after_version.or_else(|| {
        inm.as_deref()
            .and_then(|v| v.split(',').find_map(service::etag_version))
    });
    let wait = std::time::Duration::from_secs(q.wait.unwrap_or(0)).min(MAX_WAIT);
    let deadline = tokio::time::Instant::now() + wait;
    let mut rx = match known {
        Some(_) if !wait.is_zero() => Some(state.hub.subscribe()),
        _ => None,
    };
    let (doc, etag) = loop {
        let t = token.clone();
        let (doc, etag) = state
            .db(move |conn, cx| service::load_document(conn, cx, id, t.as_deref()))
            .await?;
        let (Some(rx), Some(known)) = (rx.as_mut(), known) else {
            break (doc, etag);
        };
        if doc.version > known || tokio::time::Instant::now() >= deadline {
            break (doc, etag);
        }
        // No database connection is held while waiting.
        state.metrics.long_polls.inc();
        let woke = wait_for_change(rx, id, known, deadline).await;
        state.metrics.long_polls.dec();
        if !woke {
            break (doc, etag);
        }
    };
    let matches = inm.as_deref().is_some_and(|v| {
        v.trim() == "*"
            || v.split(',')
                .any(|t| t.trim().trim_start_matches("W/") == etag)
    });
    if matches {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(doc))
}

/// Take an open seat. The seat token is in the response, once. The join that fills the last
/// seat starts the game. Joins do not change the version (no event is written).
#[utoipa::path(
    tag = "games",
    params(("id" = Uuid, Path, description = "Game id")),
    request_body = JoinRequest,
    responses(
        (status = 201, description = "Seat taken", body = JoinedSeat),
        (status = 400, description = "Malformed body"),
        (status = 404, description = "No such game"),
        (status = 409, description = "Seat taken, no open seat, or game already started (`seat_taken`, `no_open_seat`, `game_already_started`)"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "No such seat or bad name (`no_such_seat`, `invalid_name`)"),
    )
)]
#[post("/v1/games/{id}/seats")]
async fn join_seat(
    state: Data<AppState>,
    id: Path<Uuid>,
    body: Json<JoinRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let body = body.into_inner();
    let name = valid_name(&body.name)?;
    let seat = body.seat;
    let joined = state
        .db(move |conn, cx| service::join(conn, cx, id, seat, name))
        .await?;
    Ok(HttpResponse::Created().json(joined))
}

/// Start a game whose seats are all taken (games created full, and games whose last seat was
/// joined, start by themselves). Needs a seat token of the game.
#[utoipa::path(
    tag = "games",
    params(("id" = Uuid, Path, description = "Game id")),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "Started; the game document", body = GameDocument),
        (status = 401, description = "Missing or unknown token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
        (status = 409, description = "Seats still open or already started (`seats_open`, `game_already_started`)"),
    )
)]
#[post("/v1/games/{id}/start")]
async fn start_game(
    state: Data<AppState>,
    req: HttpRequest,
    id: Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let token = bearer(&req)?;
    let (doc, etag) = state
        .db(move |conn, cx| service::start_by(conn, cx, id, token.as_deref()))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag))
        .json(doc))
}

/// What the caller's seat may do now. Spectators (no token) get an empty list with
/// `seat: null`, not an error, so one client loop serves players and watchers alike.
#[utoipa::path(
    tag = "play",
    params(("id" = Uuid, Path, description = "Game id")),
    security((), ("seat_token" = [])),
    responses(
        (status = 200, description = "Legal actions at `version`", body = LegalActions),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}/legal-actions")]
async fn legal_actions(
    state: Data<AppState>,
    req: HttpRequest,
    id: Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let token = bearer(&req)?;
    let legal = state
        .db(move |conn, cx| service::legal_actions(conn, cx, id, token.as_deref()))
        .await?;
    Ok(json_response(StatusCode::OK, &legal))
}

/// Parses `If-Match`: `None` when absent or `*`, else the version of the tag (a tag we never
/// issued can never match: version -1).
fn if_match_version(headers: &HeaderMap) -> Option<i64> {
    let v = header_str(headers, header::IF_MATCH)?.trim();
    if v == "*" {
        return None;
    }
    Some(v.split(',').find_map(service::etag_version).unwrap_or(-1))
}

/// The `Idempotency-Key` header: 1 to 255 visible ASCII characters.
fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(v) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    let key = v.to_str().ok().map(str::trim).filter(|k| {
        !k.is_empty() && k.len() <= 255 && k.bytes().all(|b| b.is_ascii_graphic() || b == b' ')
    });
    key.map(|k| Some(k.to_string())).ok_or_else(|| {
        ApiError::bad_request(
            "invalid_idempotency_key",
            "Idempotency-Key must be 1 to 255 visible ASCII characters",
        )
    })
}

/// Submit one action for the caller's seat. One transaction: a rejected action writes nothing.
/// `expected_version` (or `If-Match`) guards against acting on a stale view; `Idempotency-Key`
/// makes retries safe (same key and body: the stored response again, with
/// `Idempotency-Replayed: true`). `?dry_run=true` only checks.
#[utoipa::path(
    tag = "play",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ActionQuery,
        ("If-Match" = Option<String>, Header, description = "ETag of the version the action is meant for (412 otherwise)"),
        ("Idempotency-Key" = Option<String>, Header, description = "1 to 255 visible ASCII characters, per seat"),
    ),
    request_body = ActionRequest,
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "Applied (or replayed, or a dry run: `DryRunResponse`)", body = ActionResponse,
         headers(("ETag" = String, description = "Of the new version"),
                 ("Idempotency-Replayed" = String, description = "`true` when this is a stored response"))),
        (status = 400, description = "Malformed body, unknown field, bad header (`malformed_json`, `invalid_body`, `invalid_idempotency_key`, `conflicting_versions`)"),
        (status = 401, description = "Missing or unknown token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
        (status = 409, description = "Version conflict (with `current_version`), key in flight, game not started or over"),
        (status = 412, description = "If-Match does not match (with `current_version`)"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "Rule violation (the engine's code, e.g. `not_your_turn`, `tycoon.landing_fields_full`), `invalid_action`, or `idempotency_key_reused`"),
    )
)]
#[post("/v1/games/{id}/actions")]
async fn post_action(
    state: Data<AppState>,
    req: HttpRequest,
    id: Path<Uuid>,
    q: Query<ActionQuery>,
    body: Json<ActionRequest>,
) -> Result<HttpResponse, ApiError> {
    let started = Instant::now();
    let result = act(
        &state,
        &req,
        id.into_inner(),
        q.into_inner(),
        body.into_inner(),
    )
    .await;
    let label = match &result {
        Ok((_, label)) => label.to_string(),
        Err(e) => e.status.as_str().to_string(),
    };
    state.metrics.observe_action(&label, started.elapsed());
    result.map(|(res, _)| res)
}

async fn act(
    state: &AppState,
    req: &HttpRequest,
    id: Uuid,
    q: ActionQuery,
    body: ActionRequest,
) -> Result<(HttpResponse, &'static str), ApiError> {
    let token = bearer(req)?.ok_or_else(service::missing_token)?;
    let if_match = if_match_version(req.headers());
    let (expected, from_if_match) = match (body.expected_version, if_match) {
        (Some(a), Some(b)) if a != b => {
            return Err(ApiError::bad_request(
                "conflicting_versions",
                "expected_version and If-Match name different versions",
            ))
        }
        (Some(a), _) => (Some(a), false),
        (None, Some(b)) => (Some(b), true),
        (None, None) => (None, false),
    };
    let key = idempotency_key(req.headers())?;
    let if_match_failed = |e: ApiError| match e.current_version {
        Some(current) if from_if_match && e.status == StatusCode::CONFLICT => {
            ApiError::precondition_failed(current)
        }
        _ => e,
    };
    if q.dry_run.unwrap_or(false) {
        let res = state
            .db(move |conn, cx| service::dry_run(conn, cx, id, &token, &body, expected))
            .await
            .map_err(if_match_failed)?;
        return Ok((HttpResponse::Ok().json(res), "dry_run"));
    }
    let idempotency = key.map(|k| {
        let canonical = serde_json::to_vec(&body).unwrap_or_default();
        let expected = expected.map(|v| v.to_string()).unwrap_or_default();
        let fp = db::token::fingerprint(&[
            b"POST /v1/games/{id}/actions",
            id.as_bytes(),
            &canonical,
            expected.as_bytes(),
        ]);
        (k, fp)
    });
    let result = state
        .db(move |conn, cx| service::act(conn, cx, id, &token, &body, expected, idempotency))
        .await
        .map_err(if_match_failed)?;
    let status = StatusCode::from_u16(result.response.status as u16).unwrap_or(StatusCode::OK);
    let mut res = HttpResponse::build(status);
    if let Some(v) = result.version {
        res.insert_header((header::ETAG, format!("\"v{v}-seat{}\"", result.seat)));
    }
    let label = if result.replayed {
        res.insert_header(("Idempotency-Replayed", "true"));
        "replayed"
    } else {
        "applied"
    };
    let body = result.response.body.into_string();
    Ok((res.content_type(ContentType::json()).body(body), label))
}

/// The event log, redacted for the caller (secrets such as a shuffled deck's order are hidden
/// until the game ends), in pages (`Link: <...>; rel="next"`). With
/// `Accept: application/x-ndjson` the whole log after `after` is streamed, one event per line.
#[utoipa::path(
    tag = "history",
    params(("id" = Uuid, Path, description = "Game id"), EventsQuery),
    security((), ("seat_token" = [])),
    responses(
        (status = 200, description = "A page of events (or, for `Accept: application/x-ndjson`, a stream of `EventDto` lines)",
         content((EventPage = "application/json"), (EventDto = "application/x-ndjson")),
         headers(("Link" = String, description = "`<...>; rel=\"next\"` when there is a next page"))),
        (status = 400, description = "Bad query"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}/events")]
async fn list_events(
    state: Data<AppState>,
    req: HttpRequest,
    id: Path<Uuid>,
    q: Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let token = bearer(&req)?;
    let after = q.after.unwrap_or(0).max(0);
    let ndjson = header_str(req.headers(), header::ACCEPT).is_some_and(|a| a.contains(NDJSON));
    let limit = if ndjson {
        500
    } else {
        i64::from(q.limit.unwrap_or(100).clamp(1, 1000))
    };
    let (access, first) = state
        .db(move |conn, cx| {
            let access = service::log_access(conn, cx, id, token.as_deref())?;
            let page = service::events_page(conn, id, &access, after, limit)?;
            Ok((access, page))
        })
        .await?;
    if !ndjson {
        let mut res = HttpResponse::Ok();
        if let Some(next) = first.next_after {
            res.insert_header((
                header::LINK,
                format!("</v1/games/{id}/events?after={next}&limit={limit}>; rel=\"next\""),
            ));
        }
        return Ok(res.json(first));
    }
    // Stream page by page; each page is one short database call.
    let state = state.into_inner();
    let access = std::sync::Arc::new(access);
    let body = stream::unfold(Some(first), move |page| {
        let state = state.clone();
        let access = access.clone();
        async move {
            let page = page?;
            let mut chunk = Vec::new();
            for e in &page.events {
                if serde_json::to_writer(&mut chunk, e).is_ok() {
                    chunk.push(b'\n');
                }
            }
            let next = match page.next_after {
                Some(after) => {
                    let a = access.clone();
                    state
                        .db(move |conn, _| service::events_page(conn, id, &a, after, limit))
                        .await
                        .ok()
                }
                None => None,
            };
            Some((Ok::<_, actix_web::Error>(Bytes::from(chunk)), next))
        }
    });
    Ok(HttpResponse::Ok().content_type(NDJSON).streaming(body))
}

/// The caller's view as of event `seq`, rebuilt by folding events `1..=seq` (time travel).
#[utoipa::path(
    tag = "history",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("seq" = i64, Path, description = "An event seq, 1 to the game's version"),
    ),
    security((), ("seat_token" = [])),
    responses(
        (status = 200, description = "The state as of `seq`", body = StateDocument),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game or seq (`game_not_found`, `no_such_state`)"),
    )
)]
#[get("/v1/games/{id}/states/{seq}")]
async fn get_state(
    state: Data<AppState>,
    req: HttpRequest,
    path: Path<(Uuid, i64)>,
) -> Result<HttpResponse, ApiError> {
    let (id, seq) = path.into_inner();
    let token = bearer(&req)?;
    let doc = state
        .db(move |conn, cx| service::state_at(conn, cx, id, token.as_deref(), seq))
        .await?;
    Ok(json_response(StatusCode::OK, &doc))
}

/// Liveness: the process answers.
#[utoipa::path(tag = "operations", responses((status = 200, description = "Alive", body = Health)))]
#[get("/healthz")]
async fn healthz() -> HttpResponse {
    json_response(
        StatusCode::OK,
        &Health {
            status: "ok".into(),
        },
    )
}

/// Readiness: the database is reachable.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, description = "Database unreachable"),
    )
)]
#[get("/readyz")]
async fn readyz(state: Data<AppState>) -> Result<HttpResponse, ApiError> {
    // An explicit ping: the pool hands out recently used connections unchecked.
    state.db(|conn, _| Ok(db::store::ping(conn)?)).await?;
    Ok(json_response(
        StatusCode::OK,
        &Health {
            status: "ready".into(),
        },
    ))
}

/// Prometheus metrics (text exposition format).
#[utoipa::path(
    tag = "operations",
    responses((status = 200, description = "Metrics", body = String, content_type = "text/plain"))
)]
#[get("/metrics")]
async fn metrics(state: Data<AppState>) -> HttpResponse {
    let text = state.metrics.render(&state.pool);
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4")
        .body(text)
}

/// `/docs` -> `/docs/` (the Swagger UI, served from files compiled into the binary).
pub async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/docs/"))
        .finish()
}

/// Unknown routes: a problem+json 404; a known route with another method: a problem+json 405
/// with `Allow` (the `#[get]`/`#[post]` resources carry method guards, so a wrong method falls
/// through to here instead of getting actix's own 405).
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    use actix_web::ResponseError;
    let path = req.path();
    let allowed: Vec<&str> = known_routes()
        .iter()
        .filter(|(def, _)| def.is_match(path))
        .flat_map(|(_, methods)| methods.iter().copied())
        .collect();
    if allowed.is_empty() {
        return ApiError::not_found("not_found", "no such route").error_response();
    }
    let mut res = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "{} is not allowed here; allowed: {}",
            req.method(),
            allowed.join(", ")
        ),
    )
    .error_response();
    if let Ok(v) = header::HeaderValue::from_str(&allowed.join(", ")) {
        res.headers_mut().insert(header::ALLOW, v);
    }
    res
}

/// Every served path pattern with its methods: the documented ones from the OpenAPI document,
/// plus the spec and docs pages and the web client.
fn known_routes() -> &'static [(actix_web::dev::ResourceDef, Vec<&'static str>)] {
    static ROUTES: std::sync::OnceLock<Vec<(actix_web::dev::ResourceDef, Vec<&'static str>)>> =
        std::sync::OnceLock::new();
    ROUTES.get_or_init(|| {
        let doc = crate::openapi::document();
        let mut routes: Vec<_> = doc
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let methods = [
                    ("GET", item.get.is_some()),
                    ("PUT", item.put.is_some()),
                    ("POST", item.post.is_some()),
                    ("DELETE", item.delete.is_some()),
                    ("PATCH", item.patch.is_some()),
                ]
                .into_iter()
                .filter_map(|(m, has)| has.then_some(m))
                .collect();
                (actix_web::dev::ResourceDef::new(path.as_str()), methods)
            })
            .collect();
        for path in ["/openapi.json", "/docs", "/docs/{_:.*}"] {
            routes.push((actix_web::dev::ResourceDef::new(path), vec!["GET"]));
        }
        for path in crate::web_client::PATHS {
            routes.push((actix_web::dev::ResourceDef::new(*path), vec!["GET"]));
        }
        routes
    })
}

/// Re-export for the startup code.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(BODY_LIMIT)
        .error_handler(crate::error::json_error)
}
