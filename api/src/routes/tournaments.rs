//! Tournaments: creating, joining and leaving, starting early, and reading their standings
//! and rounds.

use actix_web::http::header;
use actix_web::web::{Data, Path};
use actix_web::{delete, get, post, HttpRequest, HttpResponse};
use uuid::Uuid;

use crate::caching::{self, Audience, Lifetime};
use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{NoBody, PlayerToken, StrictJson};
use crate::state::AppState;
use crate::tournament::{self, TournamentPlan};

/// A read of tournaments as games are read: tagged by its content, answered 304 to a client
/// that has it, kept for ever once the tournament is over.
fn tagged(req: &HttpRequest, body: &impl serde::Serialize, over: bool) -> HttpResponse {
    let bytes = serde_json::to_vec(body).expect("tournaments serialize");
    let etag = caching::content_tag("t", &bytes);
    let (mut res, fresh) = caching::conditional(
        req.headers(),
        &etag,
        Audience::Public,
        Lifetime::until_over(over),
    );
    if fresh {
        res.finish()
    } else {
        res.content_type("application/json").body(bytes)
    }
}

fn is_over(status: TournamentStatus) -> bool {
    matches!(
        status,
        TournamentStatus::Finished | TournamentStatus::Cancelled
    )
}

fn tournament_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::try_parse(raw).map_err(|_| {
        ApiError::not_found(
            "tournament_not_found",
            "no tournament with this id (ids are UUIDs)",
        )
    })
}

/// Create a tournament.
///
/// The caller organises it: game type, config, clock (required, so that absent players
/// cannot stall a round), rated, format (`swiss` with its number of `rounds`, or
/// `knockout`), `table_size` (within the game's seat counts), whether the server's bots fill
/// incomplete tables (else the players left over have a bye), at most `max_players`, and
/// its start. Players join until then (`POST /v1/tournaments/{id}/players`); at the start
/// the server's workers pair the first round, create its games and tell each player
/// (`tournament_round` on the player stream), then the next round when every game of the
/// last one is over, until the end (`tournament_finished`). Each step happens once, in
/// whichever server process takes it. Points per place at a table of n seats: n − place;
/// a bye scores as a first place; ties are broken by the points of the opponents met, then
/// by the game scores.
#[utoipa::path(
    tag = "tournaments",
    request_body = TournamentRequest,
    security(("player_token" = [])),
    responses(
        (status = 201, description = "The tournament, waiting for players", body = Tournament,
         headers(("Location" = String, description = "The tournament's URL"))),
        (status = 400, description = "Malformed body or clock, a credential in the query string (`malformed_json`, `invalid_body`, `invalid_clock`, `token_in_query`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "Unknown type, a table size the game does not allow, rounds missing or out of range, bots in a rated tournament, bad config (`unknown_game_type`, `invalid_table_size`, `invalid_tournament`, `rated_game_with_bots`, `invalid_config`)"),
    )
)]
#[post("/v1/tournaments")]
pub async fn create_tournament(
    state: Data<AppState>,
    token: PlayerToken,
    body: StrictJson<TournamentRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let kind = super::games::hosted_type(&body.type_)?;
    let clock = super::games::clock_of(Some(body.clock))?;
    let plan = TournamentPlan {
        name: body.name,
        kind,
        config: body.config.unwrap_or(kind.info().default_config),
        clock,
        rated: body.rated.unwrap_or(false),
        format: body.format,
        rounds: body.rounds,
        table_size: body.table_size,
        fill_with_bots: body.fill_with_bots.unwrap_or(false),
        bot: body.bot.unwrap_or(BotLevel::Greedy),
        max_players: body.max_players.unwrap_or(64),
        starts_at: body.starts_at,
    };
    tournament::check(&plan)?;
    let created = state
        .db(move |conn, cx| tournament::create(conn, cx, &token.0, plan))
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            header::LOCATION,
            format!("/v1/tournaments/{}", created.tournament_id),
        ))
        .json(created))
}

