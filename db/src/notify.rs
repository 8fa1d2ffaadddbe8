//! Change notifications across processes with PostgreSQL `LISTEN/NOTIFY`.
//!
//! Every committed change of a game's version is announced as `pg_notify('game_events',
//! '<game uuid>:<version>')` on one shared [`CHANNEL`] after the change commits, by the
//! process's [`Announcer`] (see [`announce`] for why not inside the transaction). One [`Listener`] per api process receives them all and fans them out to its
//! long-polling requests, so a change made through any process wakes pollers on every process.
//!
//! Diesel's `PgConnection::notifications_iter` only returns what has already arrived (it calls
//! `PQconsumeInput` and `PQnotifies`, which never block) and does not expose the socket, so
//! [`Listener::recv_timeout`] polls it every [`DEFAULT_POLL_INTERVAL`]. A poll is one
//! non-blocking `recv` on the socket, no query, so the cost is negligible; the price is up to
//! one interval of extra latency.
//!
//! ```no_run
//! use std::time::Duration;
//! let mut listener = db::notify::Listener::connect("postgres://...", &[])?;
//! while let Some(change) = listener.recv_timeout(Duration::from_secs(30))? {
//!     println!("game {} is now at version {}", change.game_id, change.version);
//! }
//! # Ok::<(), db::StoreError>(())
//! ```

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use diesel::prelude::*;
use uuid::Uuid;

use crate::StoreError;

/// The one channel all game changes are announced on.
pub const CHANNEL: &str = "game_events";

/// How often [`Listener::recv_timeout`] looks for new notifications.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(20);

/// A game reached `version` (its events up to `version` are committed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameChanged {
    /// The game.
    pub game_id: Uuid,
    /// Its version after the change.
    pub version: i64,
}

impl GameChanged {
    /// Parses a NOTIFY payload, `<uuid>:<version>` as `announce_game_versions` (migration 6)
    /// writes it.
    pub fn parse(payload: &str) -> Option<GameChanged> {
        let (id, version) = payload.split_once(':')?;
        Some(GameChanged {
            game_id: id.parse().ok()?,
            version: version.parse().ok()?,
        })
    }
}

/// What the [`crate::store::NOTICE_CHANNEL`] carries: a player's committed notice, whole; or,
/// for one too large for a NOTIFY payload, only that the player has it (listeners read it);
/// or that a player's token was replaced (streams opened with the old one end); or a chat
/// message posted at a game (always small enough to travel whole: at most 500 characters).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "m", rename_all = "snake_case")]
pub enum NoticeMessage {
    /// A committed notice.
    Notice(crate::store::NoticeRow),
    /// The player's notice `seq` committed; read it.
    Nudge {
        /// The player.
        player_id: Uuid,
        /// The notice's seq.
        seq: i64,
    },
    /// The player's token was replaced.
    Rotated {
        /// The player.
        player_id: Uuid,
    },
    /// A chat message was posted at a game.
    Chat(crate::store::ChatRow),
}

/// The largest payload sent whole; PostgreSQL's limit is 8000 bytes.
const MAX_PAYLOAD: usize = 7900;

impl NoticeMessage {
    /// The player it concerns (`None`: a chat message, which concerns a game).
    pub fn player_id(&self) -> Option<Uuid> {
        match self {
            NoticeMessage::Notice(n) => Some(n.player_id),
            NoticeMessage::Nudge { player_id, .. } | NoticeMessage::Rotated { player_id } => {
                Some(*player_id)
            }
            NoticeMessage::Chat(_) => None,
        }
    }

    /// The NOTIFY payload: the message as JSON, a nudge when a notice is too large.
    pub fn payload(&self) -> String {
        let json = serde_json::to_string(self).expect("notice messages serialize");
        match self {
            NoticeMessage::Notice(n) if json.len() > MAX_PAYLOAD => {
                serde_json::to_string(&NoticeMessage::Nudge {
                    player_id: n.player_id,
                    seq: n.seq,
                })
                .expect("notice messages serialize")
            }
            _ => json,
        }
    }
}

