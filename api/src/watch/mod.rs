//! Followers of a game share one copy of it per process.
//!
//! Streams, woken long polls and reads that name a version (`legal-actions?after_version`)
//! ask the game's [`GameWatch`] for the game at least at some version. The watch answers from
//! memory when it holds that version and has heard of no newer one; otherwise one caller reads
//! the database while the others wait for that read (without a connection each), and all are
//! served from the one copy. So a move costs one read per process however many follow the
//! game, and none in the process that committed it: its commit feeds the watch
//! ([`Watches::committed`]). Other processes hear of the move through LISTEN
//! ([`crate::hub::Hub`]) and read it once each, from the replica where there is one.
//!
//! Each viewer still gets its own redaction: a watch holds stored rows, and every answer is
//! built from them for its viewer ([`Head`]), the way answers are built from a database read.
//!
//! Memory: a watch lives while something holds it (an open stream, a waiting long poll, a
//! read in flight); the registry keeps weak references and forgets a watch when the last
//! holder lets go. A watch keeps at most [`WINDOW`] events; a follower further behind reads
//! the database itself, as every follower did before watches.
//!
//! Open games are never served from memory: joins and their end change no version, so a
//! version cannot say whether a copy is current. Their followers read as before.

pub mod head;
pub mod long_poll;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use db::notify::GameChanged;
use db::store::{self, Applied};
use db::{EventRow, PooledConn};
use prometheus::IntCounter;
use uuid::Uuid;

pub use head::Head;

use crate::error::ApiError;
use crate::hub::ChangeObserver;
use crate::replica::AtVersion;
use crate::state::{AppState, Context};

/// Most events a watch keeps: enough for every follower that keeps up (a move writes a few);
/// one that fell further behind reads its way back from the database.
pub const WINDOW: usize = 256;

type Registry = Mutex<HashMap<Uuid, Weak<GameWatch>>>;

/// The process's watches, by game.
pub struct Watches {
    games: Arc<Registry>,
    /// Database reads made by watches (each serves every follower of its game).
    reads: IntCounter,
}

impl Watches {
    /// No watch yet; `reads` counts the reads the watches will make.
    pub fn new(reads: IntCounter) -> Watches {
        Watches {
            games: Arc::new(Mutex::new(HashMap::new())),
            reads,
        }
    }

    fn registry(&self) -> MutexGuard<'_, HashMap<Uuid, Weak<GameWatch>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Game `game_id`'s watch: the one that exists, or a new one. Take it before reading what
    /// you compare with it, so that no announcement slips in between.
    pub fn watch(&self, game_id: Uuid) -> Arc<GameWatch> {
        let mut games = self.registry();
        if let Some(watch) = games.get(&game_id).and_then(Weak::upgrade) {
            return watch;
        }
        let watch = Arc::new(GameWatch {
            id: game_id,
            known: Mutex::new(Known::default()),
            reading: tokio::sync::Mutex::new(()),
            reads: self.reads.clone(),
            registry: Arc::downgrade(&self.games),
        });
        games.insert(game_id, Arc::downgrade(&watch));
        watch
    }

    fn find(&self, game_id: Uuid) -> Option<Arc<GameWatch>> {
        self.registry().get(&game_id).and_then(Weak::upgrade)
    }

    /// Game `game_id` at least at `at_least`, when a watch holds it current (someone follows
    /// the game): no read, and no watch made for the asking.
    pub fn current(&self, game_id: Uuid, at_least: i64) -> Option<Arc<Head>> {
        self.find(game_id)?.known().current(at_least)
    }

    /// How many games are watched now.
    pub fn watched(&self) -> usize {
        self.registry().len()
    }
}

/// The hub tells the watches of every change before it wakes the game's waiters.
impl ChangeObserver for Watches {
    /// This process committed `applied`: the watch of its game takes the new version from
    /// it, without a read, when it held the version the commit was made on.
    fn committed(&self, applied: &Applied) {
        if let Some(watch) = self.find(applied.game.id) {
            watch.committed(applied);
        }
    }

    /// A change was announced (by this process or another): the watch of its game, if any,
    /// is no longer current below that version.
    fn announced(&self, change: GameChanged) {
        if let Some(watch) = self.find(change.game_id) {
            watch.known().announced(change.version);
        }
    }

    /// The listener reconnected: announcements may have been lost, so no watch is current
    /// until it has read again.
    fn reconnected(&self) {
        let watches: Vec<_> = self.registry().values().filter_map(Weak::upgrade).collect();
        for watch in watches {
            watch.known().stale = true;
        }
    }
}

/// One followed game.
pub struct GameWatch {
    id: Uuid,
    known: Mutex<Known>,
    /// Held by the one caller that reads the database for everyone.
    reading: tokio::sync::Mutex<()>,
    reads: IntCounter,
    registry: Weak<Registry>,
}

/// The registry forgets a watch when its last holder lets go (unless a newer watch of the same
/// game took its place in between).
impl Drop for GameWatch {
    fn drop(&mut self) {
        let Some(registry) = self.registry.upgrade() else {
            return;
        };
        let mut games = registry.lock().unwrap_or_else(|e| e.into_inner());
        if games
            .get(&self.id)
            .is_some_and(|w| std::ptr::eq(w.as_ptr(), self))
        {
            games.remove(&self.id);
        }
    }
}

/// What a watch holds.
#[derive(Default)]
struct Known {
    head: Option<Arc<Head>>,
    /// The stored events after `base` up to the head's version, oldest first.
    events: VecDeque<Arc<EventRow>>,
    base: i64,
    /// The newest version announced.
    announced: i64,
    /// The listener reconnected since the head was read: changes may have been missed.
    stale: bool,
}

