//! Creating, reading and listing games.

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use uuid::Uuid;

use super::append::{append, Decision};
use crate::models::{GameRow, GameStatus, RngSeed};
use crate::schema::{games, seats};
use crate::token::hash_token;
use crate::StoreError;

/// A seat at creation time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewSeat {
    /// Taken by `name`, who authenticates with `token` (only its hash is stored).
    Taken {
        /// Display name.
        name: String,
        /// The seat token, shown to the client once.
        token: String,
    },
    /// Left open, for `join_seat`.
    Open,
    /// Played by the server's bot (no token).
    Bot(BotSeat),
    /// Taken by a player, whose token acts for it (no seat token).
    Player {
        /// The player's name.
        name: String,
        /// The player.
        player_id: Uuid,
    },
}

/// A seat played by the server's bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotSeat {
    /// Display name.
    pub name: String,
    /// `random`, `greedy` or `mcts`.
    pub level: String,
    /// Time budget per move in milliseconds; `None` for the server's default.
    pub budget_ms: Option<i32>,
}

/// Everything needed to create a game.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// Game id (the api generates it so it can log it before the insert).
    pub id: Uuid,
    /// Engine game type.
    pub game_type: String,
    /// Engine rules version.
    pub rules_version: i32,
    /// Validated config.
    pub config: serde_json::Value,
    /// Secret RNG seed.
    pub rng_seed: RngSeed,
    /// Seats 0.., in order; their count is the game's seat count.
    pub seats: Vec<NewSeat>,
    /// Setup events, snapshot and status when the game starts at creation (all seats named);
    /// `None` leaves it `open` at version 0 with no snapshot.
    pub initial: Option<Decision>,
    /// The time control, as the api stores it; `None`: no clock.
    pub clock: Option<serde_json::Value>,
    /// How long an open game waits for its seats to be taken before it expires (ignored for
    /// a game that starts at creation).
    pub open_ttl: std::time::Duration,
    /// Whether the game is rated.
    pub rated: bool,
}

/// Creates a game and its seats, and, when it starts at once, its setup events, in one
/// transaction. The setup events go through the same append path as every action's
/// (`super::append`): the game row is inserted open at version 0, then the decision is
/// appended to it. A game left open gets its expiry deadline (`super::claim_deadline`).
///
/// # Errors
/// `Database` on a duplicate id or an empty seat list (CHECK `seat_count > 0`).
pub fn create_game(conn: &mut PgConnection, new: NewGame) -> Result<GameRow, StoreError> {
    create_game_noticed(conn, new).map(|(game, _)| game)
}

/// [`create_game`], with the notices its setup commit recorded (a game that starts with
/// players' seats tells them).
///
/// # Errors
/// As [`create_game`].
pub fn create_game_noticed(
    conn: &mut PgConnection,
    new: NewGame,
) -> Result<(GameRow, Vec<super::NoticeRow>), StoreError> {
    conn.transaction(|conn| {
        let game: GameRow = diesel::insert_into(games::table)
            .values((
                games::id.eq(new.id),
                games::game_type.eq(&new.game_type),
                games::rules_version.eq(new.rules_version),
                games::config.eq(&new.config),
                games::status.eq(GameStatus::Open),
                games::version.eq(0),
                games::seat_count.eq(new.seats.len() as i32),
                games::rng_seed.eq(&new.rng_seed),
                games::clock.eq(&new.clock),
                games::rated.eq(new.rated),
            ))
            .returning(GameRow::as_returning())
            .get_result(conn)?;

        let seat_rows: Vec<_> = new
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (name, hash, bot, player) = match s {
                    NewSeat::Taken { name, token } => (
                        Some(name.clone()),
                        Some(hash_token(token).to_vec()),
                        None,
                        None,
                    ),
                    NewSeat::Open => (None, None, None, None),
                    NewSeat::Bot(bot) => (Some(bot.name.clone()), None, Some(bot), None),
                    NewSeat::Player { name, player_id } => {
                        (Some(name.clone()), None, None, Some(*player_id))
                    }
                };
                (
                    seats::game_id.eq(new.id),
                    seats::seat.eq(i as i32),
                    seats::name.eq(name.clone()),
                    seats::joined_at.eq(name.as_ref().map(|_| game.created_at)),
                    seats::token_sha256.eq(hash),
                    seats::bot_level.eq(bot.map(|b| b.level.clone())),
                    seats::bot_budget_ms.eq(bot.and_then(|b| b.budget_ms)),
                    seats::player_id.eq(player),
                )
            })
            .collect();
        diesel::insert_into(seats::table)
            .values(&seat_rows)
            .execute(conn)?;

        match new.initial {
            Some(decision) => {
                let applied = append(conn, &game, decision)?;
                Ok((applied.game, applied.notices))
            }
            None => {
                super::deadlines::arm_expiry(conn, game.id, new.open_ttl)?;
                Ok((game, Vec::new()))
            }
        }
    })
}

