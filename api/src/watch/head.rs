//! One version of a followed game, as the process holds it once for all its followers.
//!
//! A [`Head`] is the stored row and roster at one version, never a view: every answer built
//! from it is built for one viewer (a seat, or a spectator) by the same functions that build
//! answers from a database read, and kept for the next viewer of the same kind, so that a
//! thousand spectators of a move cost one redaction, one document and one serialization.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use actix_web::web::Bytes;
use db::store::Roster;
use db::{EventRow, GameRow};
use engine::{DynGame, DynState, Seat};

use crate::dto::{GameDocument, LegalActions, LoggedEvent, SeatDeadline, StreamVersion};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::service::caller::{self, stored_kind};
use crate::service::chance;
use crate::service::document::{self, redact_row};
use crate::service::history::LogAccess;
use crate::service::play;
use crate::state::Context;

/// A document and its entity tag.
pub type Document = (GameDocument, String);

/// The game at one version: its row (snapshot, lifecycle, status) and its roster.
pub struct Head {
    pub game: GameRow,
    pub roster: Arc<Roster>,
    pub kind: &'static dyn DynGame,
    /// The seats the game waits for.
    pub active_seats: Vec<u8>,
    /// When their clocks run out.
    pub deadlines: Vec<SeatDeadline>,
    built: Mutex<Built>,
}

/// What was built from a head, by viewer (`None`: a spectator).
#[derive(Default)]
struct Built {
    /// The snapshot, loaded once, when the first document or list of actions needs it.
    state: Option<Box<dyn DynState>>,
    documents: HashMap<Option<Seat>, Arc<Document>>,
    legal_actions: HashMap<Option<Seat>, Arc<LegalActions>>,
    /// Stream messages of the events after a seq, by viewer and that seq: followers that
    /// are up to date all start from the same one.
    messages: HashMap<(Option<Seat>, i64), Messages>,
}

/// What a stream sends of a head: its events after some seq, without and with the `version`
/// message after them (which a follower sends when the events complete the log), each one
/// buffer that every follower of the same kind sends as it is.
#[derive(Clone)]
pub struct Messages {
    pub events: Bytes,
    pub with_version: Bytes,
}

impl Messages {
    /// `events` (messages), and the same followed by the `version` message of `access`.
    pub fn new(events: Vec<u8>, access: &LogAccess) -> Messages {
        let mut with_version = events.clone();
        with_version.extend_from_slice(&version_message(access));
        Messages {
            events: Bytes::from(events),
            with_version: Bytes::from(with_version),
        }
    }
}

impl Head {
    /// The head of `game` with its `roster`.
    ///
    /// # Errors
    /// 500 for a game type no longer hosted, or a stored lifecycle or snapshot that does not
    /// read.
    pub fn new(game: GameRow, roster: Arc<Roster>) -> Result<Head, ApiError> {
        let kind = stored_kind(&game.game_type)?;
        let active_seats = caller::active_seats(&game, kind)?;
        let deadlines = document::deadlines(&game, roster.seats())?;
        Ok(Head {
            game,
            roster,
            kind,
            active_seats,
            deadlines,
            built: Mutex::new(Built::default()),
        })
    }

    pub fn version(&self) -> i64 {
        self.game.version
    }

    /// Whether the game is still open: its news (joins, its end) bumps no version, so a head
    /// of an open game is never taken as current.
    pub fn is_open(&self) -> bool {
        self.game.status == db::GameStatus::Open
    }

    fn built(&self) -> MutexGuard<'_, Built> {
        self.built.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The caller's seat, when it is known without the database: a spectator, or a token of
    /// one of this game's seats. `None` for anything else (a player's token, whose rotation
    /// must be read; a token of another game), which the database decides as before.
    pub fn caller(&self, cx: &Context, token: Option<&SeatToken>) -> Option<Option<Seat>> {
        let Some(token) = token else {
            return Some(None);
        };
        if token.is_player() {
            return None;
        }
        let seat = self.roster.seat_of(token.as_str())?;
        cx.known_tokens.learn(token.as_str());
        caller::engine_seat(seat).ok().map(Some)
    }

