//! Creating, reading and listing games.

use chrono::{DateTime, Utc};
use diesel::pg::Pg;
use diesel::prelude::*;
use uuid::Uuid;

use super::append::{append, Decision};
use crate::models::{GameRow, GameStatus, RngSeed, SeatRow};
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
    /// For a game of bots only that starts at once: the most such games allowed to run
    /// (checked in the creating transaction, see [`claim_bot_game_slot`]); `None` otherwise.
    pub bot_game_limit: Option<i64>,
    /// The time control, as the api stores it; `None`: no clock.
    pub clock: Option<serde_json::Value>,
    /// How long an open game waits for its seats to be taken before it expires (ignored for
    /// a game that starts at creation).
    pub open_ttl: std::time::Duration,
    /// Whether the game is rated.
    pub rated: bool,
    /// How the game draws its chance (see `GameRow::chance_version`).
    pub chance_version: i32,
    /// Whether a client's seed fixed the game's chance.
    pub chance_seeded: bool,
    /// What each seat's taker added to the chance, by seat (shorter than `seats`: the rest
    /// added nothing).
    pub entropies: Vec<Option<String>>,
    /// For a game imported from a record: the id of the game it records.
    pub imported_from: Option<Uuid>,
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
        if let Some(limit) = new.bot_game_limit {
            claim_bot_game_slot(conn, limit)?;
        }
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
                games::chance_version.eq(new.chance_version),
                games::chance_seeded.eq(new.chance_seeded),
                games::imported_from.eq(new.imported_from),
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
                    seats::entropy.eq(new.entropies.get(i).cloned().flatten()),
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
/// without anyone waiting for them, so nothing else limits them). A seat counts as a bot's
/// when it was given to one, or when the server's bot stands in for its absent player (after
/// a timeout or a resignation, as the game's lifecycle says): a game whose people have all
/// gone runs unattended just the same.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn active_bot_only_games(conn: &mut PgConnection) -> Result<i64, StoreError> {
    use diesel::dsl::{exists, not, sql};
    use diesel::sql_types::Bool;
    // The lifecycle snapshot (`api`'s `Lifecycle`) lists the seats in order; a seat's
    // `stand_in` is there only while a bot plays for its player.
    let no_stand_in =
        sql::<Bool>("(games.lifecycle -> 'seats' -> seats.seat ->> 'stand_in') IS NULL");
    let person_plays = seats::table
        .filter(seats::game_id.eq(games::id))
        .filter(seats::bot_level.is_null())
        .filter(no_stand_in);
    Ok(games::table
        .filter(games::status.eq(GameStatus::Active))
        .filter(not(exists(person_plays)))
        .count()
        .get_result(conn)?)
}

/// The key of the transaction-scoped advisory lock that serializes every start of a game of
/// bots only (an arbitrary constant: "bots" in ASCII).
const BOT_GAMES_LOCK: i64 = 0x626f_7473;

/// Makes room for one more running game of bots only, or refuses: call it inside the
/// transaction that makes such a game active. It waits for every other transaction that
/// claimed a slot to end (an advisory lock held until commit), then counts the running ones,
/// which therefore include every game those transactions started: the limit is exact however
/// many processes and requests create games at once.
///
/// # Errors
/// `TooManyBotGames` when `limit` of them run already; `Unavailable`/`Database`.
pub fn claim_bot_game_slot(conn: &mut PgConnection, limit: i64) -> Result<(), StoreError> {
    diesel::sql_query(format!("SELECT pg_advisory_xact_lock({BOT_GAMES_LOCK})")).execute(conn)?;
    let running = active_bot_only_games(conn)?;
    if running >= limit {
        return Err(StoreError::TooManyBotGames { running, limit });
    }
    Ok(())
}

/// Runs `f` as one transaction: the store calls inside it become savepoints, so that several
/// of them (taking a seat, then starting the game) commit or roll back together.
///
/// # Errors
/// `f`'s error (everything rolled back), or the commit's.
pub fn atomically<T, E>(
    conn: &mut PgConnection,
    f: impl FnOnce(&mut PgConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<StoreError>,
{
    enum Failed<E> {
        Caller(E),
        Store(diesel::result::Error),
    }
    impl<E> From<diesel::result::Error> for Failed<E> {
        fn from(e: diesel::result::Error) -> Self {
            Failed::Store(e)
        }
    }
    conn.transaction(|conn| f(conn).map_err(Failed::Caller))
        .map_err(|e| match e {
            Failed::Caller(e) => e,
            Failed::Store(e) => E::from(StoreError::from(e)),
        })
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
    /// How the game draws its chance (see `GameRow::chance_version`).
    pub chance_version: i32,
    /// Whether a client's seed fixed the game's chance.
    pub chance_seeded: bool,
    /// For a game imported from a record: the id of the game it records.
    pub imported_from: Option<Uuid>,
    /// SHA-256 of the game's secret seed (its chance commitment), computed by PostgreSQL so
    /// that the seed itself is never read for a listing.
    #[diesel(select_expression = diesel::dsl::sql::<diesel::sql_types::Bytea>("sha256(games.rng_seed)"))]
    #[diesel(select_expression_type = diesel::expression::SqlLiteral<diesel::sql_types::Bytea>)]
    pub seed_sha256: Vec<u8>,
}

/// Which games to list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only this game type.
    pub game_type: Option<String>,
    /// Only this status.
    pub status: Option<GameStatus>,
    /// Only rated (`true`) or only unrated (`false`) games.
    pub rated: Option<bool>,
    /// Only games with this kind of clock.
    pub clock: Option<ClockKind>,
}

/// A kind of clock to list games by: the `kind` of the `clock` column's JSON, whose shape the
/// api owns (`api/src/stored/clock.rs`). No clock is SQL `NULL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockKind {
    /// No clock.
    Unlimited,
    /// A clock of this stored `kind` (`per_move`, `fischer`).
    Kind(&'static str),
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
    /// The seats of those games, by game and seat number: a list shows who sits at a table.
    pub seats: Vec<SeatRow>,
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
    if let Some(r) = filter.rated {
        query = query.filter(games::rated.eq(r));
    }
    match filter.clock {
        Some(ClockKind::Unlimited) => query = query.filter(games::clock.is_null()),
        Some(ClockKind::Kind(kind)) => {
            query = query.filter(games::clock.retrieve_as_text("kind").eq(kind));
        }
        None => {}
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
    let ids: Vec<Uuid> = rows.iter().map(|g| g.id).collect();
    let seats = seats::table
        .filter(seats::game_id.eq_any(ids))
        .order((seats::game_id, seats::seat))
        .select(SeatRow::as_select())
        .load(conn)?;
    Ok(Page {
        games: rows,
        seats,
        next,
    })
}
