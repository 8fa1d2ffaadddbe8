//! Table chat and whose chat a player mutes.

use actix_web::http::header;
use actix_web::web::{Data, Path, Query};
use actix_web::{delete, get, post, HttpResponse};
use uuid::Uuid;

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{Bearer, GameId, NoBody, PlayerToken, StrictJson};
use crate::service::chat;
use crate::state::AppState;

/// Post a chat message at a game.
///
/// With a seat's token (or the player token of a seated player) the message goes to the
/// seated players (`players`); with the player token of a player without a seat, to the
/// players watching (`spectators`). The two channels never see each other's messages, and
/// chat is never part of the game's log or record. Plain text: 1 to 500 characters, one line.
/// A sender posts at most 5 messages in any 10 seconds to one table (429
/// `chat_rate_limited` with `Retry-After`). Delivered to the channel's readers through the
/// game's stream (`event: chat`) and readable with `GET /v1/games/{id}/chat`.
#[utoipa::path(
    tag = "play",
    params(("id" = Uuid, Path, description = "Game id")),
    request_body = ChatRequest,
    responses(
        (status = 201, description = "The message as posted", body = ChatMessage),
        (status = 400, description = "Malformed id or body (`invalid_id`, `malformed_json`, `invalid_body`)"),
        (status = 401, description = "No token, or an unknown one (`missing_token`, `invalid_token`)"),
        (status = 403, description = "A seat token of another game (`token_for_other_game`)"),
        (status = 404, description = "No such game"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "Empty, too long, or with a control character (`invalid_chat_message`)"),
        (status = 429, description = "Too many messages for now (`chat_rate_limited`, with `Retry-After`)"),
    )
)]
#[post("/v1/games/{id}/chat")]
pub async fn post_chat(
    state: Data<AppState>,
    GameId(id): GameId,
    bearer: Bearer,
    body: StrictJson<ChatRequest>,
) -> Result<HttpResponse, ApiError> {
    let text = body.into_inner().text;
    chat::check_text(&text)?;
    let row = state
        .db(move |conn, cx| chat::post(conn, cx, id, bearer.token(), &text))
        .await?;
    state.context.changes.chat(&row);
    Ok(HttpResponse::Created().json(chat::message(&row)))
}

/// A game's chat, as the caller may read it.
///
/// The caller's channel (`players` with a seat of the game, else `spectators`; anyone may
/// read the spectators' without a token), oldest first, after `after`; the messages of the
/// players the caller muted are left out. Paged: pass `next_after` as `after`.
#[utoipa::path(
    tag = "play",
    params(("id" = Uuid, Path, description = "Game id"), ChatQuery),
    responses(
        (status = 200, description = "A page of the caller's channel", body = ChatPage),
        (status = 400, description = "Malformed id or query (`invalid_id`, `invalid_query`)"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "A seat token of another game (`token_for_other_game`)"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}/chat")]
pub async fn get_chat(
    state: Data<AppState>,
    GameId(id): GameId,
    bearer: Bearer,
    query: Query<ChatQuery>,
) -> Result<HttpResponse, ApiError> {
    let after = query.after.unwrap_or(0);
    let limit = query.limit.unwrap_or(100);
    if after < 0 || !(1..=100).contains(&limit) {
        return Err(ApiError::bad_request(
            "invalid_query",
            "after is 0 or more, limit 1 to 100",
        ));
    }
    let page = state
        .db(move |conn, cx| chat::page(conn, cx, id, bearer.token(), after, limit))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(page))
}

/// Mute a player's chat.
///
/// The caller no longer sees that player's chat messages, in pages and in streams opened
/// from now on, at every table.
#[utoipa::path(
    tag = "players",
    request_body = MuteRequest,
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The players the caller mutes now", body = Mutes),
        (status = 400, description = "Malformed body (`malformed_json`, `invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 422, description = "Unknown player, or the caller itself (`unknown_player`, `mute_yourself`)"),
    )
)]
#[post("/v1/players/me/mutes")]
pub async fn mute(
    state: Data<AppState>,
    token: PlayerToken,
    body: StrictJson<MuteRequest>,
) -> Result<HttpResponse, ApiError> {
    let who = body.into_inner().player;
    let players = state
        .db(move |conn, cx| chat::mute(conn, cx, &token.0, &who))
        .await?;
    Ok(HttpResponse::Ok().json(Mutes { players }))
}

/// The players whose chat the caller mutes.
///
/// In the order they were muted: their chat messages are left out of the caller's pages and
/// streams.
#[utoipa::path(
    tag = "players",
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The players the caller mutes, in the order muted", body = Mutes),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
    )
)]
#[get("/v1/players/me/mutes")]
pub async fn list_mutes(
    state: Data<AppState>,
    token: PlayerToken,
) -> Result<HttpResponse, ApiError> {
    let players = state
        .db(move |conn, cx| chat::mutes(conn, cx, &token.0))
        .await?;
    Ok(HttpResponse::Ok().json(Mutes { players }))
}

/// Unmute a player's chat.
///
/// The player's messages show again in the caller's pages and in the streams it opens from
/// now on. It takes no body (or `{}`).
#[utoipa::path(
    tag = "players",
    params(("player_id" = Uuid, Path, description = "The muted player's id")),
    security(("player_token" = [])),
    responses(
        (status = 204, description = "Unmuted"),
        (status = 400, description = "A body (`invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 404, description = "The caller does not mute this player (`not_muted`)"),
    )
)]
#[delete("/v1/players/me/mutes/{player_id}")]
pub async fn unmute(
    state: Data<AppState>,
    token: PlayerToken,
    player_id: Path<String>,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let muted = Uuid::try_parse(&player_id)
        .map_err(|_| ApiError::not_found("not_muted", "you have not muted this player"))?;
    state
        .db(move |conn, cx| chat::unmute(conn, cx, &token.0, muted))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
