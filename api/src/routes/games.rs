//! The catalogue and the lobby: game types, creating and listing games. Taking seats and
//! starting a game are [`super::seating`].

use std::collections::HashMap;

use actix_web::http::header;
use actix_web::web::{Data, Query};
use actix_web::{get, post, HttpRequest, HttpResponse};

use crate::caching::{self, Audience, Lifetime};

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{Bearer, Idempotency, StrictJson};
use crate::service::lobby::{self, GamePlan, SeatPlan};
use crate::service::lobby_keys::{Answer, LobbyKey};
use crate::state::AppState;

/// A bot seat as asked for, its budget clamped to the server's maximum.
pub(super) fn bot_info(level: BotLevel, budget_ms: Option<u32>, max_budget_ms: u32) -> BotInfo {
    BotInfo {
        level,
        budget_ms: budget_ms.map(|b| b.clamp(1, max_budget_ms)),
    }
}

/// The hosted game type `name`.
///
/// # Errors
/// 422 `unknown_game_type`.
pub(super) fn hosted_type(name: &str) -> Result<&'static dyn engine::DynGame, ApiError> {
    engine::registry::find(name).ok_or_else(|| {
        ApiError::unprocessable(
            "unknown_game_type",
            format!("no game type {name:?}; see GET /v1/game-types"),
        )
    })
}

/// The time control of a request; none when absent.
///
/// # Errors
/// 400 `invalid_clock`.
pub(super) fn clock_of(clock: Option<ClockRequest>) -> Result<Clock, ApiError> {
    match clock {
        Some(clock) => Clock::try_from(clock)
            .map_err(|e| ApiError::bad_request("invalid_clock", e.to_string())),
        None => Ok(Clock::Unlimited),
    }
}

/// A seat's name as sent, trimmed: 1 to 64 characters, no control characters.
///
/// # Errors
/// 422 `invalid_name`.
pub(super) fn valid_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err(ApiError::unprocessable(
            "invalid_name",
            "a name has 1 to 64 characters and no control characters",
        ));
    }
    Ok(name.to_string())
}

/// A seat's entropy as sent: at most 128 bytes, no control characters.
pub(super) fn valid_entropy(entropy: Option<&String>) -> Result<Option<String>, ApiError> {
    match entropy {
        Some(e) if e.len() > 128 || e.chars().any(char::is_control) => {
            Err(ApiError::unprocessable(
                "invalid_entropy",
                "entropy is a string of at most 128 bytes without control characters",
            ))
        }
        other => Ok(other.cloned()),
    }
}

/// The catalogue as served: its JSON and its tag, made once (it is fixed for a release).
pub struct Catalogue {
    body: String,
    etag: String,
}

impl Catalogue {
    pub fn new(list: &GameTypeList) -> Catalogue {
        let body = serde_json::to_string(list).unwrap_or_default();
        let etag = caching::content_tag("types", body.as_bytes());
        Catalogue { body, etag }
    }
}

/// The hosted game types.
///
/// Each type with its seat range, rules version, default configuration and the JSON Schema of
/// its configuration. The catalogue is fixed for a release of the server: caches may keep it
/// for an hour and then revalidate it with its `ETag`.
#[utoipa::path(
    tag = "games",
    params(("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier response")),
    responses(
        (status = 200, description = "The catalogue", body = GameTypeList,
         headers(("ETag" = String, description = "Strong, per release"),
                 ("Cache-Control" = String, description = "`public, max-age=3600`"))),
        (status = 304, description = "Not modified (If-None-Match matches)"),
    )
)]
#[get("/v1/game-types")]
pub async fn list_game_types(req: HttpRequest, catalogue: Data<Catalogue>) -> HttpResponse {
    if caching::not_modified(req.headers(), &catalogue.etag) {
        let mut res = HttpResponse::NotModified();
        caching::mark(
            &mut res,
            &catalogue.etag,
            Audience::Public,
            Lifetime::Release,
        );
        return res.finish();
    }
    let mut res = HttpResponse::Ok();
    caching::mark(
        &mut res,
        &catalogue.etag,
        Audience::Public,
        Lifetime::Release,
    );
    res.content_type("application/json")
        .body(catalogue.body.clone())
}

