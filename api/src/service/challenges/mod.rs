//! Challenges: a player invites the players it names (and the server's bots for further
//! seats) to a game, which starts when every invited player has accepted; a rematch is a
//! challenge to the same table with the seats rotated.
//!
//! Every answer, cancellation and the start take the challenge's row lock in one transaction
//! ([`db::store::lock_challenge`]), so concurrent accepts, declines, cancellations and the
//! expiry, in any number of processes, are applied one after another: exactly one of them
//! ends the challenge, and at most one game is created.

use db::store::{self, AnswerRow, ChallengeRow, NewChallenge, NewNotice, NoticeDue, NoticeRow};
use db::{PgConnection, PlayerRow, PooledConn};
use engine::chance::rng_for;
use engine::DynGame;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::blocks::named_player;
use super::caller::require_player;
use super::lobby_keys::{self, Answer, LobbyKey};
use crate::dto::{
    BotLevel, Challenge, ChallengeNotice, ChallengeQuery, ChallengeRole, ChallengeSeat,
    ChallengeStatus, ChallengesFrom, Clock, DeclineReason, PlayerNotice,
};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::state::Context;

mod answers;
mod rematch;

pub use answers::{accept, cancel, decline};
pub use rematch::{rematch, rematch_of};

/// A seat of a challenge as stored (`challenges.seats`): a player's or a bot's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum StoredSeat {
    Player(Uuid),
    Bot(String),
}

/// A validated challenge request.
pub struct ChallengePlan {
    pub kind: &'static dyn DynGame,
    pub config: Value,
    pub clock: Clock,
    pub rated: bool,
    /// The players named, by id or name, in seat order after the challenger.
    pub players: Vec<String>,
    pub bots: Vec<BotLevel>,
    /// What the challenger adds to the game's chance.
    pub entropy: Option<String>,
}

/// The most challenges listed.
const LIST_LIMIT: i64 = 100;

fn not_found() -> ApiError {
    ApiError::not_found("challenge_not_found", "no challenge of yours with this id")
}

fn stored_seats(row: &ChallengeRow) -> Result<Vec<StoredSeat>, ApiError> {
    serde_json::from_value(row.seats.clone())
        .map_err(|e| ApiError::internal(format!("challenge {}: unreadable seats: {e}", row.id)))
}

/// The status a client sees: a pending challenge past its time is expired.
fn status_of(row: &ChallengeRow) -> ChallengeStatus {
    match row.status.as_str() {
        "accepted" => ChallengeStatus::Accepted,
        "declined" => ChallengeStatus::Declined,
        "cancelled" => ChallengeStatus::Cancelled,
        "expired" => ChallengeStatus::Expired,
        _ if !row.is_pending() => ChallengeStatus::Expired,
        _ => ChallengeStatus::Pending,
    }
}

/// The challenge as its players see it.
fn dto(
    conn: &mut PgConnection,
    row: &ChallengeRow,
    answers: &[AnswerRow],
) -> Result<Challenge, ApiError> {
    let mut seats = Vec::new();
    for (seat, stored) in stored_seats(row)?.into_iter().enumerate() {
        let seat = i32::try_from(seat).unwrap_or(i32::MAX);
        seats.push(match stored {
            StoredSeat::Player(id) => {
                let player = store::get_player(conn, id)?;
                let accepted = answers
                    .iter()
                    .find(|a| a.player_id == id)
                    .is_some_and(|a| a.accepted_at.is_some());
                ChallengeSeat {
                    seat,
                    player_id: Some(id),
                    name: player.map(|p| p.name),
                    bot: None,
                    accepted: Some(accepted),
                }
            }
            StoredSeat::Bot(level) => ChallengeSeat {
                seat,
                player_id: None,
                name: None,
                bot: BotLevel::parse(&level),
                accepted: None,
            },
        });
    }
    Ok(Challenge {
        challenge_id: row.id,
        status: status_of(row),
        challenger_id: row.challenger_id,
        type_: row.game_type.clone(),
        config: row.config.clone(),
        clock: Clock::read_stored(row.clock.as_ref())?,
        rated: row.rated,
        seats,
        declined_by: row.declined_by,
        decline_reason: row.decline_reason.as_deref().and_then(DeclineReason::parse),
        game_id: row.game_id,
        rematch_of: row.rematch_of,
        created_at: row.created_at,
        expires_at: row.expires_at,
    })
}

