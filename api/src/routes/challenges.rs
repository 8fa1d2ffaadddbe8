//! Challenges and rematches: playing with the people you choose; and whom a player takes
//! challenges from (blocks, settings).

use actix_web::http::header;
use actix_web::web::{Data, Path, Query};
use actix_web::{delete, get, post, put, HttpResponse};
use uuid::Uuid;

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{GameId, Idempotency, NoBody, OptionalJson, PlayerToken, StrictJson};
use crate::service::blocks;
use crate::service::challenges::{self, ChallengePlan};
use crate::service::lobby_keys::LobbyKey;
use crate::state::AppState;

fn challenge_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::try_parse(raw).map_err(|_| {
        ApiError::not_found(
            "challenge_not_found",
            "no challenge with this id (ids are UUIDs)",
        )
    })
}

/// Challenge players to a game.
///
/// The challenger takes the first seat, the players named (by id or name) the next ones in
/// the order given, the server's `bots` the rest. Each challenged player gets a `challenge`
/// notice on its stream and accepts (`POST /v1/challenges/{id}/accept`) or declines
/// (`.../decline`); the game starts when the last of them accepts, and everyone gets
/// `game_started`. The challenger may cancel it (`DELETE /v1/challenges/{id}`) until then;
/// it expires after the server's `--challenge-ttl` (default 1 h). A player who takes no
/// challenges (`PUT /v1/players/me/settings`), or none from the challenger
/// (`POST /v1/players/me/blocks`), is refused with `challenges_refused`, which does not say
/// which. With an `Idempotency-Key`, a retry with the same key, body and token gets the first
/// answer again instead of a second challenge.
#[utoipa::path(
    tag = "challenges",
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "16 to 255 visible ASCII characters, random (a UUID): a retry with the same key, body and token gets the same challenge"),
    ),
    request_body = ChallengeRequest,
    security(("player_token" = [])),
    responses(
        (status = 201, description = "The challenge, `pending` (or replayed)", body = Challenge,
         headers(("Location" = String, description = "The challenge's URL"),
                 ("Idempotency-Replayed" = String, description = "`true` when this is a stored response"))),
        (status = 400, description = "Malformed body, a bad clock, a credential in the query string, a bad key (`malformed_json`, `invalid_body`, `invalid_clock`, `token_in_query`, `invalid_idempotency_key`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 413, description = "Body too large"),
        (status = 415, description = "Not application/json"),
        (status = 422, description = "Unknown type or player, yourself or a player named twice, a table size the game does not allow, a rated game with bots, bad config, a player who takes no challenges from you, a bad entropy, key used for another request (`unknown_game_type`, `unknown_player`, `challenge_yourself`, `invalid_challenge`, `invalid_seat_count`, `rated_game_with_bots`, `invalid_config`, `challenges_refused`, `invalid_entropy`, `idempotency_key_reused`)"),
    )
)]
#[post("/v1/challenges")]
pub async fn create_challenge(
    state: Data<AppState>,
    token: PlayerToken,
    body: StrictJson<ChallengeRequest>,
    Idempotency(key): Idempotency,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let key = key
        .map(|k| {
            LobbyKey::new(
                &state.context.token_secret,
                k,
                "POST /v1/challenges",
                None,
                &body,
                Some(&token.0),
            )
        })
        .transpose()?;
    let kind = super::games::hosted_type(&body.type_)?;
    let clock = super::games::clock_of(body.clock)?;
    let plan = ChallengePlan {
        kind,
        config: body.config.unwrap_or(kind.info().default_config),
        clock,
        rated: body.rated.unwrap_or(false),
        players: body.players,
        bots: body.bots.unwrap_or_default(),
        entropy: super::games::valid_entropy(body.entropy.as_ref())?,
    };
    challenges::check(&plan)?;
    let answer = state
        .db(move |conn, cx| challenges::create(conn, cx, &token.0, plan, key))
        .await?;
    let mut res = HttpResponse::Created();
    if answer.replayed {
        res.insert_header(("Idempotency-Replayed", "true"));
    }
    Ok(res
        .insert_header((
            header::LOCATION,
            format!("/v1/challenges/{}", answer.body.challenge_id),
        ))
        .json(answer.body))
}

