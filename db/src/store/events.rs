//! Reading the event log.

use diesel::prelude::*;
use uuid::Uuid;

use crate::models::EventRow;
use crate::schema::game_events;
use crate::StoreError;

/// Up to `limit` events of `game_id` with `seq > after_seq`, in order. An unknown game gives an
/// empty list (check with `get_game` when that matters).
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn events_after(
    conn: &mut PgConnection,
    game_id: Uuid,
    after_seq: i64,
    limit: i64,
) -> Result<Vec<EventRow>, StoreError> {
    Ok(game_events::table
        .filter(game_events::game_id.eq(game_id))
        .filter(game_events::seq.gt(after_seq))
        .order(game_events::seq.asc())
        .limit(limit.max(0))
        .select(EventRow::as_select())
        .load(conn)?)
}

/// Events `1..=seq` of `game_id`, in order: the input for rebuilding the state as of `seq`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn events_up_to(
    conn: &mut PgConnection,
    game_id: Uuid,
    seq: i64,
) -> Result<Vec<EventRow>, StoreError> {
    Ok(game_events::table
        .filter(game_events::game_id.eq(game_id))
        .filter(game_events::seq.le(seq))
        .order(game_events::seq.asc())
        .select(EventRow::as_select())
        .load(conn)?)
}

/// The whole log of `game_id`, in order.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn all_events(conn: &mut PgConnection, game_id: Uuid) -> Result<Vec<EventRow>, StoreError> {
    events_up_to(conn, game_id, i64::MAX)
}
