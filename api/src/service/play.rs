//! Reading a game: its document and what a seat may do in it. Acting in it is
//! [`super::act`].

use db::store::Roster;
use db::{GameRow, PooledConn};
use engine::{DynState, Seat};
use uuid::Uuid;

use super::caller::{self, wire_seat};
use super::decision::lifecycle_of;
use super::document;
use crate::dto::{GameDocument, LegalActions};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::state::Context;

/// `GET /v1/games/{id}`: the document and its entity tag.
///
/// # Errors
/// 404, 401/403, store errors.
pub fn load_document(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
) -> Result<(GameDocument, String), ApiError> {
    let loaded = caller::load(conn, cx, id, token)?;
    let state = loaded.state()?;
    document_of(&loaded.game, &loaded.roster, state.as_deref(), loaded.seat)
}

/// `seat`'s document of `game` and its entity tag, from `state` (the snapshot, loaded) when
/// started.
///
/// # Errors
/// 500 when the game's stored lifecycle is unreadable.
pub fn document_of(
    game: &GameRow,
    roster: &Roster,
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
) -> Result<(GameDocument, String), ApiError> {
    let seats = roster.seats();
    let doc = document::build(game, seats, state, seat)?;
    Ok((doc, document::etag(game, seats, seat)))
}

/// `GET /v1/games/{id}/legal-actions`. Spectators get an empty list.
///
/// # Errors
/// 404, 401/403, store errors.
pub fn legal_actions(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
) -> Result<LegalActions, ApiError> {
    let loaded = caller::load(conn, cx, id, token)?;
    let state = loaded.state()?;
    legal_actions_of(&loaded.game, &loaded.roster, state.as_deref(), loaded.seat)
}

/// What `seat` may do in `game` (with `state`, the snapshot loaded).
///
/// # Errors
/// 500 when the game's stored lifecycle is unreadable.
pub fn legal_actions_of(
    game: &GameRow,
    roster: &Roster,
    state: Option<&dyn DynState>,
    seat: Option<Seat>,
) -> Result<LegalActions, ApiError> {
    let (_, life) = lifecycle_of(game, roster.seats())?;
    Ok(LegalActions {
        game_id: game.id,
        type_: game.game_type.clone(),
        version: game.version,
        seat: seat.map(wire_seat),
        actions: document::seat_actions(game, &life, state, seat),
        templates: document::seat_templates(game, &life, state, seat),
    })
}
