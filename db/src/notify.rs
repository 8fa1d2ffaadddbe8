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
//! let mut listener = db::notify::Listener::connect("postgres://...")?;
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
/// or that a player's token was replaced (streams opened with the old one end).
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
}

/// The largest payload sent whole; PostgreSQL's limit is 8000 bytes.
const MAX_PAYLOAD: usize = 7900;

impl NoticeMessage {
    /// The player it concerns.
    pub fn player_id(&self) -> Uuid {
        match self {
            NoticeMessage::Notice(n) => n.player_id,
            NoticeMessage::Nudge { player_id, .. } | NoticeMessage::Rotated { player_id } => {
                *player_id
            }
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
    /// failure.
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

fn run_announcer(url: &str, rx: &mpsc::Receiver<Announcement>) {
    let mut conn: Option<PgConnection> = None;
    let mut batch = Vec::with_capacity(MAX_BATCH);
    let mut notices = Vec::new();
    let add = |batch: &mut Vec<GameChanged>,
               notices: &mut Vec<String>,
               deadlines: &mut bool,
               a: Announcement| match a {
        Announcement::Changed(change) => batch.push(change),
        Announcement::Deadline => *deadlines = true,
        Announcement::Notice(payload) => notices.push(payload),
    };
    // Blocks until there is work; ends when every Announcer is dropped.
    while let Ok(first) = rx.recv() {
        batch.clear();
        notices.clear();
        let mut deadlines = false;
        add(&mut batch, &mut notices, &mut deadlines, first);
        let deadline = Instant::now() + ANNOUNCE_LINGER;
        while batch.len() + notices.len() < MAX_BATCH {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(a) => add(&mut batch, &mut notices, &mut deadlines, a),
                Err(_) => break,
            }
        }
        let result = match &mut conn {
            Some(c) => announce(c, &batch, deadlines, &notices).map_err(|e| e.to_string()),
            None => PgConnection::establish(url)
                .map_err(|e| e.to_string())
                .and_then(|mut c| {
                    let sent =
                        announce(&mut c, &batch, deadlines, &notices).map_err(|e| e.to_string());
                    conn = Some(c);
                    sent
                }),
        };
        if let Err(error) = result {
            // Dropped: the listeners' reconnect (or the polls' deadlines) covers the gap.
            tracing::warn!(%error, changes = batch.len(), "announcing committed changes failed");
            conn = None;
        }
    }
}

/// A dedicated connection listening on [`CHANNEL`]. Not for use from a pool: LISTEN belongs to
/// the session, and the connection must stay out of transactions to receive anything.
pub struct Listener {
    conn: PgConnection,
    poll_interval: Duration,
    pending: VecDeque<GameChanged>,
    /// A bot turn was armed since [`Listener::take_bot_turn_due`] last looked.
    bot_turn_due: bool,
    /// A deadline was armed since [`Listener::take_deadline_armed`] last looked.
    deadline_armed: bool,
    /// Players' notice messages not yet taken ([`Listener::take_notices`]).
    notices: VecDeque<NoticeMessage>,
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener")
            .field("poll_interval", &self.poll_interval)
            .field("pending", &self.pending.len())
            .finish()
    }
}

impl Listener {
    /// Opens a connection to `url` and LISTENs on [`CHANNEL`].
    ///
    /// # Errors
    /// `StoreError::Unavailable` if the connection cannot be made.
    pub fn connect(url: &str) -> Result<Listener, StoreError> {
        let mut conn =
            PgConnection::establish(url).map_err(|e| StoreError::Unavailable(e.to_string()))?;
        diesel::sql_query(format!("LISTEN {CHANNEL}")).execute(&mut conn)?;
        diesel::sql_query(format!("LISTEN {}", crate::store::BOT_CHANNEL)).execute(&mut conn)?;
        diesel::sql_query(format!("LISTEN {}", crate::store::DEADLINE_CHANNEL))
            .execute(&mut conn)?;
        diesel::sql_query(format!("LISTEN {}", crate::store::NOTICE_CHANNEL)).execute(&mut conn)?;
        Ok(Listener {
            conn,
            poll_interval: DEFAULT_POLL_INTERVAL,
            pending: VecDeque::new(),
            bot_turn_due: false,
            deadline_armed: false,
            notices: VecDeque::new(),
        })
    }

