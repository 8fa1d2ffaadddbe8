//! History: the event log (paged, or streamed as NDJSON), time travel, and game records
//! (export and import).

use std::sync::Arc;

use actix_web::http::header;
use actix_web::web::{Bytes, Data, Query};
use actix_web::{get, post, HttpRequest, HttpResponse};

use crate::caching::{self, Audience, Lifetime};
use futures_util::stream;

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{
    Bearer, GameId, Idempotency, Seq, StrictJson, WantsNdjson, NDJSON, RECORD_LIMIT,
};
use crate::service::history;
use crate::service::lobby_keys::LobbyKey;
use crate::state::AppState;

/// The event log, a page at a time.
///
/// Redacted for the caller: secrets such as a shuffled deck's order are hidden until the game
/// ends. Pages follow `next_after` (also in `Link: <...>; rel="next"`). The whole log as one
/// stream of lines is `GET …/events.ndjson`; this operation gives the same stream to a client
/// that asks for `Accept: application/x-ndjson`, which older clients do.
#[utoipa::path(
    tag = "history",
    params(("id" = Uuid, Path, description = "Game id"), EventsQuery),
    responses(
        (status = 200, description = "A page of events (`Cache-Control: immutable` once the game is finished, else revalidated by its `ETag`)", body = EventPage,
         headers(("Link" = String, description = "`<...>; rel=\"next\"` when there is a next page"),
                 ("ETag" = String, description = "Strong, per page, viewer and redaction"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
        (status = 400, description = "Malformed id, bad or out-of-range query (`invalid_id`, `invalid_query`)"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}/events")]
pub async fn list_events(
    req: HttpRequest,
    state: Data<AppState>,
    GameId(id): GameId,
    q: Query<EventsQuery>,
    bearer: Bearer,
    WantsNdjson(ndjson): WantsNdjson,
) -> Result<HttpResponse, ApiError> {
    let after = q.after.map_or(0, |a| a.get());
    if ndjson {
        return export(req, state, id, after, bearer).await;
    }
    let limit = q.limit.map_or(100, |l| l.get());
    let audience = Audience::of(bearer.token().is_some());
    // A client asking for the events after `after` has seen the game at that version.
    let (access, page) = state
        .read_blocking(Some(after), move |conn, cx| {
            let access = history::log_access(conn, cx, id, bearer.token())?;
            let page = history::events_page(conn, id, &access, after, limit)?;
            Ok((access, page))
        })
        .await?;
    let etag = page_tag(&access, &page, after, limit);
    let (mut res, fresh) = caching::conditional(
        req.headers(),
        &etag,
        audience,
        Lifetime::until_over(access.finished),
    );
    if let Some(next) = page.next_after {
        res.insert_header((
            header::LINK,
            format!("</v1/games/{id}/events?after={next}&limit={limit}>; rel=\"next\""),
        ));
    }
    Ok(if fresh { res.finish() } else { res.json(page) })
}

/// A page's tag: what decides its content. A full page (one with a next page) covers the same
/// events whatever the log grows to; the last page covers the log up to the version; and
/// every event is shown unredacted once the game is finished.
fn page_tag(access: &history::LogAccess, page: &EventPage, after: i64, limit: i64) -> String {
    let upto = page.next_after.unwrap_or(access.version);
    let redaction = if access.finished { "open" } else { "live" };
    let viewer = caching::viewer_tag(access.seat.map(|s| i32::from(s.0)));
    format!("\"e{after}-{upto}-{limit}-{redaction}-{viewer}\"")
}

/// The game's record: everything needed to replay and judge it without the server.
///
/// Type, rules and chance versions, the full config, the setup events and every commit after
/// it (a seat's action with the events it caused, or an event of the seats' lifecycle), the
/// chance commitment and, once the game is over, its reveal, and the server's facts (`table`:
/// seats, clock, times, outcome). Anyone can check a finished game's record offline
/// (`cargo run -p engine --bin verify-record -- record.json`, or from `docs/fairness.md`) and
/// import it (`POST /v1/records`). While the game runs only its seats get it, redacted as they
/// see the game and without the reveal.
#[utoipa::path(
    tag = "history",
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "The record (`Cache-Control: immutable` once the game is over, else revalidated by its `ETag`)", body = engine::record::Record,
         headers(("ETag" = String, description = "Strong, per version and viewer"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
        (status = 400, description = "Malformed id (`invalid_id`)"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game; `record_not_public`: a spectator of a game that is not over"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}/record")]
pub async fn game_record(
    req: HttpRequest,
    state: Data<AppState>,
    GameId(id): GameId,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let audience = Audience::of(bearer.token().is_some());
    let read = state
        .db(move |conn, cx| crate::service::record::record(conn, cx, id, bearer.token()))
        .await?;
    let redaction = if read.over { "open" } else { "live" };
    let etag = format!(
        "\"r{}-{redaction}-{}\"",
        read.version,
        caching::viewer_tag(read.seat)
    );
    let (mut res, fresh) = caching::conditional(
        req.headers(),
        &etag,
        audience,
        Lifetime::until_over(read.over),
    );
    Ok(if fresh {
        res.finish()
    } else {
        res.json(read.record)
    })
}

/// Import a game record.
///
/// The record (as `GET /v1/games/{id}/record` gives it, from this server or another) is
/// verified first: the revealed seed against the commitment, every action against the rules
/// with the revealed chance, every event as recorded. A record that verifies becomes a new
/// finished, unrated game marked `imported_from` (its document, events, states and record are
/// the recorded game's; nobody can act in it, it changes no rating). One that does not is a
/// 422 `invalid_record` whose `record` says the first failing move, the rule and the reason;
/// nothing is stored.
#[utoipa::path(
    tag = "history",
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "16 to 255 visible ASCII characters, random (a UUID): a retry with the same key and body gets the same imported game"),
    ),
    request_body = engine::record::Record,
    responses(
        (status = 201, description = "Imported (or replayed)", body = ImportedGame,
         headers(("Location" = String, description = "The imported game's URL"),
                 ("Idempotency-Replayed" = String, description = "`true` when this is a stored response"))),
        (status = 400, description = "Malformed body, unknown field, bad key (`malformed_json`, `invalid_body`, `invalid_idempotency_key`)"),
        (status = 413, description = "Body over 16 MiB"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "The record does not verify (`invalid_record`, with `record.move_index`, `record.rule`, `record.reason`), or the key was used for another request (`idempotency_key_reused`)"),
    )
)]
#[post("/v1/records")]
pub async fn import_record(
    state: Data<AppState>,
    body: StrictJson<engine::record::Record, RECORD_LIMIT>,
    Idempotency(key): Idempotency,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let record = body.into_inner();
    let key = key
        .map(|k| {
            LobbyKey::new(
                &state.context.token_secret,
                k,
                "POST /v1/records",
                None,
                &record,
                bearer.token(),
            )
        })
        .transpose()?;
    let answer = state
        .db(move |conn, cx| crate::service::import::import(conn, cx, record, key))
        .await?;
    let mut res = HttpResponse::Created();
    if answer.replayed {
        res.insert_header(("Idempotency-Replayed", "true"));
    }
    res.insert_header((
        header::LOCATION,
        format!("/v1/games/{}", answer.body.game_id),
    ));
    Ok(res.json(answer.body))
}

/// The whole event log as NDJSON.
///
/// One `LoggedEvent` per line (the event with the game's `type`), redacted for the caller like
/// the pages of `GET …/events`, from after `after` to the end of the log as it is while the
/// export runs; read page by page, so a long log never holds the database for long.
#[utoipa::path(
    tag = "history",
    params(("id" = Uuid, Path, description = "Game id"), ExportQuery),
    responses(
        (status = 200, description = "One `LoggedEvent` JSON per line; a finished game's export never changes (`Cache-Control: immutable`)",
         content_type = "application/x-ndjson", body = LoggedEvent,
         headers(("ETag" = String, description = "Strong, per start, version and viewer"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
        (status = 400, description = "Malformed id, bad or out-of-range query (`invalid_id`, `invalid_query`)"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}/events.ndjson")]
pub async fn export_events(
    req: HttpRequest,
    state: Data<AppState>,
    GameId(id): GameId,
    q: Query<ExportQuery>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    export(req, state, id, q.after.map_or(0, |a| a.get()), bearer).await
}

/// Streams the log after `after` page by page; each page is one short database call.
async fn export(
    req: HttpRequest,
    state: Data<AppState>,
    id: uuid::Uuid,
    after: i64,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    const PAGE: i64 = 500;
    let audience = Audience::of(bearer.token().is_some());
    // A client asking for the events after `after` has seen the game at that version.
    let (access, first) = state
        .read_blocking(Some(after), move |conn, cx| {
            let access = history::log_access(conn, cx, id, bearer.token())?;
            let page = history::events_page(conn, id, &access, after, PAGE)?;
            Ok((access, page))
        })
        .await?;
    // The export holds the log from `after` up to the version of its first read, for the
    // caller's view: that is its tag, and a finished game's export never changes.
    let redaction = if access.finished { "open" } else { "live" };
    let viewer = caching::viewer_tag(access.seat.map(|s| i32::from(s.0)));
    let etag = format!("\"x{after}-{}-{redaction}-{viewer}\"", access.version);
    let lifetime = Lifetime::until_over(access.finished);
    if caching::not_modified(req.headers(), &etag) {
        let mut res = HttpResponse::NotModified();
        caching::mark(&mut res, &etag, audience, lifetime);
        return Ok(res.finish());
    }
    let state = state.into_inner();
    let access = Arc::new(access);
    let body = stream::unfold(Some(first), move |page| {
        let state = state.clone();
        let access = access.clone();
        async move {
            let page = page?;
            let mut chunk = Vec::new();
            for e in &page.events {
                if serde_json::to_writer(&mut chunk, &LoggedEvent::of(&page.type_, e)).is_ok() {
                    chunk.push(b'\n');
                }
            }
            // Every page is read from a server that has the game at least at the first
            // page's version, so that a lagging replica cannot cut the log short.
            let next = match page.next_after {
                Some(after) => {
                    let a = access.clone();
                    state
                        .read_blocking(Some(access.version), move |conn, _| {
                            let version = db::store::game_version(conn, id)?;
                            Ok((version, history::events_page(conn, id, &a, after, PAGE)?))
                        })
                        .await
                        .ok()
                        .map(|(_, page)| page)
                }
                None => None,
            };
            Some((Ok::<_, actix_web::Error>(Bytes::from(chunk)), next))
        }
    });
    let mut res = HttpResponse::Ok();
    caching::mark(&mut res, &etag, audience, lifetime);
    Ok(res.content_type(NDJSON).streaming(body))
}

/// The caller's view as of event `seq` (time travel).
///
/// Rebuilt by folding events `1..=seq`, and shown as the caller may see it now.
#[utoipa::path(
    tag = "history",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("seq" = i64, Path, description = "An event seq, 1 to the game's version"),
    ),
    responses(
        (status = 200, description = "The state as of `seq`: never changes (`Cache-Control: immutable`)", body = StateDocument,
         headers(("ETag" = String, description = "Strong, per seq and viewer"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
        (status = 400, description = "Malformed id or seq (`invalid_id`, `invalid_seq`)"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game or seq (`game_not_found`, `no_such_state`)"),
    )
)]
#[get("/v1/games/{id}/states/{seq}")]
pub async fn get_state(
    req: HttpRequest,
    state: Data<AppState>,
    GameId(id): GameId,
    Seq(seq): Seq,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let audience = Audience::of(bearer.token().is_some());
    // A replica that has not replayed `seq` yet answers 404, and the primary answers instead.
    let doc = state
        .read_blocking(None, move |conn, cx| {
            history::state_at(conn, cx, id, bearer.token(), seq)
        })
        .await?;
    // The log is append-only: the state as of `seq` never changes for a viewer.
    let etag = format!("\"s{seq}-{}\"", caching::viewer_tag(doc.seat));
    let fresh = caching::not_modified(req.headers(), &etag);
    let mut res = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    caching::mark(&mut res, &etag, audience, Lifetime::Immutable);
    Ok(if fresh { res.finish() } else { res.json(doc) })
}
