//! Seeks: players waiting for opponents. A seek joins the pool of its kind of game (type,
//! seats, clock, rated, config); whoever completes a table, in whichever process, creates the
//! game with every seeker seated and tells each through its stream (`seek_matched`), all in
//! one transaction under the pool's advisory lock ([`db::store::lock_pool`]), so concurrent
//! seekers are matched exactly once. A seek with `fill_with_bots_after` is filled with the
//! server's bots when its time comes ([`fill_due`], run by every process).

use std::collections::BTreeMap;

use db::store::{self, NewNotice, NewSeek, NoticeDue, NoticeRow, SeekRow};
use db::{PgConnection, PooledConn};
use engine::chance::rng_for;
use engine::DynGame;
use rand::seq::SliceRandom;
use serde_json::Value;
use uuid::Uuid;

use super::caller::require_player;
use super::lobby::{self, GamePlan, SeatPlan};
use super::lobby_keys::{self, Answer, LobbyKey};
use crate::dto::{BotInfo, BotLevel, Clock, PlayerNotice, Seek, SeekMatchedNotice, SeekStatus};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::state::Context;

/// The most seeks of one pool looked at per match.
const POOL_WINDOW: i64 = 500;

/// A validated seek request.
pub struct SeekPlan {
    pub kind: &'static dyn DynGame,
    pub seats: usize,
    pub clock: Clock,
    pub rated: bool,
    pub config: Value,
    pub fill_with_bots_after: Option<u32>,
    /// What the seeker adds to the chance of the game it is matched into.
    pub entropy: Option<String>,
}

/// JSON with object keys sorted at every depth: one text per value, whatever order a client
/// wrote its config in.
fn canonical(value: &Value) -> String {
    fn sort(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let sorted: BTreeMap<&String, Value> =
                    map.iter().map(|(k, v)| (k, sort(v))).collect();
                serde_json::to_value(sorted).unwrap_or(Value::Null)
            }
            Value::Array(items) => Value::Array(items.iter().map(sort).collect()),
            other => other.clone(),
        }
    }
    serde_json::to_string(&sort(value)).unwrap_or_default()
}