/// Refuses a challenge `challenger` may not send to `invited`: the invited player takes none
/// (from anyone, or from the challenger). Both are one answer, so a block is not revealed.
fn check_takes_challenges(
    conn: &mut PgConnection,
    challenger: &PlayerRow,
    invited: &PlayerRow,
) -> Result<(), ApiError> {
    let refuses = store::challenges_from(conn, invited.id)? == ChallengesFrom::Nobody.name()
        || store::has_blocked(conn, invited.id, challenger.id)?;
    if refuses {
        return Err(ApiError::unprocessable(
            "challenges_refused",
            format!("{} takes no challenges from you", invited.name),
        ));
    }
    Ok(())
}

/// Checks a challenge request that its game could be created: the seat count, rating, config.
///
/// # Errors
/// 422 `invalid_seat_count`, `rated_game_with_bots`, `invalid_config`.
pub fn check(plan: &ChallengePlan) -> Result<(), ApiError> {
    let info = plan.kind.info();
    let seats = 1 + plan.players.len() + plan.bots.len();
    if !(info.min_seats..=info.max_seats).contains(&seats) {
        return Err(ApiError::unprocessable(
            "invalid_seat_count",
            format!(
                "{} is for {} to {} seats; the challenger, {} players and {} bots make {seats}",
                info.name,
                info.min_seats,
                info.max_seats,
                plan.players.len(),
                plan.bots.len()
            ),
        ));
    }
    if plan.rated && !plan.bots.is_empty() {
        return Err(ApiError::unprocessable(
            "rated_game_with_bots",
            "a rated game has no seat of the server's bot: leave out bots",
        ));
    }
    plan.kind
        .setup(&plan.config, seats, &mut rng_for(&[0; 32], 0))
        .map(|_| ())
        .map_err(ApiError::from)
}

/// The `challenge` notice of `row` for each invited player.
fn challenge_notices(
    row: &ChallengeRow,
    challenger: &PlayerRow,
    invited: &[Uuid],
) -> Vec<NewNotice> {
    invited
        .iter()
        .map(|&player_id| {
            let body = PlayerNotice::Challenge(ChallengeNotice {
                seq: 0,
                challenge_id: row.id,
                challenger_id: challenger.id,
                challenger_name: challenger.name.clone(),
                type_: row.game_type.clone(),
                rated: row.rated,
                rematch_of: row.rematch_of,
                expires_at: row.expires_at,
            });
            NewNotice {
                player_id,
                kind: body.kind().to_string(),
                body: serde_json::to_value(&body).expect("notices serialize"),
                due: NoticeDue::None,
            }
        })
        .collect()
}

