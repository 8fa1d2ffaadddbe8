//! The engine's verdicts as the store appends them: setup and actions become the same
//! [`Decision`] (events, snapshot, status), written by the same append path.

use db::store::Decision;
use db::{JsonText, NewEvent};
use engine::{DynState, Seat};
use serde_json::Value;

use super::caller::wire_seat;

/// The status of a game in `state`: finished once it has an outcome.
pub fn status_of(state: &dyn DynState) -> db::GameStatus {
    if state.outcome().is_some() {
        db::GameStatus::Finished
    } else {
        db::GameStatus::Active
    }
}

/// The setup `events` that led to `state` (no seat caused them).
pub fn setup(state: &dyn DynState, events: Vec<Value>) -> Decision {
    Decision {
        events: events.into_iter().map(NewEvent::system).collect(),
        snapshot: JsonText::new(state.snapshot()),
        status: status_of(state),
    }
}

/// The `events` that `seat`'s `action` caused, leading to `state`.
pub fn action(state: &dyn DynState, seat: Seat, action: &Value, events: Vec<Value>) -> Decision {
    Decision {
        events: events
            .into_iter()
            .map(|e| NewEvent::by_seat(wire_seat(seat), action.clone(), e))
            .collect(),
        snapshot: JsonText::new(state.snapshot()),
        status: status_of(state),
    }
}
