//! The player's stream: one Server-Sent Events stream for everything a player must react to
//! in all of its games (`turn`, `game_started`, `offer`, `game_finished`, `seek_matched`).
//!
//! Cheap at scale: an idle stream is a future waiting on its player's channel of the
//! process's [`crate::hub::Hub`], holding no database connection and no thread. A commit
//! records its notices in its own transaction (so they are numbered in commit order and a
//! resume with `Last-Event-ID` is exact) and pushes them whole: to this process's streams at
//! once, to every other process's in the NOTIFY payload. So a commit costs no database read
//! for any stream; a stream reads only to resume, after the LISTEN connection reconnected,
//! or when it finds a gap in the seqs (notices of one player committed by two processes
//! whose announcements crossed), and then reads once from its last seq.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use actix_web::http::header;
use actix_web::web::{Bytes, Data, Query};
use actix_web::{get, HttpResponse};
use db::store::{self, NoticeRow, PlayerGameFilter};
use futures_util::stream;
use serde_json::Value;
use tokio::sync::broadcast;
use uuid::Uuid;

use crate::dto::*;
use crate::error::ApiError;
use crate::extract::{LastEventId, PlayerToken};
use crate::hub::PlayerSignal;
use crate::metrics::Metrics;
use crate::service::caller::require_player;
use crate::service::notices::wire;
use crate::state::AppState;
use crate::stored::StoredLifecycle;
use crate::workers::OUTAGE_RETRY;

/// How often an idle stream sends a comment line.
pub const HEARTBEAT: Duration = Duration::from_secs(15);

/// Most notices read per database call while catching up.
const BATCH: i64 = 500;

/// Most games a fresh stream lists as waiting for the player.
const PENDING_TURNS: i64 = 1000;

