//! The change hub: how a committed change reaches this process's long polls, event streams
//! and queue workers at once ([`Hub`], fanning out the process's one LISTEN connection by
//! game and by player) and every other process through PostgreSQL ([`Changes`]). Apart from
//! the request context ([`crate::state`]), which only holds a [`Changes`] to tell.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use db::notify::{Announcer, GameChanged, ListenEvent, NoticeMessage};
use tokio::sync::broadcast;
use tokio::time::Instant;
use uuid::Uuid;

use crate::workers::Queue;

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
/// much is unknown). Readers pass it to [`crate::state::AppState::read`] as the version to
/// reach, so that a replica that has not replayed the change yet is waited for rather than
/// believed.
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
