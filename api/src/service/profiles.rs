//! What the service shows of players: public profiles (ratings, records, rating history),
//! a player's own games with their clocks' deadlines, and the leaderboards. Accounts are
//! [`super::players`].

use chrono::{DateTime, Utc};
use db::store::{self, Cursor, PlayerGameFilter};
use db::{JsonText, PlayerRow, PooledConn};
use uuid::Uuid;

use super::caller::require_player;
use super::document::awaited_deadlines;
use crate::dto::{
    Clock, Leaderboard, LeaderboardEntry, ListedSeat, PlayerGameList, PlayerGameSummary,
    PlayerProfile, PlayerRating, PlayerRecord, RatingChange, SeatDeadline,
};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::state::Context;
use crate::stored::StoredLifecycle;

/// How many rating changes a profile shows.
const HISTORY: i64 = 50;

/// `GET /v1/players/{id}`.
///
/// # Errors
/// 404 `player_not_found`; store errors.
pub fn profile(conn: &mut PooledConn, id: Uuid) -> Result<PlayerProfile, ApiError> {
    let p = store::profile(conn, id, HISTORY)?
        .ok_or_else(|| ApiError::not_found("player_not_found", "no player with this id"))?;
    Ok(PlayerProfile {
        player_id: p.player.id,
        name: p.player.name,
        created_at: p.player.created_at,
        ratings: p
            .ratings
            .into_iter()
            .map(|r| PlayerRating {
                type_: r.game_type,
                rating: r.mu,
                uncertainty: r.sigma,
                conservative: r.conservative,
                games: r.games,
                updated_at: r.updated_at,
            })
            .collect(),
        games_played: p.records.iter().map(|r| r.played).sum(),
        games_won: p.records.iter().map(|r| r.won).sum(),
        records: p
            .records
            .into_iter()
            .map(|r| PlayerRecord {
                type_: r.game_type,
                played: r.played,
                won: r.won,
            })
            .collect(),
        rating_history: p
            .history
            .into_iter()
            .map(|r| RatingChange {
                game_id: r.game_id,
                type_: r.game_type,
                finished_at: r.finished_at,
                place: r.place,
                rating_before: r.mu_before.unwrap_or_default(),
                uncertainty_before: r.sigma_before.unwrap_or_default(),
                rating_after: r.mu_after.unwrap_or_default(),
                uncertainty_after: r.sigma_after.unwrap_or_default(),
            })
            .collect(),
    })
}

/// `GET /v1/players/me`: the caller's own profile.
///
/// # Errors
/// 401; store errors.
pub fn me(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
) -> Result<PlayerProfile, ApiError> {
    let player: PlayerRow = require_player(conn, cx, token)?;
    profile(conn, player.id)
}

/// When the clocks of a listed game's awaited seats run out.
///
/// # Errors
/// 500 when the stored lifecycle does not read (never taken for "no deadlines").
fn listed_deadlines(
    clock: &Clock,
    lifecycle: Option<&JsonText>,
    active_seats: &[i32],
    updated_at: DateTime<Utc>,
) -> Result<Vec<SeatDeadline>, ApiError> {
    let Some(stored) = lifecycle.filter(|_| clock.is_on()) else {
        return Ok(Vec::new());
    };
    let mut life = StoredLifecycle::read(stored)?;
    life.settle(updated_at, clock);
    Ok(awaited_deadlines(&life, active_seats, updated_at))
}

/// `GET /v1/players/me/games`.
///
/// # Errors
/// 401; 400 `invalid_cursor`; store errors.
pub fn games(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    filter: PlayerGameFilter,
    cursor: Option<&str>,
    limit: i64,
) -> Result<PlayerGameList, ApiError> {
    let player = require_player(conn, cx, token)?;
    let after = match cursor {
        Some(c) => Some(Cursor::decode(c).ok_or_else(|| {
            ApiError::bad_request("invalid_cursor", "cursor is not a next_cursor of this list")
        })?),
        None => None,
    };
    let page = store::player_games(conn, player.id, filter, after, limit)?;
    let games = page
        .games
        .iter()
        .map(|g| {
            let clock = Clock::read_stored(g.clock.as_ref())?;
            let active = g.status == db::GameStatus::Active;
            let active_seats: Vec<i32> = if active {
                g.active_seats.clone()
            } else {
                Vec::new()
            };
            Ok(PlayerGameSummary {
                game_id: g.id,
                type_: g.game_type.clone(),
                status: g.status.into(),
                version: g.version,
                rated: g.rated,
                clock,
                seat: g.seat,
                seats: page
                    .seats
                    .iter()
                    .filter(|s| s.game_id == g.id)
                    .map(ListedSeat::of)
                    .collect(),
                my_turn: active_seats.contains(&g.seat),
                deadlines: if active {
                    listed_deadlines(&clock, g.lifecycle.as_ref(), &active_seats, g.updated_at)?
                } else {
                    Vec::new()
                },
                active_seats: active_seats
                    .iter()
                    .filter_map(|&s| u8::try_from(s).ok())
                    .collect(),
                created_at: g.created_at,
                updated_at: g.updated_at,
                finished_at: g.finished_at,
            })
        })
        .collect::<Result<_, ApiError>>()?;
    Ok(PlayerGameList {
        games,
        next_cursor: page.next.map(|c| c.encode()),
    })
}

/// `GET /v1/leaderboards/{type}`: players by conservative rating; the cursor is the position
/// of the next page.
///
/// # Errors
/// 404 `unknown_game_type` is the caller's; 400 `invalid_cursor`; store errors.
pub fn leaderboard(
    conn: &mut PooledConn,
    game_type: &str,
    cursor: Option<&str>,
    limit: i64,
) -> Result<Leaderboard, ApiError> {
    let offset = match cursor {
        Some(c) => c.parse::<i64>().ok().filter(|o| *o >= 0).ok_or_else(|| {
            ApiError::bad_request("invalid_cursor", "cursor is not a next_cursor of this list")
        })?,
        None => 0,
    };
    let (rows, more) = store::leaderboard(conn, game_type, offset, limit)?;
    let count = rows.len() as i64;
    Ok(Leaderboard {
        type_: game_type.to_string(),
        entries: rows
            .into_iter()
            .zip(offset + 1..)
            .map(|(r, rank)| LeaderboardEntry {
                rank,
                player_id: r.rating.player_id,
                name: r.name,
                rating: r.rating.mu,
                uncertainty: r.rating.sigma,
                conservative: r.rating.conservative,
                games: r.rating.games,
            })
            .collect(),
        next_cursor: more.then(|| (offset + count).to_string()),
    })
}
