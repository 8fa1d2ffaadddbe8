//! Players: creating one, the caller's own profile and token, its games, public profiles and
//! leaderboards.

use actix_web::http::header;
use actix_web::web::{Data, Path, Query};
use actix_web::{get, post, HttpResponse};
use db::store::PlayerGameFilter;
use uuid::Uuid;

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{Idempotency, NoBody, PlayerToken, StrictJson};
use crate::service::lobby_keys::LobbyKey;
use crate::service::{players, profiles};
use crate::state::AppState;

/// Create a player.
///
/// One identity across games: the player's token (shown here once; only its hash is stored)
/// takes seats (`{"me": true}` when creating a game, a join without a name) and then acts for
/// every one of them, wherever a seat token does. Names are 2 to 24 characters and unique
/// after Unicode case folding. With an `Idempotency-Key`, a retry with the same key and body
/// gets the first answer again (`Idempotency-Replayed: true`), token included, instead of
/// `name_taken`.
#[utoipa::path(
    tag = "players",
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "16 to 255 visible ASCII characters, random (a UUID): a retry with the same key and body gets the same player and token"),
    ),
    request_body = CreatePlayerRequest,
    responses(
        (status = 201, description = "Created (or replayed); the token is shown once", body = CreatedPlayer,
         headers(("Location" = String, description = "The player's public profile"),
                 ("Idempotency-Replayed" = String, description = "`true` when this is a stored response"))),
        (status = 400, description = "Malformed body, a bad name or key (`malformed_json`, `invalid_body`, `invalid_player_name`, `invalid_idempotency_key`)"),
        (status = 409, description = "The name is taken (`name_taken`)"),
        (status = 422, description = "Key used for another request (`idempotency_key_reused`)"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
    )
)]
#[post("/v1/players")]
pub async fn create_player(
    state: Data<AppState>,
    body: StrictJson<CreatePlayerRequest>,
    Idempotency(key): Idempotency,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let key = key
        .map(|k| {
            LobbyKey::new(
                &state.context.token_secret,
                k,
                "POST /v1/players",
                None,
                &body,
                None,
            )
        })
        .transpose()?;
    let name = players::parse_name(&body.name)?;
    let answer = state
        .db(move |conn, cx| players::create(conn, cx, name, key))
        .await?;
    let mut res = HttpResponse::Created();
    if answer.replayed {
        res.insert_header(("Idempotency-Replayed", "true"));
    }
    Ok(res
        .insert_header((
            header::LOCATION,
            format!("/v1/players/{}", answer.body.player_id),
        ))
        .json(answer.body))
}

/// The caller's own profile.
///
/// The profile of the player whose token authorizes the request, as `GET /v1/players/{id}`
/// shows it.
#[utoipa::path(
    tag = "players",
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The caller's profile", body = PlayerProfile),
        (status = 400, description = "A credential in the query string (`token_in_query`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
    )
)]
#[get("/v1/players/me")]
pub async fn me(state: Data<AppState>, token: PlayerToken) -> Result<HttpResponse, ApiError> {
    let found = state
        .db(move |conn, cx| profiles::me(conn, cx, &token.0))
        .await?;
    Ok(HttpResponse::Ok().json(found))
}

