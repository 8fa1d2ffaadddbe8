//! The seats' lifecycle: resigning, reclaiming a seat from the server's bot, aborting a game
//! before anyone moved. Clocks running out and open games expiring are the deadline workers'
//! ([`crate::deadline_runner`]); they write the same lifecycle events.

use actix_web::web::Data;
use actix_web::{post, HttpResponse};

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{GameId, NoBody, SeatNumber, SeatToken};
use crate::service::lifecycle;
use crate::state::AppState;

/// Resign a seat, with that seat's token.
///
/// The seat leaves the game for good (`seat_resigned` in the log). With fewer than two seats
/// left in the game it ends (`finished`, the remaining seat wins, `ended_by: resignation`);
/// otherwise the server's bot plays on for the seat (`bot_took_over`) and the game's outcome
/// ranks the seat below every seat that plays to the end, whatever its score. It takes no
/// body (or `{}`).
#[utoipa::path(
    tag = "play",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("seat" = u8, Path, minimum = 0, maximum = 255, description = "The seat to resign: the token's own"),
    ),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "Resigned; the game after it for the caller, and the events written", body = ActionResponse),
        (status = 400, description = "Malformed id or seat, or a body (`invalid_id`, `invalid_seat_number`, `invalid_body`)"),
        (status = 401, description = "Missing or unknown token"),
        (status = 403, description = "Token of another game, or of another seat (`token_for_other_game`, `not_your_seat`)"),
        (status = 404, description = "No such game"),
        (status = 409, description = "Already resigned, game not started or over (`seat_resigned`, `game_not_started`, `game_over`)"),
    )
)]
#[post("/v1/games/{id}/seats/{seat}/resign")]
pub async fn resign(
    state: Data<AppState>,
    GameId(id): GameId,
    SeatNumber(seat): SeatNumber,
    token: SeatToken,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let answer = state
        .db(move |conn, cx| lifecycle::resign(conn, cx, id, seat, &token))
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// Reclaim a seat from the server's bot, with that seat's token.
///
/// After a seat's clock ran out with `on_timeout: bot`, the server's bot plays it
/// (`taken_over`). Its player takes it back here (`seat_reclaimed` in the log): the seat's
/// legal actions are the player's again, and its clock starts afresh (a full per-move time or
/// Fischer bank). It takes no body (or `{}`).
#[utoipa::path(
    tag = "play",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("seat" = u8, Path, minimum = 0, maximum = 255, description = "The seat to reclaim: the token's own"),
    ),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "Reclaimed; the game after it for the caller, and the events written", body = ActionResponse),
        (status = 400, description = "Malformed id or seat, or a body (`invalid_id`, `invalid_seat_number`, `invalid_body`)"),
        (status = 401, description = "Missing or unknown token"),
        (status = 403, description = "Token of another game, or of another seat (`token_for_other_game`, `not_your_seat`)"),
        (status = 404, description = "No such game"),
        (status = 409, description = "No bot holds the seat, it resigned, or the game is not started or over (`seat_not_taken_over`, `seat_resigned`, `game_not_started`, `game_over`)"),
    )
)]
#[post("/v1/games/{id}/seats/{seat}/reclaim")]
pub async fn reclaim(
    state: Data<AppState>,
    GameId(id): GameId,
    SeatNumber(seat): SeatNumber,
    token: SeatToken,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let answer = state
        .db(move |conn, cx| lifecycle::reclaim(conn, cx, id, seat, &token))
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}

/// Abort a game before anyone moved, with any seat's token.
///
/// While no seat has made its first move (an open game, or a started one before its first
/// action, a bot's included), any seated player may end the game: it is `aborted`, with no
/// winner (`game_aborted` in the log of a started game; an open game ends without an event).
/// It takes no body (or `{}`).
#[utoipa::path(
    tag = "play",
    params(("id" = Uuid, Path, description = "Game id")),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "Aborted; the game after it for the caller, and the events written", body = ActionResponse),
        (status = 400, description = "Malformed id, or a body (`invalid_id`, `invalid_body`)"),
        (status = 401, description = "Missing or unknown token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
        (status = 409, description = "A seat has moved, or the game is over (`too_late_to_abort`, `game_over`)"),
    )
)]
#[post("/v1/games/{id}/abort")]
pub async fn abort(
    state: Data<AppState>,
    GameId(id): GameId,
    token: SeatToken,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let answer = state
        .db(move |conn, cx| lifecycle::abort(conn, cx, id, &token))
        .await?;
    Ok(HttpResponse::Ok().json(answer))
}