/// Follow everything the caller (a player) must react to, in all of its games.
///
/// Server-Sent Events (`text/event-stream`); each message's `event` is the notice's `kind`,
/// its `id` the notice's `seq`, its `data` a `PlayerNotice`:
/// - `turn`: a game now waits for one of the player's seats (game id, type, version to act
///   at, seat, deadline when the game has a clock). One per commit after which the game waits
///   for the seat, except when the seat's own request made the commit (its answer says what
///   comes next);
/// - `game_started`, `game_finished` (with the outcome; also for an aborted game);
/// - `offer`: a trade offer addressed to one of the player's seats;
/// - `seek_matched`: a seek of the player's found its game.
///
/// A comment line `: heartbeat` comes every 15 seconds while nothing happens.
///
/// Resume with `Last-Event-ID` (sent by `EventSource` when it reconnects) or `after`: every
/// notice after that seq comes first, none lost or repeated. Without either, the stream
/// starts with a `turn` for each game waiting for the player now (their `id` is the latest
/// seq, so a resume from them continues after it). Notices are kept 7 days; a resume from
/// older ones starts like a fresh stream. The stream ends when the player's token is rotated.
///
/// ```sh
/// curl -N -H 'authorization: Bearer <player token>' http://127.0.0.1:8080/v1/players/me/stream
/// ```
#[utoipa::path(
    tag = "players",
    params(
        PlayerStreamQuery,
        ("Last-Event-ID" = Option<i64>, Header, description = "The last id received (sent by `EventSource` when it reconnects); wins over `after`"),
    ),
    security(("player_token" = [])),
    responses(
        (status = 200, description = "An event stream (see the operation's description for its messages)",
         content_type = "text/event-stream", body = PlayerStreamMessage),
        (status = 400, description = "Bad query or header, a credential in the query string, or a resume point past the player's last notice (`invalid_query`, `invalid_header`, `token_in_query`, `invalid_seq`)"),
        (status = 401, description = "Missing, unknown or rotated player token, or a seat token"),
    )
)]
#[get("/v1/players/me/stream")]
pub async fn player_stream(
    state: Data<AppState>,
    metrics: Data<Metrics>,
    token: PlayerToken,
    q: Query<PlayerStreamQuery>,
    LastEventId(last_event_id): LastEventId,
) -> Result<HttpResponse, ApiError> {
    let after = last_event_id.or(q.after.map(|a| a.get()));
    let player = state
        .db_here(move |conn, cx, _| require_player(conn, cx, &token.0))
        .await?;
    // Subscribe before the first read, so that no notice slips in between.
    let rx = state.hub.subscribe_player(player.id);
    let player_id = player.id;
    let (last, first) = state
        .db_here(move |conn, _, _| first_read(conn, player_id, after))
        .await?;
    metrics.player_streams.inc();
    metrics
        .notices_sent
        .with_label_values(&["read"])
        .inc_by(first.len() as u64);
    let follow = Follow {
        state: state.into_inner(),
        metrics: metrics.into_inner(),
        player: player_id,
        rx,
        last,
        pending: first.into(),
        owed: false,
        last_chunk: std::time::Instant::now(),
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

/// A message to send: its id, event name and data.
type Message = (i64, String, Value);

fn from_row(row: &NoticeRow) -> Message {
    (row.seq, row.kind.clone(), wire(row))
}

/// What a new stream sends first, and the seq it stands at after that: the notices after
/// `after`, or, for a fresh stream (or one resuming from notices no longer kept), a `turn`
/// for each game waiting for the player now.
fn first_read(
    conn: &mut db::PooledConn,
    player: Uuid,
    after: Option<i64>,
) -> Result<(i64, Vec<Message>), ApiError> {
    if let Some(after) = after {
        let (head, oldest) = store::notice_range(conn, player)?;
        if after > head {
            // No id this stream sent is past the player's last notice: resuming there would
            // skip the notices that come under the ids in between.
            return Err(ApiError::bad_request(
                "invalid_seq",
                format!(
                    "the stream resumes after {after}, past the player's last notice {head}: \
                     resume after an id this stream sent (or leave the resume point out)"
                ),
            ));
        }
        let kept = match oldest {
            Some(oldest) => oldest <= after + 1,
            None => head <= after,
        };
        if kept {
            let rows = store::notices_after(conn, player, after, BATCH)?;
            return Ok((after, rows.iter().map(from_row).collect()));
        }
    }
    // One snapshot for the head and the games, so that a notice committed in between is
    // either in the list or after the head, never both or neither.
    let (head, page) = conn
        .build_transaction()
        .repeatable_read()
        .read_only()
        .run(|conn| {
            let (head, _) = store::notice_range(conn, player).map_err(ApiError::from)?;
            let filter = PlayerGameFilter {
                status: None,
                my_turn: true,
            };
            let page = store::player_games(conn, player, filter, None, PENDING_TURNS)
                .map_err(ApiError::from)?;
            Ok::<_, ApiError>((head, page))
        })?;
    let mut out = Vec::new();
    for game in &page.games {
        let clock = Clock::read_stored(game.clock.as_ref())?;
        let seat = engine::Seat(u8::try_from(game.seat).unwrap_or(u8::MAX));
        let life = match &game.lifecycle {
            Some(stored) => {
                let mut life = StoredLifecycle::read(stored)?;
                life.settle(game.updated_at, &clock);
                Some(life)
            }
            None => None,
        };
        if life.as_ref().is_some_and(|l| l.stand_in(seat).is_some()) {
            continue;
        }
        let deadline = life
            .as_ref()
            .and_then(|l| l.seat_clock(seat, game.updated_at))
            .and_then(|c| c.deadline);
        let notice = PlayerNotice::Turn(TurnNotice {
            seq: head,
            game_id: game.id,
            type_: game.game_type.clone(),
            version: game.version,
            seat: seat.0,
            deadline,
        });
        let data = serde_json::to_value(&notice).expect("notices serialize");
        out.push((head, notice.kind().to_string(), data));
    }
    Ok((head, out))
}

/// One open stream.
struct Follow {
    state: Arc<AppState>,
    metrics: Arc<Metrics>,
    player: Uuid,
    rx: broadcast::Receiver<PlayerSignal>,
    /// The seq of the last notice sent (or that the client has).
    last: i64,
    /// Read or pushed, not sent yet.
    pending: VecDeque<Message>,
    /// A read to make: the last one was a full batch, or a signal said notices may have been
    /// missed (a gap in the seqs, a reconnect of the LISTEN connection after a failover).
    owed: bool,
    /// When the client was last sent anything.
    last_chunk: std::time::Instant,
}

impl Drop for Follow {
    fn drop(&mut self) {
        self.metrics.player_streams.dec();
    }
}

fn write_message(out: &mut Vec<u8>, (id, event, data): &Message) {
    out.extend_from_slice(format!("event: {event}\nid: {id}\ndata: ").as_bytes());
    // serde_json never writes a raw newline, so the data is one line.
    let _ = serde_json::to_writer(&mut *out, data);
    out.extend_from_slice(b"\n\n");
}

/// What to do after a signal.
enum Next {
    Send(Message),
    Read,
    Skip,
    End,
}

impl Follow {
    /// The next bytes to send: messages, or a heartbeat; `None` ends the stream.
    async fn next_chunk(&mut self) -> Option<Bytes> {
        let chunk = self.next_bytes().await;
        self.last_chunk = std::time::Instant::now();
        chunk
    }

    async fn next_bytes(&mut self) -> Option<Bytes> {
        loop {
            if !self.pending.is_empty() {
                let mut out = Vec::new();
                for message in self.pending.drain(..) {
                    self.last = self.last.max(message.0);
                    write_message(&mut out, &message);
                }
                return Some(Bytes::from(out));
            }
            if self.owed {
                match self.read().await {
                    Ok(()) => {}
                    // A database outage (a failover): the stream stays open, heartbeats go
                    // on, and the read is made again until the database answers.
                    Err(e) if e.is_unavailable() => {
                        if self.last_chunk.elapsed() >= HEARTBEAT {
                            return Some(Bytes::from_static(b": heartbeat\n\n"));
                        }
                        tokio::time::sleep(OUTAGE_RETRY).await;
                    }
                    // Anything else ends the stream; the client resumes with Last-Event-ID.
                    Err(_) => return None,
                }
                continue;
            }
            let deadline = tokio::time::Instant::now() + HEARTBEAT;
            let next = tokio::select! {
                signal = self.rx.recv() => match signal {
                    Ok(PlayerSignal::Notice(row)) if row.seq <= self.last => Next::Skip,
                    Ok(PlayerSignal::Notice(row)) if row.seq == self.last + 1 => {
                        Next::Send(from_row(&row))
                    }
                    Ok(PlayerSignal::Notice(_)) => Next::Read,
                    Ok(PlayerSignal::Nudge(seq)) if seq <= self.last => Next::Skip,
                    Ok(PlayerSignal::Nudge(_) | PlayerSignal::Reconnected)
                    | Err(broadcast::error::RecvError::Lagged(_)) => Next::Read,
                    Ok(PlayerSignal::Rotated) | Err(broadcast::error::RecvError::Closed) => {
                        Next::End
                    }
                },
                _ = tokio::time::sleep_until(deadline) => {
                    return Some(Bytes::from_static(b": heartbeat\n\n"));
                }
            };
            match next {
                Next::Send(message) => {
                    self.metrics
                        .notices_sent
                        .with_label_values(&["pushed"])
                        .inc();
                    self.pending.push_back(message);
                }
                Next::Read => self.owed = true,
                Next::Skip => {}
                Next::End => return None,
            }
        }
    }

    async fn read(&mut self) -> Result<(), ApiError> {
        let (player, after) = (self.player, self.last);
        let rows = self
            .state
            .db_here(move |conn, _, _| Ok(store::notices_after(conn, player, after, BATCH)?))
            .await?;
        self.owed = rows.len() as i64 == BATCH;
        self.metrics
            .notices_sent
            .with_label_values(&["read"])
            .inc_by(rows.len() as u64);
        self.pending.extend(rows.iter().map(from_row));
        Ok(())
    }
}
