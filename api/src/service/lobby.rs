//! Creating games, taking seats and starting: the games-and-lobby endpoint family.

use db::store::{self, BotSeat, NewGame, NewSeat};
use db::{GameRow, PooledConn, RngSeed, SeatRow, StoreError};
use engine::chance::{new_seed, rng_for};
use engine::DynGame;
use serde_json::Value;
use uuid::Uuid;

use super::caller::{self, stored_kind};
use super::decision::{native_bots, Table};
use super::document;
use crate::dto::{
    BotInfo, BotSeat as CreatedBotSeat, Clock, CreatedGame, CreatedSeat, GameDocument, JoinedBot,
    JoinedSeat, OpenSeat, TakenSeat,
};
use crate::error::{ApiError, Refusal};
use crate::extract::{missing_token, SeatToken};
use crate::state::Context;

/// A validated seat of a create request.
pub enum SeatPlan {
    /// Taken by a player of this (valid) name.
    Taken(String),
    /// Left open for `POST /v1/games/{id}/seats`.
    Open,
    /// Played by the server's bot.
    Bot(BotInfo),
}

/// The name a bot seat is shown with.
fn bot_name(bot: BotInfo) -> String {
    format!("{} bot", bot.level.name())
}

/// The stored form of a bot seat.
fn new_bot_seat(bot: BotInfo) -> BotSeat {
    BotSeat {
        name: bot_name(bot),
        level: bot.level.name().to_string(),
        budget_ms: bot.budget_ms.map(|b| i32::try_from(b).unwrap_or(i32::MAX)),
    }
}

/// A validated create request.
pub struct GamePlan {
    pub kind: &'static dyn DynGame,
    pub config: Value,
    pub seats: Vec<SeatPlan>,
    pub seed: Option<u64>,
    pub clock: Clock,
}

/// `POST /v1/games` after validation: sets up the game (validating the config even when seats
/// are open) and stores it, started when every seat is taken; an open one expires after
/// `--open-game-ttl`.
///
/// # Errors
/// 422 `invalid_config`, store errors.
pub fn create_game(
    conn: &mut PooledConn,
    cx: &Context,
    plan: GamePlan,
) -> Result<CreatedGame, ApiError> {
    let GamePlan {
        kind,
        config,
        seats,
        seed,
        clock,
    } = plan;
    if seats.iter().all(|s| matches!(s, SeatPlan::Bot(_))) {
        check_bot_game_limit(conn, cx)?;
    }
    let info = kind.info();
    let rng_seed = RngSeed(new_seed(seed));
    let (state, events) = kind.setup(&config, seats.len(), &mut rng_for(&rng_seed.0, 0))?;
    let full = seats.iter().all(|s| !matches!(s, SeatPlan::Open));
    let bots = seats
        .iter()
        .map(|s| matches!(s, SeatPlan::Bot(_)))
        .collect();
    let initial = full.then(|| {
        let mut table = Table::starting(kind.name(), clock, bots, cx.bots.move_delay_ms);
        table.setup(events);
        table.close(state.as_ref())
    });
    let mut created = Vec::new();
    let new_seats = seats
        .into_iter()
        .enumerate()
        .map(|(i, s)| match s {
            SeatPlan::Taken(name) => {
                let token = db::token::new_token();
                created.push(CreatedSeat::Taken(TakenSeat {
                    seat: i as i32,
                    name: name.clone(),
                    open: false,
                    token: token.clone(),
                }));
                NewSeat::Taken { name, token }
            }
            SeatPlan::Open => {
                created.push(CreatedSeat::Open(OpenSeat {
                    seat: i as i32,
                    name: None,
                    open: true,
                }));
                NewSeat::Open
            }
            SeatPlan::Bot(bot) => {
                created.push(CreatedSeat::Bot(CreatedBotSeat {
                    seat: i as i32,
                    name: bot_name(bot),
                    open: false,
                    bot,
                }));
                NewSeat::Bot(new_bot_seat(bot))
            }
        })
        .collect();
    let game = store::create_game(
        conn,
        NewGame {
            id: Uuid::new_v4(),
            game_type: info.name.to_string(),
            rules_version: info.rules_version as i32,
            config,
            rng_seed,
            seats: new_seats,
            initial,
            clock: clock.stored(),
            open_ttl: cx.open_game_ttl,
        },
    )?;
    if clock.is_on() && game.status == db::GameStatus::Active {
        // Its first clock runs: the deadline workers look again.
        cx.changes.deadline_armed();
    }
    tracing::info!(game_id = %game.id, game_type = %game.game_type, "game created");
    Ok(CreatedGame {
        game_id: game.id,
        type_: game.game_type,
        version: game.version,
        status: game.status.into(),
        seats: created,
    })
}

