//! A rematch: a challenge to the same table with every seat moved one on.

use db::store::{self, ChallengeRow};
use db::PooledConn;
use serde_json::Value;
use uuid::Uuid;

use super::{check_takes_challenges, dto, rematch_exists, send, StoredSeat};
use crate::dto::Challenge;
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::service::caller::require_player;
use crate::state::Context;

/// `POST /v1/games/{id}/rematch` by a player of the game, once it is over: a challenge to
/// the same table (players and bots) with the same settings, every seat moved one on (the
/// first seat's occupant takes the last).
///
/// # Errors
/// 401, 403 `not_seated`, 404, 409 `game_not_over`, `rematch_exists`, 422
/// `rematch_needs_players` (a seat was a guest's, not a player's); store errors.
pub fn rematch(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    game_id: Uuid,
    entropy: Option<String>,
) -> Result<Challenge, ApiError> {
    let mut notices = Vec::new();
    let challenge = store::atomically(conn, |conn| {
        let player = require_player(conn, cx, token)?;
        let game = store::get_game(conn, game_id)?;
        let seats = store::seats(conn, game_id)?;
        if !seats.iter().any(|s| s.player_id == Some(player.id)) {
            return Err(ApiError::forbidden(
                "not_seated",
                "only a player of the game asks for its rematch",
            ));
        }
        if !game.status.is_over() {
            return Err(ApiError::conflict(
                "game_not_over",
                "a rematch is asked for once the game is over",
            ));
        }
        if store::rematch_of(conn, game_id)?.is_some() {
            return Err(rematch_exists());
        }
        let mut table = Vec::with_capacity(seats.len());
        for seat in &seats {
            table.push(match (seat.player_id, seat.bot_level.as_deref()) {
                (Some(id), _) => StoredSeat::Player(id),
                (None, Some(level)) => StoredSeat::Bot(level.to_string()),
                (None, None) => {
                    return Err(ApiError::unprocessable(
                        "rematch_needs_players",
                        format!(
                            "seat {} was not a player's: a rematch invites players by their \
                             accounts",
                            seat.seat
                        ),
                    ))
                }
            });
        }
        table.rotate_left(1);
        let template = ChallengeRow {
            id: Uuid::nil(),
            challenger_id: player.id,
            game_type: game.game_type.clone(),
            config: game.config.clone(),
            clock: game.clock.clone(),
            rated: game.rated,
            seats: Value::Null,
            status: String::new(),
            declined_by: None,
            decline_reason: None,
            game_id: None,
            rematch_of: Some(game_id),
            created_at: chrono::Utc::now(),
            expires_at: chrono::Utc::now(),
            ended_at: None,
        };
        for seat in &table {
            if let StoredSeat::Player(id) = seat {
                if *id != player.id {
                    let invited = store::get_player(conn, *id)?.ok_or_else(|| {
                        ApiError::internal("a seat of a player that does not exist")
                    })?;
                    check_takes_challenges(conn, &player, &invited)?;
                }
            }
        }
        let (row, recorded) = send(conn, cx, &player, &template, table, entropy.as_deref())?;
        notices = recorded;
        let answers = store::challenge_answers(conn, row.id)?;
        dto(conn, &row, &answers)
    })?;
    cx.changes.notices(&notices);
    Ok(challenge)
}

/// `GET /v1/games/{id}/rematch`: the rematch offered for the game, if any.
///
/// # Errors
/// 404 `no_rematch`; store errors.
pub fn rematch_of(conn: &mut PooledConn, game_id: Uuid) -> Result<Challenge, ApiError> {
    let row = store::rematch_of(conn, game_id)?.ok_or_else(|| {
        ApiError::not_found("no_rematch", "no rematch of this game was asked for")
    })?;
    let answers = store::challenge_answers(conn, row.id)?;
    dto(conn, &row, &answers)
}
