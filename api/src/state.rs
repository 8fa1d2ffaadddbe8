//! Shared per-process state: the pool and the change hub (LISTEN/NOTIFY fan-out). Metrics are
//! app data of their own ([`crate::metrics::Metrics`]).
//! Handlers keep no game state in memory between requests.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use actix_web::web;
use db::notify::{Announcer, GameChanged, ListenEvent, NoticeMessage};
use db::store::LockWait;
use tokio::sync::broadcast;
use tokio::time::Instant;
use uuid::Uuid;

use crate::error::ApiError;
use crate::replica::{AtVersion, ReadOutcome, Replica};
use crate::rosters::RosterCache;
use crate::workers::Queue;

/// What handlers share.
#[derive(Clone)]
pub struct AppState {
    /// Connections to the writer (the primary).
    pub pool: db::Pool,
    /// The read replica, with `--read-database-url` (see [`crate::replica`]).
    pub replica: Option<Arc<Replica>>,
    pub hub: Arc<Hub>,
    pub context: Arc<Context>,
    /// `--db-on-blocking-pool`: [`AppState::db_here`] never runs on the worker.
    pub always_block: bool,
    /// One permit per pooled connection (of the primary's pool and the replica's together):
    /// what a database call holds while it runs on the blocking pool.
    pub db_permits: Arc<tokio::sync::Semaphore>,
    /// Counts every call made here (the `db_request_calls_total` metric).
    pub db_calls: prometheus::IntCounter,
}

/// How long a request waits for its turn at the database before it is answered 503: far
/// longer than any burst takes to drain, short enough that a stuck database is reported.
pub const DB_QUEUE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(30);

/// Whether `answer` is at least at `min_version` (any answer is, when none is named).
fn reaches(answer: &impl AtVersion, min_version: Option<i64>) -> bool {
    match min_version {
        Some(min) => answer.version() >= min,
        None => true,
    }
}

/// Where a read runs: on the HTTP worker when a connection is free (most reads), or always
/// on the blocking pool (reads that take long in themselves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Placement {
    Here,
    Blocking,
}

/// What the synchronous part of a request uses besides its connection.
pub struct Context {
    /// Complete rosters, so that tokens are recognised without a query.
    pub rosters: RosterCache,
    /// Tokens seen to be seats' (the rate limiter's identities).
    pub known_tokens: Arc<crate::known_tokens::KnownTokens>,
    /// Where committed versions go: long polls and streams, here and in other processes.
    pub changes: Changes,
    /// The document's schemas, to hold actions to their game's shape.
    pub schemas: Arc<crate::strict::Schemas>,
    /// Bot budgets and pacing.
    pub bots: crate::config::BotSettings,
    /// How long an open game waits for its seats to be taken (`--open-game-ttl`).
    pub open_game_ttl: std::time::Duration,
    /// How long a seek waits for opponents (`--seek-ttl`).
    pub seek_ttl: std::time::Duration,
    /// How long a challenge waits for answers (`--challenge-ttl`).
    pub challenge_ttl: std::time::Duration,
    /// Counts of the seats' lifecycle events (timeouts, takeovers, resignations, ...).
    pub lifecycle_events: prometheus::IntCounterVec,
    /// The deployment's secret behind the tokens of keyed lobby requests
    /// ([`crate::service::lobby_keys`]).
    pub token_secret: db::token::TokenSecret,
}

/// Runs `f` with a connection from `pool`, handed back as [`settle`] says: the one way every
/// caller (requests, the runners, the workers) uses a pooled connection.
///
/// # Errors
/// 503 when no connection is free within the pool's timeout; `f`'s error.
pub fn with_conn<T>(
    pool: &db::Pool,
    f: impl FnOnce(&mut db::PooledConn) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut conn = db::get_conn(pool)?;
    let result = f(&mut conn);
    settle(&mut conn, &result);
    result
}

/// After `conn` answered `result`: a 5xx may mean the server went away under the connection
/// (a failover), so it is closed instead of going back to the pool (see
/// `db::DbConn::mark_broken`).
pub fn settle<T>(conn: &mut db::PooledConn, result: &Result<T, ApiError>) {
    if result.as_ref().is_err_and(|e| e.status.is_server_error()) {
        conn.mark_broken();
    }
}