/// Replace the caller's token.
///
/// The new token is in the answer, once; the old one stops working with this request, in
/// every server process, and the player's open streams end (reconnect with the new token).
/// It takes no body (or `{}`). With an `Idempotency-Key`, a retry with the old token and the same key
/// gets the same new token (`Idempotency-Replayed: true`) although the old one no longer
/// works otherwise: a lost answer does not lose the player.
#[utoipa::path(
    tag = "players",
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "16 to 255 visible ASCII characters, random (a UUID): a retry with the old token and the same key gets the same new token"),
    ),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The new token (or replayed)", body = RotatedToken,
         headers(("Idempotency-Replayed" = String, description = "`true` when this is a stored response"))),
        (status = 400, description = "A credential in the query string, a bad key, a body (`token_in_query`, `invalid_idempotency_key`, `invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 409, description = "Another rotation of the same token won a race with this one (`token_rotated_concurrently`)"),
        (status = 422, description = "Key used with another token (`idempotency_key_reused`)"),
    )
)]
#[post("/v1/players/me/token")]
pub async fn rotate_token(
    state: Data<AppState>,
    token: PlayerToken,
    Idempotency(key): Idempotency,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let key = key
        .map(|k| {
            LobbyKey::new(
                &state.context.token_secret,
                k,
                "POST /v1/players/me/token",
                None,
                &(),
                Some(&token.0),
            )
        })
        .transpose()?;
    let answer = state
        .db(move |conn, cx| players::rotate(conn, cx, &token.0, key))
        .await?;
    let mut res = HttpResponse::Ok();
    if answer.replayed {
        res.insert_header(("Idempotency-Replayed", "true"));
    }
    Ok(res
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(answer.body))
}

/// The caller's games, newest first, with cursor pagination.
///
/// Each with its type, seats and their players, whose turn it is (`active_seats`, `my_turn`)
/// and, when the game has a clock, the awaited seats' deadlines. `turn=mine` lists only the
/// active games waiting for the caller.
#[utoipa::path(
    tag = "players",
    params(PlayerGamesQuery),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "A page of the caller's games", body = PlayerGameList,
         headers(("Link" = String, description = "`<...>; rel=\"next\"` when there is a next page"))),
        (status = 400, description = "Bad query or cursor, or a credential in it (`invalid_query`, `invalid_cursor`, `token_in_query`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
    )
)]
#[get("/v1/players/me/games")]
pub async fn my_games(
    state: Data<AppState>,
    token: PlayerToken,
    q: Query<PlayerGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let filter = PlayerGameFilter {
        status: q.status.map(Into::into),
        my_turn: q.turn == Some(TurnFilter::Mine),
    };
    let limit = q.limit.map_or(20, |l| l.get());
    let cursor = q.cursor.clone();
    let list = state
        .db(move |conn, cx| profiles::games(conn, cx, &token.0, filter, cursor.as_deref(), limit))
        .await?;
    let mut res = HttpResponse::Ok();
    if let Some(next) = &list.next_cursor {
        let mut query = Vec::new();
        if let Some(s) = q.status {
            query.push(format!(
                "status={}",
                serde_json::to_value(s)
                    .unwrap_or_default()
                    .as_str()
                    .unwrap_or_default()
            ));
        }
        if q.turn.is_some() {
            query.push("turn=mine".to_string());
        }
        query.push(format!("limit={limit}"));
        query.push(format!("cursor={next}"));
        res.insert_header((
            header::LINK,
            format!("</v1/players/me/games?{}>; rel=\"next\"", query.join("&")),
        ));
    }
    Ok(res.json(list))
}

