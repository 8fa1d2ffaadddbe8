//! Tournaments (migration 28): the tournament, its players, the tables of its rounds, and
//! each player's result per round.
//!
//! Every step of a tournament (its start, a round's end and the next round's pairing) is done
//! in one transaction holding the tournament's row lock ([`claim_due_tournament`],
//! [`lock_tournament`]): two processes never take the same step, and a process killed in the
//! middle of one leaves nothing of it.

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use uuid::Uuid;

use crate::schema::{tournament_players, tournament_results, tournament_tables, tournaments};
use crate::StoreError;

/// A `tournaments` row.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = tournaments, check_for_backend(Pg))]
pub struct TournamentRow {
    pub id: Uuid,
    pub organiser_id: Uuid,
    pub name: String,
    pub game_type: String,
    pub config: serde_json::Value,
    /// The clock as the api stores it.
    pub clock: serde_json::Value,
    pub rated: bool,
    /// `swiss` or `knockout`.
    pub format: String,
    pub rounds: Option<i32>,
    pub table_size: i32,
    pub fill_with_bots: bool,
    pub bot_level: String,
    pub max_players: i32,
    pub starts_at: DateTime<Utc>,
    /// `waiting`, `running`, `finished` or `cancelled`.
    pub status: String,
    pub round: i32,
    pub check_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// A tournament to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTournament {
    pub organiser_id: Uuid,
    pub name: String,
    pub game_type: String,
    pub config: serde_json::Value,
    pub clock: serde_json::Value,
    pub rated: bool,
    pub format: String,
    pub rounds: Option<i32>,
    pub table_size: i32,
    pub fill_with_bots: bool,
    pub bot_level: String,
    pub max_players: i32,
    pub starts_at: DateTime<Utc>,
}

/// A `tournament_players` row.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = tournament_players, check_for_backend(Pg))]
pub struct TournamentEntry {
    pub tournament_id: Uuid,
    pub player_id: Uuid,
    pub joined_at: DateTime<Utc>,
    pub withdrawn_at: Option<DateTime<Utc>>,
    pub out_in_round: Option<i32>,
}

/// A `tournament_tables` row: `players` in seat order, `None` for a bot's seat; a bye has no
/// game and one player.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = tournament_tables, check_for_backend(Pg))]
pub struct TournamentTable {
    pub tournament_id: Uuid,
    pub round: i32,
    pub table_no: i32,
    pub game_id: Option<Uuid>,
    pub players: Vec<Option<Uuid>>,
}

/// A `tournament_results` row.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = tournament_results, check_for_backend(Pg))]
pub struct TournamentResult {
    pub tournament_id: Uuid,
    pub round: i32,
    pub player_id: Uuid,
    pub place: Option<i32>,
    pub points: i32,
    pub score: i64,
    pub bye: bool,
}

/// Stores `new` (waiting, looked at first at its start).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn insert_tournament(
    conn: &mut PgConnection,
    new: &NewTournament,
) -> Result<TournamentRow, StoreError> {
    Ok(diesel::insert_into(tournaments::table)
        .values((
            tournaments::id.eq(Uuid::new_v4()),
            tournaments::organiser_id.eq(new.organiser_id),
            tournaments::name.eq(&new.name),
            tournaments::game_type.eq(&new.game_type),
            tournaments::config.eq(&new.config),
            tournaments::clock.eq(&new.clock),
            tournaments::rated.eq(new.rated),
            tournaments::format.eq(&new.format),
            tournaments::rounds.eq(new.rounds),
            tournaments::table_size.eq(new.table_size),
            tournaments::fill_with_bots.eq(new.fill_with_bots),
            tournaments::bot_level.eq(&new.bot_level),
            tournaments::max_players.eq(new.max_players),
            tournaments::starts_at.eq(new.starts_at),
            tournaments::check_at.eq(new.starts_at),
        ))
        .returning(TournamentRow::as_returning())
        .get_result(conn)?)
}

/// Tournament `id`, if any.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn get_tournament(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<TournamentRow>, StoreError> {
    Ok(tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .first(conn)
        .optional()?)
}

/// Tournament `id`, locked until the caller's transaction ends.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn lock_tournament(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<TournamentRow>, StoreError> {
    Ok(tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .for_update()
        .first(conn)
        .optional()?)
}

/// The earliest tournament due to be looked at, locked (skipping those another process
/// holds) until the caller's transaction ends; or, when none is due, how long until the
/// next one is.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn claim_due_tournament(
    conn: &mut PgConnection,
) -> Result<Result<TournamentRow, Option<std::time::Duration>>, StoreError> {
    let due = tournaments::table
        .filter(tournaments::status.eq_any(["waiting", "running"]))
        .filter(tournaments::check_at.le(diesel::dsl::now))
        .order(tournaments::check_at.asc())
        .select(TournamentRow::as_select())
        .for_update()
        .skip_locked()
        .first(conn)
        .optional()?;
    if let Some(row) = due {
        return Ok(Ok(row));
    }
    let next: Option<DateTime<Utc>> = tournaments::table
        .filter(tournaments::status.eq_any(["waiting", "running"]))
        .select(diesel::dsl::min(tournaments::check_at))
        .first(conn)?;
    Ok(Err(
        next.map(|at| (at - Utc::now()).to_std().unwrap_or_default())
    ))
}

