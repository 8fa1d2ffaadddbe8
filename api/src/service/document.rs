//! What a caller sees of a game: its document, the document's entity tag, and events
//! redacted for it.

use chrono::{DateTime, Utc};
use db::{EventRow, GameRow, SeatRow};
use engine::{DynGame, DynState, Seat};
use serde_json::Value;

use super::caller::{viewer, wire_seat};
use super::decision::lifecycle_of;
use crate::dto::{
    BotInfo, BotLevel, Clock, EventDto, GameDocument, SeatDeadline, SeatInfo, SeatKind, SeatStatus,
};
use crate::error::ApiError;
use crate::lifecycle::outcome::outcome;
use crate::lifecycle::{is_lifecycle, Lifecycle};

/// The entity tag of the document `seat` gets: version-based, different per viewer (views may
/// differ), for open games also per number of taken seats (joins do not bump the version), and
/// for a game that ended without an event (aborted or expired while open) also per status.
pub fn etag(game: &GameRow, seats: &[SeatRow], seat: Option<Seat>) -> String {
    let who = match seat {
        Some(s) => format!("seat{}", s.0),
        None => "spectator".to_string(),
    };
    match game.status {
        db::GameStatus::Open => {
            let taken = seats.iter().filter(|s| !s.is_open()).count();
            format!("\"v{}-j{taken}-{who}\"", game.version)
        }
        status if game.version == 0 => format!("\"v0-{status}-{who}\""),
        _ => format!("\"v{}-{who}\"", game.version),
    }
}

/// The caller's document of `game`, from `state` (the snapshot, loaded) when started.
///
/// # Errors
/// 500 when the game's stored lifecycle is unreadable.
pub fn build(
    game: &GameRow,
    seats: &[SeatRow],
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
) -> Result<GameDocument, ApiError> {
    let (clock, life) = lifecycle_of(game, seats)?;
    Ok(build_with(game, seats, state, seat, clock, &life))
}

/// [`build`] with the game's clock and lifecycle already at hand (as [`lifecycle_of`] returns
/// them), such as those of a commit just made.
pub fn build_with(
    game: &GameRow,
    seats: &[SeatRow],
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
    clock: Clock,
    life: &Lifecycle,
) -> GameDocument {
    let active = game.status == db::GameStatus::Active;
    GameDocument {
        game_id: game.id,
        type_: game.game_type.clone(),
        rules_version: game.rules_version,
        version: game.version,
        status: game.status.into(),
        active_seats: match state {
            Some(s) if active => s.active_seats().iter().map(|s| s.0).collect(),
            _ => Vec::new(),
        },
        clock,
        rated: game.rated,
        chance: super::chance::info(game, seats),
        imported_from: game.imported_from,
        seat: seat.map(wire_seat),
        seats: seat_infos(seats, life, game.updated_at),
        view: state.map(|s| s.view(viewer(seat))),
        legal_actions: seat_actions(game, life, state, seat),
        action_templates: seat_templates(game, life, state, seat),
        outcome: state.and_then(|s| outcome(s.outcome(), life)),
    }
}

/// The seats as the document shows them, with their lifecycle and clocks as of
/// `latest_commit` (the time `life` was settled with).
pub fn seat_infos(
    seats: &[SeatRow],
    life: &Lifecycle,
    latest_commit: DateTime<Utc>,
) -> Vec<SeatInfo> {
    seats
        .iter()
        .map(|s| {
            let number = Seat(u8::try_from(s.seat).unwrap_or(u8::MAX));
            let stand_in = life.stand_in(number).map(|level| BotInfo {
                level,
                budget_ms: None,
            });
            SeatInfo {
                seat: s.seat,
                name: s.name.clone(),
                open: s.is_open(),
                kind: if s.is_open() {
                    SeatKind::Open
                } else if s.is_bot() {
                    SeatKind::Bot
                } else {
                    SeatKind::Human
                },
                bot: bot_info(s).or(stand_in),
                status: life.status(number),
                clock: life.seat_clock(number, latest_commit),
                player_id: s.player_id,
            }
        })
        .collect()
}

