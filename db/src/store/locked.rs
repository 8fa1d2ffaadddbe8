//! Changes decided with the game's row locked: the seats' lifecycle (resigning, reclaiming,
//! aborting, a clock running out) and an open game ending (called off or expired). They are rare, so they take the
//! simple path, in the caller's transaction: lock ([`super::read_locked`]), look (the decision
//! may read more, such as whether anyone has moved yet), decide, write ([`write_locked`]),
//! commit.
//! Actions take the optimistic path of [`super::append_at_version`] instead; the two serialise
//! through the row lock and the version guard of `append`.

use diesel::prelude::*;
use uuid::Uuid;

use super::append::{append, Applied, Decision};
use super::deadlines::{end_open_game, EndedOpen};
use super::notices::NewNotice;
use crate::models::{GameRow, GameStatus};
use crate::schema::game_events;
use crate::StoreError;

/// What a change decided with the row locked does.
// One value per request, moved once.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum LockedChange {
    /// Append these events (the game is started).
    Append(Decision),
    /// End the open game as `Aborted` or `Expired`: it never started, so no event; its
    /// seated players are told these notices.
    EndOpen(GameStatus, Vec<NewNotice>),
}

/// What [`write_locked`] did.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Changed {
    /// Events were appended.
    Appended(Applied),
    /// The open game ended.
    Ended(EndedOpen),
}

impl Changed {
    /// The game after the change.
    pub fn game(&self) -> &GameRow {
        match self {
            Changed::Appended(applied) => &applied.game,
            Changed::Ended(ended) => &ended.game,
        }
    }
}

/// Writes `change`, decided on `game` (read with [`super::read_locked`] in the caller's
/// transaction, so nothing moved since), and says what was written.
///
/// # Errors
/// `WrongStatus` for `EndOpen` of a game that is not open; `Unavailable`; `Database`.
pub fn write_locked(
    conn: &mut PgConnection,
    game: &GameRow,
    change: LockedChange,
) -> Result<Changed, StoreError> {
    match change {
        LockedChange::Append(decision) => Ok(Changed::Appended(append(conn, game, decision)?)),
        LockedChange::EndOpen(status, notices) => {
            if game.status != GameStatus::Open {
                return Err(StoreError::WrongStatus {
                    current: game.status,
                    required: GameStatus::Open,
                });
            }
            Ok(Changed::Ended(end_open_game(conn, game, status, notices)?))
        }
    }
}

/// Whether any seat of `game_id` has acted yet: an event caused by a game action (setup and
/// lifecycle events have none), a bot's included.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn any_seat_moved(conn: &mut PgConnection, game_id: Uuid) -> Result<bool, StoreError> {
    use diesel::dsl::exists;
    Ok(diesel::select(exists(
        game_events::table
            .filter(game_events::game_id.eq(game_id))
            .filter(game_events::action.is_not_null()),
    ))
    .get_result(conn)?)
}
