//! Answers to a challenge: accepting (the last acceptance starts the game), declining and
//! cancelling, each under the challenge's row lock.

use db::store::{self, AnswerRow, ChallengeRow, NewNotice, NoticeDue, NoticeRow};
use db::{PgConnection, PooledConn};
use uuid::Uuid;

use super::{dto, not_pending, of_player, stored_seats, StoredSeat};
use crate::dto::{
    BotInfo, BotLevel, Challenge, ChallengeEndedNotice, ChallengeStatus, Clock, DeclineReason,
    PlayerNotice,
};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::service::caller::require_player;
use crate::service::lobby::{self, GamePlan, SeatPlan};
use crate::state::Context;

/// The game of challenge `row`, everyone having accepted: created with each player in its
/// seat (its answer's entropy with it) and the bots in theirs.
fn start(
    conn: &mut PgConnection,
    cx: &Context,
    row: &ChallengeRow,
    answers: &[AnswerRow],
) -> Result<(ChallengeRow, Vec<NoticeRow>), ApiError> {
    let kind = engine::registry::find(&row.game_type).ok_or_else(|| {
        ApiError::internal(format!("a challenge of unknown type {}", row.game_type))
    })?;
    let mut seats = Vec::new();
    let mut entropies = Vec::new();
    for stored in stored_seats(row)? {
        match stored {
            StoredSeat::Player(id) => {
                let player = store::get_player(conn, id)?.ok_or_else(|| {
                    ApiError::internal("a challenge of a player that does not exist")
                })?;
                entropies.push(
                    answers
                        .iter()
                        .find(|a| a.player_id == id)
                        .and_then(|a| a.entropy.clone()),
                );
                seats.push(SeatPlan::Player(player));
            }
            StoredSeat::Bot(level) => {
                let level = BotLevel::parse(&level)
                    .ok_or_else(|| ApiError::internal(format!("a challenge's bot {level:?}")))?;
                entropies.push(None);
                seats.push(SeatPlan::Bot(BotInfo {
                    level,
                    budget_ms: None,
                }));
            }
        }
    }
    let plan = GamePlan {
        kind,
        config: row.config.clone(),
        seats,
        seed: None,
        entropies,
        clock: Clock::read_stored(row.clock.as_ref())?,
        rated: row.rated,
        bearer: None,
    };
    let (created, notices) = lobby::create_game_in(conn, cx, plan)?;
    let row = store::challenge_started(conn, row.id, created.game_id)?;
    tracing::info!(challenge_id = %row.id, game_id = %created.game_id, "challenge accepted");
    Ok((row, notices))
}

/// `POST /v1/challenges/{id}/accept`: records the player's acceptance; the last one starts
/// the game. Accepting again answers the challenge as it is.
///
/// # Errors
/// 401, 404, 409 `challenge_not_pending`; store errors.
pub fn accept(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    id: Uuid,
    entropy: Option<String>,
) -> Result<Challenge, ApiError> {
    let mut notices = Vec::new();
    let challenge = store::atomically(conn, |conn| {
        let player = require_player(conn, cx, token)?;
        let (row, answers) = of_player(conn, id, player.id, true)?;
        let already = answers
            .iter()
            .any(|a| a.player_id == player.id && a.accepted_at.is_some());
        if already && row.status == "accepted" {
            return dto(conn, &row, &answers);
        }
        if !row.is_pending() {
            return Err(not_pending(&row));
        }
        if !already {
            store::accept_challenge(conn, id, player.id, entropy.as_deref())?;
        }
        let answers = store::challenge_answers(conn, id)?;
        let row = if answers.iter().all(|a| a.accepted_at.is_some()) {
            let (started, recorded) = start(conn, cx, &row, &answers)?;
            notices = recorded;
            started
        } else {
            row
        };
        dto(conn, &row, &answers)
    })?;
    cx.changes.notices(&notices);
    Ok(challenge)
}

/// Ends challenge `id` (pending) as `status` by `by`, telling its other players.
fn end(
    conn: &mut PgConnection,
    row: &ChallengeRow,
    answers: &[AnswerRow],
    status: ChallengeStatus,
    by: Uuid,
    reason: Option<DeclineReason>,
) -> Result<(ChallengeRow, Vec<NoticeRow>), ApiError> {
    let stored = match status {
        ChallengeStatus::Declined => "declined",
        _ => "cancelled",
    };
    let declined_by = (status == ChallengeStatus::Declined).then_some(by);
    let row = store::end_challenge(conn, row.id, stored, declined_by, reason.map(|r| r.name()))?;
    let mut told: Vec<Uuid> = answers
        .iter()
        .map(|a| a.player_id)
        .filter(|p| *p != by)
        .collect();
    told.sort();
    store::lock_players(conn, &told)?;
    let notices = told
        .iter()
        .map(|&player_id| {
            let body = PlayerNotice::ChallengeEnded(ChallengeEndedNotice {
                seq: 0,
                challenge_id: row.id,
                status,
                by,
                reason,
            });
            NewNotice {
                player_id,
                kind: body.kind().to_string(),
                body: serde_json::to_value(&body).expect("notices serialize"),
                due: NoticeDue::None,
            }
        })
        .collect();
    let notices = store::record_now(conn, None, notices)?;
    Ok((row, notices))
}

/// `POST /v1/challenges/{id}/decline` by a challenged player.
///
/// # Errors
/// 401, 403 `not_challenged` (the challenger: cancel it instead), 404, 409
/// `challenge_not_pending`; store errors.
pub fn decline(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    id: Uuid,
    reason: DeclineReason,
) -> Result<Challenge, ApiError> {
    let mut notices = Vec::new();
    let challenge = store::atomically(conn, |conn| {
        let player = require_player(conn, cx, token)?;
        let (row, answers) = of_player(conn, id, player.id, true)?;
        if row.challenger_id == player.id {
            return Err(ApiError::forbidden(
                "not_challenged",
                "the challenger cancels a challenge (DELETE /v1/challenges/{id}), not declines it",
            ));
        }
        if !row.is_pending() {
            return Err(not_pending(&row));
        }
        let (row, recorded) = end(
            conn,
            &row,
            &answers,
            ChallengeStatus::Declined,
            player.id,
            Some(reason),
        )?;
        notices = recorded;
        dto(conn, &row, &answers)
    })?;
    cx.changes.notices(&notices);
    Ok(challenge)
}

/// `DELETE /v1/challenges/{id}` by its challenger.
///
/// # Errors
/// 401, 403 `not_your_challenge`, 404, 409 `challenge_not_pending`; store errors.
pub fn cancel(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    id: Uuid,
) -> Result<Challenge, ApiError> {
    let mut notices = Vec::new();
    let challenge = store::atomically(conn, |conn| {
        let player = require_player(conn, cx, token)?;
        let (row, answers) = of_player(conn, id, player.id, true)?;
        if row.challenger_id != player.id {
            return Err(ApiError::forbidden(
                "not_your_challenge",
                "a challenge is cancelled only by its challenger: decline it instead",
            ));
        }
        if !row.is_pending() {
            return Err(not_pending(&row));
        }
        let (row, recorded) = end(
            conn,
            &row,
            &answers,
            ChallengeStatus::Cancelled,
            player.id,
            None,
        )?;
        notices = recorded;
        dto(conn, &row, &answers)
    })?;
    cx.changes.notices(&notices);
    Ok(challenge)
}
