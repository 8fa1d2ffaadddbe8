//! Taking seats in an open game and starting it: the second half of the games-and-lobby
//! endpoint family (creating is [`super::lobby`]). A join that fills the last seat starts the
//! game in its transaction; a seated player may start it earlier with the seats taken.

use db::store::{self, Applied, Decision, Starting};
use db::{GameRow, PgConnection, PooledConn, SeatRow};
use uuid::Uuid;

use super::caller::{self, stored_kind};
use super::chance as chance_of;
use super::decision::{native_bots, GameFacts, Table};
use super::document;
use super::lobby::{bot_name, new_bot_seat};
use super::lobby_keys::{self, Answer, LobbyKey};
use crate::dto::{BotInfo, Clock, GameDocument, JoinedBot, JoinedPlayer, JoinedSeat};
use crate::error::{ApiError, Refusal};
use crate::extract::{missing_token, SeatToken};
use crate::state::Context;

/// The operation a lobby key of a join is for.
const JOIN: &str = "POST /v1/games/{id}/seats";

/// The token of the seat taken in game `id` under `key`, or a random one without a key.
fn join_token(key: Option<&LobbyKey>, id: Uuid) -> String {
    match key {
        Some(key) => key.token(&[JOIN.as_bytes(), id.as_bytes()]),
        None => db::token::new_token(),
    }
}

/// Starts an open game with the seats taken so far (open seats are closed), in one
/// transaction: lock the game for its start, decide its setup, append it. The caller
/// announces the change once it is committed (`cx.changes.committed`).
fn start(conn: &mut PgConnection, cx: &Context, id: Uuid) -> Result<Applied, ApiError> {
    let applied = store::atomically(conn, |conn| {
        let Starting { game, seats } = store::lock_for_start(conn, id)?;
        let decision = setup(cx, &game, &seats)?;
        Ok::<_, ApiError>(store::append_locked(conn, &game, decision)?)
    })?;
    tracing::info!(game_id = %id, "game started");
    Ok(applied)
}

/// The setup of `game` for `seats`: the engine's setup events and the seats' lifecycle
/// closing the commit as after an action (the first bot turn and deadline follow).
///
/// # Errors
/// 409 `too_few_seats`; 500 for stored data that does not load.
fn setup(cx: &Context, game: &GameRow, seats: &[SeatRow]) -> Result<Decision, Refusal> {
    let kind = stored_kind(&game.game_type)?;
    let info = kind.info();
    if seats.len() < info.min_seats {
        return Err(Refusal::Api(ApiError::conflict(
            "too_few_seats",
            format!(
                "{} needs at least {} seats and {} are taken",
                info.title,
                info.min_seats,
                seats.len()
            ),
        )));
    }
    // The rules version the game was created under decides the defaults of its config.
    let (state, events) = kind.setup_as(
        u32::try_from(game.rules_version).unwrap_or(0),
        &game.config,
        seats.len(),
        chance_of::at(game, seats, 0).as_dyn(),
    )?;
    let clock = Clock::read_stored(game.clock.as_ref())?;
    let facts = GameFacts::of(game, seats);
    let mut table = Table::starting(facts, clock, native_bots(seats), cx.bots.move_delay_ms);
    table.setup(events);
    Ok(table.close(state.as_ref()))
}

/// `POST /v1/games/{id}/seats`: takes a seat; the join that fills the last seat starts the game.
///
/// # Errors
/// 404, 409 (`game_already_started`, `seat_taken`, `no_open_seat`), 422 `no_such_seat`.
pub fn join(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    seat: Option<i32>,
    name: String,
    entropy: Option<String>,
    key: Option<LobbyKey>,
) -> Result<Answer<JoinedSeat>, ApiError> {
    let mut started = None;
    let work = |conn: &mut PgConnection| {
        if store::get_game(conn, id)?.rated {
            return Err(ApiError::unprocessable(
                "rated_game_needs_players",
                "every seat of a rated game belongs to a player: join with a player token and \
                 no name",
            ));
        }
        let token = join_token(key.as_ref(), id);
        let row = store::join_seat(conn, id, seat, &name, &token)?;
        add_entropy(conn, id, row.seat, entropy.as_deref())?;
        cx.known_tokens.learn(&token);
        let (game, start) = start_when_full(conn, cx, id)?;
        started = start;
        Ok(JoinedSeat {
            game_id: id,
            seat: row.seat,
            name: name.clone(),
            token,
            status: game.status.into(),
            version: game.version,
        })
    };
    let answer = lobby_keys::once_if_keyed(
        conn,
        key.as_ref(),
        201,
        work,
        |joined| joined.token.clear(),
        |joined| {
            joined.token = join_token(key.as_ref(), id);
            cx.known_tokens.learn(&joined.token);
        },
    )?;
    announce(cx, started);
    Ok(answer)
}

