//! History: the event log (paged, or streamed as NDJSON) and time travel.

use std::sync::Arc;

use actix_web::http::header;
use actix_web::web::{Bytes, Data, Query};
use actix_web::{get, HttpResponse};
use futures_util::stream;

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{Bearer, GameId, Seq, WantsNdjson, NDJSON};
use crate::service::history;
use crate::state::AppState;

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
        (status = 400, description = "Malformed id, bad or out-of-range query (`invalid_id`, `invalid_query`)"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}/events")]
pub async fn list_events(
    state: Data<AppState>,
    GameId(id): GameId,
    q: Query<EventsQuery>,
    bearer: Bearer,
    WantsNdjson(ndjson): WantsNdjson,
) -> Result<HttpResponse, ApiError> {
    let after = q.after.map_or(0, |a| a.get());
    let limit = if ndjson {
        500
    } else {
        q.limit.map_or(100, |l| l.get())
    };
    // A client asking for the events after `after` has seen the game at that version.
    let (access, first) = state
        .read_blocking(Some(after), move |conn, cx| {
            let access = history::log_access(conn, cx, id, bearer.token())?;
            let page = history::events_page(conn, id, &access, after, limit)?;
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
    let access = Arc::new(access);
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
            // Every page is read from a server that has the game at least at the first
            // page's version, so that a lagging replica cannot cut the log short.
            let next = match page.next_after {
                Some(after) => {
                    let a = access.clone();
                    state
                        .read_blocking(Some(access.version), move |conn, _| {
                            let version = db::store::game_version(conn, id)?;
                            Ok((version, history::events_page(conn, id, &a, after, limit)?))
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
        (status = 400, description = "Malformed id or seq (`invalid_id`, `invalid_seq`)"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game or seq (`game_not_found`, `no_such_state`)"),
    )
)]
#[get("/v1/games/{id}/states/{seq}")]
pub async fn get_state(
    state: Data<AppState>,
    GameId(id): GameId,
    Seq(seq): Seq,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    // A replica that has not replayed `seq` yet answers 404, and the primary answers instead.
    let doc = state
        .read_blocking(None, move |conn, cx| {
            history::state_at(conn, cx, id, bearer.token(), seq)
        })
        .await?;
    Ok(HttpResponse::Ok().json(doc))
}
