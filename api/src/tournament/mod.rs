//! Tournaments: Swiss and knockout, for every game type, at tables of the game's seat
//! counts. Players join before the start; from then on the server's workers take each step
//! ([`rounds::advance`], run by [`runner`] in every process): the first round at the start
//! time, the next when every game of a round is over, the end after the last. Each step is
//! one transaction under the tournament's row lock, so it happens exactly once across
//! processes and survives a `kill -9` of any of them (a step cut short left nothing, and the
//! next process to look takes it again).
//!
//! [`pairing`] seats the players, [`standings`] ranks them.

pub mod pairing;
pub mod rounds;
pub mod runner;
pub mod standings;

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use db::store::{self, TournamentEntry, TournamentRow};
use db::{PgConnection, PooledConn};
use engine::chance::rng_for;
use engine::DynGame;
use serde_json::Value;
use uuid::Uuid;

use crate::dto::{
    BotLevel, Clock, Tournament, TournamentFormat, TournamentList, TournamentRound,
    TournamentRounds, TournamentSeat, TournamentStatus, TournamentTable,
};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::service::caller::require_player;
use crate::state::Context;

/// A validated tournament request.
pub struct TournamentPlan {
    pub name: String,
    pub kind: &'static dyn DynGame,
    pub config: Value,
    pub clock: Clock,
    pub rated: bool,
    pub format: TournamentFormat,
    pub rounds: Option<i32>,
    pub table_size: i32,
    pub fill_with_bots: bool,
    pub bot: BotLevel,
    pub max_players: i32,
    pub starts_at: DateTime<Utc>,
}

/// The most tournaments listed.
const LIST_LIMIT: i64 = 100;

/// Checks a tournament request.
///
/// # Errors
/// 422 `invalid_table_size`, `invalid_tournament`, `rated_game_with_bots`, `invalid_config`.
pub fn check(plan: &TournamentPlan) -> Result<(), ApiError> {
    let info = plan.kind.info();
    let size = usize::try_from(plan.table_size).unwrap_or(0);
    if !(info.min_seats..=info.max_seats).contains(&size) {
        return Err(ApiError::unprocessable(
            "invalid_table_size",
            format!(
                "{} is played at {} to {} seats, not {}",
                info.name, info.min_seats, info.max_seats, plan.table_size
            ),
        ));
    }
    let why = match (plan.format, plan.rounds) {
        (TournamentFormat::Swiss, None) => Some("a Swiss tournament names its `rounds`"),
        (TournamentFormat::Swiss, Some(r)) if !(1..=20).contains(&r) => {
            Some("a Swiss tournament has 1 to 20 rounds")
        }
        (TournamentFormat::Knockout, Some(_)) => {
            Some("a knockout has as many rounds as it needs: leave out `rounds`")
        }
        _ if plan.name.trim().is_empty() || plan.name.chars().count() > 80 => {
            Some("a tournament's name has 1 to 80 characters")
        }
        _ if !(2..=256).contains(&plan.max_players) => Some("max_players is 2 to 256"),
        _ => None,
    };
    if let Some(why) = why {
        return Err(ApiError::unprocessable("invalid_tournament", why));
    }
    if plan.rated && plan.fill_with_bots {
        return Err(ApiError::unprocessable(
            "rated_game_with_bots",
            "a rated tournament has no bot: leave out fill_with_bots",
        ));
    }
    plan.kind
        .setup(&plan.config, size, &mut rng_for(&[0; 32], 0))
        .map(|_| ())
        .map_err(ApiError::from)
}

/// The format of a stored tournament.
pub fn format_of(t: &TournamentRow) -> TournamentFormat {
    if t.format == TournamentFormat::Knockout.name() {
        TournamentFormat::Knockout
    } else {
        TournamentFormat::Swiss
    }
}

fn status_of(t: &TournamentRow) -> TournamentStatus {
    match t.status.as_str() {
        "running" => TournamentStatus::Running,
        "finished" => TournamentStatus::Finished,
        "cancelled" => TournamentStatus::Cancelled,
        _ => TournamentStatus::Waiting,
    }
}