/// Announces `changes`, which have committed, to every [`Listener`] in one statement, and
/// when `deadlines`, that deadlines were armed ([`crate::store::DEADLINE_CHANNEL`]), and the
/// players' notice messages `notices` (payloads, [`NoticeMessage::payload`]).
///
/// A NOTIFY inside the changing transaction would be simpler, but PostgreSQL serialises the
/// commits of notifying transactions: it holds a database-wide lock from the queueing of the
/// notification until the commit's WAL flush is done, so concurrent actions could not share
/// a flush (measured: 8 clients committed ~35 % fewer raw transactions per second). Sent
/// afterwards in a transaction of its own with `synchronous_commit` off, the lock is held only
/// for an in-memory commit. Notifications are wake-ups, not data: one lost to a crash between
/// the two commits delays a long poll until its deadline, when it re-reads the game anyway.
///
/// # Errors
/// The statement's error (the changes themselves are committed regardless).
pub fn announce(
    conn: &mut PgConnection,
    changes: &[GameChanged],
    deadlines: bool,
    notices: &[String],
) -> QueryResult<()> {
    let games: Vec<Uuid> = changes.iter().map(|c| c.game_id).collect();
    let versions: Vec<i64> = changes.iter().map(|c| c.version).collect();
    if notices.is_empty() {
        return diesel::select(announce_changes(games, versions, deadlines))
            .execute(conn)
            .map(|_| ());
    }
    diesel::select(announce_changes_and_notices(
        games, versions, deadlines, notices,
    ))
    .execute(conn)
    .map(|_| ())
}

diesel::define_sql_function! {
    /// `announce_changes(games, versions, deadlines, notices)` (migration 11): as the
    /// three-argument form, and each notice payload on the player_notices channel.
    #[sql_name = "announce_changes"]
    fn announce_changes_and_notices(
        games: diesel::sql_types::Array<diesel::sql_types::Uuid>,
        versions: diesel::sql_types::Array<diesel::sql_types::Int8>,
        deadlines: diesel::sql_types::Bool,
        notices: diesel::sql_types::Array<diesel::sql_types::Text>,
    ) -> diesel::sql_types::Int4;
}

diesel::define_sql_function! {
    /// `announce_changes(games, versions, deadlines)`: `pg_notify` for each pair (and one on
    /// the deadline channel when `deadlines`), in a transaction that does not wait for a WAL
    /// flush (migrations 6 and 10).
    fn announce_changes(
        games: diesel::sql_types::Array<diesel::sql_types::Uuid>,
        versions: diesel::sql_types::Array<diesel::sql_types::Int8>,
        deadlines: diesel::sql_types::Bool,
    ) -> diesel::sql_types::Int4;
}

/// The most changes one announcement statement carries.
const MAX_BATCH: usize = 512;

/// How long the announcer gathers changes after the first before it sends them. Listeners
/// look for notifications every [`DEFAULT_POLL_INTERVAL`] (20 ms), so a few milliseconds
/// here cost long polls nothing noticeable, while under load they turn one statement (and
/// one wake-up of this thread) per action into one per several actions.
pub const ANNOUNCE_LINGER: Duration = Duration::from_millis(3);

/// Announces committed changes from a thread of its own, off the requests' path: a request
/// hands its change over and answers at once, and changes that arrive while a statement is
/// under way go out together in the next one. Cheap to clone; the thread ends when the last
/// clone is dropped.
#[derive(Clone)]
pub struct Announcer {
    tx: mpsc::Sender<Announcement>,
}

/// What the announcing thread sends.
#[derive(Debug, Clone)]
enum Announcement {
    /// A game reached a version.
    Changed(GameChanged),
    /// A deadline was armed.
    Deadline,
    /// A player's notice message (its payload).
    Notice(String),
}

impl Announcer {
    /// Starts the announcing thread; it connects to `url` on first use and again after any
    /// failure, and sends what it could not send again (with back-off up to
    /// [`RECONNECT_BACKOFF_MAX`]) until the database, or a new primary, takes it.
    ///
    /// # Panics
    /// When the thread cannot be spawned.
    pub fn start(url: String) -> Announcer {
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("pg-announcer".into())
            .spawn(move || run_announcer(&url, &rx))
            .expect("spawn the announcer thread");
        Announcer { tx }
    }