/// Create a game.
///
/// Named seats get their token in the response, once; a seat `{"me": true}` is taken for the
/// player whose token authorizes the request (no seat token: the player's acts for it); a game
/// without open seats starts at once. `rated: true` makes a rated game (every seat a
/// player's, no bot). An optional `clock` sets the time control (see `ClockRequest`); a game
/// whose seats are not all taken within the server's `--open-game-ttl` (default 24 h) ends as
/// `expired`. With an `Idempotency-Key`, a retry with the same key, body and credentials gets
/// the stored response again (`Idempotency-Replayed: true`), tokens included, instead of a
/// second game.
#[utoipa::path(
    tag = "games",
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "16 to 255 visible ASCII characters, random (a UUID): a retry with the same key and body gets the same game and tokens"),
    ),
    request_body = CreateGameRequest,
    responses(
        (status = 201, description = "Created (or replayed)", body = CreatedGame,
         headers(("Location" = String, description = "The game's URL"),
                 ("Idempotency-Replayed" = String, description = "`true` when this is a stored response"))),
        (status = 400, description = "Malformed body, unknown field, duplicate key, array for an object, unknown clock kind, bad key (`malformed_json`, `invalid_body`, `invalid_idempotency_key`), a clock time outside 1 s to 30 days (`invalid_clock`)"),
        (status = 401, description = "A seat `{\"me\": true}` without a player token, or with an unknown one (`missing_token`, `not_a_player_token`, `invalid_token`)"),
        (status = 409, description = "The server runs its most games of bots only (`bot_game_limit`)"),
        (status = 413, description = "Body over 64 KiB"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "Unknown type, bad seat list or config, a rated game with a bot or an anonymous seat, key used for another request (`unknown_game_type`, `invalid_seat_count`, `invalid_seat`, `invalid_name`, `invalid_config`, `rated_game_with_bots`, `rated_game_needs_players`, `idempotency_key_reused`)"),
    )
)]
#[post("/v1/games")]
pub async fn create_game(
    state: Data<AppState>,
    body: StrictJson<CreateGameRequest>,
    Idempotency(key): Idempotency,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let key = key
        .map(|k| {
            LobbyKey::new(
                &state.context.token_secret,
                k,
                "POST /v1/games",
                None,
                &body,
                bearer.token(),
            )
        })
        .transpose()?;
    let kind = hosted_type(&body.type_)?;
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
                _ if s.entropy.is_some() && (s.name.is_none() && s.me != Some(true)) => {
                    Err(ApiError::unprocessable(
                        "invalid_seat",
                        "entropy goes with a person's seat ({\"name\": ...} or {\"me\": true})",
                    ))
                }
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
    let entropies = body
        .seats
        .iter()
        .map(|s| valid_entropy(s.entropy.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    let rated = body.rated.unwrap_or(false);
    if rated {
        lobby::check_rated(&seats)?;
        if body.seed.is_some() {
            return Err(ApiError::unprocessable(
                "seeded_rated_game",
                "a rated game takes no seed: a seed makes its chance known in advance",
            ));
        }
    }
    let clock = clock_of(body.clock)?;
    let plan = GamePlan {
        kind,
        config: body.config.unwrap_or(info.default_config),
        seats,
        seed: body.seed,
        entropies,
        clock,
        rated,
        bearer: bearer.0,
    };
    let created = state
        .db(move |conn, cx| lobby::create_game(conn, cx, plan, key))
        .await?;
    let location = format!("/v1/games/{}", created.body.game_id);
    Ok(created_response(created, Some(location)))
}

/// 201 with the answer's body, marked `Idempotency-Replayed` when it is a stored response.
pub(super) fn created_response<T: serde::Serialize>(
    answer: Answer<T>,
    location: Option<String>,
) -> HttpResponse {
    let mut res = HttpResponse::Created();
    if answer.replayed {
        res.insert_header(("Idempotency-Replayed", "true"));
    }
    if let Some(location) = location {
        res.insert_header((header::LOCATION, location));
    }
    res.json(answer.body)
}

/// List games.
///
/// Newest first, filtered by `type`, `status`, `rated` and `clock`, in pages: pass `next_cursor` as `cursor`
/// (also in `Link: <...>; rel="next"`).
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
    // An unknown type is a mistake to tell, as an unknown status is, not an empty list.
    if let Some(unknown) = q
        .type_
        .as_deref()
        .filter(|t| engine::registry::find(t).is_none())
    {
        return Err(ApiError::bad_request(
            "invalid_query",
            format!("type {unknown:?} is no game type of this server; see GET /v1/game-types"),
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
        rated: q.rated,
        clock: q.clock.map(crate::stored::clock_kind),
    };
    let page = state
        .db(move |conn, _| Ok(db::store::list_games(conn, &filter, after, limit)?))
        .await?;
    let next_cursor = page.next.map(|c| c.encode());
    let mut seats = listed_seats(page.seats);
    let list = GameList {
        games: page
            .games
            .into_iter()
            .map(|g| {
                Ok(GameSummary {
                    seats: seats.remove(&g.id).unwrap_or_default(),
                    chance: crate::service::chance::listed(&g),
                    game_id: g.id,
                    type_: g.game_type,
                    rules_version: g.rules_version,
                    status: g.status.into(),
                    version: g.version,
                    seat_count: g.seat_count,
                    created_at: g.created_at,
                    updated_at: g.updated_at,
                    finished_at: g.finished_at,
                    clock: Clock::read_stored(g.clock.as_ref())?,
                    rated: g.rated,
                    imported_from: g.imported_from,
                })
            })
            .collect::<Result<_, ApiError>>()?,
        next_cursor: next_cursor.clone(),
    };
    let mut res = HttpResponse::Ok();
    if let Some(c) = next_cursor {
        // Percent-encoded, so that any filter value makes a valid URL and header.
        let status = q.status.map(|s| db::GameStatus::from(s).as_str());
        let rated = q.rated.map(|r| if r { "true" } else { "false" });
        let query = serde_urlencoded::to_string([
            ("cursor", Some(c.as_str())),
            ("limit", Some(&limit.to_string())),
            ("type", q.type_.as_deref()),
            ("status", status),
            ("rated", rated),
            ("clock", q.clock.map(ClockKind::as_str)),
        ])
        .map_err(|e| ApiError::internal(format!("next-page link: {e}")))?;
        res.insert_header((header::LINK, format!("</v1/games?{query}>; rel=\"next\"")));
    }
    Ok(res.json(list))
}

/// The seats of a page of listed games, by game, in seat order.
fn listed_seats(rows: Vec<db::SeatRow>) -> HashMap<uuid::Uuid, Vec<ListedSeat>> {
    let mut by_game: HashMap<uuid::Uuid, Vec<ListedSeat>> = HashMap::new();
    for row in &rows {
        by_game
            .entry(row.game_id)
            .or_default()
            .push(ListedSeat::of(row));
    }
    by_game
}