/// Starts an open game with the seats taken so far (open seats are closed), and announces
/// it to long polls.
fn start(conn: &mut PooledConn, cx: &Context, id: Uuid) -> Result<GameRow, StoreError<Refusal>> {
    let applied = store::start_game(conn, id, |game: &GameRow, seats: &[SeatRow]| {
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
            &mut rng_for(&game.rng_seed.0, 0),
        )?;
        let clock = Clock::from_stored(game.clock.as_ref());
        let mut table = Table::starting(
            kind.name(),
            clock,
            native_bots(seats),
            cx.bots.move_delay_ms,
        );
        table.setup(events);
        Ok::<_, Refusal>(table.close(state.as_ref()))
    })?;
    cx.changes.committed(&applied);
    tracing::info!(game_id = %id, "game started");
    Ok(applied.game)
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
) -> Result<JoinedSeat, ApiError> {
    let token = db::token::new_token();
    let row = store::join_seat(conn, id, seat, &name, &token)?;
    let game = start_when_full(conn, cx, id)?;
    Ok(JoinedSeat {
        game_id: id,
        seat: row.seat,
        name,
        token,
        status: game.status.into(),
        version: game.version,
    })
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
) -> Result<JoinedBot, ApiError> {
    let seats = store::seats(conn, id)?;
    let open = seats.iter().filter(|s| s.name.is_none()).count();
    let people = seats
        .iter()
        .filter(|s| s.name.is_some() && s.bot_level.is_none())
        .count();
    if open == 1 && people == 0 {
        // This join fills the table with bots only.
        check_bot_game_limit(conn, cx)?;
    }
    let row = store::join_bot_seat(conn, id, seat, &new_bot_seat(bot))?;
    let game = start_when_full(conn, cx, id)?;
    Ok(JoinedBot {
        game_id: id,
        seat: row.seat,
        name: bot_name(bot),
        bot,
        status: game.status.into(),
        version: game.version,
    })
}

/// Refuses one more game with a bot in every seat once `--bot-max-games` of them run. A soft
/// cap: two requests at the same moment may both pass, which only matters at the margin.
fn check_bot_game_limit(conn: &mut PooledConn, cx: &Context) -> Result<(), ApiError> {
    let running = store::active_bot_only_games(conn)?;
    if running >= i64::from(cx.bots.max_games) {
        return Err(ApiError::conflict(
            "bot_game_limit",
            format!(
                "the server already runs {running} games with a bot in every seat (at most {}); \
                 try again when one has finished, or take a seat yourself",
                cx.bots.max_games
            ),
        ));
    }
    Ok(())
}

/// Starts game `id` when no seat is open any more; the game after that.
fn start_when_full(conn: &mut PooledConn, cx: &Context, id: Uuid) -> Result<GameRow, ApiError> {
    let seats = store::seats(conn, id)?;
    if seats.iter().all(|s| !s.is_open()) {
        match start(conn, cx, id) {
            // Someone else started it meanwhile (an explicit start racing the last join).
            Ok(_) | Err(StoreError::WrongStatus { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(store::get_game(conn, id)?)
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
    start(conn, cx, id)?;
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