/// The caller's challenges.
///
/// The ones it sent and the ones sent to it (`role`), newest first, at most 100; `status`
/// keeps those in one state (`pending`: the ones still to answer).
#[utoipa::path(
    tag = "challenges",
    params(ChallengeQuery),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The caller's challenges", body = ChallengeList),
        (status = 400, description = "Bad query, or a credential in it (`invalid_query`, `token_in_query`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
    )
)]
#[get("/v1/challenges")]
pub async fn list_challenges(
    state: Data<AppState>,
    token: PlayerToken,
    query: Query<ChallengeQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let challenges = state
        .db(move |conn, cx| challenges::list(conn, cx, &token.0, &query))
        .await?;
    Ok(HttpResponse::Ok().json(ChallengeList { challenges }))
}

/// Read a challenge.
///
/// Only its players see it (anyone else gets 404): its table, who accepted, and once
/// everyone has, the game.
#[utoipa::path(
    tag = "challenges",
    params(("id" = Uuid, Path, description = "Challenge id")),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The challenge", body = Challenge),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 404, description = "No challenge of the caller's with this id (`challenge_not_found`)"),
    )
)]
#[get("/v1/challenges/{id}")]
pub async fn get_challenge(
    state: Data<AppState>,
    token: PlayerToken,
    id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = challenge_id(&id)?;
    let challenge = state
        .db(move |conn, cx| challenges::get(conn, cx, &token.0, id))
        .await?;
    Ok(HttpResponse::Ok().json(challenge))
}

/// Accept a challenge.
///
/// The body is optional (`{"entropy": ...}`: what the player adds to the game's chance).
/// The last acceptance starts the game: the answer names it (`game_id`, status `accepted`),
/// and every player gets `game_started`. Accepting again answers the challenge as it is.
/// Concurrent answers, cancellations and the expiry, on any number of server processes,
/// are applied one after another: one game at most.
#[utoipa::path(
    tag = "challenges",
    params(("id" = Uuid, Path, description = "Challenge id")),
    request_body(content = AcceptChallenge, description = "Optional"),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The challenge after the answer", body = Challenge),
        (status = 400, description = "Malformed body (`malformed_json`, `invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 404, description = "No challenge of the caller's with this id (`challenge_not_found`)"),
        (status = 409, description = "Declined, cancelled or expired already (`challenge_not_pending`)"),
        (status = 422, description = "A bad entropy (`invalid_entropy`)"),
    )
)]
#[post("/v1/challenges/{id}/accept")]
pub async fn accept_challenge(
    state: Data<AppState>,
    token: PlayerToken,
    id: Path<String>,
    body: OptionalJson<AcceptChallenge>,
) -> Result<HttpResponse, ApiError> {
    let id = challenge_id(&id)?;
    let entropy = super::games::valid_entropy(body.0.entropy.as_ref())?;
    let challenge = state
        .db(move |conn, cx| challenges::accept(conn, cx, &token.0, id, entropy))
        .await?;
    Ok(HttpResponse::Ok().json(challenge))
}

/// Decline a challenge.
///
/// By a challenged player, with an optional reason (`{"reason": "later"}`; `generic` when
/// absent). The challenge ends; its other players get `challenge_ended`.
#[utoipa::path(
    tag = "challenges",
    params(("id" = Uuid, Path, description = "Challenge id")),
    request_body(content = DeclineChallenge, description = "Optional"),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The challenge, declined", body = Challenge),
        (status = 400, description = "Malformed body, an unknown reason (`malformed_json`, `invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 403, description = "The challenger's own challenge: cancel it instead (`not_challenged`)"),
        (status = 404, description = "No challenge of the caller's with this id (`challenge_not_found`)"),
        (status = 409, description = "Accepted, declined, cancelled or expired already (`challenge_not_pending`)"),
    )
)]
#[post("/v1/challenges/{id}/decline")]
pub async fn decline_challenge(
    state: Data<AppState>,
    token: PlayerToken,
    id: Path<String>,
    body: OptionalJson<DeclineChallenge>,
) -> Result<HttpResponse, ApiError> {
    let id = challenge_id(&id)?;
    let reason = body.0.reason.unwrap_or(DeclineReason::Generic);
    let challenge = state
        .db(move |conn, cx| challenges::decline(conn, cx, &token.0, id, reason))
        .await?;
    Ok(HttpResponse::Ok().json(challenge))
}

