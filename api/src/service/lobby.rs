//! Creating games, taking seats and starting: the games-and-lobby endpoint family.

use db::store::{self, BotSeat, NewGame, NewSeat, NoticeRow};
use db::{GameRow, PlayerRow, PooledConn, RngSeed, SeatRow, StoreError};
use engine::chance::{new_seed, rng_for};
use engine::DynGame;
use serde_json::Value;
use uuid::Uuid;

use super::caller::{self, stored_kind};
use super::decision::{native_bots, GameFacts, Table};
use super::document;
use crate::dto::{
    BotInfo, BotSeat as CreatedBotSeat, Clock, CreatedGame, CreatedSeat, GameDocument, JoinedBot,
    JoinedPlayer, JoinedSeat, OpenSeat, PlayerSeat, TakenSeat,
};
use crate::error::{ApiError, Refusal};
use crate::extract::{missing_token, SeatToken};
use crate::state::Context;

/// A validated seat of a create request.
pub enum SeatPlan {
    /// Taken by a person of this (valid) name, with a seat token.
    Taken(String),
    /// Taken by the calling player (`{"me": true}`), whose token the request carries.
    Me,
    /// Taken by this player.
    Player(PlayerRow),
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
    pub rated: bool,
    /// The request's bearer token (a player's, for `{"me": true}`).
    pub bearer: Option<SeatToken>,
}

/// Refuses a rated game that a bot or an anonymous seat would play.
///
/// # Errors
/// 422 `rated_game_with_bots`, `rated_game_needs_players`.
pub fn check_rated(seats: &[SeatPlan]) -> Result<(), ApiError> {
    if seats.iter().any(|s| matches!(s, SeatPlan::Bot(_))) {
        return Err(ApiError::unprocessable(
            "rated_game_with_bots",
            "a rated game has no seat of the server's bot: every seat is a player's",
        ));
    }
    if seats.iter().any(|s| matches!(s, SeatPlan::Taken(_))) {
        return Err(ApiError::unprocessable(
            "rated_game_needs_players",
            "every seat of a rated game belongs to a player: take yours with {\"me\": true} \
             and a player token, leave the others open for players to join",
        ));
    }
    Ok(())
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
    let (created, notices) = create_game_in(conn, cx, plan)?;
    cx.changes.notices(&notices);
    Ok(created)
}

/// [`create_game`] without telling anyone: for a caller that creates the game inside a
/// transaction of its own and announces its notices once that commits.
///
/// # Errors
/// As [`create_game`].
pub fn create_game_in(
    conn: &mut PooledConn,
    cx: &Context,
    plan: GamePlan,
) -> Result<(CreatedGame, Vec<NoticeRow>), ApiError> {
    let GamePlan {
        kind,
        config,
        seats,
        seed,
        clock,
        rated,
        bearer,
    } = plan;
    if seats.iter().all(|s| matches!(s, SeatPlan::Bot(_))) {
        check_bot_game_limit(conn, cx)?;
    }
    let seats = if seats.iter().any(|s| matches!(s, SeatPlan::Me)) {
        let token = bearer.as_ref().ok_or_else(|| {
            ApiError::unauthorized(
                "missing_token",
                "a seat {\"me\": true} needs a player token: Authorization: Bearer <player token>",
            )
        })?;
        if !token.is_player() {
            return Err(ApiError::unauthorized(
                "not_a_player_token",
                "a seat {\"me\": true} needs a player token (pl_...), not a seat token",
            ));
        }
        let player = caller::require_player(conn, token)?;
        seats
            .into_iter()
            .map(|s| match s {
                SeatPlan::Me => SeatPlan::Player(player.clone()),
                other => other,
            })
            .collect()
    } else {
        seats
    };
    let info = kind.info();
    let rng_seed = RngSeed(new_seed(seed));
    let (state, events) = kind.setup(&config, seats.len(), &mut rng_for(&rng_seed.0, 0))?;
    let full = seats.iter().all(|s| !matches!(s, SeatPlan::Open));
    let bots = seats
        .iter()
        .map(|s| matches!(s, SeatPlan::Bot(_)))
        .collect();
    let game_id = Uuid::new_v4();
    let facts = GameFacts {
        game_id,
        game_type: info.name.to_string(),
        rated,
        players: seats
            .iter()
            .map(|s| match s {
                SeatPlan::Player(p) => Some(p.id),
                _ => None,
            })
            .collect(),
    };
    let initial = full.then(|| {
        let mut table = Table::starting(facts, clock, bots, cx.bots.move_delay_ms);
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
            SeatPlan::Player(player) => {
                created.push(CreatedSeat::Player(PlayerSeat {
                    seat: i as i32,
                    name: player.name.clone(),
                    open: false,
                    player_id: player.id,
                }));
                NewSeat::Player {
                    name: player.name,
                    player_id: player.id,
                }
            }
            SeatPlan::Me => unreachable!("replaced by the player above"),
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
    let (game, notices) = store::create_game_noticed(
        conn,
        NewGame {
            id: game_id,
            game_type: info.name.to_string(),
            rules_version: info.rules_version as i32,
            config,
            rng_seed,
            seats: new_seats,
            initial,
            clock: clock.stored(),
            open_ttl: cx.open_game_ttl,
            rated,
        },
    )?;
    if clock.is_on() && game.status == db::GameStatus::Active {
        // Its first clock runs: the deadline workers look again.
        cx.changes.deadline_armed();
    }

    tracing::info!(game_id = %game.id, game_type = %game.game_type, "game created");
    let created = CreatedGame {
        game_id: game.id,
        type_: game.game_type,
        version: game.version,
        status: game.status.into(),
        rated: game.rated,
        seats: created,
    };
    Ok((created, notices))
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
        let facts = GameFacts::of(game, seats);
        let mut table = Table::starting(facts, clock, native_bots(seats), cx.bots.move_delay_ms);
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
    if store::get_game(conn, id)?.rated {
        return Err(ApiError::unprocessable(
            "rated_game_needs_players",
            "every seat of a rated game belongs to a player: join with a player token and no name",
        ));
    }
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
) -> Result<JoinedPlayer, ApiError> {
    let player = caller::require_player(conn, token)?;
    let row = store::join_player_seat(conn, id, seat, &player)?;
    let game = start_when_full(conn, cx, id)?;
    Ok(JoinedPlayer {
        game_id: id,
        seat: row.seat,
        name: player.name,
        player_id: player.id,
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
    if store::get_game(conn, id)?.rated {
        return Err(ApiError::unprocessable(
            "rated_game_with_bots",
            "a rated game has no seat of the server's bot",
        ));
    }
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
