//! The seats' lifecycle endpoints and deadlines: resigning, reclaiming a seat from the
//! server's bot, aborting before anyone moved, a clock running out, an open game expiring.
//! Each is one transaction with the game's row locked: lock ([`store::read_locked`]), check,
//! record the lifecycle events, close the commit as an action would (the next bot turn and
//! deadline follow), write ([`store::write_locked`]), commit.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use db::store::{self, Changed, ClaimedDeadline, LockedChange, Roster};
use db::{GameRow, GameStatus, PgConnection, PooledConn, StoreError};
use engine::{DynState, Seat};
use uuid::Uuid;

use super::caller::{require_seat, stored_kind, wire_seat};
use super::decision::Table;
use super::{document, notices};
use crate::dto::{ActionResponse, Clock, OnTimeout, SeatStatus};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::lifecycle::{is_lifecycle, Due, LifecycleEvent};
use crate::state::Context;

/// A started game that is not over, or why not (409 `game_not_started`, `game_over`).
fn require_active(game: &GameRow) -> Result<(), ApiError> {
    match game.status {
        GameStatus::Active => Ok(()),
        current => Err(not_active(current)),
    }
}

/// Why a game in status `current` has no seats' lifecycle to change.
fn not_active(current: GameStatus) -> ApiError {
    let wrong: StoreError = StoreError::WrongStatus {
        current,
        required: GameStatus::Active,
    };
    wrong.into()
}

/// Locks game `id`, lets `decide` say what to do (it may read more with the connection),
/// writes that and commits: the lifecycle endpoints' one transaction.
fn change_locked(
    conn: &mut PgConnection,
    id: Uuid,
    decide: impl FnOnce(&mut PgConnection, &GameRow) -> Result<LockedChange, ApiError>,
) -> Result<Changed, ApiError> {
    store::atomically(conn, |conn| {
        let game = store::read_locked(conn, id)?;
        let change = decide(conn, &game)?;
        Ok(store::write_locked(conn, &game, change)?)
    })
}

/// The game's state from its snapshot.
fn state_of(game: &GameRow) -> Result<Box<dyn DynState>, ApiError> {
    let snapshot = game
        .snapshot
        .as_ref()
        .ok_or_else(|| ApiError::internal("active game without a snapshot"))?;
    Ok(stored_kind(&game.game_type)?.load(snapshot.as_str())?)
}

/// The caller's seat, which must be the seat in the path.
fn own_seat(caller: Seat, seat: i32) -> Result<(), ApiError> {
    if wire_seat(caller) == seat {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            "not_your_seat",
            format!(
                "the token is seat {}'s, not seat {seat}'s: a seat resigns or reclaims only \
                 with its own token",
                caller.0
            ),
        ))
    }
}

/// What a lifecycle endpoint answers: the game after the change for the caller, and the
/// events it wrote (an open game that ended wrote none).
fn answer(changed: &Changed, roster: &Roster, caller: Seat) -> Result<ActionResponse, ApiError> {
    let game = changed.game();
    let state = match &game.snapshot {
        Some(_) => Some(state_of(game)?),
        None => None,
    };
    let events = match changed {
        Changed::Appended(applied) => {
            let kind = stored_kind(&game.game_type)?;
            applied
                .events
                .iter()
                .filter_map(|e| document::redact_row(kind, e, Some(caller), game.status.is_over()))
                .collect()
        }
        Changed::Ended(_) => Vec::new(),
    };
    Ok(ActionResponse {
        type_: game.game_type.clone(),
        game: document::build(game, roster.seats(), state.as_deref(), Some(caller))?,
        events,
    })
}

/// Tells waiters, deadline workers and the metrics about a committed change.
fn announce(cx: &Context, changed: &Changed) {
    let game = changed.game();
    let count = |event: &str| {
        cx.lifecycle_events
            .with_label_values(&[&game.game_type, event])
            .inc();
    };
    match changed {
        Changed::Appended(applied) => {
            cx.changes.committed(applied);
            for row in applied.events.iter().filter(|r| is_lifecycle(&r.event)) {
                if let Ok(event) = serde_json::from_value::<LifecycleEvent>(row.event.clone()) {
                    count(event.kind());
                }
            }
        }
        Changed::Ended(ended) => {
            cx.changes.changed(db::notify::GameChanged {
                game_id: ended.game.id,
                version: ended.game.version,
            });
            cx.changes.notices(&ended.notices);
            count(&format!("game_{}", ended.game.status));
        }
    }
}