/// The names of the entries' players.
pub fn names_of(
    conn: &mut PgConnection,
    entries: &[TournamentEntry],
) -> Result<HashMap<Uuid, String>, ApiError> {
    let mut names = HashMap::new();
    for e in entries {
        if let Some(p) = store::get_player(conn, e.player_id)? {
            names.insert(p.id, p.name);
        }
    }
    Ok(names)
}

fn not_found() -> ApiError {
    ApiError::not_found("tournament_not_found", "no tournament with this id")
}

/// The tournament as clients see it (`with_standings`: read its players and results too).
fn dto(
    conn: &mut PgConnection,
    t: &TournamentRow,
    with_standings: bool,
) -> Result<Tournament, ApiError> {
    let standings = if with_standings {
        let entries = store::tournament_entries(conn, t.id)?;
        let names = names_of(conn, &entries)?;
        let tables = store::tournament_tables(conn, t.id, None)?;
        let results = store::tournament_results(conn, t.id)?;
        standings::standings(format_of(t), &entries, &names, &tables, &results)
    } else {
        Vec::new()
    };
    Ok(Tournament {
        tournament_id: t.id,
        name: t.name.clone(),
        organiser_id: t.organiser_id,
        type_: t.game_type.clone(),
        config: t.config.clone(),
        clock: Clock::read_stored(Some(&t.clock))?,
        rated: t.rated,
        format: format_of(t),
        rounds: t.rounds,
        table_size: t.table_size,
        fill_with_bots: t.fill_with_bots,
        max_players: t.max_players,
        starts_at: t.starts_at,
        status: status_of(t),
        round: t.round,
        standings,
        created_at: t.created_at,
        finished_at: t.finished_at,
    })
}

/// `POST /v1/tournaments` (checked with [`check`]) by its organiser.
///
/// # Errors
/// 401; store errors.
pub fn create(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    plan: TournamentPlan,
) -> Result<Tournament, ApiError> {
    let organiser = require_player(conn, cx, token)?;
    let new = store::NewTournament {
        organiser_id: organiser.id,
        name: plan.name.trim().to_string(),
        game_type: plan.kind.name().to_string(),
        config: plan.config,
        clock: plan.clock.stored().unwrap_or(Value::Null),
        rated: plan.rated,
        format: plan.format.name().to_string(),
        rounds: plan.rounds,
        table_size: plan.table_size,
        fill_with_bots: plan.fill_with_bots,
        bot_level: plan.bot.name().to_string(),
        max_players: plan.max_players,
        starts_at: plan.starts_at,
    };
    let row = store::insert_tournament(conn, &new)?;
    dto(conn, &row, true)
}

/// `GET /v1/tournaments/{id}`.
///
/// # Errors
/// 404 `tournament_not_found`; store errors.
pub fn get(conn: &mut PooledConn, id: Uuid) -> Result<Tournament, ApiError> {
    let row = store::get_tournament(conn, id)?.ok_or_else(not_found)?;
    dto(conn, &row, true)
}

/// `GET /v1/tournaments`.
///
/// # Errors
/// Store errors.
pub fn list(conn: &mut PooledConn) -> Result<TournamentList, ApiError> {
    let rows = store::list_tournaments(conn, LIST_LIMIT)?;
    let tournaments = rows
        .iter()
        .map(|row| dto(conn, row, false))
        .collect::<Result<_, _>>()?;
    Ok(TournamentList { tournaments })
}

