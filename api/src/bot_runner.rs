//! The server's bots at work: threads that claim bot turns from the shared `bot_turns` queue
//! ([`db::store::claim_bot_turn`]), think, and move through the ordinary action path.
//!
//! Every process may run them (`--bot-threads`); the queue's lease and `FOR UPDATE SKIP
//! LOCKED` give each turn to one process at a time, and the move is applied at the claimed
//! version, so a think that lost its lease (or raced a person's standing action) is refused by
//! the version guard and dropped. A worker claims only when idle, holds a pooled connection
//! only for the claim and for the move (never while it thinks), and runs on a thread of its
//! own, never on an HTTP worker or the blocking pool. The threads, their wake-ups (the
//! process's LISTEN connection, [`crate::hub::Hub`]), the catch-up after a reconnect and
//! the patience during a database outage are [`crate::workers`]'s, shared with any other
//! queue; a move computed when the database went away is stored once it is back, within the
//! lease. Bots draw their randomness from the operating system, never from the game's seed
//! (which is the game's chance: a bot using it would play in step with the dice).

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web;
use db::store::{self, ClaimedTurn, LockWait};
use rand::SeedableRng;

use crate::config::BotSettings;
use crate::dto::{ActionRequest, BotLevel};
use crate::error::ApiError;
use crate::lifecycle::is_lifecycle;
use crate::metrics::Metrics;
use crate::service::act::{self, Actor, ApplyRequest};
use crate::service::caller::engine_seat;
use crate::service::decision::GameRead;
use crate::state::Context;
use crate::workers::{retry_while_unavailable, Job, Next, Queue, Wake, Workers};

/// The bot queue as the LISTEN connection sees it: armed turns are announced on
/// [`store::BOT_CHANNEL`].
pub fn queue(wake: Arc<Wake>) -> Queue {
    Queue {
        channel: store::BOT_CHANNEL,
        wake,
    }
}

/// Starts `settings.threads` bot workers, woken through `wake`.
///
/// # Panics
/// When a thread cannot be spawned.
pub fn start(
    settings: BotSettings,
    pool: db::Pool,
    cx: Arc<Context>,
    wake: Arc<Wake>,
    metrics: web::Data<Metrics>,
) -> Workers {
    let jobs = (0..settings.threads)
        .map(|i| Worker {
            name: format!("pid{}-bot{i}", std::process::id()),
            settings,
            pool: pool.clone(),
            cx: cx.clone(),
            metrics: metrics.clone(),
        })
        .collect();
    Workers::start("bot", jobs, wake)
}

/// What a worker needs.
struct Worker {
    name: String,
    settings: BotSettings,
    pool: db::Pool,
    cx: Arc<Context>,
    metrics: web::Data<Metrics>,
}

impl Job for Worker {
    fn run_once(&self) -> Result<Next, ApiError> {
        Ok(match self.claim_and_move()? {
            true => Next::Again,
            false => Next::Idle(self.settings.poll_interval()),
        })
    }