/// `POST /v1/games/{id}/seats/{seat}/resign` with that seat's token: the seat leaves the game
/// for good. With fewer than two seats left in it the game ends (the remaining seat wins);
/// otherwise the server's bot plays on for the seat.
///
/// # Errors
/// 404, 401/403 (`not_your_seat`), 409 `seat_resigned`, `game_not_started`, `game_over`.
pub fn resign(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    seat: i32,
    token: &SeatToken,
) -> Result<ActionResponse, ApiError> {
    let (roster, caller) = require_seat(conn, cx, id, token)?;
    own_seat(caller, seat)?;
    let changed = change_locked(conn, id, |_, game| {
        require_active(game)?;
        let mut table = Table::of_game(game, roster.seats(), cx.bots.move_delay_ms)?;
        if table.life().status(caller) == SeatStatus::Resigned {
            return Err(ApiError::conflict(
                "seat_resigned",
                format!("seat {} has resigned already", caller.0),
            ));
        }
        table.record(
            Some(caller),
            LifecycleEvent::SeatResigned { seat: caller.0 },
        );
        if !table.life().ended_by_resignation() && table.life().stand_in(caller).is_none() {
            let level = table.clock().stand_in();
            table.record(
                None,
                LifecycleEvent::BotTookOver {
                    seat: caller.0,
                    level,
                },
            );
        }
        let state = state_of(game)?;
        Ok(LockedChange::Append(table.close(state.as_ref())))
    })?;
    announce(cx, &changed);
    tracing::info!(game_id = %id, seat = caller.0, "seat resigned");
    answer(&changed, &roster, caller)
}

/// `POST /v1/games/{id}/seats/{seat}/reclaim` with that seat's token: the seat's player takes
/// it back from the server's bot that took it over when its clock ran out; its clock starts
/// afresh.
///
/// # Errors
/// 404, 401/403 (`not_your_seat`), 409 `seat_not_taken_over`, `seat_resigned`,
/// `game_not_started`, `game_over`.
pub fn reclaim(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    seat: i32,
    token: &SeatToken,
) -> Result<ActionResponse, ApiError> {
    let (roster, caller) = require_seat(conn, cx, id, token)?;
    own_seat(caller, seat)?;
    let changed = change_locked(conn, id, |_, game| {
        require_active(game)?;
        let mut table = Table::of_game(game, roster.seats(), cx.bots.move_delay_ms)?;
        match table.life().status(caller) {
            SeatStatus::TakenOver => {}
            SeatStatus::Resigned => {
                return Err(ApiError::conflict(
                    "seat_resigned",
                    format!("seat {} has resigned; it cannot be reclaimed", caller.0),
                ))
            }
            SeatStatus::Playing => {
                return Err(ApiError::conflict(
                    "seat_not_taken_over",
                    format!("no bot plays seat {}: its player plays it", caller.0),
                ))
            }
        }
        table.record(
            Some(caller),
            LifecycleEvent::SeatReclaimed { seat: caller.0 },
        );
        let state = state_of(game)?;
        Ok(LockedChange::Append(table.close(state.as_ref())))
    })?;
    announce(cx, &changed);
    tracing::info!(game_id = %id, seat = caller.0, "seat reclaimed");
    answer(&changed, &roster, caller)
}

/// `POST /v1/games/{id}/abort` by any seated player, while no seat has moved (an open game,
/// or a started one before its first action): the game ends as `aborted`, with no winner.
///
/// # Errors
/// 404, 401/403, 409 `too_late_to_abort`, `game_over`.
pub fn abort(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: &SeatToken,
) -> Result<ActionResponse, ApiError> {
    let (roster, caller) = require_seat(conn, cx, id, token)?;
    let changed = change_locked(conn, id, |conn, game| match game.status {
        GameStatus::Open => Ok(LockedChange::EndOpen(
            GameStatus::Aborted,
            notices::for_open_end(game, GameStatus::Aborted, &store::seats(conn, id)?),
        )),
        GameStatus::Active => {
            if store::any_seat_moved(conn, id)? {
                return Err(ApiError::conflict(
                    "too_late_to_abort",
                    "a seat has moved already: a game can be aborted only before its first \
                     move (resign instead)",
                ));
            }
            let mut table = Table::of_game(game, roster.seats(), cx.bots.move_delay_ms)?;
            table.record(Some(caller), LifecycleEvent::GameAborted { seat: caller.0 });
            let state = state_of(game)?;
            Ok(LockedChange::Append(table.close(state.as_ref())))
        }
        current => Err(not_active(current)),
    })?;
    announce(cx, &changed);
    tracing::info!(game_id = %id, seat = caller.0, "game aborted");
    answer(&changed, &roster, caller)
}

/// What firing a claimed deadline came to.
#[derive(Debug)]
pub enum Fired {
    /// Its timeouts (or the expiry) were written.
    Applied,
    /// The game moved on (an action beat the deadline, or it ended): nothing to do.
    Stale,
    /// Nothing had run out yet at the claim (see `store::reschedule_deadline`): due then.
    NotYet(DateTime<Utc>),
}

