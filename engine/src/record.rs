//! A game's record: everything needed to replay and judge one game without the server, and
//! its verification.
//!
//! A record names the game type, rules and chance versions and the full config, lists the
//! setup events and every move in the order the server committed them (an action with the
//! events it caused, or an event of the seats' lifecycle: a resignation, a clock running out,
//! a bot taking over), and, once the game is over, the reveal of its chance. [`verify`] runs
//! the record through the rules: it derives the chance key from the reveal (after checking it
//! against the commitment), sets the game up, applies every action with the chance of the
//! version it was applied at, and requires each to produce exactly the recorded events. The
//! server's HTTP layer adds what only it knows (names, times, the outcome with resignations)
//! and uses the same verification to import records.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::chance::{self, GameChance, GameSeed};
use crate::erased::{DynState, GameError};
use crate::{registry, Outcome, Seat};

/// The format of records written now.
pub const FORMAT: u32 = 1;

/// One game's record, as `GET /v1/games/{id}/record` serves it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = GameRecord))]
pub struct Record {
    /// The record format (1).
    pub format: u32,
    /// The game type.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::game_type_name))]
    pub game_type: String,
    /// The rules version the game was played under.
    pub rules_version: u32,
    /// The game id (a UUID); part of a version 2 chance key.
    pub game_id: String,
    /// The game's full configuration, every option with its value.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::any_config))]
    pub config: Value,
    /// Number of seats.
    pub seat_count: u8,
    /// The chance: version, commitment and (once over) reveal.
    pub chance: RecordChance,
    /// The setup events (shuffles and deals included), drawn at version 0.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::any_events))]
    pub setup: Vec<Value>,
    /// Every commit after the setup, in order.
    pub moves: Vec<Move>,
    /// What the server adds: seats, times, clock, rating, outcome. Not needed to verify.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub table: Value,
}

/// The chance of a recorded game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecordChance {
    /// 2: the derivation `docs/fairness.md` specifies; 1: the older one (not verifiable).
    pub version: u32,
    /// The game's chance came from a client's seed alone.
    pub seeded: bool,
    /// SHA-256 of the server's seed, lowercase hex.
    pub commitment: Option<String>,
    /// The server's seed and the seats' entropies; absent while the game runs.
    pub reveal: Option<Reveal>,
}

/// What a version 2 game reveals when it is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = RecordReveal))]
pub struct Reveal {
    /// The server's 32-byte seed, lowercase hex.
    pub server_seed: String,
    /// Each seat's entropy in seat order (`null`: none).
    pub entropies: Vec<Option<String>>,
    /// The chance key derived from the above (a verifier derives it itself and compares).
    pub key: String,
}

/// One commit after the setup: a seat's action and the events it caused, and the events of
/// the seats' lifecycle committed with it (a commit of lifecycle events alone has no
/// `action`, no `seat` and no `events`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = RecordMove))]
pub struct Move {
    /// The acting seat; `null` for a lifecycle event.
    pub seat: Option<u8>,
    /// The action as submitted; `null` for a commit of lifecycle events.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::nullable_action))]
    pub action: Option<Value>,
    /// The game's events the action caused, in order.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::any_events))]
    pub events: Vec<Value>,
    /// The seats' lifecycle events of the commit (a resignation, a clock running out, the
    /// server's bot taking over): no rule of the game and no chance, but each takes a version.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::lifecycle_events))]
    pub lifecycle: Vec<Value>,
    /// When the server committed it (RFC 3339); informative.
    #[serde(default)]
    pub at: Option<String>,
}

/// Why a record does not verify: at which move (`None`: before any), the rule and the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// Index into `moves` of the first move that fails; `None` for the header or the setup.
    pub index: Option<usize>,
    /// A stable machine-readable code.
    pub code: &'static str,
    /// The rule ID the move breaks, for a refused action.
    pub rule: Option<&'static str>,
    /// One sentence for humans.
    pub message: String,
}