    fn poll_interval(&self) -> Duration {
        self.settings.poll_interval()
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl Worker {
    /// Claims one due turn and plays it; `false` when there was none.
    fn claim_and_move(&self) -> Result<bool, ApiError> {
        let claimed_at = Instant::now();
        let claimed = self.with_conn(|conn| {
            let Some(turn) = store::claim_bot_turn(conn, &self.name, self.settings.lease)? else {
                return Ok(None);
            };
            let game = store::get_game(conn, turn.game_id)?;
            let roster = self.cx.rosters.get(conn, turn.game_id)?;
            // The end of the log, which the bot's manners remember (what it did this turn,
            // which offers were refused); it sees the game's events as its seat may (the
            // seats' lifecycle events are no moves of the game).
            let window = bots::RECENT_EVENTS as i64;
            let recent: Vec<serde_json::Value> =
                store::events_after(conn, turn.game_id, game.version - window, window)?
                    .into_iter()
                    .map(|row| row.event)
                    .filter(|event| !is_lifecycle(event))
                    .collect();
            Ok(Some((turn, game, roster, recent)))
        })?; // The connection goes back to the pool before the bot thinks.
        let Some((turn, game, roster, recent)) = claimed else {
            return Ok(false);
        };
        let seat = engine_seat(turn.seat)?;
        // The bot seated at creation, or the one standing in for the seat's absent player. The
        // lifecycle is parsed here once: the move is decided on this same read.
        let read = GameRead::of(game, roster.seats())?;
        let (game, life) = (&read.game, &read.life);
        let level = roster
            .seats()
            .iter()
            .find(|s| s.seat == turn.seat)
            .and_then(|s| Some((BotLevel::parse(s.bot_level.as_deref()?)?, s.bot_budget_ms)))
            .or_else(|| life.stand_in(seat).map(|level| (level, None)));
        let (Some((level, budget_ms)), Some(snapshot), true) = (
            level,
            game.snapshot.as_ref(),
            game.version == turn.version && game.status == db::GameStatus::Active,
        ) else {
            // Armed for a version, seat or game that is no more: nothing will ever move it.
            self.drop_stale(&turn)?;
            return Ok(true);
        };
        let mut bot = bots::Bot::new(level.level());
        let max = Duration::from_millis(u64::from(self.settings.max_budget_ms));
        match budget_ms.and_then(|b| u64::try_from(b).ok()) {
            // A time budget: search for that long (within the server's maximum).
            Some(ms) => {
                bot.budget.iterations = u32::MAX;
                bot.budget.time = Some(Duration::from_millis(ms).min(max));
                bot.budget.cpu = None; // the wall-clock limit is the tighter one
            }
            // The level's default effort (iterations, at most a second of CPU), cut off at the
            // server's maximum.
            None => bot.budget.time = Some(max),
        }
        let mut rng = rand::rngs::StdRng::from_os_rng();
        let started = Instant::now();
        let thinking = Thinking::new(&self.metrics.bots_thinking);
        let decision = bots::choose_json(
            &game.game_type,
            snapshot.as_str(),
            &recent,
            seat,
            &bot,
            &mut rng,
        );
        drop(thinking);
        let decision =
            decision.map_err(|e| ApiError::internal(format!("bot of game {}: {e}", game.id)))?;
        self.metrics
            .bot_think_seconds
            .observe(started.elapsed().as_secs_f64());
        let count = |result: &str| {
            self.metrics
                .bot_moves
                .with_label_values(&[&game.game_type, level.name(), result])
                .inc();
        };
        let Some(action) = decision.action else {
            // The seat has nothing to do (cannot happen for a turn armed by the action path,
            // which arms only awaited seats and seats with a standing action).
            count("stale");
            self.drop_stale(&turn)?;
            return Ok(true);
        };
        let body = ActionRequest {
            action,
            expected_version: Some(turn.version),
        };
        let req = ApplyRequest {
            game_id: turn.game_id,
            expected_version: Some(turn.version),
            idempotency: None,
            lock_wait: LockWait::Allowed,
        };
        // Within the lease, a database outage (a failover) delays the move instead of
        // losing it; the version guard refuses it should the game have moved on meanwhile.
        // The first attempt decides on the game as read before the bot thought (a game that
        // moved since is read again by the action path); a retry reads it afresh.
        let first_read = std::cell::Cell::new(Some(read.clone()));
        let applied = retry_while_unavailable(claimed_at + self.settings.lease, || {
            let read = first_read.take();
            self.with_conn(|conn| {
                act::act_as(conn, &self.cx, &req, &roster, seat, Actor::Bot, &body, read)
            })
        });
        match applied {
            Ok(_) => count("applied"),
            Err(e) if e.status == actix_web::http::StatusCode::CONFLICT => {
                // The game moved on while the bot thought (or a first attempt was stored
                // though its answer was lost to the outage): the move is for a past position.
                count("stale");
                self.drop_stale(&turn)?;
            }
            Err(e) => {
                // The lease runs out and the turn is tried again (a bot's move refused by the
                // rules is a bug; the game must not be stuck by it for good).
                count("failed");
                return Err(e);
            }
        }
        Ok(true)
    }

    /// Runs `f` with a pooled connection ([`crate::state::with_conn`]).
    fn with_conn<T>(
        &self,
        f: impl FnOnce(&mut db::PooledConn) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        crate::state::with_conn(&self.pool, f)
    }

    fn drop_stale(&self, turn: &ClaimedTurn) -> Result<(), ApiError> {
        self.with_conn(|conn| Ok(store::drop_stale_bot_turn(conn, turn)?))?;
        Ok(())
    }
}

/// Counts a bot move being thought about for as long as it lives, panics included.
struct Thinking<'a>(&'a prometheus::IntGauge);

impl<'a> Thinking<'a> {
    fn new(gauge: &'a prometheus::IntGauge) -> Thinking<'a> {
        gauge.inc();
        Thinking(gauge)
    }
}

impl Drop for Thinking<'_> {
    fn drop(&mut self) {
        self.0.dec();
    }
}
