//! Importing a game record (`POST /v1/records`): the record is verified by the engine
//! ([`engine::record::verify`]: the reveal against the commitment, every action against the
//! rules with the revealed chance, or with the outcomes a table's record names, every event
//! as recorded), then stored as a finished, unrated game marked with the id of the game it
//! records. A record that fails stores nothing.
//!
//! The log is written commit by commit through the same table as a played game's, so the
//! imported game's document, outcome (resignations included), events, states and record are
//! the recorded game's. All of it happens in one transaction: a refused record (or one that
//! does not end the game) leaves nothing behind. Its seats hold no usable token: nobody acts in an imported game.

use db::store::{NewGame, NewSeat};
use db::{PgConnection, PooledConn, RngSeed};
use engine::record::{self, Record, RecordError};
use engine::Seat;
use serde_json::Value;
use uuid::Uuid;

use super::decision::{GameFacts, Table};
use super::lobby_keys::{self, Answer, LobbyKey};
use crate::dto::{Clock, ImportedGame};
use crate::error::ApiError;
use crate::lifecycle::LifecycleEvent;
use crate::state::Context;

/// The most moves a record may have.
pub const MAX_MOVES: usize = 20_000;

/// Verifies `record` and stores it as a new imported game; once per `key`.
///
/// # Errors
/// 422 `invalid_record` (with where it fails), `idempotency_key_reused`; store errors.
pub fn import(
    conn: &mut PooledConn,
    cx: &Context,
    record: Record,
    key: Option<LobbyKey>,
) -> Result<Answer<ImportedGame>, ApiError> {
    lobby_keys::once_if_keyed(
        conn,
        key.as_ref(),
        201,
        |conn| import_in(conn, cx, &record),
        |_| {},
        |_| {},
    )
}

fn import_in(
    conn: &mut PgConnection,
    cx: &Context,
    record: &Record,
) -> Result<ImportedGame, ApiError> {
    if record.moves.len() > MAX_MOVES {
        return Err(ApiError::invalid_record(&refusal(
            None,
            "record_too_long",
            format!("a record has at most {MAX_MOVES} moves"),
        )));
    }
    let verified = record::verify(record).map_err(|e| ApiError::invalid_record(&e))?;
    let seats = usize::from(record.seat_count);
    // A verified record has its reveal, unless its chance is a table's (version 0): that
    // draws nothing, and its outcomes are kept beside the game instead.
    let (server_seed, entropies) = match &record.chance.reveal {
        Some(reveal) => (decode_seed(&reveal.server_seed)?, reveal.entropies.clone()),
        None => ([0; 32], vec![None; seats]),
    };
    let recorded: Uuid = record
        .game_id
        .parse()
        .map_err(|_| ApiError::invalid_record(&refusal(None, "invalid_record", "game_id")))?;
    let kind = engine::registry::find(&record.game_type).expect("a verified record's type");
    let mut state = kind.replay(&verified.setup)?;
    let id = Uuid::new_v4();
    // The setup commit creates the game, as a played game's does.
    let mut table = Table::starting(
        GameFacts {
            game_id: id,
            game_type: record.game_type.clone(),
            rated: false,
            players: vec![None; seats],
        },
        Clock::Unlimited,
        vec![false; seats],
        cx.bots.move_delay_ms,
    );
    table.setup(verified.setup.clone());
    let mut game = db::store::create_game(
        conn,
        NewGame {
            id,
            game_type: record.game_type.clone(),
            rules_version: i32::try_from(record.rules_version).unwrap_or(i32::MAX),
            config: record.config.clone(),
            rng_seed: RngSeed(server_seed),
            seats: seat_names(&record.table, seats)
                .into_iter()
                .map(|name| NewSeat::Taken {
                    name,
                    // Never shown: nobody acts in an imported game.
                    token: db::token::new_token(),
                })
                .collect(),
            initial: Some(table.close(state.as_ref())),
            bot_game_limit: None,
            clock: None,
            open_ttl: cx.open_game_ttl,
            rated: false,
            chance_version: i32::try_from(record.chance.version).unwrap_or(i32::MAX),
            chance_seeded: record.chance.seeded,
            entropies,
            imported_from: Some(recorded),
        },
    )?;
    if record.chance.version == 0 {
        db::store::put_table_chance(
            conn,
            &db::store::TableChance {
                game_id: id,
                setup: record.setup_chance.clone().into(),
                moves: record
                    .moves
                    .iter()
                    .map(|m| Value::from(m.chance.clone()))
                    .collect(),
            },
        )?;
    }
    let seat_rows = db::store::seats(conn, id)?;
    // Then one commit per recorded commit, so that the imported log has the same commits
    // (and so the same record, states and replays) as the recorded one.
    for (index, (step, events)) in record.moves.iter().zip(&verified.events).enumerate() {
        let mut table = Table::of_game(&game, &seat_rows, cx.bots.move_delay_ms)?;
        for event in events {
            state.evolve(event)?;
        }
        if let (Some(seat), Some(action)) = (step.seat, &step.action) {
            table.action(Seat(seat), action, events.clone());
        }
        for event in &step.lifecycle {
            let event: LifecycleEvent = serde_json::from_value(event.clone()).map_err(|e| {
                ApiError::invalid_record(&refusal(
                    Some(index),
                    "invalid_lifecycle_event",
                    format!("not a lifecycle event: {e}"),
                ))
            })?;
            table.record(None, event);
        }
        game = db::store::append_imported(conn, &game, table.close(state.as_ref()))?.game;
    }
    if !game.status.is_over() {
        return Err(ApiError::invalid_record(&refusal(
            None,
            "record_not_over",
            "the record does not end the game: only games that are over can be imported",
        )));
    }
    tracing::info!(game_id = %game.id, imported_from = %recorded, "record imported");
    Ok(ImportedGame {
        game_id: game.id,
        type_: game.game_type,
        version: game.version,
        status: game.status.into(),
        imported_from: recorded,
    })
}

/// The seats' names from the record's table (its `seats[].name`), `Seat n` where it has none.
fn seat_names(table: &Value, seats: usize) -> Vec<String> {
    (0..seats)
        .map(|i| {
            table["seats"][i]["name"]
                .as_str()
                .map(str::trim)
                .filter(|n| !n.is_empty() && n.chars().count() <= 64)
                .map_or_else(|| format!("Seat {i}"), str::to_string)
        })
        .collect()
}

fn decode_seed(hex_seed: &str) -> Result<[u8; 32], ApiError> {
    let mut seed = [0u8; 32];
    hex::decode_to_slice(hex_seed, &mut seed).map_err(|_| {
        ApiError::invalid_record(&refusal(None, "invalid_reveal", "server_seed is not hex"))
    })?;
    Ok(seed)
}

fn refusal(index: Option<usize>, code: &'static str, message: impl Into<String>) -> RecordError {
    RecordError {
        index,
        code,
        rule: None,
        message: message.into(),
    }
}