impl RecordError {
    fn new(index: Option<usize>, code: &'static str, message: impl Into<String>) -> Self {
        RecordError {
            index,
            code,
            rule: None,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.index {
            Some(i) => write!(f, "move {i}: ")?,
            None => f.write_str("record: ")?,
        }
        write!(f, "{} ({})", self.message, self.code)?;
        if let Some(rule) = self.rule {
            write!(f, " [{rule}]")?;
        }
        Ok(())
    }
}

/// A record that verified: the final state, and the version it reached.
pub struct Verified {
    /// The state after every move.
    pub state: Box<dyn DynState>,
    /// The game's version after every move (its number of events).
    pub version: i64,
    /// How the rules ended the game; `None` when it ended otherwise (resigned, aborted) or
    /// the record stops before the end.
    pub outcome: Option<Outcome>,
}

/// The key a version 2 record's chance was drawn with, checked against its commitment.
///
/// # Errors
/// `record_without_reveal`, `chance_version_unsupported`, `reveal_mismatch`, `invalid_reveal`.
pub fn chance_key(record: &Record) -> Result<GameSeed, RecordError> {
    let chance = &record.chance;
    if chance.version != 2 {
        return Err(RecordError::new(
            None,
            "chance_version_unsupported",
            format!(
                "chance version {} cannot be verified: only version 2 reveals its seed",
                chance.version
            ),
        ));
    }
    let reveal = chance.reveal.as_ref().ok_or_else(|| {
        RecordError::new(
            None,
            "record_without_reveal",
            "the record has no reveal: a game's chance is revealed once it is over",
        )
    })?;
    let server_seed = decode_32(&reveal.server_seed, "server_seed")?;
    let commitment = hex::encode(Sha256::digest(server_seed));
    if chance.commitment.as_deref() != Some(commitment.as_str()) {
        return Err(RecordError::new(
            None,
            "reveal_mismatch",
            "the revealed server seed does not hash to the commitment",
        ));
    }
    if reveal.entropies.len() != usize::from(record.seat_count) {
        return Err(RecordError::new(
            None,
            "invalid_reveal",
            format!(
                "the reveal has {} entropies for {} seats",
                reveal.entropies.len(),
                record.seat_count
            ),
        ));
    }
    let key = if chance.seeded {
        chance::chance_key(
            &server_seed,
            &[0; 16],
            reveal.entropies.iter().map(|_| None),
        )
    } else {
        let game_id = parse_uuid(&record.game_id)?;
        chance::chance_key(
            &server_seed,
            &game_id,
            reveal.entropies.iter().map(Option::as_deref),
        )
    };
    if hex::encode(key) != reveal.key {
        return Err(RecordError::new(
            None,
            "reveal_mismatch",
            "the revealed key is not the one derived from the seed, the game id and the entropies",
        ));
    }
    Ok(key)
}

/// Replays `record` through the rules with its revealed chance: every action must be legal
/// and cause exactly the recorded events.
///
/// # Errors
/// The first failure, at the index of its move: `unknown_game_type`, `unsupported_format`,
/// `invalid_config`, the chance errors of [`chance_key`], `setup_mismatch`, `invalid_move`,
/// `invalid_action`, a refused action's own code (with its rule), `events_mismatch`.
pub fn verify(record: &Record) -> Result<Verified, RecordError> {
    if record.format != FORMAT {
        return Err(RecordError::new(
            None,
            "unsupported_format",
            format!(
                "record format {} (this verifier reads {FORMAT})",
                record.format
            ),
        ));
    }
    let kind = registry::find(&record.game_type).ok_or_else(|| {
        RecordError::new(
            None,
            "unknown_game_type",
            format!("no game type {:?}", record.game_type),
        )
    })?;
    let key = chance_key(record)?;
    let (mut state, setup) = kind
        .setup_as(
            record.rules_version,
            &record.config,
            usize::from(record.seat_count),
            GameChance::new(record.chance.version, &key, 0).as_dyn(),
        )
        .map_err(|e| RecordError::new(None, "invalid_config", e.to_string()))?;
    if setup != record.setup {
        return Err(RecordError::new(
            None,
            "setup_mismatch",
            "the recorded setup is not the one the revealed chance deals",
        ));
    }
    let mut version = setup.len() as i64;
    for (index, step) in record.moves.iter().enumerate() {
        let at = Some(index);
        match (&step.action, step.seat) {
            (None, None) if step.events.is_empty() => {}
            (Some(action), Some(seat)) if seat < record.seat_count => {
                let mut chance = GameChance::new(record.chance.version, &key, version);
                let events = state
                    .apply(Seat(seat), action, chance.as_dyn())
                    .map_err(|e| refused(index, e))?;
                if events != step.events {
                    return Err(RecordError::new(
                        at,
                        "events_mismatch",
                        "the action's recorded events are not the ones the rules and the revealed \
                         chance give",
                    ));
                }
                version += events.len() as i64;
            }
            _ => {
                return Err(RecordError::new(
                    at,
                    "invalid_move",
                    "a move is an action with its seat and events, or lifecycle events alone",
                ))
            }
        }
        version += step.lifecycle.len() as i64;
    }
    let outcome = state.outcome();
    Ok(Verified {
        state,
        version,
        outcome,
    })
}

/// A refused action as a record error at `index`.
fn refused(index: usize, error: GameError) -> RecordError {
    match error {
        GameError::Rule(rule) => RecordError {
            index: Some(index),
            code: rule.code,
            rule: Some(rule.rule),
            message: rule.message,
        },
        other => RecordError::new(Some(index), "invalid_action", other.to_string()),
    }
}

/// 32 bytes from 64 hex digits.
fn decode_32(text: &str, what: &str) -> Result<[u8; 32], RecordError> {
    let mut bytes = [0u8; 32];
    hex::decode_to_slice(text, &mut bytes).map_err(|_| {
        RecordError::new(
            None,
            "invalid_reveal",
            format!("{what} is not 64 hex digits"),
        )
    })?;
    Ok(bytes)
}

/// The 16 bytes of a UUID in its hyphenated text form.
fn parse_uuid(text: &str) -> Result<[u8; 16], RecordError> {
    let digits: String = text.chars().filter(|c| *c != '-').collect();
    let mut bytes = [0u8; 16];
    if text.len() != 36 || hex::decode_to_slice(&digits, &mut bytes).is_err() {
        return Err(RecordError::new(
            None,
            "invalid_record",
            "game_id is not a UUID",
        ));
    }
    Ok(bytes)
}
