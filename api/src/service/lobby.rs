//! Creating games: the first half of the games-and-lobby endpoint family; taking seats in an
//! open game and starting it are [`super::seating`].

use db::store::{self, BotSeat, NewGame, NewSeat, NoticeRow};
use db::{PgConnection, PlayerRow, PooledConn, RngSeed};
use engine::chance::{self, new_seed, GameChance};
use engine::DynGame;
use serde_json::Value;
use uuid::Uuid;

use super::caller;
use super::chance as chance_of;
use super::decision::{GameFacts, Table};
use super::lobby_keys::{self, Answer, LobbyKey};
use crate::dto::{
    BotInfo, BotSeat as CreatedBotSeat, Clock, CreatedGame, CreatedSeat, OpenSeat, PlayerSeat,
    TakenSeat,
};
use crate::error::ApiError;
use crate::extract::SeatToken;
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
pub(super) fn bot_name(bot: BotInfo) -> String {
    format!("{} bot", bot.level.name())
}

/// The stored form of a bot seat.
pub(super) fn new_bot_seat(bot: BotInfo) -> BotSeat {
    BotSeat {
        name: bot_name(bot),
        level: bot.level.name().to_string(),
        budget_ms: bot.budget_ms.map(|b| i32::try_from(b).unwrap_or(i32::MAX)),
    }
}

/// What the creator asked for, validated.
pub struct GamePlan {
    pub kind: &'static dyn DynGame,
    pub config: Value,
    pub seats: Vec<SeatPlan>,
    pub seed: Option<u64>,
    /// What each seat's taker adds to the chance, by seat (ignored for a seeded game, whose
    /// chance its seed alone fixes).
    pub entropies: Vec<Option<String>>,
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

/// The operation a lobby key of a creation is for.
const CREATE: &str = "POST /v1/games";
/// The token of seat `seat` of game `id` created under `key`, or a random one without a key.
fn creation_token(key: Option<&LobbyKey>, id: Uuid, seat: i32) -> String {
    match key {
        Some(key) => key.token(&[CREATE.as_bytes(), id.as_bytes(), &seat.to_be_bytes()]),
        None => db::token::new_token(),
    }
}

/// `POST /v1/games` after validation: sets up the game (validating the config even when seats
/// are open) and stores it, started when every seat is taken (an open one expires after
/// `--open-game-ttl`); once per `key`.
///
/// # Errors
/// 422 `invalid_config`, `idempotency_key_reused`; store errors.
pub fn create_game(
    conn: &mut PooledConn,
    cx: &Context,
    plan: GamePlan,
    key: Option<LobbyKey>,
) -> Result<Answer<CreatedGame>, ApiError> {
    let id = Uuid::new_v4();
    let Some(key) = key else {
        let (body, notices) = create_in(conn, cx, id, plan, None)?;
        cx.changes.notices(&notices);
        return Ok(Answer {
            body,
            replayed: false,
        });
    };
    let mut notices = Vec::new();
    let answer = lobby_keys::once(
        conn,
        &key,
        201,
        |conn| {
            let (created, recorded) = create_in(conn, cx, id, plan, Some(&key))?;
            notices = recorded;
            Ok(created)
        },
        |created| {
            for seat in &mut created.seats {
                if let CreatedSeat::Taken(taken) = seat {
                    taken.token.clear();
                }
            }
        },
        |created| {
            for seat in &mut created.seats {
                if let CreatedSeat::Taken(taken) = seat {
                    taken.token = creation_token(Some(&key), created.game_id, taken.seat);
                    cx.known_tokens.learn(&taken.token);
                }
            }
        },
    )?;
    // Committed now (a replay recorded none).
    cx.changes.notices(&notices);
    Ok(answer)
}

/// [`create_game`] without a key and without telling anyone: for a caller that creates the
/// game inside a transaction of its own and announces its notices once that commits.
///
/// # Errors
/// As [`create_game`].
pub fn create_game_in(
    conn: &mut PgConnection,
    cx: &Context,
    plan: GamePlan,
) -> Result<(CreatedGame, Vec<NoticeRow>), ApiError> {
    create_in(conn, cx, Uuid::new_v4(), plan, None)
}

/// Creates game `id` as planned, its seat tokens derived from `key` when there is one; the
/// game and the notices to announce once committed.
fn create_in(
    conn: &mut PgConnection,
    cx: &Context,
    id: Uuid,
    plan: GamePlan,
    key: Option<&LobbyKey>,
) -> Result<(CreatedGame, Vec<NoticeRow>), ApiError> {
    let GamePlan {
        kind,
        config,
        seats,
        seed,
        entropies,
        clock,
        rated,
        bearer,
    } = plan;
    let bots_only = seats.iter().all(|s| matches!(s, SeatPlan::Bot(_)));
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
        let player = caller::require_player(conn, cx, token)?;
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
    let rng_seed = RngSeed(new_seed(chance::CURRENT_VERSION, seed));
    let seeded = seed.is_some();
    let entropies = if seeded { Vec::new() } else { entropies };
    let chance_key = chance_of::key(
        chance::CURRENT_VERSION as i32,
        seeded,
        &rng_seed.0,
        id,
        (0..seats.len()).map(|i| entropies.get(i).and_then(|e| e.as_deref())),
    );
    let (state, events) = kind.setup(
        &config,
        seats.len(),
        GameChance::new(chance::CURRENT_VERSION, &chance_key, 0).as_dyn(),
    )?;
    let full = seats.iter().all(|s| !matches!(s, SeatPlan::Open));
    let bots = seats
        .iter()
        .map(|s| matches!(s, SeatPlan::Bot(_)))
        .collect();
    let facts = GameFacts {
        game_id: id,
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
                let token = creation_token(key, id, i as i32);
                cx.known_tokens.learn(&token);
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
            id,
            game_type: info.name.to_string(),
            rules_version: info.rules_version as i32,
            config,
            rng_seed,
            seats: new_seats,
            initial,
            bot_game_limit: bots_only.then_some(i64::from(cx.bots.max_games)),
            clock: clock.stored(),
            open_ttl: cx.open_game_ttl,
            rated,
            chance_version: chance::CURRENT_VERSION as i32,
            chance_seeded: seeded,
            entropies,
            imported_from: None,
        },
    )?;
    if clock.is_on() && game.status == db::GameStatus::Active {
        // Its first clock runs: the deadline workers look again. (Under an Idempotency-Key
        // the creation commits a moment later, with the key's record; the workers' regular
        // look finds its deadline then.)
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
