//! The queue of bot moves: one `bot_turns` row per game whose next move is a bot's (written
//! with the events that made it so, [`super::BotTurn`]), claimed by any server process with a
//! lease. The claim commits at once, so no connection is held while the bot thinks; the move
//! is then applied through the ordinary action path at the claimed version, so a move computed
//! for a version that has passed (a lease that expired, a person's standing action) is
//! refused there and dropped.

use std::time::Duration;

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Int4, Text, Uuid as SqlUuid};
use uuid::Uuid;

use crate::StoreError;

/// The NOTIFY channel on which armed bot turns are announced (migration 8).
pub const BOT_CHANNEL: &str = "bot_turns";

/// A bot turn claimed by this process until its lease runs out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, QueryableByName)]
pub struct ClaimedTurn {
    /// The game.
    #[diesel(sql_type = SqlUuid)]
    pub game_id: Uuid,
    /// The version the move is for.
    #[diesel(sql_type = BigInt)]
    pub version: i64,
    /// The bot's seat.
    #[diesel(sql_type = Int4)]
    pub seat: i32,
}

/// Claims the oldest due bot turn that nobody holds (or whose holder's lease ran out) for
/// `worker` during `lease`, skipping rows other processes are claiming this very moment.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn claim_bot_turn(
    conn: &mut PgConnection,
    worker: &str,
    lease: Duration,
) -> Result<Option<ClaimedTurn>, StoreError> {
    Ok(diesel::sql_query(
        "UPDATE bot_turns SET leased_by = $1,
                leased_until = now() + make_interval(secs => $2 / 1000.0)
          WHERE game_id = (SELECT game_id FROM bot_turns
                            WHERE due_at <= now()
                              AND (leased_until IS NULL OR leased_until < now())
                            ORDER BY due_at
                            LIMIT 1
                              FOR UPDATE SKIP LOCKED)
      RETURNING game_id, version, seat",
    )
    .bind::<Text, _>(worker)
    .bind::<BigInt, _>(i64::try_from(lease.as_millis()).unwrap_or(i64::MAX))
    .get_result(conn)
    .optional()?)
}

/// Removes `turn` when the game has moved past it without re-arming it: nothing will ever
/// move for that version. A turn re-armed meanwhile (another version) is kept.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn drop_stale_bot_turn(conn: &mut PgConnection, turn: &ClaimedTurn) -> Result<(), StoreError> {
    diesel::sql_query("DELETE FROM bot_turns WHERE game_id = $1 AND version = $2")
        .bind::<SqlUuid, _>(turn.game_id)
        .bind::<BigInt, _>(turn.version)
        .execute(conn)?;
    Ok(())
}
