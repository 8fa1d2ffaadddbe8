//! Taking seats and recognising seat tokens.

use diesel::dsl::now;
use diesel::prelude::*;
use uuid::Uuid;

use crate::models::{GameStatus, SeatRow};
use crate::schema::seats;
use crate::token::hash_token;
use crate::StoreError;

/// All seats of `game_id`, by seat number.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn seats(conn: &mut PgConnection, game_id: Uuid) -> Result<Vec<SeatRow>, StoreError> {
    Ok(seats::table
        .filter(seats::game_id.eq(game_id))
        .order(seats::seat.asc())
        .select(SeatRow::as_select())
        .load(conn)?)
}

/// A game's seats with their token hashes: enough to recognise a caller's token without a
/// query per request. Once [`Roster::is_complete`] it never changes again (seats are only ever
/// taken, never given up), so a process may keep it as long as it likes.
#[derive(Clone, PartialEq)]
pub struct Roster {
    seats: Vec<SeatRow>,
    token_hashes: Vec<Option<Vec<u8>>>,
}

/// Shows the seats, never the token hashes (they never leave the store).
impl std::fmt::Debug for Roster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Roster")
            .field("seats", &self.seats)
            .finish_non_exhaustive()
    }
}

impl Roster {
    /// The seats, by seat number.
    pub fn seats(&self) -> &[SeatRow] {
        &self.seats
    }

    /// The seat whose token is `token`, if any (compares SHA-256 hashes).
    pub fn seat_of(&self, token: &str) -> Option<i32> {
        let hash = hash_token(token);
        self.seats
            .iter()
            .zip(&self.token_hashes)
            .find(|(_, h)| h.as_deref() == Some(&hash[..]))
            .map(|(s, _)| s.seat)
    }

    /// The seat that belongs to player `player`, if any (a player holds at most one per game).
    pub fn seat_of_player(&self, player: Uuid) -> Option<i32> {
        self.seats
            .iter()
            .find(|s| s.player_id == Some(player))
            .map(|s| s.seat)
    }

    /// Whether every seat is taken: from then on the roster is final.
    pub fn is_complete(&self) -> bool {
        self.seats.iter().all(|s| !s.is_open())
    }
}

/// The [`Roster`] of `game_id`.
///
/// # Errors
/// `NotFound` when there is no such game (every game has at least one seat);
/// `Unavailable`/`Database`.
pub fn roster(conn: &mut PgConnection, game_id: Uuid) -> Result<Roster, StoreError> {
    let rows: Vec<(SeatRow, Option<Vec<u8>>)> = seats::table
        .filter(seats::game_id.eq(game_id))
        .order(seats::seat.asc())
        .select((SeatRow::as_select(), seats::token_sha256))
        .load(conn)?;
    if rows.is_empty() {
        return Err(StoreError::NotFound);
    }
    let (seats, token_hashes) = rows.into_iter().unzip();
    Ok(Roster {
        seats,
        token_hashes,
    })
}

/// Takes seat `seat` (or the lowest open one when `None`) of an open game for `name`, storing
/// the SHA-256 of `token` (never the token; generate it with [`crate::token::new_token`]).
///
/// # Errors
/// `NotFound`; `WrongStatus` unless the game is open; `NoSuchSeat`; `SeatUnavailable` when the
/// seat is taken or none is open.
pub fn join_seat(
    conn: &mut PgConnection,
    game_id: Uuid,
    seat: Option<i32>,
    name: &str,
    token: &str,
) -> Result<SeatRow, StoreError> {
    take_seat(conn, game_id, seat, |conn, target| {
        diesel::update(seats::table.find((game_id, target)))
            .set((
                seats::name.eq(name),
                seats::token_sha256.eq(hash_token(token).to_vec()),
                seats::joined_at.eq(now),
            ))
            .returning(SeatRow::as_returning())
            .get_result(conn)
    })
}