/// Cancel a challenge.
///
/// By its challenger, until everyone has accepted; the challenged players get
/// `challenge_ended`. It takes no body (or `{}`).
#[utoipa::path(
    tag = "challenges",
    params(("id" = Uuid, Path, description = "Challenge id")),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The challenge, cancelled", body = Challenge),
        (status = 400, description = "A body (`invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 403, description = "Someone else's challenge: decline it instead (`not_your_challenge`)"),
        (status = 404, description = "No challenge of the caller's with this id (`challenge_not_found`)"),
        (status = 409, description = "Accepted, declined, cancelled or expired already (`challenge_not_pending`)"),
    )
)]
#[delete("/v1/challenges/{id}")]
pub async fn cancel_challenge(
    state: Data<AppState>,
    token: PlayerToken,
    id: Path<String>,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let id = challenge_id(&id)?;
    let challenge = state
        .db(move |conn, cx| challenges::cancel(conn, cx, &token.0, id))
        .await?;
    Ok(HttpResponse::Ok().json(challenge))
}

/// Ask for a rematch.
///
/// By a player of a game that is over: a challenge to the same players and bots with the
/// same type, config, clock and rating, every seat moved one on (the first seat's occupant
/// takes the last), sent by the caller (already accepted). One rematch per game: the next
/// player to ask gets 409 `rematch_exists` and accepts that one
/// (`GET /v1/games/{id}/rematch` names it). The body is optional (`{"entropy": ...}`).
#[utoipa::path(
    tag = "challenges",
    params(("id" = Uuid, Path, description = "The game to rematch")),
    request_body(content = AcceptChallenge, description = "Optional"),
    security(("player_token" = [])),
    responses(
        (status = 201, description = "The rematch challenge", body = Challenge,
         headers(("Location" = String, description = "The challenge's URL"))),
        (status = 400, description = "Malformed id or body (`invalid_id`, `malformed_json`, `invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 403, description = "Not a player of the game (`not_seated`)"),
        (status = 404, description = "No such game"),
        (status = 409, description = "The game is not over, or its rematch was asked for already (`game_not_over`, `rematch_exists`)"),
        (status = 422, description = "A seat was a guest's, not a player's; a player takes no challenges from you; a bad entropy (`rematch_needs_players`, `challenges_refused`, `invalid_entropy`)"),
    )
)]
#[post("/v1/games/{id}/rematch")]
pub async fn rematch(
    state: Data<AppState>,
    token: PlayerToken,
    GameId(id): GameId,
    body: OptionalJson<AcceptChallenge>,
) -> Result<HttpResponse, ApiError> {
    let entropy = super::games::valid_entropy(body.0.entropy.as_ref())?;
    let challenge = state
        .db(move |conn, cx| challenges::rematch(conn, cx, &token.0, id, entropy))
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((
            header::LOCATION,
            format!("/v1/challenges/{}", challenge.challenge_id),
        ))
        .json(challenge))
}

/// A game's rematch.
///
/// The rematch challenge asked for once the game was over (its status, and once everyone
/// accepted, its `game_id`): how clients find the next game from the last one.
#[utoipa::path(
    tag = "challenges",
    params(("id" = Uuid, Path, description = "Game id")),
    responses(
        (status = 200, description = "The rematch challenge", body = Challenge),
        (status = 400, description = "Malformed id (`invalid_id`)"),
        (status = 404, description = "No rematch was asked for (`no_rematch`)"),
    )
)]
#[get("/v1/games/{id}/rematch")]
pub async fn get_rematch(
    state: Data<AppState>,
    GameId(id): GameId,
) -> Result<HttpResponse, ApiError> {
    let challenge = state
        .db(move |conn, _| challenges::rematch_of(conn, id))
        .await?;
    Ok(HttpResponse::Ok().json(challenge))
}