impl AppState {
    /// Runs `f` with a pooled connection and the [`Context`] on the blocking pool (diesel is
    /// synchronous), inside the request's tracing span. The connection goes back to the pool
    /// when `f` returns, unless `f` failed with a 5xx: then it is closed (see
    /// `db::DbConn::mark_broken`).
    ///
    /// At most one call per pooled connection runs at a time; the others wait here for a
    /// permit, in order and without a thread each. A burst (a thousand streams opened at
    /// once, every long poll woken by one move) so waits its turn instead of parking a
    /// blocking thread per request on the pool, which grew the process by hundreds of
    /// threads and answered 503 once the pool's checkout timeout ran out under that load.
    ///
    /// # Errors
    /// `f`'s error; 503 when the turn does not come within [`DB_QUEUE_PATIENCE`], or no
    /// connection is free within the pool's timeout.
    pub async fn db<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + 'static,
    {
        self.db_on(&self.pool, f).await
    }

    async fn db_on<T, F>(&self, pool: &db::Pool, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + 'static,
    {
        let permit =
            tokio::time::timeout(DB_QUEUE_PATIENCE, self.db_permits.clone().acquire_owned())
                .await
                .map_err(|_| ApiError::unavailable("the database is busy; retry later"))?
                .map_err(|_| ApiError::unavailable("the server is shutting down"))?;
        self.db_calls.inc();
        let pool = pool.clone();
        let context = self.context.clone();
        let span = tracing::Span::current();
        web::block(move || {
            let _permit = permit;
            let _entered = span.enter();
            with_conn(&pool, |conn| f(conn, &context))
        })
        .await
        .map_err(|_| ApiError::unavailable("the server is shutting down"))?
    }

    /// Runs `f` right here on the HTTP worker when that cannot make the worker wait, else as
    /// [`AppState::db`] does. Handing work to the blocking pool and back costs a request
    /// two thread switches, a good part of the service's CPU per move; but a worker also
    /// serves every other request queued on it, so it must never block on anything that can
    /// take long. Here it runs `f` only with a connection that is free now (no waiting for
    /// the pool) and with [`LockWait::Refused`] (no waiting for another transaction's row
    /// lock: the store answers `Busy` instead, having written nothing). Reads take no locks.
    /// What would wait goes to the blocking pool, which waits boundedly and answers 503 when
    /// the pool stays exhausted: overload is shed exactly as before.
    ///
    /// # Errors
    /// As [`AppState::db`].
    pub async fn db_here<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: Fn(&mut db::PooledConn, &Context, LockWait) -> Result<T, ApiError> + Send + 'static,
    {
        self.db_here_on(&self.pool, f).await
    }

    async fn db_here_on<T, F>(&self, pool: &db::Pool, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: Fn(&mut db::PooledConn, &Context, LockWait) -> Result<T, ApiError> + Send + 'static,
    {
        let here = if self.always_block {
            None
        } else {
            pool.try_get()
        };
        if let Some(mut conn) = here {
            self.db_calls.inc();
            match f(&mut conn, &self.context, LockWait::Refused) {
                Err(e) if e.is_busy() => {}
                result => {
                    settle(&mut conn, &result);
                    return result;
                }
            }
        }
        self.db_on(pool, move |conn, cx| f(conn, cx, LockWait::Allowed))
            .await
    }

    /// Runs the read `f` on the replica when there is one, else (or when the replica cannot
    /// give the answer, see [`crate::replica`]) on the writer, as [`AppState::db_here`] does.
    /// `min_version`: the version the caller named; the answer is never older (the replica is
    /// waited for up to `--read-max-wait-ms`, then the primary answers).
    ///
    /// # Errors
    /// `f`'s error (from the primary when the replica's was a 404, 401 or 503).
    pub async fn read<T, F>(&self, min_version: Option<i64>, f: F) -> Result<T, ApiError>
    where
        T: AtVersion + Send + 'static,
        F: Fn(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        self.read_placed(Placement::Here, min_version, f).await
    }

    /// [`AppState::read`] for reads that take long in themselves (a whole log, a replay):
    /// always on the blocking pool, as [`AppState::db`] runs them.
    ///
    /// # Errors
    /// As [`AppState::read`].
    pub async fn read_blocking<T, F>(&self, min_version: Option<i64>, f: F) -> Result<T, ApiError>
    where
        T: AtVersion + Send + 'static,
        F: Fn(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        self.read_placed(Placement::Blocking, min_version, f).await
    }

    async fn read_placed<T, F>(
        &self,
        placement: Placement,
        min_version: Option<i64>,
        f: F,
    ) -> Result<T, ApiError>
    where
        T: AtVersion + Send + 'static,
        F: Fn(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        let f = Arc::new(f);
        if let Some(replica) = &self.replica {
            match self
                .read_replica(replica, placement, min_version, &f)
                .await?
            {
                Ok(answer) => return Ok(answer),
                Err(outcome) => replica.count(outcome),
            }
        }
        self.run_placed(&self.pool, placement, f).await
    }

    async fn run_placed<T, F>(
        &self,
        pool: &db::Pool,
        placement: Placement,
        f: Arc<F>,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: Fn(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        match placement {
            Placement::Here => self.db_here_on(pool, move |conn, cx, _| f(conn, cx)).await,
            Placement::Blocking => self.db_on(pool, move |conn, cx| f(conn, cx)).await,
        }
    }

    /// The replica's answer, or why the primary must answer instead.
    async fn read_replica<T, F>(
        &self,
        replica: &Replica,
        placement: Placement,
        min_version: Option<i64>,
        f: &Arc<F>,
    ) -> Result<Result<T, ReadOutcome>, ApiError>
    where
        T: AtVersion + Send + 'static,
        F: Fn(&mut db::PooledConn, &Context) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        if replica.pool.is_down() {
            return Ok(Err(ReadOutcome::PrimaryUnavailable));
        }
        let deadline = Instant::now() + replica.max_wait;
        let mut pause = crate::replica::FIRST_PAUSE;
        let mut waited = false;
        loop {
            match self.run_placed(&replica.pool, placement, f.clone()).await {
                Ok(answer) if reaches(&answer, min_version) => {
                    replica.count(if waited {
                        ReadOutcome::ReplicaAfterWait
                    } else {
                        ReadOutcome::Replica
                    });
                    return Ok(Ok(answer));
                }
                Ok(_) if Instant::now() + pause < deadline => {
                    tokio::time::sleep(pause).await;
                    waited = true;
                    pause = (pause * 2).min(crate::replica::MAX_PAUSE);
                }
                Ok(_) => return Ok(Err(ReadOutcome::PrimaryLagging)),
                Err(e) => return ReadOutcome::of_refusal(&e).map(Err).ok_or(e),
            }
        }
    }
}

/// Where a committed change goes: to this process's long polls and streams at once, through
/// the [`Hub`], and to every process's through PostgreSQL ([`Announcer`], batched off the
/// request's path). Without the first, a follower in this process would hear of the change
/// only when the announcement came back through LISTEN, 3 to 25 ms later; hearing it twice is
/// harmless (waiters compare versions).
#[derive(Clone)]
pub struct Changes {
    hub: Arc<Hub>,
    announcer: Announcer,
}

impl Changes {
    pub fn new(hub: Arc<Hub>, announcer: Announcer) -> Changes {
        Changes { hub, announcer }
    }

    /// `applied` is committed: wake its waiters, and the deadline workers when it armed a
    /// deadline. Never blocks.
    pub fn committed(&self, applied: &db::store::Applied) {
        // The observer first, so that the followers the change wakes find it in memory.
        self.hub.observer.committed(applied);
        self.changed(applied.change());
        if applied.deadline_armed {
            self.deadline_armed();
        }
        self.notices(&applied.notices);
    }

    /// `notices` are committed: push them to their players' streams, here at once and in
    /// every process through PostgreSQL (the notice travels whole in the NOTIFY payload, so no
    /// process reads it). Never blocks.
    pub fn notices(&self, notices: &[db::store::NoticeRow]) {
        for notice in notices {
            let message = NoticeMessage::Notice(notice.clone());
            self.announcer.notice(&message);
            self.hub.dispatch(ListenEvent::Notice(message));
        }
    }

    /// A chat message was posted: pass it to the game's streams, here at once and in every
    /// process through PostgreSQL (it travels whole in the NOTIFY payload). Never blocks.
    pub fn chat(&self, row: &db::store::ChatRow) {
        let message = NoticeMessage::Chat(row.clone());
        self.announcer.notice(&message);
        self.hub.dispatch(ListenEvent::Notice(message));
    }

    /// Player `player_id`'s token was replaced: its open streams end, in every process.
    pub fn token_rotated(&self, player_id: Uuid) {
        let message = NoticeMessage::Rotated { player_id };
        self.announcer.notice(&message);
        self.hub.dispatch(ListenEvent::Notice(message));
    }

    /// A deadline was armed: wake the deadline workers, here and in every process. Never
    /// blocks.
    pub fn deadline_armed(&self) {
        self.hub
            .dispatch(ListenEvent::QueueDue(db::store::DEADLINE_CHANNEL));
        self.announcer.deadline_armed();
    }

    /// Game `change.game_id` changed (an open game ended without an event: its version is
    /// still 0): wake its waiters. Never blocks.
    pub fn changed(&self, change: GameChanged) {
        self.hub.dispatch(ListenEvent::Changed(change));
        self.announcer.announce(change);
    }
}

/// Fans out the process's one LISTEN connection to every long poll and event stream, by game:
/// each waiter subscribes to its own game's channel, so a change wakes only the waiters of
/// that game, however many streams other games have open.
pub struct Hub {
    games: Mutex<HashMap<Uuid, broadcast::Sender<Signal>>>,
    /// Told of every change before the game's waiters are woken.
    observer: Arc<dyn ChangeObserver>,
    /// Per player, the streams following it.
    players: Mutex<HashMap<Uuid, broadcast::Sender<PlayerSignal>>>,
    /// The work queues whose workers this process runs: woken when their channel announces
    /// work, and after every reconnect (which may have lost announcements).
    queues: Vec<Queue>,
}

/// What hears of every change before the game's waiters are woken: the process's shared
/// copies of followed games (the `watch` module), which this module does not know.
pub trait ChangeObserver: Send + Sync {
    /// This process committed `applied`.
    fn committed(&self, applied: &db::store::Applied);
    /// A change was announced, by this process or another.
    fn announced(&self, change: GameChanged);
    /// The listener reconnected: announcements may have been lost.
    fn reconnected(&self);
}

/// What a waiter hears.
#[derive(Debug, Clone, PartialEq)]
pub enum Signal {
    /// The game committed this version.
    Changed(i64),
    /// The listener (re)connected: changes may have been missed, re-read.
    Reconnected,
    /// A chat message was posted at the game (streams pass it on to whom it addresses).
    Chat(Arc<db::store::ChatRow>),
}

/// What a player's stream hears.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerSignal {
    /// A committed notice of the player's.
    Notice(Arc<db::store::NoticeRow>),
    /// The player's notice `seq` committed, too large to travel: read it.
    Nudge(i64),
    /// The listener (re)connected: notices may have been missed, read from the last seq sent.
    Reconnected,
    /// The player's token was replaced: streams opened with the old one end.
    Rotated,
}

/// Above this many game channels, the ones nobody listens to are dropped at the next
/// subscription.
const SWEEP_ABOVE: usize = 1024;

/// Stops the listener thread when dropped (with the server).
pub struct ListenerGuard {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for ListenerGuard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // The thread notices within its 250 ms receive timeout; do not block on it here.
        drop(self.thread.take());
    }
}

