//! A push stream per game: Server-Sent Events.
//!
//! Why SSE rather than streamed NDJSON: browsers follow it with the built-in `EventSource`
//! (which reconnects by itself and sends `Last-Event-ID`), proxies know not to buffer
//! `text/event-stream`, and each message has an id to resume from; a non-browser client reads
//! it line by line as easily as NDJSON.
//!
//! The stream holds no database connection while it waits: it subscribes to the process's
//! LISTEN fan-out ([`crate::hub::Hub`]) and reads the log only when a change of its game
//! is announced (or the listener reconnected), then sends what the caller may see.

use std::time::Duration;

use actix_web::http::header;
use std::sync::Arc;

use actix_web::web::{Bytes, Data, Query};
use actix_web::{get, HttpResponse};
use engine::Seat;
use futures_util::stream;
use tokio::sync::broadcast;
use uuid::Uuid;

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{Bearer, GameId, LastEventId};
use crate::hub::{wait_for_news, News, PlayerSignal, Signal};
use crate::metrics::Metrics;
use crate::service::caller;
use crate::service::chat::{self, ChatViewer};
use crate::service::history::{self, LogAccess};
use crate::state::AppState;
use crate::watch::head::{chat_message, message, Messages};
use crate::watch::{GameWatch, Head, Watches};
use crate::workers::OUTAGE_RETRY;

/// How often an idle stream sends a comment line, so that proxies and clients see it alive.
pub const HEARTBEAT: Duration = Duration::from_secs(15);

/// Most events read per database call while catching up, and sent per message batch.
const BATCH: usize = 500;