/// Block a player.
///
/// The caller takes no challenges (and no rematch) from that player any more; the player
/// is refused with `challenges_refused`, as when the caller takes none from anyone.
#[utoipa::path(
    tag = "challenges",
    request_body = BlockRequest,
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The players the caller blocks now", body = Blocks),
        (status = 400, description = "Malformed body (`malformed_json`, `invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 422, description = "Unknown player, or the caller itself (`unknown_player`, `block_yourself`)"),
    )
)]
#[post("/v1/players/me/blocks")]
pub async fn block_player(
    state: Data<AppState>,
    token: PlayerToken,
    body: StrictJson<BlockRequest>,
) -> Result<HttpResponse, ApiError> {
    let who = body.into_inner().player;
    let players = state
        .db(move |conn, cx| blocks::block(conn, cx, &token.0, &who))
        .await?;
    Ok(HttpResponse::Ok().json(Blocks { players }))
}

/// The players the caller blocks.
///
/// In the order they were blocked; their challenges and rematches are refused.
#[utoipa::path(
    tag = "challenges",
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The players the caller blocks, in the order blocked", body = Blocks),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
    )
)]
#[get("/v1/players/me/blocks")]
pub async fn list_blocks(
    state: Data<AppState>,
    token: PlayerToken,
) -> Result<HttpResponse, ApiError> {
    let players = state
        .db(move |conn, cx| blocks::blocks(conn, cx, &token.0))
        .await?;
    Ok(HttpResponse::Ok().json(Blocks { players }))
}

/// Unblock a player.
///
/// The player's challenges are taken again (unless the caller takes none from anyone). It
/// takes no body (or `{}`).
#[utoipa::path(
    tag = "challenges",
    params(("player_id" = Uuid, Path, description = "The blocked player's id")),
    security(("player_token" = [])),
    responses(
        (status = 204, description = "Unblocked"),
        (status = 400, description = "A body (`invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
        (status = 404, description = "The caller does not block this player (`not_blocked`)"),
    )
)]
#[delete("/v1/players/me/blocks/{player_id}")]
pub async fn unblock_player(
    state: Data<AppState>,
    token: PlayerToken,
    player_id: Path<String>,
    _: NoBody,
) -> Result<HttpResponse, ApiError> {
    let blocked = Uuid::try_parse(&player_id)
        .map_err(|_| ApiError::not_found("not_blocked", "you have not blocked this player"))?;
    state
        .db(move |conn, cx| blocks::unblock(conn, cx, &token.0, blocked))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The caller's settings.
///
/// Whom the caller takes challenges from (`challenges_from`).
#[utoipa::path(
    tag = "challenges",
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The caller's settings", body = PlayerSettings),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
    )
)]
#[get("/v1/players/me/settings")]
pub async fn get_settings(
    state: Data<AppState>,
    token: PlayerToken,
) -> Result<HttpResponse, ApiError> {
    let challenges_from = state
        .db(move |conn, cx| blocks::settings(conn, cx, &token.0))
        .await?;
    Ok(HttpResponse::Ok().json(PlayerSettings { challenges_from }))
}

/// Change the caller's settings.
///
/// `challenges_from`: `everyone` (but the players blocked) or `nobody` (every challenge
/// and rematch is refused with `challenges_refused`).
#[utoipa::path(
    tag = "challenges",
    request_body = PlayerSettings,
    security(("player_token" = [])),
    responses(
        (status = 200, description = "The caller's settings now", body = PlayerSettings),
        (status = 400, description = "Malformed body (`malformed_json`, `invalid_body`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
    )
)]
#[put("/v1/players/me/settings")]
pub async fn put_settings(
    state: Data<AppState>,
    token: PlayerToken,
    body: StrictJson<PlayerSettings>,
) -> Result<HttpResponse, ApiError> {
    let from = body.into_inner().challenges_from;
    let challenges_from = state
        .db(move |conn, cx| blocks::set_settings(conn, cx, &token.0, from))
        .await?;
    Ok(HttpResponse::Ok().json(PlayerSettings { challenges_from }))
}