impl ListenerGuard {
    /// Stops the listener thread and waits for it (at most its 250 ms receive timeout), so
    /// that the database can be stopped after it without a spurious reconnect.
    pub fn stop_and_join(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Hub {
    /// Starts the listener thread on `url` (via [`db::notify::run_listener`]), listening on
    /// the game channel and on every queue's channel, and waking a queue's workers when work
    /// is announced on it and after every reconnect.
    pub fn start(
        url: String,
        queues: Vec<Queue>,
        observer: Arc<dyn ChangeObserver>,
    ) -> (Arc<Hub>, ListenerGuard) {
        let channels: Vec<&'static str> = queues.iter().map(|q| q.channel).collect();
        let hub = Arc::new(Hub {
            games: Mutex::new(HashMap::new()),
            observer,
            players: Mutex::new(HashMap::new()),
            queues,
        });
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let fan_out = hub.clone();
        let thread = std::thread::Builder::new()
            .name("pg-listener".into())
            .spawn(move || {
                db::notify::run_listener(&url, &channels, &flag, |event| fan_out.dispatch(event));
            })
            .expect("spawn the LISTEN thread");
        (
            hub,
            ListenerGuard {
                stop,
                thread: Some(thread),
            },
        )
    }

    fn dispatch(&self, event: ListenEvent) {
        if let ListenEvent::Notice(message) = event {
            self.dispatch_notice(message);
            return;
        }
        match event {
            ListenEvent::Changed(change) => self.observer.announced(change),
            ListenEvent::Connected => self.observer.reconnected(),
            ListenEvent::QueueDue(_) | ListenEvent::Notice(_) => {}
        }
        if matches!(event, ListenEvent::Connected) {
            let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
            players.retain(|_, tx| tx.send(PlayerSignal::Reconnected).is_ok());
        }
        for queue in &self.queues {
            match event {
                ListenEvent::Connected => queue.wake.wake(),
                ListenEvent::QueueDue(channel) if channel == queue.channel => queue.wake.wake(),
                _ => {}
            }
        }
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            ListenEvent::Changed(GameChanged { game_id, version }) => {
                // No receiver left: nobody waits for this game any more.
                if let Some(tx) = games.get(&game_id) {
                    if tx.send(Signal::Changed(version)).is_err() {
                        games.remove(&game_id);
                    }
                }
            }
            ListenEvent::Connected => {
                games.retain(|_, tx| tx.send(Signal::Reconnected).is_ok());
            }
            ListenEvent::QueueDue(_) | ListenEvent::Notice(_) => {}
        }
    }

    fn dispatch_notice(&self, message: NoticeMessage) {
        let Some(player) = message.player_id() else {
            if let NoticeMessage::Chat(row) = message {
                self.dispatch_chat(row);
            }
            return;
        };
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        let Some(tx) = players.get(&player) else {
            return;
        };
        let signal = match message {
            NoticeMessage::Notice(row) => PlayerSignal::Notice(Arc::new(row)),
            NoticeMessage::Nudge { seq, .. } => PlayerSignal::Nudge(seq),
            NoticeMessage::Rotated { .. } => PlayerSignal::Rotated,
            NoticeMessage::Chat(_) => return,
        };
        if tx.send(signal).is_err() {
            players.remove(&player);
        }
    }

    /// Passes a chat message to the streams of its game.
    fn dispatch_chat(&self, row: db::store::ChatRow) {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = games.get(&row.game_id) {
            let _ = tx.send(Signal::Chat(Arc::new(row)));
        }
    }

    /// A receiver of every notice of player `player_id` from now on. Subscribe before reading
    /// the notices you compare against.
    pub fn subscribe_player(&self, player_id: Uuid) -> broadcast::Receiver<PlayerSignal> {
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        if players.len() > SWEEP_ABOVE {
            players.retain(|_, tx| tx.receiver_count() > 0);
        }
        players
            .entry(player_id)
            .or_insert_with(|| broadcast::channel(256).0)
            .subscribe()
    }

    /// A receiver of every change of `game_id` from now on. Subscribe before reading the
    /// version you compare against, so that no change can slip in between.
    pub fn subscribe(&self, game_id: Uuid) -> broadcast::Receiver<Signal> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games.len() > SWEEP_ABOVE {
            games.retain(|_, tx| tx.receiver_count() > 0);
        }
        games
            .entry(game_id)
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }
}

