//! The options an Acquire game is created with; every field defaults to the spec's choice.

use serde::{Deserialize, Serialize};

/// When the end may be announced (AQ-D1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireEndRule))]
pub enum EndRule {
    /// All 7 chains on the board with 11+ tiles each, or one with 41+ (HK §5).
    #[default]
    Seed,
    /// Every chain on the board is safe, or one has 41+ (the usual English rules).
    Standard,
}

/// Which defunct chain of a multi-chain merger is settled first (AQ-D2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireDefunctOrder))]
pub enum DefunctOrder {
    /// The seed's order (HK §4.5).
    #[default]
    #[serde(alias = "smallestFirst")]
    SmallestFirst,
    /// The usual English rules' order.
    #[serde(alias = "largestFirst")]
    LargestFirst,
}

/// Options fixed at creation (the data file's `options`); every field has the spec's default.
/// The spec's camelCase names are accepted as aliases.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireConfig))]
pub struct Config {
    #[serde(alias = "endRule")]
    pub end_rule: EndRule,
    #[serde(alias = "defunctOrder")]
    pub defunct_order: DefunctOrder,
    /// Hide other players' cash and share totals (AQ-INFO-3, AQ-D6). A memory rule, not
    /// secrecy: the totals are hidden in views and in `states/{seq}` until the end, while each
    /// purchase, sale, trade, founder's share and bonus stays visible in the event log, as at
    /// the table (the public bank stock reveals them anyway).
    #[serde(alias = "hiddenHoldings")]
    pub hidden_holdings: bool,
}