/// A player's game records, as NDJSON.
///
/// One `GameRecord` per line (as `GET /v1/games/{id}/record` gives it) for each finished game
/// the player sat in, newest first, filtered by `type`, `rated` and the time the game ended;
/// like Lichess's export of a player's games. A page covers `limit` of the player's finished
/// games (fewer lines when the filters leave some out); follow `Link: rel="next"` until there is
/// none.
#[utoipa::path(
    tag = "players",
    params(("id" = Uuid, Path, description = "Player id"), RecordsQuery),
    responses(
        (status = 200, description = "One GameRecord JSON per line", content_type = "application/x-ndjson",
         body = engine::record::Record,
         headers(("Link" = String, description = "`<...>; rel=\"next\"` when there is a next page"))),
        (status = 400, description = "Bad query or cursor (`invalid_query`, `invalid_cursor`)"),
        (status = 404, description = "No such player (`player_not_found`)"),
    )
)]
#[get("/v1/players/{id}/records")]
pub async fn player_records(
    state: Data<AppState>,
    id: Path<Uuid>,
    q: Query<RecordsQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let id = id.into_inner();
    if let Some(t) = &q.type_ {
        if engine::registry::find(t).is_none() {
            return Err(ApiError::bad_request(
                "invalid_query",
                format!("type {t:?} is no game type of this server; see GET /v1/game-types"),
            ));
        }
    }
    let filter = crate::service::record::RecordFilter {
        game_type: q.type_.clone(),
        rated: q.rated,
        since: q.since,
        until: q.until,
    };
    let limit = q.limit.map_or(20, |l| l.get());
    let cursor = q.cursor.clone();
    let page = state
        .db(move |conn, cx| {
            crate::service::record::player_records(conn, cx, id, &filter, cursor.as_deref(), limit)
        })
        .await?;
    let mut res = HttpResponse::Ok();
    if let Some(next) = &page.next {
        let mut query = vec![("limit", limit.to_string()), ("cursor", next.clone())];
        if let Some(t) = &q.type_ {
            query.push(("type", t.clone()));
        }
        if let Some(r) = q.rated {
            query.push(("rated", r.to_string()));
        }
        if let Some(s) = q.since {
            query.push(("since", s.to_rfc3339()));
        }
        if let Some(u) = q.until {
            query.push(("until", u.to_rfc3339()));
        }
        let query = serde_urlencoded::to_string(&query).unwrap_or_default();
        res.insert_header((
            header::LINK,
            format!("</v1/players/{id}/records?{query}>; rel=\"next\""),
        ));
    }
    Ok(res.content_type(crate::extract::NDJSON).body(page.ndjson))
}

/// A player's public profile.
///
/// Name, creation date, rating per game type (Weng-Lin: `rating`, `uncertainty`, and the
/// `conservative` estimate leaderboards rank by), games played and won, and the latest
/// rating changes.
#[utoipa::path(
    tag = "players",
    params(("id" = Uuid, Path, description = "Player id")),
    responses(
        (status = 200, description = "The profile", body = PlayerProfile),
        (status = 404, description = "No such player (`player_not_found`)"),
    )
)]
#[get("/v1/players/{id}")]
pub async fn profile(state: Data<AppState>, id: Path<String>) -> Result<HttpResponse, ApiError> {
    let id = Uuid::try_parse(&id).map_err(|_| {
        ApiError::not_found("player_not_found", "no player with this id (ids are UUIDs)")
    })?;
    let found = state.db(move |conn, _| profiles::profile(conn, id)).await?;
    Ok(HttpResponse::Ok().json(found))
}

/// The leaderboard of a game type.
///
/// Players by their conservative rating (rating − 3 × uncertainty), best first; only players
/// with a rated game of the type are listed.
#[utoipa::path(
    tag = "players",
    params(("type" = crate::dto::GameTypeName, Path, description = "A game type"), LeaderboardQuery),
    responses(
        (status = 200, description = "A page of the leaderboard", body = Leaderboard),
        (status = 400, description = "Bad query or cursor (`invalid_query`, `invalid_cursor`)"),
        (status = 404, description = "No such game type (`unknown_game_type`)"),
    )
)]
#[get("/v1/leaderboards/{type}")]
pub async fn leaderboard(
    state: Data<AppState>,
    game_type: Path<String>,
    q: Query<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let game_type = game_type.into_inner();
    let kind = engine::registry::find(&game_type).ok_or_else(|| {
        ApiError::not_found(
            "unknown_game_type",
            format!("no game type {game_type:?}; see GET /v1/game-types"),
        )
    })?;
    let q = q.into_inner();
    let limit = q.limit.map_or(20, |l| l.get());
    let name = kind.name();
    let board = state
        .db(move |conn, _| profiles::leaderboard(conn, name, q.cursor.as_deref(), limit))
        .await?;
    Ok(HttpResponse::Ok().json(board))
}
