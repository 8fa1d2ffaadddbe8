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

use crate::chance::table::{Given, Recording};
use crate::chance::{self, Chance, GameChance, GameSeed};
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
    /// The setup events (shuffles and deals included), drawn at version 0. A record of a
    /// table may leave them out: the rules deal them from `setup_chance`.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::any_events))]
    pub setup: Vec<Value>,
    /// Chance version 0 (a game played at a table): the setup's chance outcomes, one per draw
    /// in the order the rules draw (`docs/fairness.md`). Empty for a drawn chance.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::chance_outcomes))]
    pub setup_chance: Vec<Value>,
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
    /// 2: the derivation `docs/fairness.md` specifies; 1: the older one (not verifiable);
    /// 0: no derivation, the record names every outcome (a game played at a real table).
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
    /// The game's events the action caused, in order. A record of a table may leave them
    /// out: the rules give them from the action and its `chance`.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::any_events))]
    pub events: Vec<Value>,
    /// Chance version 0: the action's chance outcomes, one per draw in the order the rules
    /// draw. Empty for a drawn chance.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::chance_outcomes))]
    pub chance: Vec<Value>,
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

/// A record that verified: the final state, the version it reached, and the events of its
/// setup and of every move as the rules gave them (the recorded ones, or for a record of a
/// table that left them out, the ones its outcomes deal).
pub struct Verified {
    /// The setup's events.
    pub setup: Vec<Value>,
    /// Each move's events, by the move's index.
    pub events: Vec<Vec<Value>>,
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

/// Where a record's chance comes from.
enum Source {
    /// Drawn from the key, with the record's chance version; with `named`, each step's
    /// outcomes are also written down as a table names them, by move index (`None`: setup).
    Key {
        key: GameSeed,
        version: u32,
        named: Option<Vec<(Option<usize>, Vec<Value>)>>,
    },
    /// Named in the record (chance version 0).
    Table,
}

impl Source {
    /// The source of `record`'s chance, checked.
    fn of(record: &Record) -> Result<Source, RecordError> {
        let chance = &record.chance;
        if chance.version != 0 {
            return Ok(Source::Key {
                key: chance_key(record)?,
                version: chance.version,
                named: None,
            });
        }
        if chance.seeded || chance.commitment.is_some() || chance.reveal.is_some() {
            return Err(RecordError::new(
                None,
                "invalid_reveal",
                "a record of chance version 0 names its outcomes: it has no seed, commitment or \
                 reveal",
            ));
        }
        Ok(Source::Table)
    }

    /// Runs `step` (the setup, or the move at `index`) with its chance: the key's stream of
    /// `version`, or the `outcomes` the record names.
    fn draw<R>(
        &mut self,
        index: Option<usize>,
        version: i64,
        outcomes: &[Value],
        step: impl FnOnce(&mut dyn Chance) -> Result<R, RecordError>,
    ) -> Result<R, RecordError> {
        match self {
            Source::Key {
                key,
                version: chance_version,
                named,
            } => {
                if !outcomes.is_empty() {
                    return Err(RecordError::new(
                        index,
                        "chance_outcome_invalid",
                        "a record whose chance is drawn from a key names no outcomes",
                    ));
                }
                let mut drawn = GameChance::new(*chance_version, key, version);
                let Some(named) = named else {
                    return step(drawn.as_dyn());
                };
                let mut recording = Recording::new(drawn.as_dyn());
                let result = step(&mut recording)?;
                named.push((index, recording.into_outcomes()));
                Ok(result)
            }
            Source::Table => {
                let mut given = Given::new(outcomes);
                let result = step(&mut given);
                // A refused action says why before its outcomes do.
                let result = result?;
                given
                    .finish()
                    .map_err(|e| RecordError::new(index, "chance_outcome_invalid", e))?;
                Ok(result)
            }
        }
    }

