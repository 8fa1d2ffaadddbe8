//! The server's bots at work: threads that claim bot turns from the shared `bot_turns` queue
//! ([`db::store::claim_bot_turn`]), think, and move through the ordinary action path.
//!
//! Every process may run them (`--bot-threads`); the queue's lease and `FOR UPDATE SKIP
//! LOCKED` give each turn to one process at a time, and the move is applied at the claimed
//! version, so a think that lost its lease (or raced a person's standing action) is refused by
//! the version guard and dropped. A worker claims only when idle, holds a pooled connection
//! only for the claim and for the move (never while it thinks), and runs on a thread of its
//! own, never on an HTTP worker or the blocking pool. Wake-ups come from the process's LISTEN
//! connection ([`crate::state::Hub`]); a poll covers missed ones, expired leases and delayed
//! moves. Bots draw their randomness from the operating system, never from the game's seed
//! (which is the game's chance: a bot using it would play in step with the dice).

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use actix_web::web;
use db::store::{self, ApplyRequest, ClaimedTurn, LockWait};
use rand::SeedableRng;

use crate::config::BotSettings;
use crate::dto::{ActionRequest, BotLevel};
use crate::error::ApiError;
use crate::lifecycle::is_lifecycle;
use crate::metrics::Metrics;
use crate::service::caller::engine_seat;
use crate::service::decision::lifecycle_of;
use crate::service::play::{self, Actor};
use crate::state::{BotWake, Context};

/// The running workers; [`BotWorkers::stop_and_join`] ends them.
pub struct BotWorkers {
    stop: Arc<AtomicBool>,
    wake: Arc<BotWake>,
    threads: Vec<JoinHandle<()>>,
}

/// What a worker needs.
struct Worker {
    name: String,
    settings: BotSettings,
    pool: db::Pool,
    cx: Arc<Context>,
    metrics: web::Data<Metrics>,
}

impl BotWorkers {
    /// Starts `settings.threads` workers.
    ///
    /// # Panics
    /// When a thread cannot be spawned.
    pub fn start(
        settings: BotSettings,
        pool: db::Pool,
        cx: Arc<Context>,
        wake: Arc<BotWake>,
        metrics: web::Data<Metrics>,
    ) -> BotWorkers {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..settings.threads)
            .map(|i| {
                let worker = Worker {
                    name: format!("pid{}-bot{i}", std::process::id()),
                    settings,
                    pool: pool.clone(),
                    cx: cx.clone(),
                    metrics: metrics.clone(),
                };
                let (stop, wake) = (stop.clone(), wake.clone());
                std::thread::Builder::new()
                    .name(format!("bot-{i}"))
                    .spawn(move || worker.run(&stop, &wake))
                    .expect("spawn a bot worker")
            })
            .collect();
        BotWorkers {
            stop,
            wake,
            threads,
        }
    }

    /// Stops the workers and waits for them (a worker finishes the move it thinks about).
    pub fn stop_and_join(self) {
        self.stop.store(true, Ordering::Relaxed);
        self.wake.wake();
        for t in self.threads {
            let _ = t.join();
        }
    }
}

impl Worker {
    fn run(&self, stop: &AtomicBool, wake: &BotWake) {
        while !stop.load(Ordering::Relaxed) {
            let seen = wake.generation();
            // A panic (a bug in a bot or an engine) must not end the thread: with one bot
            // thread no bot would move again until a restart. The claimed turn is tried
            // again when its lease runs out.
            match std::panic::catch_unwind(AssertUnwindSafe(|| self.claim_and_move())) {
                // Look again at once: there may be more work.
                Ok(Ok(true)) => {}
                Ok(Ok(false)) => wake.wait_past(seen, self.settings.poll_interval()),
                Ok(Err(error)) => {
                    tracing::warn!(worker = %self.name, %error, "bot worker failed");
                    wake.wait_past(seen, self.settings.poll_interval());
                }
                Err(panic) => {
                    let message = panic
                        .downcast_ref::<&str>()
                        .copied()
                        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                        .unwrap_or("a panic without a message");
                    tracing::error!(worker = %self.name, panic = message, "bot move panicked");
                    wake.wait_past(seen, self.settings.poll_interval());
                }
            }
        }
    }

    /// Claims one due turn and plays it; `false` when there was none.
    fn claim_and_move(&self) -> Result<bool, ApiError> {
        let (turn, game, roster, recent) = {
            let mut conn = db::get_conn(&self.pool)?;
            let Some(turn) = store::claim_bot_turn(&mut conn, &self.name, self.settings.lease)?
            else {
                return Ok(false);
            };
            let game = store::get_game(&mut conn, turn.game_id)?;
            let roster = self.cx.rosters.get(&mut conn, turn.game_id)?;
            // The end of the log, which the bot's manners remember (what it did this turn,
            // which offers were refused); it sees the game's events as its seat may (the
            // seats' lifecycle events are no moves of the game).
            let window = bots::RECENT_EVENTS as i64;
            let recent: Vec<serde_json::Value> =
                store::events_after(&mut conn, turn.game_id, game.version - window, window)?
                    .into_iter()
                    .map(|row| row.event)
                    .filter(|event| !is_lifecycle(event))
                    .collect();
            (turn, game, roster, recent)
        }; // The connection goes back to the pool before the bot thinks.
        let seat = engine_seat(turn.seat)?;
        // The bot seated at creation, or the one standing in for the seat's absent player.
        let (_, life) = lifecycle_of(&game, roster.seats())?;
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
        let mut conn = db::get_conn(&self.pool)?;
        match play::act_as(&mut conn, &self.cx, &req, &roster, seat, Actor::Bot, &body) {
            Ok(_) => count("applied"),
            Err(e) if e.status == actix_web::http::StatusCode::CONFLICT => {
                // The game moved on while the bot thought: the move is for a past position.
                count("stale");
                drop(conn);
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

    fn drop_stale(&self, turn: &ClaimedTurn) -> Result<(), ApiError> {
        let mut conn = db::get_conn(&self.pool)?;
        store::drop_stale_bot_turn(&mut conn, turn)?;
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
