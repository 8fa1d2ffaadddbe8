//! The lifecycle's own event kinds, stored in the log between the game's events and shown to
//! every viewer as they are (nothing in them is secret). Their `type` names are disjoint from
//! every hosted game's event types (a test holds them to it), so a stored event is told apart
//! by its `type` alone ([`is_lifecycle`]). The JSON form is stable: stored logs are replayed
//! by later versions, so variants and fields are only ever added.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::dto::BotLevel;

/// Something that happened to a seat or to the game beside the game's rules: a clock ran
/// out, a seat resigned, the server's bot took a seat over or handed it back, a seated player
/// aborted the game before anyone moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LifecycleEvent {
    /// The seat's clock ran out (followed in the same commit by `bot_took_over` or
    /// `seat_resigned`, as the game's `on_timeout` says).
    SeatTimedOut { seat: u8 },
    /// The seat left the game for good: its player resigned, or its clock ran out with
    /// `on_timeout: resign`. With fewer than two seats left in the game it ends and the
    /// remaining seat wins; otherwise the server's bot plays on for the seat
    /// (`bot_took_over`).
    SeatResigned { seat: u8 },
    /// The server's bot plays the seat from now on: after a timeout until its player reclaims
    /// it, after a resignation to the end.
    BotTookOver { seat: u8, level: BotLevel },
    /// The seat's player took it back from the server's bot; its clock starts afresh.
    SeatReclaimed { seat: u8 },
    /// A seated player ended the game before any seat had moved; nobody wins.
    GameAborted { seat: u8 },
}

/// Every lifecycle event `type`.
pub const TYPES: &[&str] = &[
    "seat_timed_out",
    "seat_resigned",
    "bot_took_over",
    "seat_reclaimed",
    "game_aborted",
];

/// Whether a stored event is a lifecycle event rather than one of the game's.
pub fn is_lifecycle(event: &Value) -> bool {
    event
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| TYPES.contains(&t))
}

impl LifecycleEvent {
    /// The event's `type`, as stored (and as the metrics label it).
    pub fn kind(&self) -> &'static str {
        match self {
            LifecycleEvent::SeatTimedOut { .. } => TYPES[0],
            LifecycleEvent::SeatResigned { .. } => TYPES[1],
            LifecycleEvent::BotTookOver { .. } => TYPES[2],
            LifecycleEvent::SeatReclaimed { .. } => TYPES[3],
            LifecycleEvent::GameAborted { .. } => TYPES[4],
        }
    }

    /// The stored form.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("lifecycle events serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_is_recognised_by_its_type_and_reads_back() {
        let all = [
            LifecycleEvent::SeatTimedOut { seat: 1 },
            LifecycleEvent::SeatResigned { seat: 1 },
            LifecycleEvent::BotTookOver {
                seat: 1,
                level: BotLevel::Mcts,
            },
            LifecycleEvent::SeatReclaimed { seat: 1 },
            LifecycleEvent::GameAborted { seat: 0 },
        ];
        assert_eq!(all.len(), TYPES.len());
        for event in all {
            let json = event.to_json();
            assert!(is_lifecycle(&json), "{json}");
            assert_eq!(json["type"], event.kind());
            assert_eq!(
                serde_json::from_value::<LifecycleEvent>(json).unwrap(),
                event
            );
        }
        assert!(!is_lifecycle(
            &serde_json::json!({"type": "turn_started", "seat": 0})
        ));
    }

    #[test]
    fn lifecycle_types_are_disjoint_from_every_games_event_types() {
        let doc = crate::openapi::document();
        for g in engine::openapi::game_schema_names() {
            let mapping = doc
                .pointer(&format!(
                    "/components/schemas/{}/discriminator/mapping",
                    g.event
                ))
                .and_then(Value::as_object)
                .unwrap_or_else(|| panic!("{} has a discriminated event union", g.game));
            for t in TYPES {
                assert!(!mapping.contains_key(*t), "{} has an event {t}", g.game);
            }
        }
    }
}