    /// The events of a step: the rules' `given` ones, which must be the `recorded` ones
    /// unless a table's record left them out.
    fn events(
        &self,
        index: Option<usize>,
        given: Vec<Value>,
        recorded: &[Value],
    ) -> Result<Vec<Value>, RecordError> {
        let left_out = matches!(self, Source::Table) && recorded.is_empty();
        if left_out || given == recorded {
            return Ok(given);
        }
        Err(match index {
            None => RecordError::new(
                None,
                "setup_mismatch",
                "the recorded setup is not the one the record's chance deals",
            ),
            Some(_) => RecordError::new(
                index,
                "events_mismatch",
                "the action's recorded events are not the ones the rules and the record's chance \
                 give",
            ),
        })
    }
}

/// Replays `record` through the rules with its chance (revealed, or named by a table's
/// record): every action must be legal and cause exactly the recorded events.
///
/// # Errors
/// The first failure, at the index of its move: `unknown_game_type`, `unsupported_format`,
/// `invalid_config`, the chance errors of [`chance_key`], `setup_mismatch`, `invalid_move`,
/// `invalid_action`, a refused action's own code (with its rule), `chance_outcome_invalid`,
/// `events_mismatch`.
pub fn verify(record: &Record) -> Result<Verified, RecordError> {
    let kind = rules_of(record)?;
    verify_with(record, kind, &mut Source::of(record)?)
}

/// The record a table would have kept of the game `record` records: chance version 0, every
/// outcome of the (verified) revealed chance named where the rules drew it, no seed,
/// commitment or reveal. It verifies to the same game.
///
/// # Errors
/// Those of [`verify`].
pub fn at_the_table(record: &Record) -> Result<Record, RecordError> {
    let kind = rules_of(record)?;
    let Source::Key { key, version, .. } = Source::of(record)? else {
        return Ok(record.clone());
    };
    let mut source = Source::Key {
        key,
        version,
        named: Some(Vec::new()),
    };
    verify_with(record, kind, &mut source)?;
    let Source::Key {
        named: Some(named), ..
    } = source
    else {
        unreachable!("the source keeps what it wrote down");
    };
    let mut table = record.clone();
    table.chance = RecordChance {
        version: 0,
        seeded: false,
        commitment: None,
        reveal: None,
    };
    for (index, outcomes) in named {
        match index {
            None => table.setup_chance = outcomes,
            Some(i) => table.moves[i].chance = outcomes,
        }
    }
    Ok(table)
}

/// The rules of `record`'s game type, once its format is one this verifier reads.
fn rules_of(record: &Record) -> Result<&'static dyn crate::erased::DynGame, RecordError> {
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
    registry::find(&record.game_type).ok_or_else(|| {
        RecordError::new(
            None,
            "unknown_game_type",
            format!("no game type {:?}", record.game_type),
        )
    })
}

/// [`verify`] with the chance of `source`.
fn verify_with(
    record: &Record,
    kind: &'static dyn crate::erased::DynGame,
    source: &mut Source,
) -> Result<Verified, RecordError> {
    let (mut state, setup) = source.draw(None, 0, &record.setup_chance, |chance| {
        kind.setup_as(
            record.rules_version,
            &record.config,
            usize::from(record.seat_count),
            chance,
        )
        .map_err(|e| RecordError::new(None, "invalid_config", e.to_string()))
    })?;
    let setup = source.events(None, setup, &record.setup)?;
    let mut version = setup.len() as i64;
    let mut events = Vec::with_capacity(record.moves.len());
    for (index, step) in record.moves.iter().enumerate() {
        let at = Some(index);
        let given = match (&step.action, step.seat) {
            (None, None) if step.events.is_empty() && step.chance.is_empty() => Vec::new(),
            (Some(action), Some(seat)) if seat < record.seat_count => {
                let given = source.draw(at, version, &step.chance, |chance| {
                    state
                        .apply(Seat(seat), action, chance)
                        .map_err(|e| refused(index, e))
                })?;
                source.events(at, given, &step.events)?
            }
            _ => {
                return Err(RecordError::new(
                    at,
                    "invalid_move",
                    "a move is an action with its seat and events, or lifecycle events alone",
                ))
            }
        };
        version += (given.len() + step.lifecycle.len()) as i64;
        events.push(given);
    }
    let outcome = state.outcome();
    Ok(Verified {
        setup,
        events,
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
