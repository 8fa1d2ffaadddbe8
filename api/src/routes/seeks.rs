//! Seeks: waiting for opponents, reading a seek, cancelling it.

use actix_web::http::header;
use actix_web::web::{Data, Path};
use actix_web::{delete, get, post, HttpResponse};
use uuid::Uuid;

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{Idempotency, NoBody, PlayerToken, StrictJson};
use crate::service::lobby_keys::LobbyKey;
use crate::service::seeks::{self, SeekPlan};
use crate::state::AppState;

fn seek_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::try_parse(raw)
        .map_err(|_| ApiError::not_found("seek_not_found", "no seek with this id (ids are UUIDs)"))
}

/// Seek opponents.
///
/// The seek waits in the pool of its kind of game (same type, seats, clock, rated and
/// config). As soon as the pool holds enough distinct players, the server creates the game
/// with them seated (in random order; their player tokens act for their seats) and tells each
/// through its stream (`game_started`, `turn`, `seek_matched`); the seek that completes the
/// table is answered `matched` at once. Concurrent seekers, on any number of server
/// processes, are matched exactly once. With `fill_with_bots_after`, a seek still waiting
/// after that many seconds starts its game with the seekers there are and the server's bots.
/// A seek waits at most the server's `--seek-ttl` (default 1 h). With an `Idempotency-Key`, a
/// retry with the same key, body and token gets the first answer again
/// (`Idempotency-Replayed: true`) instead of a second seek.
#[utoipa::path(
    tag = "players",
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "16 to 255 visible ASCII characters, random (a UUID): a retry with the same key, body and token gets the same seek"),
    ),
    request_body = SeekRequest,
    security(("player_token" = [])),
    responses(
        (status = 201, description = "The seek, `waiting` or already `matched` (or replayed)", body = Seek,
         headers(("Location" = String, description = "The seek's URL"),
                 ("Idempotency-Replayed" = String, description = "`true` when this is a stored response"))),
        (status = 400, description = "Malformed body, a bad clock or fill delay, a credential in the query string, a bad key (`malformed_json`, `invalid_body`, `invalid_clock`, `invalid_seek`, `token_in_query`, `invalid_idempotency_key`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "Unknown type, impossible seat count, bad config, a rated seek with bots, key used for another request (`unknown_game_type`, `invalid_seat_count`, `invalid_config`, `rated_game_with_bots`, `idempotency_key_reused`)"),
    )
)]
#[post("/v1/seeks")]
pub async fn create_seek(
    state: Data<AppState>,
    token: PlayerToken,
    body: StrictJson<SeekRequest>,
    Idempotency(key): Idempotency,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let key = key
        .map(|k| {
            LobbyKey::new(
                &state.context.token_secret,
                k,
                "POST /v1/seeks",
                None,
                &body,
                Some(&token.0),
            )
        })
        .transpose()?;
    let kind = super::games::hosted_type(&body.type_)?;
    let clock = super::games::clock_of(body.clock)?;
    let plan = SeekPlan {
        kind,
        seats: body.seats,
        clock,
        rated: body.rated.unwrap_or(false),
        config: body.config.unwrap_or(kind.info().default_config),
        fill_with_bots_after: body.fill_with_bots_after,
        entropy: super::games::valid_entropy(body.entropy.as_ref())?,
    };
    seeks::check(&plan)?;
    let answer = state
        .db(move |conn, cx| seeks::create(conn, cx, &token.0, plan, key))
        .await?;
    let mut res = HttpResponse::Created();
    if answer.replayed {
        res.insert_header(("Idempotency-Replayed", "true"));
    }
    Ok(res
        .insert_header((
            header::LOCATION,
            format!("/v1/seeks/{}", answer.body.seek_id),
        ))
        .json(answer.body))
}

/// Read a seek.
///
/// Whether it still waits, or the game it was matched into (with the seat it got).
#[utoipa::path(
    tag = "players",
    params(("id" = Uuid, Path, description = "Seek id")),
    responses(
        (status = 200, description = "The seek", body = Seek),
        (status = 404, description = "No such seek (`seek_not_found`)"),
    )
)]
#[get("/v1/seeks/{id}")]
pub async fn get_seek(state: Data<AppState>, id: Path<String>) -> Result<HttpResponse, ApiError> {
    let id = seek_id(&id)?;
    let seek = state.db(move |conn, _| seeks::get(conn, id)).await?;
    Ok(HttpResponse::Ok().json(seek))
}

/// Cancel a seek.
///
/// Only with its player's token; refused once the seek was matched, cancelled or expired. It
/// takes no body (or `{}`).
#[utoipa::path(
    tag = "players",
    params(("id" = Uuid, Path, description = "Seek id")),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "Cancelled", body = Seek),
        (status = 400, description = "A credential in the query string, or a body (`token_in_query`, `invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 403, description = "Another player's seek (`not_your_seek`)"),
        (status = 404, description = "No such seek (`seek_not_found`)"),
        (status = 409, description = "Matched, cancelled or expired already (`seek_not_waiting`)"),
    )
)]
#[delete("/v1/seeks/{id}")]
pub async fn cancel_seek(
    state: Data<AppState>,
    token: PlayerToken,
    id: Path<String>,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let id = seek_id(&id)?;
    let seek = state
        .db(move |conn, cx| seeks::cancel(conn, cx, &token.0, id))
        .await?;
    Ok(HttpResponse::Ok().json(seek))
}