/// Hex of the SHA-256 of `bytes`.
fn digest_hex(bytes: &[u8]) -> String {
    db::token::fingerprint(&[bytes])
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The pool a seek of `plan` waits in: seeks match only seeks of the same kind of game.
fn pool_name(plan: &SeekPlan) -> String {
    let key = serde_json::json!([
        plan.kind.name(),
        plan.seats,
        plan.clock.stored(),
        plan.rated,
        plan.config,
    ]);
    digest_hex(canonical(&key).as_bytes())
}

/// The seek as clients see it.
///
/// # Errors
/// 500 for a stored clock that does not read.
pub fn seek_dto(row: &SeekRow) -> Result<Seek, ApiError> {
    let status = match row.status.as_str() {
        "matched" => SeekStatus::Matched,
        "cancelled" => SeekStatus::Cancelled,
        "expired" => SeekStatus::Expired,
        _ if row.expires_at <= chrono::Utc::now() => SeekStatus::Expired,
        _ => SeekStatus::Waiting,
    };
    Ok(Seek {
        seek_id: row.id,
        player_id: row.player_id,
        status,
        type_: row.game_type.clone(),
        seats: row.seats,
        clock: Clock::read_stored(row.clock.as_ref())?,
        rated: row.rated,
        config: row.config.clone(),
        fill_with_bots_after: row.fill_with_bots_after,
        created_at: row.created_at,
        expires_at: row.expires_at,
        game_id: row.game_id,
        seat: row.seat,
    })
}

/// Checks a seek request that its game could be created: the seat count, the config, bots
/// and rating.
///
/// # Errors
/// 422 `invalid_seat_count`, `invalid_config`, `rated_game_with_bots`; 400 `invalid_seek`.
pub fn check(plan: &SeekPlan) -> Result<(), ApiError> {
    let info = plan.kind.info();
    if !(info.min_seats..=info.max_seats).contains(&plan.seats) {
        return Err(ApiError::unprocessable(
            "invalid_seat_count",
            format!(
                "{} is for {} to {} seats, not {}",
                info.name, info.min_seats, info.max_seats, plan.seats
            ),
        ));
    }
    if let Some(after) = plan.fill_with_bots_after {
        if plan.rated {
            return Err(ApiError::unprocessable(
                "rated_game_with_bots",
                "a rated seek is never filled with bots: leave out fill_with_bots_after",
            ));
        }
        if !(1..=86_400).contains(&after) {
            return Err(ApiError::bad_request(
                "invalid_seek",
                format!("fill_with_bots_after is 1 to 86400 seconds, not {after}"),
            ));
        }
    }
    plan.kind
        .setup(&plan.config, plan.seats, &mut rng_for(&[0; 32], 0))
        .map(|_| ())
        .map_err(ApiError::from)
}

/// What matching committed: the notices to push once the transaction commits.
type Matched = Vec<NoticeRow>;

/// Matches the pool of `sample` if it now holds a table of distinct players (`filling`:
/// fills the table of seek `filling` with bots when it is still waiting). In the caller's
/// transaction, which must hold nothing that another matching might wait for.
fn match_pool(
    conn: &mut PgConnection,
    cx: &Context,
    sample: &SeekRow,
    filling: Option<Uuid>,
) -> Result<Matched, ApiError> {
    store::lock_pool(conn, &sample.pool)?;
    let waiting = store::waiting_in_pool(conn, &sample.pool, POOL_WINDOW)?;
    let seats = usize::try_from(sample.seats).unwrap_or(0);
    let mut chosen: Vec<&SeekRow> = Vec::new();
    if let Some(fill) = filling {
        match waiting.iter().find(|s| s.id == fill) {
            Some(due) => chosen.push(due),
            None => return Ok(Vec::new()),
        }
    }
    for seek in &waiting {
        if chosen.len() == seats {
            break;
        }
        if chosen.iter().all(|c| c.player_id != seek.player_id) {
            chosen.push(seek);
        }
    }
    if chosen.len() < seats && filling.is_none() {
        return Ok(Vec::new());
    }
    let Some(kind) = engine::registry::find(&sample.game_type) else {
        return Err(ApiError::internal(format!(
            "a seek of unknown type {}",
            sample.game_type
        )));
    };
    let mut ids: Vec<Uuid> = chosen.iter().map(|s| s.player_id).collect();
    ids.sort();
    store::lock_players(conn, &ids)?;
    let mut plans = Vec::with_capacity(seats);
    for seek in &chosen {
        let player = store::get_player(conn, seek.player_id)?
            .ok_or_else(|| ApiError::internal("a seek of a player that does not exist"))?;
        plans.push((
            Some(seek.id),
            seek.entropy.clone(),
            SeatPlan::Player(player),
        ));
    }
    while plans.len() < seats {
        plans.push((
            None,
            None,
            SeatPlan::Bot(BotInfo {
                level: BotLevel::Greedy,
                budget_ms: None,
            }),
        ));
    }
    // Who moves first is chance, not who sought first.
    plans.shuffle(&mut rand::rng());
    let seek_of_seat: Vec<Option<Uuid>> = plans.iter().map(|(seek, _, _)| *seek).collect();
    let entropies = plans
        .iter()
        .map(|(_, entropy, _)| entropy.clone())
        .collect();
    let plan = GamePlan {
        kind,
        config: sample.config.clone(),
        seats: plans.into_iter().map(|(_, _, p)| p).collect(),
        seed: None,
        // Each seeker's entropy goes with the seat its seek takes.
        entropies,
        clock: Clock::read_stored(sample.clock.as_ref())?,
        rated: sample.rated,
        bearer: None,
    };
    let (created, mut notices) = lobby::create_game_in(conn, cx, plan)?;
    let mut matched = Vec::new();
    for (seat, seek_id) in seek_of_seat.iter().enumerate() {
        let Some(seek_id) = seek_id else { continue };
        let seek = chosen
            .iter()
            .find(|s| s.id == *seek_id)
            .expect("a chosen seek");
        store::mark_matched(conn, *seek_id, created.game_id, seat as i32)?;
        let body = PlayerNotice::SeekMatched(SeekMatchedNotice {
            seq: 0,
            seek_id: *seek_id,
            game_id: created.game_id,
            type_: created.type_.clone(),
            seat: seat as i32,
        });
        matched.push(NewNotice {
            player_id: seek.player_id,
            kind: body.kind().to_string(),
            body: serde_json::to_value(&body).expect("notices serialize"),
            due: NoticeDue::None,
        });
    }
    notices.extend(store::record_now(conn, Some(created.game_id), matched)?);
    tracing::info!(game_id = %created.game_id, pool = %sample.pool, "seek matched");
    Ok(notices)
}

/// `POST /v1/seeks` (checked with [`check`]): stores the seek and, if it completes a table,
/// creates the game; the seek as it is then (`matched` with the game, or `waiting`). Once per
/// `key`: a retry with it gets the first answer again.
///
/// # Errors
/// 401; 422 `idempotency_key_reused`; store errors.
pub fn create(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    plan: SeekPlan,
    key: Option<LobbyKey>,
) -> Result<Answer<Seek>, ApiError> {
    let mut notices = Vec::new();
    let work = |conn: &mut PgConnection| {
        let player = require_player(conn, cx, token)?;
        let new = NewSeek {
            player_id: player.id,
            game_type: plan.kind.name().to_string(),
            seats: i32::try_from(plan.seats).unwrap_or(i32::MAX),
            clock: plan.clock.stored(),
            rated: plan.rated,
            config: plan.config.clone(),
            pool: pool_name(&plan),
            fill_with_bots_after: plan
                .fill_with_bots_after
                .map(|s| i32::try_from(s).unwrap_or(i32::MAX)),
            ttl: cx.seek_ttl,
            entropy: plan.entropy.clone(),
        };
        let row = store::insert_seek(conn, &new)?;
        notices = match_pool(conn, cx, &row, None)?;
        let row = store::get_seek(conn, row.id)?.unwrap_or(row);
        seek_dto(&row)
    };
    let answer = lobby_keys::once_if_keyed(conn, key.as_ref(), 201, work, |_| {}, |_| {})?;
    // Committed now (a replay recorded none).
    cx.changes.notices(&notices);
    Ok(answer)
}

/// `GET /v1/seeks/{id}`.
///
/// # Errors
/// 404 `seek_not_found`; store errors.
pub fn get(conn: &mut PooledConn, id: Uuid) -> Result<Seek, ApiError> {
    store::get_seek(conn, id)?
        .map(|row| seek_dto(&row))
        .ok_or_else(seek_not_found)?
}

fn seek_not_found() -> ApiError {
    ApiError::not_found("seek_not_found", "no seek with this id")
}

/// `DELETE /v1/seeks/{id}` by its player: cancelled unless it was matched (or ended) first.
///
/// # Errors
/// 401, 403 `not_your_seek`, 404, 409 `seek_not_waiting`; store errors.
pub fn cancel(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    id: Uuid,
) -> Result<Seek, ApiError> {
    let player = require_player(conn, cx, token)?;
    let seek = store::get_seek(conn, id)?.ok_or_else(seek_not_found)?;
    if seek.player_id != player.id {
        return Err(ApiError::forbidden(
            "not_your_seek",
            "a seek is cancelled only by its own player",
        ));
    }
    let after = store::cancel_seek(conn, id)?.ok_or_else(seek_not_found)?;
    let dto = seek_dto(&after)?;
    if dto.status != SeekStatus::Cancelled || seek.status != "waiting" {
        return Err(ApiError::conflict(
            "seek_not_waiting",
            format!("the seek is {} already", after.status),
        ));
    }
    Ok(dto)
}

/// Fills the earliest seek whose `fill_with_bots_after` has passed, if any: its game starts
/// with the compatible seekers waiting and the server's bots. `true` when one was due.
///
/// # Errors
/// Store errors.
pub fn fill_due(conn: &mut PooledConn, cx: &Context) -> Result<bool, ApiError> {
    let Some(due) = store::due_fills(conn, 1)?.into_iter().next() else {
        return Ok(false);
    };
    let notices = store::atomically(conn, |conn| match_pool(conn, cx, &due, Some(due.id)))?;
    cx.changes.notices(&notices);
    Ok(true)
}