    /// The log as `seat` may read it at this version.
    pub fn access(&self, seat: Option<Seat>) -> LogAccess {
        LogAccess {
            kind: self.kind,
            seat,
            version: self.game.version,
            status: self.game.status,
            finished: self.game.status.is_over(),
            active_seats: self.active_seats.clone(),
            deadlines: self.deadlines.clone(),
            chance_reveal: chance::revealed(&self.game, self.roster.seats()),
        }
    }

    /// `seat`'s document, built once per viewer.
    ///
    /// # Errors
    /// 500 when the snapshot or the lifecycle does not read.
    pub fn document(&self, seat: Option<Seat>) -> Result<Arc<Document>, ApiError> {
        let mut built = self.built();
        if let Some(doc) = built.documents.get(&seat) {
            return Ok(doc.clone());
        }
        let state = self.state(&mut built)?;
        let doc = Arc::new(play::document_of(&self.game, &self.roster, state, seat)?);
        built.documents.insert(seat, doc.clone());
        Ok(doc)
    }

    /// What `seat` may do at this version, listed once per viewer.
    ///
    /// # Errors
    /// 500 when the snapshot or the lifecycle does not read.
    pub fn legal_actions(&self, seat: Option<Seat>) -> Result<Arc<LegalActions>, ApiError> {
        let mut built = self.built();
        if let Some(legal) = built.legal_actions.get(&seat) {
            return Ok(legal.clone());
        }
        let state = self.state(&mut built)?;
        let legal = Arc::new(play::legal_actions_of(
            &self.game,
            &self.roster,
            state,
            seat,
        )?);
        built.legal_actions.insert(seat, legal.clone());
        Ok(legal)
    }

    fn state<'a>(&self, built: &'a mut Built) -> Result<Option<&'a dyn DynState>, ApiError> {
        if built.state.is_none() {
            if let Some(snapshot) = &self.game.snapshot {
                built.state = Some(self.kind.load(snapshot.as_str())?);
            }
        }
        Ok(built.state.as_deref())
    }

    /// The stream messages of `rows` (this head's events after `after`) for `seat`, built
    /// once per viewer and starting point.
    pub fn messages(&self, seat: Option<Seat>, after: i64, rows: &[Arc<EventRow>]) -> Messages {
        if let Some(messages) = self.built().messages.get(&(seat, after)) {
            return messages.clone();
        }
        let finished = self.game.status.is_over();
        let mut out = Vec::new();
        for row in rows {
            if let Some(event) = redact_row(self.kind, row, seat, finished) {
                let logged = LoggedEvent::of(&self.game.game_type, &event);
                message(&mut out, "game_event", row.seq, &logged);
            }
        }
        let messages = Messages::new(out, &self.access(None));
        self.built()
            .messages
            .insert((seat, after), messages.clone());
        messages
    }
}

/// The `version` message of a log read with `access` (the same for every viewer).
fn version_message(access: &LogAccess) -> Vec<u8> {
    let version = StreamVersion {
        type_: access.kind.name().to_string(),
        version: access.version,
        status: access.status.into(),
        active_seats: access.active_seats.clone(),
        deadlines: access.deadlines.clone(),
        chance_reveal: access.chance_reveal.clone(),
    };
    let mut out = Vec::new();
    message(&mut out, "version", access.version, &version);
    out
}

/// A `chat` message: no `id`, so that a reconnecting client resumes the game's events where
/// it left them.
pub fn chat_message(out: &mut Vec<u8>, data: &crate::dto::ChatMessage) {
    out.extend_from_slice(b"event: chat\ndata: ");
    let _ = serde_json::to_writer(&mut *out, data);
    out.extend_from_slice(b"\n\n");
}

/// One Server-Sent Events message.
pub fn message(out: &mut Vec<u8>, event: &str, id: i64, data: &impl serde::Serialize) {
    out.extend_from_slice(format!("event: {event}\nid: {id}\ndata: ").as_bytes());
    // serde_json never writes a raw newline, so the data is one line.
    let _ = serde_json::to_writer(&mut *out, data);
    out.extend_from_slice(b"\n\n");
}
