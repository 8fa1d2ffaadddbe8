//! Players: creating them, recognising their tokens, rotating them, and what their profiles,
//! game lists and leaderboards read.

use chrono::{DateTime, Utc};
use diesel::dsl::now;
use diesel::pg::Pg;
use diesel::prelude::*;
use uuid::Uuid;

use super::games::Cursor;
use crate::models::{GameStatus, JsonText, PlayerRow, SeatRow};
use crate::schema::{games, player_results, players, ratings, seats};
use crate::token::hash_token;
use crate::StoreError;

/// Creates a player named `name` (unique by `name_key`, the caller's case-folded form) who
/// authenticates with `token` (only its hash is stored). `None` when the name is taken.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn create_player(
    conn: &mut PgConnection,
    name: &str,
    name_key: &str,
    token: &str,
) -> Result<Option<PlayerRow>, StoreError> {
    let inserted = diesel::insert_into(players::table)
        .values((
            players::id.eq(Uuid::new_v4()),
            players::name.eq(name),
            players::name_key.eq(name_key),
            players::token_sha256.eq(hash_token(token).to_vec()),
        ))
        .on_conflict(players::name_key)
        .do_nothing()
        .returning(PlayerRow::as_returning())
        .get_result(conn)
        .optional()?;
    Ok(inserted)
}

/// The player whose token is `token`, if any.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn player_by_token(
    conn: &mut PgConnection,
    token: &str,
) -> Result<Option<PlayerRow>, StoreError> {
    Ok(players::table
        .filter(players::token_sha256.eq(hash_token(token).to_vec()))
        .select(PlayerRow::as_select())
        .first(conn)
        .optional()?)
}

/// The player whose name has the compared form `name_key` (see `create_player`), if any.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn player_by_name_key(
    conn: &mut PgConnection,
    name_key: &str,
) -> Result<Option<PlayerRow>, StoreError> {
    Ok(players::table
        .filter(players::name_key.eq(name_key))
        .select(PlayerRow::as_select())
        .first(conn)
        .optional()?)
}

/// Player `id`, if any.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn get_player(conn: &mut PgConnection, id: Uuid) -> Result<Option<PlayerRow>, StoreError> {
    Ok(players::table
        .find(id)
        .select(PlayerRow::as_select())
        .first(conn)
        .optional()?)
}

/// Replaces player `id`'s token `old` by `new`: the old one stops working with this commit.
/// Only while `old` is still the player's token: of two rotations at once, the second waits
/// for the first's row lock and then finds `old` gone, so it changes nothing and answers
/// `false` (a caller that would otherwise be locked out by a token it never saw learns so).
///
/// # Errors
/// `Unavailable`/`Database`.
pub fn rotate_player_token(
    conn: &mut PgConnection,
    id: Uuid,
    old: &str,
    new: &str,
) -> Result<bool, StoreError> {
    let changed = diesel::update(
        players::table
            .find(id)
            .filter(players::token_sha256.eq(hash_token(old).to_vec())),
    )
    .set((
        players::token_sha256.eq(hash_token(new).to_vec()),
        players::token_rotated_at.eq(now),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}

/// A `ratings` row.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = ratings, check_for_backend(Pg))]
pub struct RatingRow {
    pub player_id: Uuid,
    pub game_type: String,
    pub mu: f64,
    pub sigma: f64,
    /// Rated games played.
    pub games: i32,
    pub updated_at: DateTime<Utc>,
    /// `mu - 3 sigma`: what the leaderboard ranks by.
    pub conservative: f64,
}

/// A `player_results` row.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = player_results, check_for_backend(Pg))]
pub struct ResultRow {
    pub game_id: Uuid,
    pub player_id: Uuid,
    pub seat: i32,
    pub game_type: String,
    pub place: i32,
    pub won: bool,
    pub rated: bool,
    pub mu_before: Option<f64>,
    pub sigma_before: Option<f64>,
    pub mu_after: Option<f64>,
    pub sigma_after: Option<f64>,
    pub finished_at: DateTime<Utc>,
}

/// Games played and won by one player in one game type.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
pub struct Record {
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub game_type: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub played: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub won: i64,
}

/// What a profile shows besides the player: ratings per game type, games played and won per
/// game type, and the latest rating changes (newest first, at most `history`).
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    pub player: PlayerRow,
    pub ratings: Vec<RatingRow>,
    pub records: Vec<Record>,
    pub history: Vec<ResultRow>,
}

/// Player `id`'s profile; `None` for an unknown player.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn profile(
    conn: &mut PgConnection,
    id: Uuid,
    history: i64,
) -> Result<Option<Profile>, StoreError> {
    let Some(player) = get_player(conn, id)? else {
        return Ok(None);
    };
    let ratings = ratings::table
        .filter(ratings::player_id.eq(id))
        .order(ratings::game_type.asc())
        .select(RatingRow::as_select())
        .load(conn)?;
    let records = diesel::sql_query(
        "SELECT game_type, count(*) AS played, count(*) FILTER (WHERE won) AS won
           FROM player_results WHERE player_id = $1 GROUP BY game_type ORDER BY game_type",
    )
    .bind::<diesel::sql_types::Uuid, _>(id)
    .load(conn)?;
    let history = player_results::table
        .filter(player_results::player_id.eq(id))
        .filter(player_results::rated.eq(true))
        .order((
            player_results::finished_at.desc(),
            player_results::game_id.desc(),
        ))
        .limit(history.max(0))
        .select(ResultRow::as_select())
        .load(conn)?;
    Ok(Some(Profile {
        player,
        ratings,
        records,
        history,
    }))
}

