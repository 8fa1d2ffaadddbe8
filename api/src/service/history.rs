//! The event log and time travel: the history endpoint family.

use db::store;
use db::PooledConn;
use engine::{DynGame, Seat};
use uuid::Uuid;

use super::caller::{self, viewer, wire_seat};
use super::chance;
use super::decision::native_bots;
use super::document::{deadlines, redact_row, seat_infos};
use crate::dto::{ChanceReveal, Clock, EventPage, SeatDeadline, StateDocument};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::lifecycle::outcome::outcome;
use crate::lifecycle::replay::{awaited, replay, status_of};
use crate::replica::AtVersion;
use crate::state::Context;

/// A game's log as a viewer may read it: the engine, the viewer's seat, and the version and
/// `finished` flag read with it (a page never goes past that version, so it is consistent
/// with the flag used to redact it).
pub struct LogAccess {
    pub kind: &'static dyn DynGame,
    pub seat: Option<Seat>,
    pub version: i64,
    pub status: db::GameStatus,
    pub finished: bool,
    /// The seats the game waits for at `version`.
    pub active_seats: Vec<u8>,
    /// When their clocks run out (a game with a clock).
    pub deadlines: Vec<SeatDeadline>,
    /// Once the game is over, what it reveals of its chance (chance version 2).
    pub chance_reveal: Option<ChanceReveal>,
}

/// A page of a log is read at the version of its access (see [`crate::replica`]).
impl AtVersion for (LogAccess, EventPage) {
    fn version(&self) -> i64 {
        self.0.version
    }
}

/// Checks the game and the caller for a log read.
///
/// # Errors
/// 404, 401/403, store errors.
pub fn log_access(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
) -> Result<LogAccess, ApiError> {
    let loaded = caller::load(conn, cx, id, token)?;
    Ok(LogAccess {
        kind: loaded.kind,
        seat: loaded.seat,
        version: loaded.game.version,
        status: loaded.game.status,
        finished: loaded.finished(),
        active_seats: loaded.active_seats()?,
        deadlines: deadlines(&loaded.game, loaded.roster.seats())?,
        chance_reveal: chance::revealed(&loaded.game, loaded.roster.seats()),
    })
}

/// Up to `limit` visible events after `after`.
///
/// # Errors
/// Store errors.
pub fn events_page(
    conn: &mut PooledConn,
    id: Uuid,
    access: &LogAccess,
    after: i64,
    limit: i64,
) -> Result<EventPage, ApiError> {
    let rows = store::events_after(conn, id, after, limit + 1)?;
    let rows: Vec<_> = rows
        .into_iter()
        .filter(|r| r.seq <= access.version)
        .collect();
    let more = rows.len() as i64 > limit;
    let rows = &rows[..rows.len().min(limit as usize)];
    let events = rows
        .iter()
        .filter_map(|r| redact_row(access.kind, r, access.seat, access.finished))
        .collect();
    Ok(EventPage {
        type_: access.kind.name().to_string(),
        events,
        next_after: if more {
            rows.last().map(|r| r.seq)
        } else {
            None
        },
    })
}

/// `GET /v1/games/{id}/states/{seq}`: the fold of events `1..=seq` (the game's and the
/// seats' lifecycle, commit by commit), as the caller sees it.
///
/// # Errors
/// 404 `no_such_state` when `seq` is outside `1..=version`; 404, 401/403, store errors.
pub fn state_at(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
    seq: i64,
) -> Result<StateDocument, ApiError> {
    let loaded = caller::load(conn, cx, id, token)?;
    let version = loaded.game.version;
    if seq < 1 || seq > version {
        return Err(ApiError::not_found(
            "no_such_state",
            format!("seq must be between 1 and {version}"),
        ));
    }
    let rows = store::events_up_to(conn, id, seq)?;
    let seats = loaded.roster.seats();
    let clock = Clock::read_stored(loaded.game.clock.as_ref())?;
    let replayed = replay(loaded.kind, &rows, &clock, &native_bots(seats))?;
    let state = replayed.state.as_ref();
    let status = status_of(state, &replayed.life);
    let latest = replayed
        .latest_commit
        .ok_or_else(|| ApiError::internal("a state rebuilt from no event"))?;
    Ok(StateDocument {
        game_id: id,
        type_: loaded.kind.info().name.to_string(),
        seq,
        status: status.into(),
        active_seats: awaited(state, status).iter().map(|s| s.0).collect(),
        seat: loaded.seat.map(wire_seat),
        seats: seat_infos(seats, &replayed.life, latest),
        view: state.view(viewer(loaded.seat)),
        outcome: outcome(state.outcome(), &replayed.life),
    })
}
