//! The options a Tycoon game is created with; every field defaults to the spec's choice.

use serde::{Deserialize, Serialize};

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

/// How a tie for a city's majority is broken (TY-MAJ-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonTieBreak))]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// The spec's S2: the tied player whose earliest hotel still on the track stands lower.
    #[default]
    EarliestOnTrack,
    /// The seeds' literal wording ("wer in dieser Stadt zuerst ein Hotel gebaut hat"): the tied
    /// player who built his first hotel in the city earlier, even if that hotel is now closed.
    FirstBuilt,
}

/// Options fixed at creation; every field has the spec's default.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonConfig))]
pub struct Config {
    pub step_mode: StepMode,
    /// Loan cards never run out (L2). With it a game ends only when players keep building.
    pub unlimited_loans: bool,
    /// Majority tie-break (TY-MAJ-2, S2).
    pub tie_break: TieBreak,
}