/// Like [`join_seat`], for player `player`: the seat gets no token (the player's acts for it)
/// and the player's name.
///
/// # Errors
/// As [`join_seat`], and `AlreadySeated` when the player holds a seat of the game.
pub fn join_player_seat(
    conn: &mut PgConnection,
    game_id: Uuid,
    seat: Option<i32>,
    player: &crate::PlayerRow,
) -> Result<SeatRow, StoreError> {
    take_seat(conn, game_id, seat, |conn, target| {
        diesel::update(seats::table.find((game_id, target)))
            .set((
                seats::name.eq(&player.name),
                seats::player_id.eq(player.id),
                seats::joined_at.eq(now),
            ))
            .returning(SeatRow::as_returning())
            .get_result(conn)
    })
    .map_err(|e| match e {
        StoreError::Database(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => StoreError::AlreadySeated,
        e => e,
    })
}

/// Like [`join_seat`], for the server's bot: the seat gets no token.
///
/// # Errors
/// As [`join_seat`].
pub fn join_bot_seat(
    conn: &mut PgConnection,
    game_id: Uuid,
    seat: Option<i32>,
    bot: &super::BotSeat,
) -> Result<SeatRow, StoreError> {
    take_seat(conn, game_id, seat, |conn, target| {
        diesel::update(seats::table.find((game_id, target)))
            .set((
                seats::name.eq(&bot.name),
                seats::bot_level.eq(&bot.level),
                seats::bot_budget_ms.eq(bot.budget_ms),
                seats::joined_at.eq(now),
            ))
            .returning(SeatRow::as_returning())
            .get_result(conn)
    })
}

/// Records what the taker of seat `seat` of game `game_id` adds to the game's chance; call it
/// in the transaction that took the seat, before the game starts.
///
/// # Errors
/// `Database`.
pub fn set_seat_entropy(
    conn: &mut PgConnection,
    game_id: Uuid,
    seat: i32,
    entropy: &str,
) -> Result<(), StoreError> {
    diesel::update(seats::table.find((game_id, seat)))
        .set(seats::entropy.eq(entropy))
        .execute(conn)?;
    Ok(())
}

/// Finds seat `seat` (or the lowest open one) of an open game, locked, and lets `take` fill it.
fn take_seat(
    conn: &mut PgConnection,
    game_id: Uuid,
    seat: Option<i32>,
    take: impl FnOnce(&mut PgConnection, i32) -> QueryResult<SeatRow>,
) -> Result<SeatRow, StoreError> {
    conn.transaction(|conn| {
        let game = super::games::lock_game(conn, game_id)?;
        if game.status != GameStatus::Open {
            return Err(StoreError::WrongStatus {
                current: game.status,
                required: GameStatus::Open,
            });
        }
        let all = self::seats(conn, game_id)?;
        let target = match seat {
            Some(s) => {
                let row = all
                    .iter()
                    .find(|r| r.seat == s)
                    .ok_or(StoreError::NoSuchSeat { seat: s })?;
                if !row.is_open() {
                    return Err(StoreError::SeatUnavailable { seat: Some(s) });
                }
                s
            }
            None => {
                all.iter()
                    .find(|r| r.is_open())
                    .ok_or(StoreError::SeatUnavailable { seat: None })?
                    .seat
            }
        };
        Ok(take(conn, target)?)
    })
}

/// Removes the open seats of `game_id` and numbers the taken ones from 0 in their order;
/// returns them. Only for a game being started (its row locked by the caller): nothing refers
/// to seat numbers before the first event.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub(super) fn close_open_seats(
    conn: &mut PgConnection,
    game_id: Uuid,
) -> Result<Vec<SeatRow>, StoreError> {
    diesel::delete(
        seats::table
            .filter(seats::game_id.eq(game_id))
            .filter(seats::joined_at.is_null()),
    )
    .execute(conn)?;
    let taken = self::seats(conn, game_id)?;
    // Ascending, so each seat moves down into a number that is free by then.
    for (number, row) in taken.iter().enumerate() {
        let number = number as i32;
        if row.seat != number {
            diesel::update(seats::table.find((game_id, row.seat)))
                .set(seats::seat.eq(number))
                .execute(conn)?;
        }
    }
    self::seats(conn, game_id)
}

/// The game and seat whose token is `token`, in any game: lets the api tell an unknown token
/// (401) from a token that belongs to another game (403).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn seat_by_token(
    conn: &mut PgConnection,
    token: &str,
) -> Result<Option<(Uuid, i32)>, StoreError> {
    Ok(seats::table
        .filter(seats::token_sha256.eq(hash_token(token).to_vec()))
        .select((seats::game_id, seats::seat))
        .first(conn)
        .optional()?)
}