    /// Sets how often [`Listener::recv_timeout`] polls (latency versus wake-ups).
    pub fn with_poll_interval(mut self, interval: Duration) -> Listener {
        self.poll_interval = interval.max(Duration::from_millis(1));
        self
    }

    /// Waits up to `timeout` for the next change; `Ok(None)` when none came in time, or
    /// earlier when a bot turn was announced ([`Listener::take_bot_turn_due`]).
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
            if self.bot_turn_due || self.deadline_armed || !self.notices.is_empty() {
                // Not a change of a game: hand back so the caller can look at it at once.
                return Ok(None);
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

    /// Whether a bot turn was armed (on [`crate::store::BOT_CHANNEL`]) since the last call;
    /// bot turns are a queue, so which game does not matter, only that there is work.
    pub fn take_bot_turn_due(&mut self) -> bool {
        std::mem::take(&mut self.bot_turn_due)
    }

    /// Whether a deadline was armed (on [`crate::store::DEADLINE_CHANNEL`]) since the last
    /// call: deadline workers look at the queue again.
    pub fn take_deadline_armed(&mut self) -> bool {
        std::mem::take(&mut self.deadline_armed)
    }

    /// The players' notice messages that have arrived, oldest first.
    pub fn take_notices(&mut self) -> Vec<NoticeMessage> {
        self.notices.drain(..).collect()
    }

    fn fetch(&mut self) -> Result<(), StoreError> {
        for n in self.conn.notifications_iter() {
            let n = n.map_err(|e| StoreError::Unavailable(e.to_string()))?;
            if n.channel == crate::store::NOTICE_CHANNEL {
                match serde_json::from_str(&n.payload) {
                    Ok(message) => self.notices.push_back(message),
                    Err(e) => tracing::warn!(error = %e, "ignoring a malformed notice message"),
                }
                continue;
            }
            if n.channel == crate::store::BOT_CHANNEL {
                self.bot_turn_due = true;
                continue;
            }
            if n.channel == crate::store::DEADLINE_CHANNEL {
                self.deadline_armed = true;
                continue;
            }
            if n.channel != CHANNEL {
                continue;
            }
            match GameChanged::parse(&n.payload) {
                Some(change) => self.pending.push_back(change),
                None => tracing::warn!(payload = %n.payload, "ignoring malformed notification"),
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
    /// The listener (re)connected; changes may have been missed before this, so wake every
    /// waiter to re-read its game.
    Connected,
    /// A bot turn was armed somewhere: bot workers should try to claim one.
    BotTurnDue,
    /// A deadline was armed somewhere: deadline workers should look at the queue again.
    DeadlineArmed,
    /// A player's notice message (a notice committed somewhere, a token replaced).
    Notice(NoticeMessage),
}

/// Runs a listener until `stop` is set, reconnecting (with back-off up to 5 s) whenever the
/// connection is lost, and calls `on_event` for every change. Meant for one thread per api
/// process: `std::thread::spawn(move || db::notify::run_listener(&url, &stop, |e| ...))`.
pub fn run_listener(url: &str, stop: &AtomicBool, mut on_event: impl FnMut(ListenEvent)) {
    let mut backoff = Duration::from_millis(100);
    while !stop.load(Ordering::Relaxed) {
        let mut listener = match Listener::connect(url) {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "LISTEN connection failed, retrying");
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(5));
                continue;
            }
        };
        backoff = Duration::from_millis(100);
        on_event(ListenEvent::Connected);
        while !stop.load(Ordering::Relaxed) {
            let received = listener.recv_timeout(Duration::from_millis(250));
            if listener.take_bot_turn_due() {
                on_event(ListenEvent::BotTurnDue);
            }
            if listener.take_deadline_armed() {
                on_event(ListenEvent::DeadlineArmed);
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