/// `POST /v1/games/{id}/seats` with a player token: like [`join`], the seat bound to the
/// player (no seat token; the player's acts for it).
///
/// # Errors
/// As [`join`], 401 for an unknown player token, 409 `already_seated`.
pub fn join_player(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    seat: Option<i32>,
    token: &SeatToken,
    entropy: Option<String>,
    key: Option<LobbyKey>,
) -> Result<Answer<JoinedPlayer>, ApiError> {
    let mut started = None;
    let work = |conn: &mut PgConnection| {
        let player = caller::require_player(conn, cx, token)?;
        let row = store::join_player_seat(conn, id, seat, &player)?;
        add_entropy(conn, id, row.seat, entropy.as_deref())?;
        let (game, start) = start_when_full(conn, cx, id)?;
        started = start;
        Ok(JoinedPlayer {
            game_id: id,
            seat: row.seat,
            name: player.name,
            player_id: player.id,
            status: game.status.into(),
            version: game.version,
        })
    };
    let answer = lobby_keys::once_if_keyed(conn, key.as_ref(), 201, work, |_| {}, |_| {})?;
    announce(cx, started);
    Ok(answer)
}

/// `POST /v1/games/{id}/seats` with a bot: like [`join`], for the server's bot.
///
/// # Errors
/// As [`join`].
pub fn join_bot(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    seat: Option<i32>,
    bot: BotInfo,
    key: Option<LobbyKey>,
) -> Result<Answer<JoinedBot>, ApiError> {
    // One transaction: the seat is taken (locking the game's row until the end), and when
    // that fills the table with bots only, a slot is claimed and the game started, or
    // nothing happens at all.
    let mut started = None;
    let work = |conn: &mut PgConnection| {
        if store::get_game(conn, id)?.rated {
            return Err(ApiError::unprocessable(
                "rated_game_with_bots",
                "a rated game has no seat of the server's bot",
            ));
        }
        let row = store::join_bot_seat(conn, id, seat, &new_bot_seat(bot))?;
        let seats = store::seats(conn, id)?;
        if seats.iter().all(|s| s.bot_level.is_some()) {
            store::claim_bot_game_slot(conn, i64::from(cx.bots.max_games))?;
        }
        let (game, start) = start_when_full(conn, cx, id)?;
        started = start;
        Ok(JoinedBot {
            game_id: id,
            seat: row.seat,
            name: bot_name(bot),
            bot,
            status: game.status.into(),
            version: game.version,
        })
    };
    let answer = lobby_keys::once_if_keyed(conn, key.as_ref(), 201, work, |_| {}, |_| {})?;
    announce(cx, started);
    Ok(answer)
}

/// Tells long polls and streams of a committed start.
fn announce(cx: &Context, started: Option<Applied>) {
    if let Some(applied) = started {
        cx.changes.committed(&applied);
    }
}

/// Records the entropy the taker of `seat` sent, in the transaction that took it (so the game
/// cannot start without it).
fn add_entropy(
    conn: &mut PgConnection,
    id: Uuid,
    seat: i32,
    entropy: Option<&str>,
) -> Result<(), ApiError> {
    if let Some(entropy) = entropy {
        store::set_seat_entropy(conn, id, seat, entropy)?;
    }
    Ok(())
}

/// Starts game `id` when no seat is open any more; the game after that, and the start to
/// announce once committed.
fn start_when_full(
    conn: &mut PgConnection,
    cx: &Context,
    id: Uuid,
) -> Result<(GameRow, Option<Applied>), ApiError> {
    let seats = store::seats(conn, id)?;
    let mut started = None;
    // The join locked the game's row: an explicit start that raced it either came first (and
    // the join was refused) or waits for this transaction, so the game is still open here.
    if seats.iter().all(|s| !s.is_open()) {
        started = Some(start(conn, cx, id)?);
    }
    Ok((store::get_game(conn, id)?, started))
}

/// `POST /v1/games/{id}/start`, by a seated player of the game: starts it with the seats taken
/// so far, closing the open ones (the taken seats keep their order and are numbered from 0
/// again), and answers the started game's document for that seat with its entity tag.
///
/// # Errors
/// 404, 401/403, 409 `too_few_seats` or `game_already_started`.
pub fn start_by(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: &SeatToken,
) -> Result<(GameDocument, String), ApiError> {
    caller::load(conn, cx, id, Some(token))?
        .seat
        .ok_or_else(missing_token)?;
    announce(cx, Some(start(conn, cx, id)?));
    // Again: closing the open seats may have renumbered the caller's.
    let loaded = caller::load(conn, cx, id, Some(token))?;
    let state = loaded.state()?;
    let doc = document::build(
        &loaded.game,
        loaded.roster.seats(),
        state.as_deref(),
        loaded.seat,
    )?;
    let etag = document::etag(&loaded.game, loaded.roster.seats(), loaded.seat);
    Ok((doc, etag))
}