/// Tournaments, newest first.
///
/// At most 100, each without its standings (read a tournament for them).
#[utoipa::path(
    tag = "tournaments",
    params(("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier response")),
    responses(
        (status = 200, description = "At most 100 tournaments, without standings", body = TournamentList,
         headers(("ETag" = String, description = "Strong, by content"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
    )
)]
#[get("/v1/tournaments")]
pub async fn list_tournaments(
    req: HttpRequest,
    state: Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let list = state.db(move |conn, _| tournament::list(conn)).await?;
    Ok(tagged(&req, &list, false))
}

/// A tournament with its standings.
///
/// The standings after the last round scored: points, then the opponents' points, then the
/// game scores (a knockout first by how far each player came).
#[utoipa::path(
    tag = "tournaments",
    params(
        ("id" = Uuid, Path, description = "Tournament id"),
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier response"),
    ),
    responses(
        (status = 200, description = "The tournament and its standings after the last round scored", body = Tournament,
         headers(("ETag" = String, description = "Strong, by content; immutable once the tournament is over"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
        (status = 404, description = "No such tournament (`tournament_not_found`)"),
    )
)]
#[get("/v1/tournaments/{id}")]
pub async fn get_tournament(
    req: HttpRequest,
    state: Data<AppState>,
    id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = tournament_id(&id)?;
    let found = state.db(move |conn, _| tournament::get(conn, id)).await?;
    Ok(tagged(&req, &found, is_over(found.status)))
}

/// A tournament's rounds.
///
/// Every round so far: its tables with their games and seats (bots without a player), each
/// player's place and points once the round is scored, and the byes (tables without a game).
#[utoipa::path(
    tag = "tournaments",
    params(
        ("id" = Uuid, Path, description = "Tournament id"),
        ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier response"),
    ),
    responses(
        (status = 200, description = "Every round so far", body = TournamentRounds,
         headers(("ETag" = String, description = "Strong, by content; immutable once the tournament is over"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
        (status = 404, description = "No such tournament (`tournament_not_found`)"),
    )
)]
#[get("/v1/tournaments/{id}/rounds")]
pub async fn tournament_rounds(
    req: HttpRequest,
    state: Data<AppState>,
    id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = tournament_id(&id)?;
    let (found, status) = state
        .db(move |conn, _| tournament::rounds(conn, id))
        .await?;
    Ok(tagged(&req, &found, is_over(status)))
}

/// Join a tournament.
///
/// Before its start; joining again changes nothing. It takes no body (or `{}`).
#[utoipa::path(
    tag = "tournaments",
    params(("id" = Uuid, Path, description = "Tournament id")),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The tournament with the caller in it", body = Tournament),
        (status = 400, description = "A body (`invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 404, description = "No such tournament (`tournament_not_found`)"),
        (status = 409, description = "It has started, or is full (`tournament_started`, `tournament_full`)"),
    )
)]
#[post("/v1/tournaments/{id}/players")]
pub async fn join_tournament(
    state: Data<AppState>,
    token: PlayerToken,
    id: Path<String>,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let id = tournament_id(&id)?;
    let found = state
        .db(move |conn, cx| tournament::join(conn, cx, &token.0, id))
        .await?;
    Ok(HttpResponse::Ok().json(found))
}

/// Leave a tournament.
///
/// Before its start the caller leaves it; once it runs, the caller withdraws: it is paired
/// no more, and its seats in games still running go by their clocks (the server's bot plays
/// on when a clock runs out).
#[utoipa::path(
    tag = "tournaments",
    params(("id" = Uuid, Path, description = "Tournament id")),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The tournament after", body = Tournament),
        (status = 400, description = "A body (`invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 404, description = "No such tournament (`tournament_not_found`)"),
        (status = 409, description = "Not in it, or it is over (`not_in_tournament`, `tournament_over`)"),
    )
)]
#[delete("/v1/tournaments/{id}/players/me")]
pub async fn leave_tournament(
    state: Data<AppState>,
    token: PlayerToken,
    id: Path<String>,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let id = tournament_id(&id)?;
    let found = state
        .db(move |conn, cx| tournament::leave(conn, cx, &token.0, id))
        .await?;
    Ok(HttpResponse::Ok().json(found))
}

/// Start a tournament now.
///
/// By its organiser, before its start time: the first round is paired and its games
/// created in this request (a tournament with fewer than two players is cancelled instead).
#[utoipa::path(
    tag = "tournaments",
    params(("id" = Uuid, Path, description = "Tournament id")),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The tournament after its start", body = Tournament),
        (status = 400, description = "A body (`invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 403, description = "Not the organiser (`not_your_tournament`)"),
        (status = 404, description = "No such tournament (`tournament_not_found`)"),
        (status = 409, description = "It has started already (`tournament_started`)"),
    )
)]
#[post("/v1/tournaments/{id}/start")]
pub async fn start_tournament(
    state: Data<AppState>,
    token: PlayerToken,
    id: Path<String>,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let id = tournament_id(&id)?;
    let found = state
        .db(move |conn, cx| tournament::start(conn, cx, &token.0, id))
        .await?;
    Ok(HttpResponse::Ok().json(found))
}
