//! What a caller sees of a game: its document, the document's entity tag, and events
//! redacted for it.

use db::{EventRow, GameRow, SeatRow};
use engine::{DynGame, DynState, Seat};
use serde_json::Value;

use super::caller::{viewer, wire_seat};
use crate::dto::{BotInfo, BotLevel, EventDto, GameDocument, SeatInfo, SeatKind};

/// The entity tag of the document `seat` gets: version-based, different per viewer (views may
/// differ), and for open games also per number of taken seats (joins do not bump the version).
pub fn etag(game: &GameRow, seats: &[SeatRow], seat: Option<Seat>) -> String {
    let who = match seat {
        Some(s) => format!("seat{}", s.0),
        None => "spectator".to_string(),
    };
    if game.status == db::GameStatus::Open {
        let taken = seats.iter().filter(|s| !s.is_open()).count();
        format!("\"v{}-j{taken}-{who}\"", game.version)
    } else {
        format!("\"v{}-{who}\"", game.version)
    }
}

/// The caller's document of `game`, from `state` (the snapshot, loaded) when started.
pub fn build(
    game: &GameRow,
    seats: &[SeatRow],
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
) -> GameDocument {
    GameDocument {
        game_id: game.id,
        type_: game.game_type.clone(),
        rules_version: game.rules_version,
        version: game.version,
        status: game.status.into(),
        active_seats: state
            .map(|s| s.active_seats().iter().map(|s| s.0).collect())
            .unwrap_or_default(),
        seat: seat.map(wire_seat),
        seats: seats
            .iter()
            .map(|s| SeatInfo {
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
                bot: bot_info(s),
            })
            .collect(),
        view: state.map(|s| s.view(viewer(seat))),
        legal_actions: seat_actions(game, state, seat),
        action_templates: seat_templates(game, state, seat),
        outcome: state.and_then(|s| s.outcome()).map(Into::into),
    }
}

/// The state a seat may act in: only an active game's, and never a spectator's.
fn actionable<'a>(
    game: &GameRow,
    state: Option<&'a dyn DynState>,
    seat: Option<Seat>,
) -> Option<(&'a dyn DynState, Seat)> {
    match (seat, state) {
        (Some(s), Some(state)) if game.status == db::GameStatus::Active => Some((state, s)),
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

/// The legal actions of `seat` in an active game; none for spectators or before the start.
pub fn seat_actions(
    game: &GameRow,
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
) -> Vec<Value> {
    actionable(game, state, seat)
        .map(|(state, s)| state.legal_actions(s))
        .unwrap_or_default()
}

/// The action templates of `seat` in an active game; none for spectators or before the start.
pub fn seat_templates(
    game: &GameRow,
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
) -> Vec<Value> {
    actionable(game, state, seat)
        .map(|(state, s)| state.action_templates(s))
        .unwrap_or_default()
}

/// An event row as `seat` may see it (`None`: hidden entirely).
pub fn redact_row(
    kind: &dyn DynGame,
    row: &EventRow,
    seat: Option<Seat>,
    finished: bool,
) -> Option<EventDto> {
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