/// When the clock of each seat the game waits for runs out (a game without clock: none).
///
/// # Errors
/// 500 when the game's stored lifecycle is unreadable.
pub fn deadlines(game: &GameRow, seats: &[SeatRow]) -> Result<Vec<SeatDeadline>, ApiError> {
    if game.clock.is_none() || game.status != db::GameStatus::Active {
        return Ok(Vec::new());
    }
    let (_, life) = lifecycle_of(game, seats)?;
    Ok(awaited_deadlines(
        &life,
        &game.active_seats,
        game.updated_at,
    ))
}

/// When the clocks of `active_seats` run out, from a lifecycle settled at `latest_commit`.
pub fn awaited_deadlines(
    life: &Lifecycle,
    active_seats: &[i32],
    latest_commit: DateTime<Utc>,
) -> Vec<SeatDeadline> {
    active_seats
        .iter()
        .filter_map(|&s| {
            let seat = Seat(u8::try_from(s).ok()?);
            let deadline = life.seat_clock(seat, latest_commit)?.deadline?;
            Some(SeatDeadline {
                seat: seat.0,
                deadline,
            })
        })
        .collect()
}

/// The state a seat may act in: only an active game's, never a spectator's, and not while
/// the server's bot plays the seat (after a timeout or a resignation).
fn actionable<'a>(
    game: &GameRow,
    life: &Lifecycle,
    state: Option<&'a dyn DynState>,
    seat: Option<Seat>,
) -> Option<(&'a dyn DynState, Seat)> {
    match (seat, state) {
        (Some(s), Some(state))
            if game.status == db::GameStatus::Active
                && life.status(s) == SeatStatus::Playing
                && life.stand_in(s).is_none() =>
        {
            Some((state, s))
        }
        _ => None,
    }
}

/// The bot playing a seat, if any.
pub fn bot_info(seat: &SeatRow) -> Option<BotInfo> {
    let level = BotLevel::parse(seat.bot_level.as_deref()?)?;
    Some(BotInfo {
        level,
        budget_ms: seat.bot_budget_ms.and_then(|b| u32::try_from(b).ok()),
    })
}

/// The legal actions of `seat` in an active game; none for spectators, before the start, or
/// while the server's bot plays the seat.
pub fn seat_actions(
    game: &GameRow,
    life: &Lifecycle,
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
) -> Vec<Value> {
    actionable(game, life, state, seat)
        .map(|(state, s)| state.legal_actions(s))
        .unwrap_or_default()
}

/// The action templates of `seat`, when [`seat_actions`] lists its actions.
pub fn seat_templates(
    game: &GameRow,
    life: &Lifecycle,
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
) -> Vec<Value> {
    actionable(game, life, state, seat)
        .map(|(state, s)| state.action_templates(s))
        .unwrap_or_default()
}

/// An event row as `seat` may see it (`None`: hidden entirely). Lifecycle events are public;
/// the game's are redacted by its rules until the game is over (`finished`).
pub fn redact_row(
    kind: &dyn DynGame,
    row: &EventRow,
    seat: Option<Seat>,
    finished: bool,
) -> Option<EventDto> {
    if is_lifecycle(&row.event) {
        return Some(EventDto {
            seq: row.seq,
            seat: row.seat,
            event: row.event.clone(),
            created_at: row.created_at,
        });
    }
    match kind.redact(&row.event, viewer(seat), finished) {
        Ok(Some(event)) => Some(EventDto {
            seq: row.seq,
            seat: row.seat,
            event,
            created_at: row.created_at,
        }),
        Ok(None) => None,
        Err(e) => {
            tracing::error!(game_id = %row.game_id, seq = row.seq, error = %e, "unreadable event");
            None
        }
    }
}