    /// Queues `change` for announcement; never blocks.
    pub fn announce(&self, change: GameChanged) {
        // The thread only stops once every sender is gone, so this cannot fail while `self`
        // exists; a change that could not be sent would only cost a long poll its wake-up.
        let _ = self.tx.send(Announcement::Changed(change));
    }

    /// Queues the news that a deadline was armed (one notification per batch however many);
    /// never blocks. Deadline workers also look at the queue by themselves now and then, so a
    /// lost one only delays a deadline by that much.
    pub fn deadline_armed(&self) {
        let _ = self.tx.send(Announcement::Deadline);
    }

    /// Queues a player's notice message for every process's streams; never blocks.
    pub fn notice(&self, message: &NoticeMessage) {
        let _ = self.tx.send(Announcement::Notice(message.payload()));
    }
}

/// The most changes and notices an announcer gathers before it sends them; while it cannot
/// reach the database it keeps at most half as many of each: of changes, each game's newest
/// version (a wake-up for version 9 also serves waiters of 8), of notices the newest.
const MAX_KEPT: usize = 16 * MAX_BATCH;

fn run_announcer(url: &str, rx: &mpsc::Receiver<Announcement>) {
    let mut conn: Option<PgConnection> = None;
    let mut batch: Vec<GameChanged> = Vec::with_capacity(MAX_BATCH);
    let mut notices: Vec<String> = Vec::new();
    // A deadline was armed since the last announcement that went out.
    let mut deadlines = false;
    let mut backoff = Duration::from_millis(50);
    let mut senders_gone = false;
    let add = |batch: &mut Vec<GameChanged>,
               notices: &mut Vec<String>,
               deadlines: &mut bool,
               a: Announcement| match a {
        Announcement::Changed(change) => batch.push(change),
        Announcement::Deadline => *deadlines = true,
        Announcement::Notice(payload) => notices.push(payload),
    };
    loop {
        if batch.is_empty() && notices.is_empty() && !deadlines {
            // Blocks until there is work; ends when every Announcer is dropped.
            match rx.recv() {
                Ok(first) => add(&mut batch, &mut notices, &mut deadlines, first),
                Err(_) => return,
            }
        }
        let deadline = Instant::now() + ANNOUNCE_LINGER;
        while batch.len() + notices.len() < MAX_KEPT {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(a) => add(&mut batch, &mut notices, &mut deadlines, a),
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    senders_gone = true;
                    break;
                }
            }
        }
        match send_all(&mut conn, url, &batch, deadlines, &notices) {
            Ok(()) => {
                batch.clear();
                notices.clear();
                deadlines = false;
                backoff = Duration::from_millis(50);
            }
            Err(error) => {
                // Kept and sent again once the database (or a new primary) accepts the
                // connection: a change committed just before a failover must still wake the
                // long polls, streams and workers of every process.
                tracing::warn!(%error, changes = batch.len(), notices = notices.len(), "announcing committed changes failed; retrying");
                conn = None;
                if senders_gone {
                    return;
                }
                if batch.len() > MAX_KEPT / 2 {
                    batch = newest_per_game(&batch);
                }
                if notices.len() > MAX_KEPT / 2 {
                    // The oldest go: notices are rows, and every player stream reads its
                    // player's again after its process's listener reconnects.
                    notices.drain(..notices.len() - MAX_KEPT / 2);
                }
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(RECONNECT_BACKOFF_MAX);
            }
        }
        if senders_gone && batch.is_empty() && notices.is_empty() && !deadlines {
            return;
        }
    }
}

