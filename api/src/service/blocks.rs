//! Whom a player takes challenges from (blocks, the `challenges_from` setting), and finding
//! players by id or name for the requests that name them (challenges, blocks, mutes).

use db::store;
use db::{PgConnection, PlayerRow, PooledConn};
use uuid::Uuid;

use super::caller::require_player;
use super::players::parse_name;
use crate::dto::{ChallengesFrom, PlayerRef};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::state::Context;

/// The player named by `who`: an id, or a name compared as names are.
///
/// # Errors
/// 422 `unknown_player`.
pub fn named_player(conn: &mut PgConnection, who: &str) -> Result<PlayerRow, ApiError> {
    let found = match Uuid::try_parse(who) {
        Ok(id) => store::get_player(conn, id)?,
        Err(_) => match parse_name(who) {
            Ok(name) => store::player_by_name_key(conn, &name.key)?,
            Err(_) => None,
        },
    };
    found.ok_or_else(|| {
        ApiError::unprocessable(
            "unknown_player",
            format!("no player {who:?} (name a player by its id or its name)"),
        )
    })
}

/// `POST /v1/players/me/blocks`: the caller takes no challenges from `who` any more.
///
/// # Errors
/// 401, 422 `unknown_player`, `block_yourself`; store errors.
pub fn block(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    who: &str,
) -> Result<Vec<PlayerRef>, ApiError> {
    let player = require_player(conn, cx, token)?;
    let blocked = named_player(conn, who)?;
    if blocked.id == player.id {
        return Err(ApiError::unprocessable(
            "block_yourself",
            "a player cannot block itself",
        ));
    }
    store::block_player(conn, player.id, blocked.id)?;
    blocks_of(conn, player.id)
}

/// `DELETE /v1/players/me/blocks/{player_id}`.
///
/// # Errors
/// 401, 404 `not_blocked`; store errors.
pub fn unblock(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    blocked: Uuid,
) -> Result<(), ApiError> {
    let player = require_player(conn, cx, token)?;
    if !store::unblock_player(conn, player.id, blocked)? {
        return Err(ApiError::not_found(
            "not_blocked",
            "you have not blocked this player",
        ));
    }
    Ok(())
}

/// `GET /v1/players/me/blocks`.
///
/// # Errors
/// 401; store errors.
pub fn blocks(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
) -> Result<Vec<PlayerRef>, ApiError> {
    let player = require_player(conn, cx, token)?;
    blocks_of(conn, player.id)
}

fn blocks_of(conn: &mut PgConnection, player: Uuid) -> Result<Vec<PlayerRef>, ApiError> {
    let blocked = store::blocked_by(conn, player)?;
    player_refs(conn, &blocked)
}

/// The players of `ids` that exist, by id and name, in the order given.
///
/// # Errors
/// Store errors.
pub fn player_refs(conn: &mut PgConnection, ids: &[Uuid]) -> Result<Vec<PlayerRef>, ApiError> {
    let mut out = Vec::new();
    for &id in ids {
        if let Some(p) = store::get_player(conn, id)? {
            out.push(PlayerRef {
                player_id: p.id,
                name: p.name,
            });
        }
    }
    Ok(out)
}

/// `GET /v1/players/me/settings`.
///
/// # Errors
/// 401; store errors.
pub fn settings(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
) -> Result<ChallengesFrom, ApiError> {
    let player = require_player(conn, cx, token)?;
    Ok(read_from(&store::challenges_from(conn, player.id)?))
}

/// `PUT /v1/players/me/settings`.
///
/// # Errors
/// 401; store errors.
pub fn set_settings(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    from: ChallengesFrom,
) -> Result<ChallengesFrom, ApiError> {
    let player = require_player(conn, cx, token)?;
    store::set_challenges_from(conn, player.id, from.name())?;
    Ok(from)
}

fn read_from(stored: &str) -> ChallengesFrom {
    if stored == ChallengesFrom::Nobody.name() {
        ChallengesFrom::Nobody
    } else {
        ChallengesFrom::Everyone
    }
}