impl Known {
    /// The head, when it is current and at least at `at_least`.
    fn current(&self, at_least: i64) -> Option<Arc<Head>> {
        let head = self.head.as_ref()?;
        let current = !self.stale && !head.is_open() && head.version() >= self.announced;
        (current && head.version() >= at_least).then(|| head.clone())
    }

    fn announced(&mut self, version: i64) {
        self.announced = self.announced.max(version);
    }

    /// Takes `head`, whose events after `since` are `events` (all of them, or a window's
    /// worth when they are more), unless the watch already holds a newer version.
    fn store(&mut self, head: Head, since: i64, events: Vec<EventRow>) -> Arc<Head> {
        if let Some(held) = &self.head {
            let newer = held.version() > head.version()
                || (held.version() == head.version() && !held.is_open() && !head.is_open());
            if newer {
                return held.clone();
            }
        }
        let head = Arc::new(head);
        let held = self.head.as_ref().map(|h| h.version());
        let complete = events.len() as i64 == head.version() - since;
        match held {
            Some(held) if complete && since <= held => {
                let new = events.into_iter().filter(|e| e.seq > held).map(Arc::new);
                self.events.extend(new);
            }
            // A first read brings the last window's worth, so that the followers who read
            // the log themselves just before are within it.
            None if complete => {
                self.events = events.into_iter().map(Arc::new).collect();
                self.base = since;
            }
            _ => {
                self.events.clear();
                self.base = head.version();
            }
        }
        while self.events.len() > WINDOW {
            self.events.pop_front();
            self.base += 1;
        }
        self.head = Some(head.clone());
        head
    }

    /// The held events after `after` up to `head`'s version, at most `limit`; `None` when
    /// `after` is before the window.
    fn events_since(&self, head: &Head, after: i64, limit: usize) -> Option<Vec<Arc<EventRow>>> {
        if after < self.base {
            return None;
        }
        let skip = usize::try_from(after - self.base).ok()?;
        Some(
            self.events
                .iter()
                .skip(skip)
                .take_while(|e| e.seq <= head.version())
                .take(limit)
                .cloned()
                .collect(),
        )
    }
}

/// What a watch's read found.
struct Fetched {
    head: Head,
    /// The seq `events` follow.
    since: i64,
    events: Vec<EventRow>,
}

impl AtVersion for Fetched {
    fn version(&self) -> i64 {
        self.head.version()
    }
}

/// The game `id` now, and its events after `held` (the version the watch holds; without one,
/// the last window's worth), at most a window and one.
fn fetch(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    held: Option<i64>,
) -> Result<Fetched, ApiError> {
    let game = store::get_game(conn, id)?;
    let roster = cx.rosters.get(conn, id)?;
    let since = held.unwrap_or_else(|| (game.version - WINDOW as i64).max(0));
    let events = if game.version > since && game.status != db::GameStatus::Open {
        let mut rows = store::events_after(conn, id, since, WINDOW as i64 + 1)?;
        rows.retain(|r| r.seq <= game.version);
        rows
    } else {
        Vec::new()
    };
    Ok(Fetched {
        head: Head::new(game, roster)?,
        since,
        events,
    })
}

impl GameWatch {
    fn known(&self) -> MutexGuard<'_, Known> {
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game at least at `at_least` and at every version announced so far: from memory,
    /// or from one read shared with every caller waiting at the same time. The answer is
    /// older than `at_least` only when the database has no such version.
    ///
    /// # Errors
    /// The read's: 404 for an unknown game, 503 when the database is unavailable, 500 for
    /// unreadable stored data.
    pub async fn head(&self, state: &AppState, at_least: i64) -> Result<Arc<Head>, ApiError> {
        if let Some(head) = self.known().current(at_least) {
            return Ok(head);
        }
        let _reading = self.reading.lock().await;
        let (need, since) = {
            let mut known = self.known();
            if let Some(head) = known.current(at_least) {
                return Ok(head);
            }
            // A reconnect from now on marks the watch stale again, for the next read.
            known.stale = false;
            let held = known.head.as_ref().filter(|h| !h.is_open());
            (at_least.max(known.announced), held.map(|h| h.version()))
        };
        self.reads.inc();
        let id = self.id;
        match state
            .read(Some(need), move |conn, cx| fetch(conn, cx, id, since))
            .await
        {
            Ok(fetched) => Ok(self
                .known()
                .store(fetched.head, fetched.since, fetched.events)),
            Err(e) => {
                self.known().stale = true;
                Err(e)
            }
        }
    }

    /// `head`'s events after `after` (at most `limit`) from memory; `None` when `after` is
    /// older than what the watch keeps.
    pub fn events_since(
        &self,
        head: &Head,
        after: i64,
        limit: usize,
    ) -> Option<Vec<Arc<EventRow>>> {
        self.known().events_since(head, after, limit)
    }

    /// Takes a version this process committed, when the watch holds the one before it.
    fn committed(&self, applied: &Applied) {
        let mut known = self.known();
        let Some(held) = known.head.clone() else {
            return;
        };
        let base = applied.game.version - applied.events.len() as i64;
        if held.is_open() || held.version() != base || known.stale {
            return;
        }
        // A head that does not build (unreadable stored data) is left to a read, which
        // reports it to the follower that asks.
        if let Ok(head) = Head::new(applied.game.clone(), held.roster.clone()) {
            known.store(head, base, applied.events.clone());
        }
    }
}
