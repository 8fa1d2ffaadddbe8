//! The options a Tycoon game is created with, and how each rules version reads them.
//!
//! Rules version 2 changed one default: majority ties follow the seeds' wording
//! (`tie_break = first_built`) instead of the spec's first reading (`earliest_on_track`). A game
//! keeps the rules it was created under, so a config is always read *as of a rules version*:
//!
//! - a creator's config JSON: the options it names, the others as that version's defaults
//!   ([`Config::read`], called by the registry with the game's stored rules version, also when
//!   an open game created under version 1 starts later);
//! - a config stored inside a state or an event (`stored`): every option is written out since
//!   `tie_break` exists, and a stored config without it was written before the option existed,
//!   under version 1, so it reads as version 1's defaults.
//!
//! `Config::default()` is the current version's defaults, what a new game gets.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// How scheduled tickets count steps (TY-FLY-3, T1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonStepMode))]
pub enum StepMode {
    /// Exactly N orthogonal steps (the Hongkong example).
    #[default]
    Exact,
    /// Up to N steps (El Capitán's later rule).
    UpTo,
}

/// How a tie for a city's majority is broken (TY-MAJ-2, S2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonTieBreak))]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// The spec's first reading of S2, the default of rules version 1: the tied player whose
    /// earliest hotel still on the track stands lower.
    EarliestOnTrack,
    /// The seeds' wording ("der in dieser Stadt zuerst ein Hotel gebaut hat"), the default since
    /// rules version 2: the tied player who built his first hotel in the city earlier, even if
    /// that hotel is now closed.
    #[default]
    FirstBuilt,
}

/// Options fixed at creation; a field left out takes the default of the game's rules version.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonConfig))]
pub struct Config {
    pub step_mode: StepMode,
    /// Loan cards never run out (L2). With it a game ends only when players keep building.
    pub unlimited_loans: bool,
    /// Majority tie-break (TY-MAJ-2, S2). Default `first_built` (rules version 2); games
    /// created under rules version 1 keep `earliest_on_track`.
    pub tie_break: TieBreak,
}

impl Config {
    /// The options a game created under `rules_version` gets for every option left out.
    /// The registry never asks for a version after the current one ([`super::Tycoon`]'s
    /// `RULES_VERSION`); this answers such a version as the current one.
    pub fn defaults(rules_version: u32) -> Config {
        if rules_version < 2 {
            Config {
                tie_break: TieBreak::EarliestOnTrack,
                ..Config::default()
            }
        } else {
            Config::default()
        }
    }

    /// Reads a creator's config JSON as `rules_version` reads it: the options it names, the
    /// others as [`Config::defaults`] of that version.
    ///
    /// # Errors
    /// When `json` is not an object of known options with valid values (serde would take an
    /// array for the fields in order; a config is only ever an object).
    pub fn read(json: &Value, rules_version: u32) -> Result<Config, serde_json::Error> {
        crate::config::read_over(Config::defaults(rules_version), json)
    }
}

/// Reads a config stored in a state or an event (`#[serde(deserialize_with)]`): what it names,
/// the rest as rules version 1, under which every config without `tie_break` was stored.
pub(crate) fn stored<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Config, D::Error> {
    let json = Value::deserialize(deserializer)?;
    Config::read(&json, 1).map_err(serde::de::Error::custom)
}