/// Sets what a step changed of tournament `id`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn update_tournament(
    conn: &mut PgConnection,
    id: Uuid,
    status: &str,
    round: i32,
    check_in: std::time::Duration,
) -> Result<TournamentRow, StoreError> {
    let us = i64::try_from(check_in.as_micros()).unwrap_or(i64::MAX);
    let over = matches!(status, "finished" | "cancelled");
    Ok(diesel::update(tournaments::table.find(id))
        .set((
            tournaments::status.eq(status),
            tournaments::round.eq(round),
            tournaments::check_at.eq(diesel::dsl::sql::<diesel::sql_types::Timestamptz>(
                &format!("now() + {us} * interval '1 microsecond'"),
            )),
            tournaments::finished_at.eq(over.then(Utc::now)),
        ))
        .returning(TournamentRow::as_returning())
        .get_result(conn)?)
}

/// Makes tournament `id` due now (its organiser started it).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn start_tournament_now(conn: &mut PgConnection, id: Uuid) -> Result<(), StoreError> {
    diesel::update(tournaments::table.find(id))
        .set((
            tournaments::starts_at.eq(diesel::dsl::now),
            tournaments::check_at.eq(diesel::dsl::now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Tournaments, newest first, at most `limit`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn list_tournaments(
    conn: &mut PgConnection,
    limit: i64,
) -> Result<Vec<TournamentRow>, StoreError> {
    Ok(tournaments::table
        .order((tournaments::created_at.desc(), tournaments::id.desc()))
        .limit(limit.max(1))
        .select(TournamentRow::as_select())
        .load(conn)?)
}

/// `player` joins tournament `id` (again: a withdrawn entry comes back); whether it was new.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn join_tournament(
    conn: &mut PgConnection,
    id: Uuid,
    player: Uuid,
) -> Result<bool, StoreError> {
    Ok(diesel::insert_into(tournament_players::table)
        .values((
            tournament_players::tournament_id.eq(id),
            tournament_players::player_id.eq(player),
        ))
        .on_conflict_do_nothing()
        .execute(conn)?
        > 0)
}

/// `player` leaves tournament `id` before its start (the entry goes); whether it was in.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn leave_tournament(
    conn: &mut PgConnection,
    id: Uuid,
    player: Uuid,
) -> Result<bool, StoreError> {
    Ok(diesel::delete(tournament_players::table.find((id, player))).execute(conn)? > 0)
}

/// `player` withdraws from running tournament `id`: it is paired no more.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn withdraw_from_tournament(
    conn: &mut PgConnection,
    id: Uuid,
    player: Uuid,
) -> Result<bool, StoreError> {
    Ok(diesel::update(
        tournament_players::table
            .find((id, player))
            .filter(tournament_players::withdrawn_at.is_null()),
    )
    .set(tournament_players::withdrawn_at.eq(diesel::dsl::now))
    .execute(conn)?
        > 0)
}

/// Tournament `id`'s players, in the order they joined.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn tournament_entries(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Vec<TournamentEntry>, StoreError> {
    Ok(tournament_players::table
        .filter(tournament_players::tournament_id.eq(id))
        .order((
            tournament_players::joined_at.asc(),
            tournament_players::player_id.asc(),
        ))
        .select(TournamentEntry::as_select())
        .load(conn)?)
}

/// Marks `players` of tournament `id` out of a knockout in `round`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn knock_out(
    conn: &mut PgConnection,
    id: Uuid,
    players: &[Uuid],
    round: i32,
) -> Result<(), StoreError> {
    diesel::update(
        tournament_players::table
            .filter(tournament_players::tournament_id.eq(id))
            .filter(tournament_players::player_id.eq_any(players)),
    )
    .set(tournament_players::out_in_round.eq(round))
    .execute(conn)?;
    Ok(())
}

/// Stores a round's tables.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn insert_tables(
    conn: &mut PgConnection,
    tables: &[TournamentTable],
) -> Result<(), StoreError> {
    let values: Vec<_> = tables
        .iter()
        .map(|t| {
            (
                tournament_tables::tournament_id.eq(t.tournament_id),
                tournament_tables::round.eq(t.round),
                tournament_tables::table_no.eq(t.table_no),
                tournament_tables::game_id.eq(t.game_id),
                tournament_tables::players.eq(&t.players),
            )
        })
        .collect();
    diesel::insert_into(tournament_tables::table)
        .values(&values)
        .execute(conn)?;
    Ok(())
}

/// The tables of tournament `id` (of `round` only, when given), by round and table.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn tournament_tables(
    conn: &mut PgConnection,
    id: Uuid,
    round: Option<i32>,
) -> Result<Vec<TournamentTable>, StoreError> {
    let mut query = tournament_tables::table
        .filter(tournament_tables::tournament_id.eq(id))
        .into_boxed();
    if let Some(round) = round {
        query = query.filter(tournament_tables::round.eq(round));
    }
    Ok(query
        .order((
            tournament_tables::round.asc(),
            tournament_tables::table_no.asc(),
        ))
        .select(TournamentTable::as_select())
        .load(conn)?)
}

/// Stores a round's results.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn insert_results(
    conn: &mut PgConnection,
    results: &[TournamentResult],
) -> Result<(), StoreError> {
    let values: Vec<_> = results
        .iter()
        .map(|r| {
            (
                tournament_results::tournament_id.eq(r.tournament_id),
                tournament_results::round.eq(r.round),
                tournament_results::player_id.eq(r.player_id),
                tournament_results::place.eq(r.place),
                tournament_results::points.eq(r.points),
                tournament_results::score.eq(r.score),
                tournament_results::bye.eq(r.bye),
            )
        })
        .collect();
    diesel::insert_into(tournament_results::table)
        .values(&values)
        .execute(conn)?;
    Ok(())
}

/// Every result of tournament `id`, by round.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn tournament_results(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Vec<TournamentResult>, StoreError> {
    Ok(tournament_results::table
        .filter(tournament_results::tournament_id.eq(id))
        .order((
            tournament_results::round.asc(),
            tournament_results::player_id.asc(),
        ))
        .select(TournamentResult::as_select())
        .load(conn)?)
}
