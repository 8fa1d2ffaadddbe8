//! A game's record (`GET /v1/games/{id}/record`): the engine's self-contained record
//! ([`engine::record::Record`]) built from the log, with the server's facts beside it.
//!
//! The log's commits become the record's moves: all events of one commit share one time
//! (migration 10), the first commit is the setup, and an action's events carry the action.
//! A running game's record is its seat's own: events redacted as the seat sees them and no
//! reveal; once the game is over, everyone gets the whole record.

use db::store::TableChance;
use db::{EventRow, PooledConn};
use engine::record::{Move, Record, RecordChance, Reveal, FORMAT};
use uuid::Uuid;

use super::caller::{self, Loaded};
use super::{chance, document};
use crate::dto::{ChanceInfo, Clock, RecordTable};
use crate::error::ApiError;
use crate::extract::SeatToken;
use crate::state::Context;

/// A record as read, with what its caching depends on.
pub struct RecordRead {
    pub record: Record,
    /// The game is over: the record never changes again.
    pub over: bool,
    /// The game's version the record was read at.
    pub version: i64,
    /// The caller's seat (whose redaction a running game's record has).
    pub seat: Option<i32>,
}

/// The record of game `id` as the caller may read it.
///
/// # Errors
/// 404, 401/403; 403 `record_not_public` for a spectator of a game that is not over.
pub fn record(
    conn: &mut PooledConn,
    cx: &Context,
    id: Uuid,
    token: Option<&SeatToken>,
) -> Result<RecordRead, ApiError> {
    let loaded = caller::load(conn, cx, id, token)?;
    let over = loaded.finished();
    if !over && loaded.seat.is_none() {
        return Err(ApiError::forbidden(
            "record_not_public",
            "a running game's record is for its seats; everyone gets it once the game is over",
        ));
    }
    let version = loaded.game.version;
    let rows: Vec<EventRow> = db::store::all_events(conn, id)?
        .into_iter()
        .filter(|r| r.seq <= version)
        .collect();
    // A game imported from a table's record names the chance outcomes that record named.
    let table_chance = if loaded.game.chance_version == 0 {
        db::store::table_chance(conn, id)?
    } else {
        None
    };
    Ok(RecordRead {
        record: build(&loaded, &rows, table_chance)?,
        over,
        version,
        seat: loaded.seat.map(|s| i32::from(s.0)),
    })
}

/// The record of `loaded` from its log `rows`, as its caller sees it.
fn build(
    loaded: &Loaded,
    rows: &[EventRow],
    table_chance: Option<TableChance>,
) -> Result<Record, ApiError> {
    let game = &loaded.game;
    let seats = loaded.roster.seats();
    let over = loaded.finished();
    let visible =
        |row: &EventRow| document::redact_row(loaded.kind, row, loaded.seat, over).map(|e| e.event);
    let mut commits = rows.chunk_by(|a, b| a.created_at == b.created_at);
    let setup = match rows.first() {
        Some(first) if first.action.is_none() && !crate::lifecycle::is_lifecycle(&first.event) => {
            commits
                .next()
                .unwrap_or_default()
                .iter()
                .filter_map(visible)
                .collect()
        }
        _ => Vec::new(),
    };
    let (setup_chance, mut moves_chance) = match table_chance {
        Some(TableChance { setup, moves, .. }) => (outcomes(setup), outcomes(moves).into_iter()),
        None => (Vec::new(), Vec::new().into_iter()),
    };
    let moves = commits
        .map(|commit| {
            let acting = commit.iter().find(|r| r.action.is_some());
            let (lifecycle, game): (Vec<&EventRow>, Vec<&EventRow>) = commit
                .iter()
                .partition(|r| crate::lifecycle::is_lifecycle(&r.event));
            Move {
                seat: acting.and_then(|r| u8::try_from(r.seat?).ok()),
                action: acting.and_then(|r| r.action.clone()),
                events: game.into_iter().filter_map(visible).collect(),
                lifecycle: lifecycle.into_iter().map(|r| r.event.clone()).collect(),
                chance: moves_chance.next().map(outcomes).unwrap_or_default(),
                at: commit.first().map(|r| r.created_at.to_rfc3339()),
            }
        })
        .collect();
    let ChanceInfo {
        version,
        seeded,
        commitment,
        reveal,
    } = chance::info(game, seats);
    let state = loaded.state()?;
    let doc = document::build(game, seats, state.as_deref(), loaded.seat)?;
    let table = RecordTable {
        status: doc.status,
        rated: game.rated,
        clock: Clock::read_stored(game.clock.as_ref())?,
        seats: doc.seats,
        created_at: game.created_at,
        finished_at: game.finished_at,
        outcome: doc.outcome,
        imported_from: game.imported_from.map(|id| id.to_string()),
    };
    Ok(Record {
        format: FORMAT,
        game_type: game.game_type.clone(),
        rules_version: u32::try_from(game.rules_version).unwrap_or(0),
        // An imported game records the game it was imported from: its id keys the chance.
        game_id: game.imported_from.unwrap_or(game.id).to_string(),
        config: full_config(loaded)?,
        seat_count: u8::try_from(game.seat_count).unwrap_or(0),
        chance: RecordChance {
            version: u32::try_from(version).unwrap_or(1),
            seeded,
            commitment,
            reveal: reveal.map(|r| Reveal {
                server_seed: r.server_seed,
                entropies: r.entropies,
                key: r.key,
            }),
        },
        setup,
        setup_chance,
        moves,
        table: serde_json::to_value(table).expect("record tables serialize"),
    })
}