/// Sets the seat count of game `id` (when its open seats are closed at the start).
///
/// # Errors
/// `NotFound`; `Database` (CHECK `seat_count > 0`).
pub(super) fn set_seat_count(
    conn: &mut PgConnection,
    id: Uuid,
    seat_count: i32,
) -> Result<GameRow, StoreError> {
    Ok(diesel::update(games::table.find(id))
        .set(games::seat_count.eq(seat_count))
        .returning(GameRow::as_returning())
        .get_result(conn)?)
}

/// Loads game `id` and locks its row until the transaction ends.
pub(super) fn lock_game<E>(conn: &mut PgConnection, id: Uuid) -> Result<GameRow, StoreError<E>> {
    games::table
        .find(id)
        .select(GameRow::as_select())
        .for_update()
        .first(conn)
        .optional()?
        .ok_or(StoreError::NotFound)
}

/// How many games are running with a bot in every seat: the server caps them (they run
/// without anyone waiting for them, so nothing else limits them).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn active_bot_only_games(conn: &mut PgConnection) -> Result<i64, StoreError> {
    use diesel::dsl::{exists, not};
    let person_or_open = seats::table
        .filter(seats::game_id.eq(games::id))
        .filter(seats::bot_level.is_null());
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active))
        .filter(not(exists(person_or_open)))
        .count()
        .get_result(conn)?)
}

/// Game `id`.
///
/// # Errors
/// `NotFound`.
pub fn get_game(conn: &mut PgConnection, id: Uuid) -> Result<GameRow, StoreError> {
    games::table
        .find(id)
        .select(GameRow::as_select())
        .first(conn)
        .optional()?
        .ok_or(StoreError::NotFound)
}

/// A game in a listing: no config, snapshot or seed.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable, serde::Serialize)]
#[diesel(table_name = games, check_for_backend(Pg))]
pub struct GameSummary {
    /// Game id.
    pub id: Uuid,
    /// Engine game type.
    pub game_type: String,
    /// Rules version.
    pub rules_version: i32,
    /// Status.
    pub status: GameStatus,
    /// Version.
    pub version: i64,
    /// Seat count.
    pub seat_count: i32,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// Last change.
    pub updated_at: DateTime<Utc>,
    /// End time.
    pub finished_at: Option<DateTime<Utc>>,
    /// The time control, as the api stores it; `None`: no clock.
    pub clock: Option<serde_json::Value>,
    /// Whether the game is rated.
    pub rated: bool,
}

/// Which games to list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only this game type.
    pub game_type: Option<String>,
    /// Only this status.
    pub status: Option<GameStatus>,
}

/// Position after the last game of a page (newest first): `(created_at, id)` of that game.
/// Keyset pagination stays correct and fast while games are being created, unlike OFFSET.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    /// `created_at` of the last game returned.
    pub created_at: DateTime<Utc>,
    /// `id` of the last game returned.
    pub id: Uuid,
}

impl Cursor {
    /// Opaque text form for a `cursor` query parameter: `<microseconds>.<uuid>`.
    pub fn encode(&self) -> String {
        format!(
            "{}.{}",
            self.created_at.timestamp_micros(),
            self.id.simple()
        )
    }

    /// Parses [`Cursor::encode`]'s output; `None` for anything else (a 400 for the api).
    pub fn decode(s: &str) -> Option<Cursor> {
        let (micros, id) = s.split_once('.')?;
        Some(Cursor {
            created_at: DateTime::from_timestamp_micros(micros.parse().ok()?)?,
            id: Uuid::try_parse(id).ok()?,
        })
    }
}

/// One page of a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// Games, newest first.
    pub games: Vec<GameSummary>,
    /// Where the next page starts; `None` on the last page.
    pub next: Option<Cursor>,
}

/// Lists games matching `filter`, newest first, starting after `after`, at most `limit`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn list_games(
    conn: &mut PgConnection,
    filter: &GameFilter,
    after: Option<Cursor>,
    limit: i64,
) -> Result<Page, StoreError> {
    let limit = limit.max(1);
    let mut query = games::table.select(GameSummary::as_select()).into_boxed();
    if let Some(t) = &filter.game_type {
        query = query.filter(games::game_type.eq(t.clone()));
    }
    if let Some(s) = filter.status {
        query = query.filter(games::status.eq(s));
    }
    if let Some(c) = after {
        query = query.filter(
            games::created_at
                .lt(c.created_at)
                .or(games::created_at.eq(c.created_at).and(games::id.lt(c.id))),
        );
    }
    let mut rows = query
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
    Ok(Page { games: rows, next })
}