/// `GET /v1/tournaments/{id}/rounds`: every round's tables, games and results, and where the
/// tournament stands (its reads are kept for ever once it is over).
///
/// # Errors
/// 404 `tournament_not_found`; store errors.
pub fn rounds(
    conn: &mut PooledConn,
    id: Uuid,
) -> Result<(TournamentRounds, TournamentStatus), ApiError> {
    let t = store::get_tournament(conn, id)?.ok_or_else(not_found)?;
    let tables = store::tournament_tables(conn, id, None)?;
    let results = store::tournament_results(conn, id)?;
    let mut rounds: Vec<TournamentRound> = Vec::new();
    for round in 1..=t.round {
        let of_round: Vec<_> = tables.iter().filter(|x| x.round == round).collect();
        let over = results.iter().any(|r| r.round == round && !r.bye)
            || of_round.iter().all(|x| x.game_id.is_none());
        let tables = of_round
            .iter()
            .map(|table| TournamentTable {
                table: table.table_no,
                game_id: table.game_id,
                seats: table
                    .players
                    .iter()
                    .enumerate()
                    .map(|(seat, player)| {
                        let result = player.and_then(|p| {
                            results
                                .iter()
                                .find(|r| r.round == round && r.player_id == p)
                        });
                        TournamentSeat {
                            seat: seat as i32,
                            player_id: *player,
                            place: result.and_then(|r| r.place),
                            points: result.map(|r| r.points),
                        }
                    })
                    .collect(),
            })
            .collect();
        rounds.push(TournamentRound {
            round,
            over,
            tables,
        });
    }
    Ok((TournamentRounds { rounds }, status_of(&t)))
}

/// `POST /v1/tournaments/{id}/players`: the caller joins (again: nothing changes).
///
/// # Errors
/// 401, 404; 409 `tournament_started`, `tournament_full`; store errors.
pub fn join(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    id: Uuid,
) -> Result<Tournament, ApiError> {
    store::atomically(conn, |conn| {
        let player = require_player(conn, cx, token)?;
        let t = store::lock_tournament(conn, id)?.ok_or_else(not_found)?;
        if t.status != "waiting" {
            return Err(ApiError::conflict(
                "tournament_started",
                "players join a tournament before its start",
            ));
        }
        let entries = store::tournament_entries(conn, id)?;
        let already = entries.iter().any(|e| e.player_id == player.id);
        if !already && entries.len() >= usize::try_from(t.max_players).unwrap_or(0) {
            return Err(ApiError::conflict(
                "tournament_full",
                format!("the tournament has its {} players", t.max_players),
            ));
        }
        store::join_tournament(conn, id, player.id)?;
        dto(conn, &t, true)
    })
}

/// `DELETE /v1/tournaments/{id}/players/me`: before the start the caller leaves; after it,
/// the caller withdraws (paired no more; its seats in running games go by their clocks).
///
/// # Errors
/// 401, 404; 409 `not_in_tournament`, `tournament_over`; store errors.
pub fn leave(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    id: Uuid,
) -> Result<Tournament, ApiError> {
    store::atomically(conn, |conn| {
        let player = require_player(conn, cx, token)?;
        let t = store::lock_tournament(conn, id)?.ok_or_else(not_found)?;
        let left = match t.status.as_str() {
            "waiting" => store::leave_tournament(conn, id, player.id)?,
            "running" => store::withdraw_from_tournament(conn, id, player.id)?,
            _ => {
                return Err(ApiError::conflict(
                    "tournament_over",
                    "the tournament is over",
                ))
            }
        };
        if !left {
            return Err(ApiError::conflict(
                "not_in_tournament",
                "you are not (or no longer) in this tournament",
            ));
        }
        dto(conn, &t, true)
    })
}

/// `POST /v1/tournaments/{id}/start` by its organiser: the first round now, in this request.
///
/// # Errors
/// 401, 403 `not_your_tournament`, 404, 409 `tournament_started`; store errors.
pub fn start(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    id: Uuid,
) -> Result<Tournament, ApiError> {
    let mut notices = Vec::new();
    let tournament = store::atomically(conn, |conn| {
        let player = require_player(conn, cx, token)?;
        let t = store::lock_tournament(conn, id)?.ok_or_else(not_found)?;
        if t.organiser_id != player.id {
            return Err(ApiError::forbidden(
                "not_your_tournament",
                "only the organiser starts a tournament early",
            ));
        }
        if t.status != "waiting" {
            return Err(ApiError::conflict(
                "tournament_started",
                "the tournament has started already",
            ));
        }
        store::start_tournament_now(conn, id)?;
        notices = rounds::advance(conn, cx, &t)?;
        let t = store::get_tournament(conn, id)?.ok_or_else(not_found)?;
        dto(conn, &t, true)
    })?;
    cx.changes.notices(&notices);
    Ok(tournament)
}