/// Stores a challenge to `seats` from `challenger` (already accepted by the challenger, with
/// `entropy`) and tells the invited players.
fn send(
    conn: &mut PgConnection,
    cx: &Context,
    challenger: &PlayerRow,
    template: &ChallengeRow,
    seats: Vec<StoredSeat>,
    entropy: Option<&str>,
) -> Result<(ChallengeRow, Vec<NoticeRow>), ApiError> {
    let invited: Vec<Uuid> = seats
        .iter()
        .filter_map(|s| match s {
            StoredSeat::Player(id) if *id != challenger.id => Some(*id),
            _ => None,
        })
        .collect();
    let mut answering = invited.clone();
    answering.push(challenger.id);
    let new = NewChallenge {
        challenger_id: challenger.id,
        game_type: template.game_type.clone(),
        config: template.config.clone(),
        clock: template.clock.clone(),
        rated: template.rated,
        seats: serde_json::to_value(&seats).expect("seats serialize"),
        invited: answering,
        rematch_of: template.rematch_of,
        ttl: cx.challenge_ttl,
    };
    let row = store::insert_challenge(conn, &new).map_err(|e| match e {
        db::StoreError::Database(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => rematch_exists(),
        other => other.into(),
    })?;
    store::accept_challenge(conn, row.id, challenger.id, entropy)?;
    let mut ids = invited.clone();
    ids.sort();
    store::lock_players(conn, &ids)?;
    let notices = store::record_now(conn, None, challenge_notices(&row, challenger, &invited))?;
    Ok((row, notices))
}

/// `POST /v1/challenges` (checked with [`check`]), once per `key`.
///
/// # Errors
/// 401; 422 `unknown_player`, `challenge_yourself`, `invalid_challenge` (a player named
/// twice), `challenges_refused`, `idempotency_key_reused`; store errors.
pub fn create(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    plan: ChallengePlan,
    key: Option<LobbyKey>,
) -> Result<Answer<Challenge>, ApiError> {
    let mut notices = Vec::new();
    let work = |conn: &mut PgConnection| {
        let challenger = require_player(conn, cx, token)?;
        let mut seats = vec![StoredSeat::Player(challenger.id)];
        for who in &plan.players {
            let invited = named_player(conn, who)?;
            if invited.id == challenger.id {
                return Err(ApiError::unprocessable(
                    "challenge_yourself",
                    "you take the first seat of your challenge: name the others",
                ));
            }
            if seats.contains(&StoredSeat::Player(invited.id)) {
                return Err(ApiError::unprocessable(
                    "invalid_challenge",
                    format!("{} is named twice", invited.name),
                ));
            }
            check_takes_challenges(conn, &challenger, &invited)?;
            seats.push(StoredSeat::Player(invited.id));
        }
        seats.extend(
            plan.bots
                .iter()
                .map(|b| StoredSeat::Bot(b.name().to_string())),
        );
        let template = ChallengeRow {
            id: Uuid::nil(),
            challenger_id: challenger.id,
            game_type: plan.kind.name().to_string(),
            config: plan.config.clone(),
            clock: plan.clock.stored(),
            rated: plan.rated,
            seats: Value::Null,
            status: String::new(),
            declined_by: None,
            decline_reason: None,
            game_id: None,
            rematch_of: None,
            created_at: chrono::Utc::now(),
            expires_at: chrono::Utc::now(),
            ended_at: None,
        };
        let (row, recorded) = send(
            conn,
            cx,
            &challenger,
            &template,
            seats,
            plan.entropy.as_deref(),
        )?;
        notices = recorded;
        let answers = store::challenge_answers(conn, row.id)?;
        dto(conn, &row, &answers)
    };
    let answer = lobby_keys::once_if_keyed(conn, key.as_ref(), 201, work, |_| {}, |_| {})?;
    cx.changes.notices(&notices);
    Ok(answer)
}

/// The challenge `id` and its answers, for one of its players; 404 for anyone else.
fn of_player(
    conn: &mut PgConnection,
    id: Uuid,
    player: Uuid,
    lock: bool,
) -> Result<(ChallengeRow, Vec<AnswerRow>), ApiError> {
    let row = if lock {
        store::lock_challenge(conn, id)?
    } else {
        store::get_challenge(conn, id)?
    }
    .ok_or_else(not_found)?;
    let answers = store::challenge_answers(conn, id)?;
    if !answers.iter().any(|a| a.player_id == player) {
        return Err(not_found());
    }
    Ok((row, answers))
}

fn rematch_exists() -> ApiError {
    ApiError::conflict(
        "rematch_exists",
        "this game's rematch was asked for already: accept that one (GET /v1/games/{id}/rematch \
         names it)",
    )
}

fn not_pending(row: &ChallengeRow) -> ApiError {
    let status = serde_json::to_value(status_of(row))
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    ApiError::conflict(
        "challenge_not_pending",
        format!("the challenge is {status} already"),
    )
}

/// `GET /v1/challenges/{id}`, for its players.
///
/// # Errors
/// 401, 404 `challenge_not_found`; store errors.
pub fn get(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    id: Uuid,
) -> Result<Challenge, ApiError> {
    let player = require_player(conn, cx, token)?;
    let (row, answers) = of_player(conn, id, player.id, false)?;
    dto(conn, &row, &answers)
}

/// `GET /v1/challenges`: the player's, newest first.
///
/// # Errors
/// 401; store errors.
pub fn list(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    query: &ChallengeQuery,
) -> Result<Vec<Challenge>, ApiError> {
    let player = require_player(conn, cx, token)?;
    let mut out = Vec::new();
    for row in store::challenges_of(conn, player.id, LIST_LIMIT)? {
        let sent = row.challenger_id == player.id;
        let role_fits = match query.role {
            Some(ChallengeRole::Sent) => sent,
            Some(ChallengeRole::Received) => !sent,
            None => true,
        };
        if !role_fits || query.status.is_some_and(|s| s != status_of(&row)) {
            continue;
        }
        let answers = store::challenge_answers(conn, row.id)?;
        out.push(dto(conn, &row, &answers)?);
    }
    Ok(out)
}