/// Waits until the game of `rx` may have moved past `known`, or until `deadline` (`None`).
/// The answer is the version to read at least: the one a change announced, or `known` again
/// after a reconnect of the listener or a lagging receiver (the game may have moved, by how
/// much is unknown). Readers pass it to [`AppState::read`] as the version to reach, so that
/// a replica that has not replayed the change yet is waited for rather than believed.
pub async fn wait_for_change(
    rx: &mut broadcast::Receiver<Signal>,
    known: i64,
    deadline: Instant,
) -> Option<i64> {
    loop {
        match wait_for_news(rx, known, deadline).await {
            News::Changed(at_least) => return Some(at_least),
            News::Chat(_) => {}
            News::Quiet => return None,
        }
    }
}

/// What [`wait_for_news`] heard.
#[derive(Debug, Clone, PartialEq)]
pub enum News {
    /// The game may have moved past the known version: read it at least at this one.
    Changed(i64),
    /// A chat message was posted at the game.
    Chat(Arc<db::store::ChatRow>),
    /// Nothing until the deadline.
    Quiet,
}

/// [`wait_for_change`] that also hears the game's chat.
pub async fn wait_for_news(
    rx: &mut broadcast::Receiver<Signal>,
    known: i64,
    deadline: Instant,
) -> News {
    loop {
        tokio::select! {
            signal = rx.recv() => match signal {
                Ok(Signal::Changed(version)) => {
                    if version > known {
                        return News::Changed(version);
                    }
                }
                Ok(Signal::Chat(row)) => return News::Chat(row),
                Ok(Signal::Reconnected) | Err(broadcast::error::RecvError::Lagged(_)) => {
                    return News::Changed(known);
                }
                Err(broadcast::error::RecvError::Closed) => {
                    tokio::time::sleep_until(deadline).await;
                    return News::Quiet;
                }
            },
            _ = tokio::time::sleep_until(deadline) => return News::Quiet,
        }
    }
}
