//! Who is asking about which game: every request that names a game starts here.

use std::sync::Arc;

use db::store::{self, Roster};
use db::{GameRow, PgConnection, PlayerRow, PooledConn};
use engine::{DynGame, DynState, Seat, Viewer};
use uuid::Uuid;

use crate::error::ApiError;
use crate::extract::{missing_token, SeatToken};
use crate::state::Context;

/// The engine of a stored game; a type that is no longer hosted is a server fault.
///
/// # Errors
/// 500 for a game type this build does not host.
pub fn stored_kind(game_type: &str) -> Result<&'static dyn DynGame, ApiError> {
    engine::registry::find(game_type)
        .ok_or_else(|| ApiError::internal(format!("stored game of unknown type {game_type}")))
}

/// A stored seat number as the engine's seat. Seats are created from the engine's seat range,
/// so one outside it is corrupt data: refused, never clamped onto another seat.
///
/// # Errors
/// 500 for a seat number outside `0..=255`.
pub fn engine_seat(seat: i32) -> Result<Seat, ApiError> {
    u8::try_from(seat)
        .map(Seat)
        .map_err(|_| ApiError::internal(format!("stored seat {seat} is not an engine seat")))
}

/// The engine's seat as the API and the store number it.
pub fn wire_seat(seat: Seat) -> i32 {
    i32::from(seat.0)
}

/// What `seat` may see: its own secrets, or a spectator's public view.
pub fn viewer(seat: Option<Seat>) -> Viewer {
    match seat {
        Some(s) => Viewer::Seat(s),
        None => Viewer::Spectator,
    }
}

/// Game `id`'s roster and the caller's seat in it: `None` for a spectator (no token), the
/// seat for a token of this game; 401 for an unknown token, 403 for a token of another game.
///
/// # Errors
/// 404 for an unknown game, as above, plus store errors.
pub fn resolve_caller(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
) -> Result<(Arc<Roster>, Option<Seat>), ApiError> {
    let roster = cx.rosters.get(conn, id)?;
    let Some(token) = token else {
        return Ok((roster, None));
    };
    if token.is_player() {
        let player = require_player(conn, cx, token)?;
        return match roster.seat_of_player(player.id) {
            Some(seat) => Ok((roster, Some(engine_seat(seat)?))),
            None => Err(ApiError::forbidden(
                "not_seated",
                "this player holds no seat of this game",
            )),
        };
    }
    if let Some(seat) = roster.seat_of(token.as_str()) {
        cx.known_tokens.learn(token.as_str());
        return Ok((roster, Some(engine_seat(seat)?)));
    }
    match store::seat_by_token(conn, token.as_str())? {
        Some(_) => Err(ApiError::forbidden(
            "token_for_other_game",
            "this token belongs to a seat of another game",
        )),
        None => Err(ApiError::unauthorized(
            "invalid_token",
            "the bearer token is not a seat token",
        )),
    }
}

/// The player whose token is `token` (read on every request, so a rotated token stops
/// working at once, in every process). A token found is remembered as real, so that the rate
/// limiter gives it a player's budget from its next request on.
///
/// # Errors
/// 401 `invalid_token` for a token that is no player's (any more); store errors.
pub fn require_player(
    conn: &mut PgConnection,
    cx: &Context,
    token: &SeatToken,
) -> Result<PlayerRow, ApiError> {
    let player = store::player_by_token(conn, token.as_str())?.ok_or_else(|| {
        ApiError::unauthorized(
            "invalid_token",
            "the bearer token is no player's (a rotated token stops working at once)",
        )
    })?;
    cx.known_tokens.learn(token.as_str());
    Ok(player)
}

/// Like [`resolve_caller`] for a request that needs a seat.
///
/// # Errors
/// See [`resolve_caller`].
pub fn require_seat(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: &SeatToken,
) -> Result<(Arc<Roster>, Seat), ApiError> {
    let (roster, seat) = resolve_caller(conn, cx, id, Some(token))?;
    Ok((roster, seat.ok_or_else(missing_token)?))
}

/// A game as one caller sees it: the row, its roster, the caller's seat and the engine.
pub struct Loaded {
    pub game: GameRow,
    pub roster: Arc<Roster>,
    /// `None` for a spectator.
    pub seat: Option<Seat>,
    pub kind: &'static dyn DynGame,
}

impl Loaded {
    /// The game's state from its snapshot; `None` before the start.
    ///
    /// # Errors
    /// 500 when the snapshot does not load.
    pub fn state(&self) -> Result<Option<Box<dyn DynState>>, ApiError> {
        match &self.game.snapshot {
            Some(snapshot) => Ok(Some(self.kind.load(snapshot.as_str())?)),
            None => Ok(None),
        }
    }

    /// The state of a game that must have started.
    ///
    /// # Errors
    /// 500 for a started game without a snapshot, or one that does not load.
    pub fn started_state(&self) -> Result<Box<dyn DynState>, ApiError> {
        self.state()?
            .ok_or_else(|| ApiError::internal("active game without a snapshot"))
    }

    /// The seats the game waits for: stored beside the snapshot, or read from it for an
    /// active game last written before they were stored (migration 9).
    ///
    /// # Errors
    /// 500 when such a snapshot does not load.
    pub fn active_seats(&self) -> Result<Vec<u8>, ApiError> {
        active_seats(&self.game, self.kind)
    }

    /// Whether every event may be shown unredacted: the game is over (finished, or aborted:
    /// nothing in it can be played any more).
    pub fn finished(&self) -> bool {
        self.game.status.is_over()
    }
}

/// The seats `game` (of type `kind`) waits for: stored beside the snapshot, or read from it
/// for an active game last written before they were stored (migration 9).
///
/// # Errors
/// 500 when such a snapshot does not load.
pub fn active_seats(game: &GameRow, kind: &dyn DynGame) -> Result<Vec<u8>, ApiError> {
    if game.status != db::GameStatus::Active {
        return Ok(Vec::new());
    }
    if game.active_seats.is_empty() {
        let snapshot = game
            .snapshot
            .as_ref()
            .ok_or_else(|| ApiError::internal("active game without a snapshot"))?;
        let state = kind.load(snapshot.as_str())?;
        return Ok(state.active_seats().iter().map(|s| s.0).collect());
    }
    game.active_seats
        .iter()
        .map(|&s| engine_seat(s).map(|s| s.0))
        .collect()
}

/// Loads game `id` and recognises the caller: the step every request about a game starts
/// with (the game first, so an unknown game is a 404 whatever the token).
///
/// # Errors
/// 404, 401/403, store errors; 500 for a game of a type no longer hosted.
pub fn load(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
) -> Result<Loaded, ApiError> {
    let game = store::get_game(conn, id)?;
    let (roster, seat) = resolve_caller(conn, cx, id, token)?;
    let kind = stored_kind(&game.game_type)?;
    Ok(Loaded {
        game,
        roster,
        seat,
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_outside_the_engine_range_is_refused_not_clamped() {
        assert_eq!(engine_seat(3).unwrap(), Seat(3));
        assert_eq!(engine_seat(255).unwrap(), Seat(255));
        for bad in [-1, 256, i32::MAX] {
            let e = engine_seat(bad).unwrap_err();
            assert!(e.status.is_server_error(), "{e}");
        }
    }
}