/// Follow a game: its events as they commit, for the caller's view.
///
/// Server-Sent Events (`text/event-stream`); the response schema describes one message as an
/// SSE parser hands it over (`ServerSentEvent`, told apart by `event`), its `data` line JSON
/// text of the type its `contentSchema` names:
/// - `event: game_event`, `id: <seq>`, `data:` a `LoggedEvent`: the event with the game's
///   `type` (each game's own event schema, redacted for the caller like `GET …/events`);
/// - `event: version`, `id: <version>`, `data:` a `StreamVersion` (`{"type", "version",
///   "status", "active_seats", "deadlines"}`), after each batch, also when the caller may see
///   none of its events: a seat's client acts when it finds its seat in `active_seats`
///   (reading its document for the legal actions, then acting from each action's answer
///   while it stays active), before the deadline of its clock when the game has one; also
///   when an open game ends without an event (aborted or expired: the same version, another
///   status);
/// - `event: chat` (no `id`), `data:` a `ChatMessage`: a chat message of the caller's channel
///   (the seated players', or the watching players'), as it is posted, unless the caller
///   muted its sender; the ones missed while disconnected are in `GET /v1/games/{id}/chat`;
/// - a comment line `: heartbeat` every 15 seconds while nothing happens.
///
/// Every `data` is one line. A reader needs no SSE library: split the body at blank lines,
/// take `event:`, `id:` and `data:` from each block, parse `data` as JSON
/// (`tests/clients/` holds typed readers in TypeScript and Python).
///
/// A seat follows it with its token (or its player's); a player without a seat of the game
/// follows it as a spectator with its player token (and reads the spectators' chat without
/// the players it muted), anyone else without a token.
///
/// It starts after `after`, or after `Last-Event-ID` when a client reconnects, and sends the
/// events it missed first. Once the game is finished and everything is sent, the stream
/// ends; a request for a finished game with nothing left to send is answered 204, which
/// tells `EventSource` not to reconnect.
///
/// ```sh
/// curl -N -H 'authorization: Bearer <token>' http://127.0.0.1:8080/v1/games/<id>/stream
/// ```
#[utoipa::path(
    tag = "play",
    params(
        ("id" = Uuid, Path, description = "Game id"),
        StreamQuery,
        ("Last-Event-ID" = Option<i64>, Header, description = "The last id received (sent by `EventSource` when it reconnects)"),
    ),
    responses(
        (status = 200, description = "An event stream (see the operation's description for its messages)",
         content_type = "text/event-stream", body = ServerSentEvent),
        (status = 204, description = "The game is finished and nothing is left to send"),
        (status = 400, description = "Bad query or header, or a resume point past the game's version (`invalid_id`, `invalid_query`, `invalid_header`, `invalid_seq`)"),
        (status = 401, description = "Unknown or malformed token"),
        (status = 403, description = "Token of another game"),
        (status = 404, description = "No such game"),
    )
)]
#[get("/v1/games/{id}/stream")]
pub async fn stream_game(
    state: Data<AppState>,
    watches: Data<Watches>,
    metrics: Data<Metrics>,
    GameId(id): GameId,
    q: Query<StreamQuery>,
    bearer: Bearer,
    LastEventId(last_event_id): LastEventId,
) -> Result<HttpResponse, ApiError> {
    let after = q.after.map(|a| a.get()).or(last_event_id).unwrap_or(0);
    // A player's token ends the stream when it is rotated: hear the rotation from before
    // the first read (which checks the token again), so that none slips in between.
    let rotations = match bearer.token().filter(|t| t.is_player()).cloned() {
        Some(token) => {
            let player = state
                .db_here(move |conn, cx, _| caller::require_player(conn, cx, &token))
                .await?;
            Some(state.hub.subscribe_player(player.id))
        }
        None => None,
    };
    // Whose chat the stream passes on; it also tells whether a player's token holds a seat
    // (read after the rotation is heard, since it checks the token). A player watching a game
    // it has no seat in follows it as a spectator. A spectator without a token needs no read.
    let chat = match bearer.token().cloned() {
        Some(token) => {
            state
                .db_here(move |conn, cx, _| chat::viewer(conn, cx, id, Some(&token)))
                .await?
        }
        None => ChatViewer::anonymous(),
    };
    let bearer = match bearer.token() {
        Some(token) if token.is_player() && chat.seat.is_none() => Bearer(None),
        _ => bearer,
    };
    // Subscribe (and take the game's watch) before the first read, so that no change slips
    // in between.
    let rx = state.hub.subscribe(id);
    let watch = watches.watch(id);
    let b = bearer.clone();
    // A client resuming after event `after` has seen the game at that version.
    let (access, page) = state
        .read(Some(after), move |conn, cx| {
            let access = history::log_access(conn, cx, id, b.token())?;
            let page = history::events_page(conn, id, &access, after, BATCH as i64)?;
            Ok((access, page))
        })
        .await?;
    if after > access.version {
        // Nothing this stream sent has an id past the game's version: resuming there would
        // wait for events that cannot come under those ids.
        return Err(ApiError::bad_request(
            "invalid_seq",
            format!(
                "the stream resumes after {after}, past the game's version {}: resume after \
                 an id this stream sent (or after 0 for the whole log)",
                access.version
            ),
        ));
    }
    if access.finished && page.events.is_empty() && access.version <= after {
        return Ok(HttpResponse::NoContent().finish());
    }
    metrics.streams.inc();
    let follow = Follow {
        state: state.into_inner(),
        metrics: metrics.into_inner(),
        id,
        seat: access.seat,
        chat,
        chat_sent: Recent::default(),
        bearer,
        rx,
        watch,
        rotations,
        after,
        sent_version: after,
        sent_status: None,
        pending: Some(Batch::read(access, &page)),
        owed: None,
        last_chunk: std::time::Instant::now(),
        done: false,
    };
    let body = stream::unfold(follow, |mut f| async move {
        let chunk = f.next_chunk().await?;
        Some((Ok::<_, actix_web::Error>(chunk), f))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}

/// One open stream.
struct Follow {
    state: std::sync::Arc<AppState>,
    metrics: std::sync::Arc<Metrics>,
    id: Uuid,
    /// The caller's seat (`None`: a spectator), recognised by the first read.
    seat: Option<Seat>,
    /// The chat the caller reads (its channel, less whom it muted).
    chat: ChatViewer,
    /// The chat messages sent, by seq: the committing process hears its own messages twice
    /// (at once, and back through LISTEN).
    chat_sent: Recent,
    bearer: Bearer,
    rx: broadcast::Receiver<Signal>,
    /// The game's copy this process shares among its followers.
    watch: Arc<GameWatch>,
    /// With a player's token: that player's signals, for the rotation that ends the stream.
    rotations: Option<broadcast::Receiver<PlayerSignal>>,
    /// The last seq read.
    after: i64,
    /// The last version announced to the client.
    sent_version: i64,
    /// The status the client knows (`None` before the first read).
    sent_status: Option<db::GameStatus>,
    /// A batch read but not sent yet.
    pending: Option<Batch>,
    /// A read to make, of a game at least at this version (a change was announced, or the
    /// last batch was not the whole rest of the log).
    owed: Option<i64>,
    /// When the client was last sent anything.
    last_chunk: std::time::Instant,
    /// The game is finished and everything is sent: end after this chunk.
    done: bool,
}

/// The last seqs seen, to send each chat message once.
#[derive(Default)]
struct Recent(std::collections::VecDeque<i64>);

impl Recent {
    /// How many seqs are remembered: far more than can arrive out of order.
    const KEPT: usize = 64;

    /// Whether `seq` is new (and remembers it).
    fn first_time(&mut self, seq: i64) -> bool {
        if self.0.contains(&seq) {
            return false;
        }
        if self.0.len() == Self::KEPT {
            self.0.pop_front();
        }
        self.0.push_back(seq);
        true
    }
}

/// Events read for one follower, as messages ready to send.
struct Batch {
    /// The game at the version read at.
    version: i64,
    status: db::GameStatus,
    finished: bool,
    /// The `game_event` messages, and the same followed by the `version` message.
    messages: Messages,
    /// The last seq read, when the rest of the log is still to be read.
    next_after: Option<i64>,
}

impl Batch {
    /// A batch from the follower's own database read.
    fn read(access: LogAccess, page: &EventPage) -> Batch {
        let mut events = Vec::new();
        for event in &page.events {
            let logged = LoggedEvent::of(&page.type_, event);
            message(&mut events, "game_event", event.seq, &logged);
        }
        Batch {
            version: access.version,
            status: access.status,
            finished: access.finished,
            messages: Messages::new(events, &access),
            next_after: page.next_after,
        }
    }

    /// A batch from the game's shared copy: `rows`, its events after `after` for `seat`.
    fn shared(head: &Head, seat: Option<Seat>, after: i64, rows: &[Arc<db::EventRow>]) -> Batch {
        let last = rows.last().map_or(after, |r| r.seq);
        Batch {
            version: head.version(),
            status: head.game.status,
            finished: head.game.status.is_over(),
            messages: head.messages(seat, after, rows),
            next_after: (last < head.version()).then_some(last),
        }
    }
}

impl Drop for Follow {
    fn drop(&mut self) {
        self.metrics.streams.dec();
    }
}

/// Waits for the player's token to be rotated (`true`; also when the hub is gone), or for
/// signals to be missed (`false`: the rotation may be among them, so the stream reads again,
/// and that read checks the token).
async fn rotation(rotations: &mut broadcast::Receiver<PlayerSignal>) -> bool {
    loop {
        match rotations.recv().await {
            Ok(PlayerSignal::Rotated) | Err(broadcast::error::RecvError::Closed) => return true,
            Err(broadcast::error::RecvError::Lagged(_)) => return false,
            Ok(_) => {}
        }
    }
}

impl Follow {
    /// The next bytes to send: a batch of messages, or a heartbeat; `None` ends the stream.
    async fn next_chunk(&mut self) -> Option<Bytes> {
        let chunk = self.next_bytes().await;
        self.last_chunk = std::time::Instant::now();
        chunk
    }

    async fn next_bytes(&mut self) -> Option<Bytes> {
        if self.done {
            return None;
        }
        loop {
            if let Some(at_least) = self.owed {
                match self.read(at_least).await {
                    Ok(batch) => {
                        self.owed = None;
                        self.pending = Some(batch);
                    }
                    // A database outage (a failover): the stream stays open, heartbeats go
                    // on, and the read is made again until the database answers.
                    Err(e) if e.is_unavailable() => {
                        if self.last_chunk.elapsed() >= HEARTBEAT {
                            return Some(Bytes::from_static(b": heartbeat\n\n"));
                        }
                        tokio::time::sleep(OUTAGE_RETRY).await;
                        continue;
                    }
                    // Anything else ends the stream; the client resumes with Last-Event-ID.
                    Err(_) => return None,
                }
            }
            if let Some(batch) = self.pending.take() {
                let complete = batch.next_after.is_none();
                self.after = batch.next_after.unwrap_or(batch.version).max(self.after);
                // An open game that ended keeps its version 0: its status is the news.
                let status_changed = self.sent_status.is_some_and(|s| s != batch.status);
                let out = if complete && (batch.version > self.sent_version || status_changed) {
                    self.sent_version = batch.version;
                    batch.messages.with_version
                } else {
                    batch.messages.events
                };
                self.sent_status = Some(batch.status);
                self.done = complete && batch.finished;
                if !complete {
                    // The rest of the log, from a server that has it at least this far.
                    self.owed = Some(batch.version);
                }
                if !out.is_empty() {
                    return Some(out);
                }
                if self.done {
                    return None;
                }
                if self.owed.is_some() {
                    continue;
                }
            }
            let deadline = tokio::time::Instant::now() + HEARTBEAT;
            // An open game's end is announced at version 0: hear it.
            let known = if self.sent_status == Some(db::GameStatus::Open) {
                self.after - 1
            } else {
                self.after
            };
            let news = wait_for_news(&mut self.rx, known, deadline);
            let waited = match self.rotations.as_mut() {
                Some(rotations) => tokio::select! {
                    news = news => news,
                    rotated = rotation(rotations) => {
                        if rotated {
                            return None;
                        }
                        News::Changed(known)
                    }
                },
                None => news.await,
            };
            match waited {
                News::Changed(at_least) => self.owed = Some(at_least),
                News::Chat(row) if self.chat.sees(&row) && self.chat_sent.first_time(row.seq) => {
                    let mut out = Vec::new();
                    chat_message(&mut out, &chat::message(&row));
                    return Some(Bytes::from(out));
                }
                News::Chat(_) => {}
                News::Quiet => return Some(Bytes::from_static(b": heartbeat\n\n")),
            }
        }
    }

    /// The events after `self.after` of the game at least at `at_least`: from the game's
    /// shared copy when it has them (a started game, a follower within its window), else
    /// read for this follower alone.
    async fn read(&self, at_least: i64) -> Result<Batch, ApiError> {
        if self.sent_status != Some(db::GameStatus::Open) {
            let head = self.watch.head(&self.state, at_least).await?;
            if !head.is_open() {
                if let Some(rows) = self.watch.events_since(&head, self.after, BATCH) {
                    return Ok(Batch::shared(&head, self.seat, self.after, &rows));
                }
            }
        }
        let (id, after, bearer) = (self.id, self.after, self.bearer.clone());
        let read = move |conn: &mut db::PooledConn, cx: &crate::state::Context| {
            let access = history::log_access(conn, cx, id, bearer.token())?;
            let page = history::events_page(conn, id, &access, after, BATCH as i64)?;
            Ok((access, page))
        };
        let (access, page) = if self.sent_status == Some(db::GameStatus::Open) {
            // An open game's news is its status, which its version (0) cannot name: only the
            // primary can be trusted to have it.
            self.state
                .db_here(move |conn, cx, _| read(conn, cx))
                .await?
        } else {
            self.state.read(Some(at_least), read).await?
        };
        Ok(Batch::read(access, &page))
    }
}