/// Announces `batch` and `notices` in statements of at most [`MAX_BATCH`] of each (the first
/// also telling of armed deadlines when `deadlines`), connecting first when `conn` is `None`.
fn send_all(
    conn: &mut Option<PgConnection>,
    url: &str,
    batch: &[GameChanged],
    deadlines: bool,
    notices: &[String],
) -> Result<(), String> {
    let c = match conn {
        Some(c) => c,
        None => conn.insert(PgConnection::establish(url).map_err(|e| e.to_string())?),
    };
    let statements = batch.len().max(notices.len()).div_ceil(MAX_BATCH).max(1);
    for i in 0..statements {
        let part = |len: usize| (i * MAX_BATCH).min(len)..((i + 1) * MAX_BATCH).min(len);
        let (changes, notices) = (&batch[part(batch.len())], &notices[part(notices.len())]);
        announce(c, changes, deadlines && i == 0, notices).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Each game's newest change in `batch`, in order of first appearance.
fn newest_per_game(batch: &[GameChanged]) -> Vec<GameChanged> {
    let mut newest: Vec<GameChanged> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for change in batch {
        match index.get(&change.game_id) {
            Some(&i) => {
                let kept: &mut GameChanged = &mut newest[i];
                kept.version = kept.version.max(change.version);
            }
            None => {
                index.insert(change.game_id, newest.len());
                newest.push(*change);
            }
        }
    }
    newest
}

/// A dedicated connection listening on [`CHANNEL`] and on the channels of work queues (such
/// as [`crate::store::BOT_CHANNEL`]). Not for use from a pool: LISTEN belongs to the session,
/// and the connection must stay out of transactions to receive anything.
pub struct Listener {
    conn: PgConnection,
    poll_interval: Duration,
    pending: VecDeque<GameChanged>,
    /// The queue channels listened to.
    queues: Vec<&'static str>,
    /// Queues announced since [`Listener::take_due_queues`] last looked.
    due: Vec<&'static str>,
    /// Players' notice messages not yet taken ([`Listener::take_notices`]).
    notices: VecDeque<NoticeMessage>,
    /// When the server was last heard from (a notification or an answered ping).
    last_heard: Instant,
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener")
            .field("poll_interval", &self.poll_interval)
            .field("pending", &self.pending.len())
            .field("queues", &self.queues)
            .finish()
    }
}

/// How long a [`Listener`] may hear nothing before it asks the server whether it is still
/// there: a connection whose server vanished without closing it (a machine lost in a
/// failover) delivers no error, only silence, and LISTEN would wait on it for good.
pub const LIVENESS_PING_AFTER: Duration = Duration::from_secs(5);

impl Listener {
    /// Opens a connection to `url` and LISTENs on [`CHANNEL`] and on every channel of
    /// `queues` (names of NOTIFY channels on which work queues announce new work).
    ///
    /// # Errors
    /// `StoreError::Unavailable` if the connection cannot be made.
    pub fn connect(url: &str, queues: &[&'static str]) -> Result<Listener, StoreError> {
        let mut conn =
            PgConnection::establish(url).map_err(|e| StoreError::Unavailable(e.to_string()))?;
        diesel::sql_query(format!("LISTEN {CHANNEL}")).execute(&mut conn)?;
        diesel::sql_query(format!("LISTEN {}", crate::store::NOTICE_CHANNEL)).execute(&mut conn)?;
        for queue in queues {
            diesel::sql_query(format!("LISTEN {queue}")).execute(&mut conn)?;
        }
        Ok(Listener {
            conn,
            poll_interval: DEFAULT_POLL_INTERVAL,
            pending: VecDeque::new(),
            queues: queues.to_vec(),
            due: Vec::new(),
            notices: VecDeque::new(),
            last_heard: Instant::now(),
        })
    }

    /// Sets how often [`Listener::recv_timeout`] polls (latency versus wake-ups).
    pub fn with_poll_interval(mut self, interval: Duration) -> Listener {
        self.poll_interval = interval.max(Duration::from_millis(1));
        self
    }

    /// Waits up to `timeout` for the next change; `Ok(None)` when none came in time, or
    /// earlier when a queue announced work ([`Listener::take_due_queues`]).
    ///
    /// # Errors
    /// `StoreError::Unavailable` when the connection is lost: reconnect, and assume anything may
    /// have changed meanwhile (notifications sent while disconnected are lost).
    pub fn recv_timeout(&mut self, timeout: Duration) -> Result<Option<GameChanged>, StoreError> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(change) = self.pending.pop_front() {
                return Ok(Some(change));
            }
            self.fetch()?;
            if !self.pending.is_empty() {
                continue;
            }
            if !self.due.is_empty() || !self.notices.is_empty() {
                // Not a change of a game: hand back so the caller can look at it at once.
                return Ok(None);
            }
            if self.last_heard.elapsed() >= LIVENESS_PING_AFTER {
                self.ping()?;
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            std::thread::sleep(self.poll_interval.min(deadline - now));
        }
    }

    /// Returns every change that has already arrived, without waiting.
    ///
    /// # Errors
    /// As [`Listener::recv_timeout`].
    pub fn drain(&mut self) -> Result<Vec<GameChanged>, StoreError> {
        self.fetch()?;
        Ok(self.pending.drain(..).collect())
    }

    /// The queues that announced work since the last call (each once); queues are tables,
    /// so which row does not matter, only that there is work.
    pub fn take_due_queues(&mut self) -> Vec<&'static str> {
        std::mem::take(&mut self.due)
    }

    /// One round trip, so that a server that vanished without closing the connection is
    /// noticed (the connection's TCP settings bound how long this can take, see
    /// [`crate::conninfo`]).
    fn ping(&mut self) -> Result<(), StoreError> {
        diesel::sql_query("SELECT 1").execute(&mut self.conn)?;
        self.last_heard = Instant::now();
        Ok(())
    }

    /// The players' notice messages that have arrived, oldest first.
    pub fn take_notices(&mut self) -> Vec<NoticeMessage> {
        self.notices.drain(..).collect()
    }

    fn fetch(&mut self) -> Result<(), StoreError> {
        for n in self.conn.notifications_iter() {
            let n = n.map_err(|e| StoreError::Unavailable(e.to_string()))?;
            self.last_heard = Instant::now();
            if n.channel == CHANNEL {
                match GameChanged::parse(&n.payload) {
                    Some(change) => self.pending.push_back(change),
                    None => tracing::warn!(payload = %n.payload, "ignoring malformed notification"),
                }
            } else if n.channel == crate::store::NOTICE_CHANNEL {
                match serde_json::from_str(&n.payload) {
                    Ok(message) => self.notices.push_back(message),
                    Err(e) => tracing::warn!(error = %e, "ignoring a malformed notice message"),
                }
            } else if let Some(queue) = self.queues.iter().find(|q| **q == n.channel) {
                if !self.due.contains(queue) {
                    self.due.push(queue);
                }
            }
        }
        Ok(())
    }
}

