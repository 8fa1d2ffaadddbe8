//! The catalogue and the lobby: game types, creating, listing, joining and starting games.

use actix_web::http::header;
use actix_web::web::{Data, Query};
use actix_web::{get, post, HttpResponse};

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{Bearer, GameId, SeatToken, StrictJson};
use crate::service::lobby::{self, GamePlan, SeatPlan};
use crate::state::AppState;

/// A bot seat as asked for, its budget clamped to the server's maximum.
fn bot_info(level: BotLevel, budget_ms: Option<u32>, max_budget_ms: u32) -> BotInfo {
    BotInfo {
        level,
        budget_ms: budget_ms.map(|b| b.clamp(1, max_budget_ms)),
    }
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
///
/// Each type with its seat range, rules version, default configuration and the JSON Schema of
/// its configuration. The catalogue is fixed for a server version.
#[utoipa::path(
    tag = "games",
    responses((status = 200, description = "The catalogue", body = GameTypeList))
)]
#[get("/v1/game-types")]
pub async fn list_game_types(catalogue: Data<GameTypeList>) -> HttpResponse {
    HttpResponse::Ok().json(catalogue.get_ref())
}

/// Create a game. Named seats get their token in the response (once); a seat `{"me": true}`
/// is taken for the player whose token authorizes the request (no seat token: the player's
/// acts for it); a game without open seats starts at once. `rated: true` makes a rated game
/// (every seat a player's, no bot). An optional `clock` sets the time control (see `ClockRequest`); a
/// game whose seats are not all taken within the server's `--open-game-ttl` (default 24 h)
/// ends as `expired`.
#[utoipa::path(
    tag = "games",
    request_body = CreateGameRequest,
    responses(
        (status = 201, description = "Created", body = CreatedGame,
         headers(("Location" = String, description = "The game's URL"))),
        (status = 400, description = "Malformed body, unknown field, duplicate key, array for an object, unknown clock kind (`malformed_json`, `invalid_body`), a clock time outside 1 s to 30 days (`invalid_clock`)"),
        (status = 401, description = "A seat `{\"me\": true}` without a player token, or with an unknown one (`missing_token`, `not_a_player_token`, `invalid_token`)"),
        (status = 413, description = "Body over 64 KiB"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "Unknown type, bad seat list or config, a rated game with a bot or an anonymous seat (`unknown_game_type`, `invalid_seat_count`, `invalid_seat`, `invalid_name`, `invalid_config`, `rated_game_with_bots`, `rated_game_needs_players`)"),
    )
)]
#[post("/v1/games")]
pub async fn create_game(
    state: Data<AppState>,
    body: StrictJson<CreateGameRequest>,
    bearer: Bearer,
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
    let max_budget_ms = state.context.bots.max_budget_ms;
    let seats = body
        .seats
        .iter()
        .map(
            |s| match (&s.name, s.me.unwrap_or(false), s.open, s.bot, s.budget_ms) {
                (Some(name), false, None | Some(false), None, None) => {
                    Ok(SeatPlan::Taken(valid_name(name)?))
                }
                (None, true, None | Some(false), None, None) => Ok(SeatPlan::Me),
                (None, false, Some(true), None, None) => Ok(SeatPlan::Open),
                (None, false, None | Some(false), Some(level), budget_ms) => {
                    Ok(SeatPlan::Bot(bot_info(level, budget_ms, max_budget_ms)))
                }
                _ => Err(ApiError::unprocessable(
                    "invalid_seat",
                    "each seat is {\"name\": ...}, {\"me\": true}, {\"open\": true} or \
                 {\"bot\": ...} (budget_ms only with bot)",
                )),
            },
        )
        .collect::<Result<Vec<_>, _>>()?;
    if seats.iter().filter(|s| matches!(s, SeatPlan::Me)).count() > 1 {
        return Err(ApiError::unprocessable(
            "invalid_seat",
            "a player takes at most one seat of a game: one {\"me\": true} at most",
        ));
    }
    let rated = body.rated.unwrap_or(false);
    if rated {
        lobby::check_rated(&seats)?;
    }
    let clock = match body.clock {
        Some(clock) => Clock::try_from(clock)
            .map_err(|e| ApiError::bad_request("invalid_clock", e.to_string()))?,
        None => Clock::Unlimited,
    };
    let plan = GamePlan {
        kind,
        config: body.config.unwrap_or(info.default_config),
        seats,
        seed: body.seed,
        clock,
        rated,
        bearer: bearer.0,
    };
    let created = state
        .db(move |conn, cx| lobby::create_game(conn, cx, plan))
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
        (status = 400, description = "Bad or out-of-range query (`invalid_query`, `invalid_cursor`)"),
    )
)]
#[get("/v1/games")]
pub async fn list_games(
    state: Data<AppState>,
    q: Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
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
    let limit = q.limit.map_or(20, |l| l.get());
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
                clock: Clock::from_stored(g.clock.as_ref()),
                rated: g.rated,
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

/// Take an open seat, for a person (`name`), for the player whose token authorizes the
/// request (neither `name` nor `bot`: the player's token then acts for the seat), or for the
/// server's bot (`bot`). A person's seat token is in the response, once. The join that fills
/// the last seat starts the game. Joins do not change the version (no event is written).
#[utoipa::path(
    tag = "games",
    params(("id" = Uuid, Path, description = "Game id")),
    request_body = JoinRequest,
    responses(
        (status = 201, description = "Seat taken", body = Joined),
        (status = 400, description = "Malformed id or body (`invalid_id`, `malformed_json`, `invalid_body`)"),
        (status = 404, description = "No such game"),
        (status = 401, description = "An unknown or rotated player token (`invalid_token`)"),
        (status = 409, description = "Seat taken, no open seat, game already started, or the player holds a seat of it already (`seat_taken`, `no_open_seat`, `game_already_started`, `already_seated`)"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "No such seat, bad name, neither or both of name and bot, a name with a player token, an anonymous or bot seat in a rated game (`no_such_seat`, `invalid_name`, `invalid_seat`, `rated_game_needs_players`, `rated_game_with_bots`)"),
    )
)]
#[post("/v1/games/{id}/seats")]
pub async fn join_seat(
    state: Data<AppState>,
    GameId(id): GameId,
    body: StrictJson<JoinRequest>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let seat = body.seat;
    let player = bearer.0.filter(|t| t.is_player());
    let joined = match (&body.name, body.bot, body.budget_ms) {
        (None, None, None) if player.is_some() => {
            let token = player.expect("matched as Some");
            let joined = state
                .db(move |conn, cx| lobby::join_player(conn, cx, id, seat, &token))
                .await?;
            Joined::Player(joined)
        }
        (Some(_), None, None) if player.is_some() => {
            return Err(ApiError::unprocessable(
                "invalid_seat",
                "with a player token the seat takes the player's name: leave out name",
            ))
        }
        (Some(name), None, None) => {
            let name = valid_name(name)?;
            let joined = state
                .db(move |conn, cx| lobby::join(conn, cx, id, seat, name))
                .await?;
            Joined::Person(joined)
        }
        (None, Some(level), budget_ms) => {
            let bot = bot_info(level, budget_ms, state.context.bots.max_budget_ms);
            let joined = state
                .db(move |conn, cx| lobby::join_bot(conn, cx, id, seat, bot))
                .await?;
            Joined::Bot(joined)
        }
        _ => {
            return Err(ApiError::unprocessable(
                "invalid_seat",
                "a join is {\"name\": ...} or {\"bot\": ...} (budget_ms only with bot)",
            ))
        }
    };
    Ok(HttpResponse::Created().json(joined))
}

/// Start an open game with the seats taken so far.
///
/// The open seats are closed: the taken seats keep their playing order and are numbered from
/// 0 again (read your `seat` from the answer). Refused while fewer seats are taken than the
/// game needs. Games created full, and games whose last open seat is joined, start by
/// themselves. Needs a seat token of the game.
#[utoipa::path(
    tag = "games",
    params(("id" = Uuid, Path, description = "Game id")),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "Started; the game document for the caller", body = GameDocument,
         headers(("ETag" = String, description = "Of the started game, for the caller"))),
        (status = 400, description = "Malformed id (`invalid_id`)"),
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
) -> Result<HttpResponse, ApiError> {
    let (doc, etag) = state
        .db(move |conn, cx| lobby::start_by(conn, cx, id, &token))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag))
        .json(doc))
}