/// Why a claimed clock deadline is not fired.
enum Skip {
    /// The game moved past the deadline's version, or is over.
    Stale,
    /// Nothing had run out at the claim; the earliest running clock runs out then.
    NotYet(Option<DateTime<Utc>>),
    Failed(ApiError),
}

impl From<StoreError> for Skip {
    fn from(e: StoreError) -> Skip {
        match e {
            // The game is gone: so is its deadline.
            StoreError::NotFound => Skip::Stale,
            e => Skip::Failed(e.into()),
        }
    }
}

/// Fires clock deadline `deadline`: every awaited seat whose time is up at the claim's time
/// times out, as the game's `on_timeout` says (the server's bot takes it over, or it
/// resigns). Written at the deadline's version only: an action that committed first wins.
///
/// # Errors
/// Store errors; 500 for unreadable stored data.
pub fn fire_clock(
    conn: &mut PooledConn,
    cx: &Context,
    deadline: &ClaimedDeadline,
) -> Result<Fired, ApiError> {
    let id = deadline.game_id;
    let roster: Arc<Roster> = match cx.rosters.get(conn, id) {
        Err(StoreError::NotFound) => return Ok(Fired::Stale),
        roster => roster?,
    };
    let changed = store::atomically(conn, |conn| {
        let game = store::read_locked(conn, id)?;
        if game.version != deadline.version || game.status != GameStatus::Active {
            return Err(Skip::Stale);
        }
        let mut table =
            Table::of_game(&game, roster.seats(), cx.bots.move_delay_ms).map_err(Skip::Failed)?;
        let run_out = table.life().run_out(deadline.now);
        if run_out.is_empty() {
            let next = table
                .life()
                .dues()
                .into_iter()
                .filter_map(|(_, due)| match due {
                    Due::At(t) => Some(t),
                    Due::AfterCommit(_) => None,
                })
                .min();
            return Err(Skip::NotYet(next));
        }
        let (on_timeout, level) = match *table.clock() {
            Clock::PerMove {
                on_timeout, bot, ..
            }
            | Clock::Fischer {
                on_timeout, bot, ..
            } => (on_timeout, bot),
            Clock::Unlimited => (OnTimeout::Bot, table.clock().stand_in()),
        };
        for seat in run_out {
            table.record(None, LifecycleEvent::SeatTimedOut { seat: seat.0 });
            if on_timeout == OnTimeout::Resign {
                table.record(None, LifecycleEvent::SeatResigned { seat: seat.0 });
                if table.life().ended_by_resignation() {
                    continue;
                }
            }
            table.record(
                None,
                LifecycleEvent::BotTookOver {
                    seat: seat.0,
                    level,
                },
            );
        }
        let state = state_of(&game).map_err(Skip::Failed)?;
        let decision = table.close(state.as_ref());
        Ok(store::write_locked(
            conn,
            &game,
            LockedChange::Append(decision),
        )?)
    });
    match changed {
        Ok(changed) => {
            announce(cx, &changed);
            tracing::info!(game_id = %id, version = changed.game().version, "clock ran out");
            Ok(Fired::Applied)
        }
        Err(Skip::Stale) => Ok(Fired::Stale),
        Err(Skip::NotYet(next)) => Ok(next.map_or(Fired::Stale, Fired::NotYet)),
        Err(Skip::Failed(e)) => Err(e),
    }
}

/// Fires expiry deadline `deadline`: the game ends as `expired` if its seats are still not
/// all taken.
///
/// # Errors
/// Store errors.
pub fn fire_expiry(
    conn: &mut PooledConn,
    cx: &Context,
    deadline: &ClaimedDeadline,
) -> Result<Fired, ApiError> {
    let expired = store::atomically(conn, |conn| {
        let game = store::read_locked(conn, deadline.game_id)?;
        if game.status != GameStatus::Open {
            // It started or was called off meanwhile: the deadline is stale.
            store::drop_stale_deadline(conn, deadline)?;
            return Ok(None);
        }
        let seats = store::seats(conn, game.id)?;
        let notices = notices::for_open_end(&game, GameStatus::Expired, &seats);
        let change = LockedChange::EndOpen(GameStatus::Expired, notices);
        Ok(Some(store::write_locked(conn, &game, change)?))
    });
    match expired {
        Ok(Some(changed)) => {
            tracing::info!(game_id = %deadline.game_id, "open game expired");
            announce(cx, &changed);
            Ok(Fired::Applied)
        }
        Ok(None) | Err(StoreError::NotFound) => Ok(Fired::Stale),
        Err(e) => Err(e.into()),
    }
}