/// One row of a leaderboard: the rating and the player's name.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub rating: RatingRow,
    pub name: String,
}

/// The leaderboard of `game_type`: players by conservative rating (best first), `limit` of
/// them from position `offset`, and whether more follow.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn leaderboard(
    conn: &mut PgConnection,
    game_type: &str,
    offset: i64,
    limit: i64,
) -> Result<(Vec<Ranked>, bool), StoreError> {
    let mut rows: Vec<(RatingRow, String)> = ratings::table
        .inner_join(players::table)
        .filter(ratings::game_type.eq(game_type))
        .order((ratings::conservative.desc(), ratings::player_id.asc()))
        .offset(offset.max(0))
        .limit(limit.max(1) + 1)
        .select((RatingRow::as_select(), players::name))
        .load(conn)?;
    let more = rows.len() as i64 > limit.max(1);
    rows.truncate(limit.max(1) as usize);
    Ok((
        rows.into_iter()
            .map(|(rating, name)| Ranked { rating, name })
            .collect(),
        more,
    ))
}

/// A game in a player's list: the game's summary fields and the player's seat.
#[derive(Debug, Clone, PartialEq, Queryable)]
pub struct PlayerGame {
    pub id: Uuid,
    pub game_type: String,
    pub rules_version: i32,
    pub status: GameStatus,
    pub version: i64,
    pub seat_count: i32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub clock: Option<serde_json::Value>,
    pub rated: bool,
    pub active_seats: Vec<i32>,
    pub lifecycle: Option<JsonText>,
    /// The player's seat in it.
    pub seat: i32,
}

/// Which of a player's games to list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayerGameFilter {
    /// Only games in this status.
    pub status: Option<GameStatus>,
    /// Only active games that wait for the player's seat.
    pub my_turn: bool,
}

/// A page of a player's games (newest first) and their seats.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerGamePage {
    pub games: Vec<PlayerGame>,
    /// Every seat of the listed games, by game and seat number.
    pub seats: Vec<SeatRow>,
    pub next: Option<Cursor>,
}

/// Player `player`'s games matching `filter`, newest first, after `after`, at most `limit`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn player_games(
    conn: &mut PgConnection,
    player: Uuid,
    filter: PlayerGameFilter,
    after: Option<Cursor>,
    limit: i64,
) -> Result<PlayerGamePage, StoreError> {
    let limit = limit.max(1);
    let mut query = games::table
        .inner_join(seats::table)
        .filter(seats::player_id.eq(player))
        .select((
            games::id,
            games::game_type,
            games::rules_version,
            games::status,
            games::version,
            games::seat_count,
            games::created_at,
            games::updated_at,
            games::finished_at,
            games::clock,
            games::rated,
            games::active_seats,
            games::lifecycle,
            seats::seat,
        ))
        .into_boxed();
    if let Some(status) = filter.status {
        query = query.filter(games::status.eq(status));
    }
    if filter.my_turn {
        query = query
            .filter(games::status.eq(GameStatus::Active))
            .filter(diesel::dsl::sql::<diesel::sql_types::Bool>(
                "seats.seat = ANY (games.active_seats)",
            ));
    }
    if let Some(c) = after {
        query = query.filter(
            games::created_at
                .lt(c.created_at)
                .or(games::created_at.eq(c.created_at).and(games::id.lt(c.id))),
        );
    }
    let mut rows: Vec<PlayerGame> = query
        .order((games::created_at.desc(), games::id.desc()))
        .limit(limit + 1)
        .load(conn)?;
    let next = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        rows.last().map(|g| Cursor {
            created_at: g.created_at,
            id: g.id,
        })
    } else {
        None
    };
    let ids: Vec<Uuid> = rows.iter().map(|g| g.id).collect();
    let seats = seats::table
        .filter(seats::game_id.eq_any(&ids))
        .order((seats::game_id.asc(), seats::seat.asc()))
        .select(SeatRow::as_select())
        .load(conn)?;
    Ok(PlayerGamePage {
        games: rows,
        seats,
        next,
    })
}