/// What [`run_listener`] reports.
#[derive(Debug, Clone, PartialEq)]
pub enum ListenEvent {
    /// A game changed.
    Changed(GameChanged),
    /// The listener (re)connected; changes and queue announcements may have been missed
    /// before this (a restart or failover of the database), so every waiter re-reads its game
    /// and every queue's workers look at their queue.
    Connected,
    /// Work was announced on this queue's channel: its workers should try to claim some.
    QueueDue(&'static str),
    /// A player's notice message (a notice committed somewhere, a token replaced).
    Notice(NoticeMessage),
}

/// The longest pause between two attempts to reconnect the LISTEN connection: a failover
/// takes seconds, and long polls, streams and workers of other processes hear nothing until
/// the listener is back.
pub const RECONNECT_BACKOFF_MAX: Duration = Duration::from_secs(1);

/// Runs a listener on [`CHANNEL`] and `queues` until `stop` is set, reconnecting (with
/// back-off up to [`RECONNECT_BACKOFF_MAX`]) whenever the connection is lost, and calls
/// `on_event` for every change. Meant for one thread per api process:
/// `std::thread::spawn(move || db::notify::run_listener(&url, &queues, &stop, |e| ...))`.
pub fn run_listener(
    url: &str,
    queues: &[&'static str],
    stop: &AtomicBool,
    mut on_event: impl FnMut(ListenEvent),
) {
    let mut backoff = Duration::from_millis(50);
    while !stop.load(Ordering::Relaxed) {
        let mut listener = match Listener::connect(url, queues) {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "LISTEN connection failed, retrying");
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(RECONNECT_BACKOFF_MAX);
                continue;
            }
        };
        backoff = Duration::from_millis(50);
        on_event(ListenEvent::Connected);
        while !stop.load(Ordering::Relaxed) {
            let received = listener.recv_timeout(Duration::from_millis(250));
            for queue in listener.take_due_queues() {
                on_event(ListenEvent::QueueDue(queue));
            }
            for message in listener.take_notices() {
                on_event(ListenEvent::Notice(message));
            }
            match received {
                Ok(Some(change)) => on_event(ListenEvent::Changed(change)),
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "LISTEN connection lost, reconnecting");
                    break;
                }
            }
        }
    }
}