/// The values of a stored JSON array (a table's chance outcomes).
fn outcomes(array: serde_json::Value) -> Vec<serde_json::Value> {
    match array {
        serde_json::Value::Array(values) => values,
        _ => Vec::new(),
    }
}

/// The game's config with every option filled in as its rules version reads it.
fn full_config(loaded: &Loaded) -> Result<serde_json::Value, ApiError> {
    let rules_version = u32::try_from(loaded.game.rules_version).unwrap_or(0);
    Ok(loaded
        .kind
        .full_config(rules_version, &loaded.game.config)?)
}

/// Which of a player's records to export (`GET /v1/players/{id}/records`).
pub struct RecordFilter {
    pub game_type: Option<String>,
    pub rated: Option<bool>,
    /// Only games that ended at or after this time.
    pub since: Option<chrono::DateTime<chrono::Utc>>,
    /// Only games that ended before this time.
    pub until: Option<chrono::DateTime<chrono::Utc>>,
}

/// A page of a player's records: one JSON line per finished game of the page that passes the
/// filter (newest first), and the cursor of the next page.
pub struct RecordPage {
    pub ndjson: String,
    pub next: Option<String>,
}

/// The records of player `player`'s finished games, a page of `limit` games after `cursor`.
///
/// # Errors
/// 404 `player_not_found`, 400 `invalid_cursor`; store errors.
pub fn player_records(
    conn: &mut PooledConn,
    cx: &Context,
    player: Uuid,
    filter: &RecordFilter,
    cursor: Option<&str>,
    limit: i64,
) -> Result<RecordPage, ApiError> {
    db::store::get_player(conn, player)?
        .ok_or_else(|| ApiError::not_found("player_not_found", "no player with this id"))?;
    let after = match cursor {
        Some(c) => Some(db::store::Cursor::decode(c).ok_or_else(|| {
            ApiError::bad_request("invalid_cursor", "cursor is not a cursor of this export")
        })?),
        None => None,
    };
    let page = db::store::player_games(
        conn,
        player,
        db::store::PlayerGameFilter {
            status: Some(db::GameStatus::Finished),
            my_turn: false,
        },
        after,
        limit,
    )?;
    let mut ndjson = String::new();
    for game in &page.games {
        let ended = game.finished_at;
        let wanted = filter
            .game_type
            .as_ref()
            .is_none_or(|t| *t == game.game_type)
            && filter.rated.is_none_or(|r| r == game.rated)
            && filter.since.is_none_or(|s| ended.is_some_and(|e| e >= s))
            && filter.until.is_none_or(|u| ended.is_some_and(|e| e < u));
        if !wanted {
            continue;
        }
        let read = record(conn, cx, game.id, None)?;
        ndjson.push_str(&serde_json::to_string(&read.record).expect("records serialize"));
        ndjson.push('\n');
    }
    Ok(RecordPage {
        ndjson,
        next: page.next.map(|c| c.encode()),
    })
}
