//! Taking seats in an open game and starting it: the second half of the lobby (creating and
//! listing games are [`super::games`]).

use actix_web::http::header;
use actix_web::web::Data;
use actix_web::{post, HttpResponse};

use super::games::{bot_info, created_response, valid_entropy, valid_name};
use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{Bearer, GameId, Idempotency, NoBody, SeatToken, StrictJson};
use crate::service::lobby_keys::{Answer, LobbyKey};
use crate::service::seating;
use crate::state::AppState;

/// Take an open seat.
///
/// For a person (`name`), for the player whose token authorizes the request (neither `name`
/// nor `bot`: the player's token then acts for the seat), or for the server's bot (`bot`). A
/// person's seat token is in the response, once. The join that fills the last seat starts the
/// game. Joins do not change the version (no event is written). With an `Idempotency-Key`, a
/// retry with the same key, body and credentials gets the stored response again
/// (`Idempotency-Replayed: true`), token included, instead of taking a second seat.
#[utoipa::path(
    tag = "games",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        ("Idempotency-Key" = Option<String>, Header, description = "16 to 255 visible ASCII characters, random (a UUID): a retry with the same key and body gets the same seat and token"),
    ),
    request_body = JoinRequest,
    responses(
        (status = 201, description = "Seat taken (or replayed)", body = Joined,
         headers(("Idempotency-Replayed" = String, description = "`true` when this is a stored response"))),
        (status = 400, description = "Malformed id, body or key (`invalid_id`, `malformed_json`, `invalid_body`, `invalid_idempotency_key`)"),
        (status = 404, description = "No such game"),
        (status = 401, description = "An unknown or rotated player token (`invalid_token`)"),
        (status = 409, description = "Seat taken, no open seat, game already started, the player holds a seat of it already, or a bot would fill a table over the limit of games of bots only (`seat_taken`, `no_open_seat`, `game_already_started`, `already_seated`, `bot_game_limit`)"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "No such seat, bad name, neither or both of name and bot, a name with a player token, an anonymous or bot seat in a rated game, key used for another request (`no_such_seat`, `invalid_name`, `invalid_seat`, `rated_game_needs_players`, `rated_game_with_bots`, `idempotency_key_reused`)"),
    )
)]
#[post("/v1/games/{id}/seats")]
pub async fn join_seat(
    state: Data<AppState>,
    GameId(id): GameId,
    body: StrictJson<JoinRequest>,
    Idempotency(key): Idempotency,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let key = key
        .map(|k| {
            LobbyKey::new(
                &state.context.token_secret,
                k,
                "POST /v1/games/{id}/seats",
                Some(id),
                &body,
                bearer.token(),
            )
        })
        .transpose()?;
    let seat = body.seat;
    let player = bearer.0.filter(|t| t.is_player());
    let entropy = valid_entropy(body.entropy.as_ref())?;
    if entropy.is_some() && body.bot.is_some() {
        return Err(ApiError::unprocessable(
            "invalid_seat",
            "entropy goes with a person's or a player's seat, not a bot's",
        ));
    }
    let answer = match (&body.name, body.bot, body.budget_ms) {
        (None, None, None) if player.is_some() => {
            let token = player.expect("matched as Some");
            let a = state
                .db(move |conn, cx| seating::join_player(conn, cx, id, seat, &token, entropy, key))
                .await?;
            Answer {
                body: Joined::Player(a.body),
                replayed: a.replayed,
            }
        }
        (Some(_), None, None) if player.is_some() => {
            return Err(ApiError::unprocessable(
                "invalid_seat",
                "with a player token the seat takes the player's name: leave out name",
            ))
        }
        (Some(name), None, None) => {
            let name = valid_name(name)?;
            let a = state
                .db(move |conn, cx| seating::join(conn, cx, id, seat, name, entropy, key))
                .await?;
            Answer {
                body: Joined::Person(a.body),
                replayed: a.replayed,
            }
        }
        (None, Some(level), budget_ms) => {
            let bot = bot_info(level, budget_ms, state.context.bots.max_budget_ms);
            let a = state
                .db(move |conn, cx| seating::join_bot(conn, cx, id, seat, bot, key))
                .await?;
            Answer {
                body: Joined::Bot(a.body),
                replayed: a.replayed,
            }
        }
        _ => {
            return Err(ApiError::unprocessable(
                "invalid_seat",
                "a join is {\"name\": ...} or {\"bot\": ...} (budget_ms only with bot)",
            ))
        }
    };
    Ok(created_response(answer, None))
}

/// Start an open game with the seats taken so far.
///
/// The open seats are closed: the taken seats keep their playing order and are numbered from
/// 0 again (read your `seat` from the answer). Refused while fewer seats are taken than the
/// game needs. Games created full, and games whose last open seat is joined, start by
/// themselves. Needs a seat token of the game. It takes no body (or `{}`).
#[utoipa::path(
    tag = "games",
    params(("id" = Uuid, Path, description = "Game id")),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "Started; the game document for the caller", body = GameDocument,
         headers(("ETag" = String, description = "Of the started game, for the caller"))),
        (status = 400, description = "Malformed id, or a body (`invalid_id`, `invalid_body`)"),
        (status = 401, description = "Missing or unknown token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
        (status = 409, description = "Too few seats taken, or already started (`too_few_seats`, `game_already_started`)"),
    )
)]
#[post("/v1/games/{id}/start")]
pub async fn start_game(
    state: Data<AppState>,
    GameId(id): GameId,
    token: SeatToken,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let (doc, etag) = state
        .db(move |conn, cx| seating::start_by(conn, cx, id, &token))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag))
        .json(doc))
}
