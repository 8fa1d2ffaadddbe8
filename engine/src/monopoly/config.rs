//! The options a Monopoly game is created with (spec §16), and how each rules version reads
//! them. Unknown keys are refused.
//!
//! Rules version 2 (issue 24) changed two behaviours, each now an option whose default depends
//! on the version: offers stand on the deeds as they were made (`trade_offers`, MO-TRADE-2,
//! MO-TRADE-4) and inherited mortgage interest is settled deed by deed (`inherited_interest`,
//! MO-BANKR-2). It also added `utility_rent_dice` (MO-RENT-7), whose default is what every
//! version did. A game keeps the rules it was created under, so a config is always read *as of
//! a rules version*:
//!
//! - a creator's config JSON: the options it names, the others as that version's defaults
//!   ([`Config::read`], called by the registry with the game's stored rules version, also when
//!   an open game created under version 1 starts later);
//! - a config stored inside a state or an event (`stored`): every option is written out since
//!   version 2, and a stored config without the version-2 options was written under version 1,
//!   so what it leaves out reads as version 1's defaults.
//!
//! `Config::default()` is the current version's defaults, what a new game gets.

use super::data::board;
use crate::RuleError;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// How 10 % interest on a mortgage value is rounded to whole M (MO-D-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyInterestRounding))]
pub enum InterestRounding {
    /// MV 75 → interest 8, MV 175 → 18 (the spec's default).
    #[default]
    Up,
    Down,
}

/// The card deck (MO-D-15). Only the du-form deck of the data file is provided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyDeckChoice))]
pub enum DeckChoice {
    #[default]
    #[serde(rename = "hasbro-de-du")]
    HasbroDeDu,
}

/// Where the dice for a Werk's rent come from (MO-RENT-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyUtilityRentDice))]
pub enum UtilityRentDice {
    /// The payer rolls both dice afresh when the rent falls due (the seed's wording, "Werfen
    /// Sie beide Würfel"); the default of every rules version.
    #[default]
    Roll,
    /// The dice of the move that landed there, as most English-language rule books read it; a
    /// player who arrived without a dice roll rolls.
    Move,
}

/// What an offer stands on between being made and being accepted (MO-TRADE-2, MO-TRADE-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyTradeOffers))]
pub enum TradeOffers {
    /// The default since rules version 2: an offer moves something, the proposer can pay its
    /// side when making it, and it stands on the deeds as they were: when a deed it names is
    /// mortgaged, lifted, built on or changes owner, the offer lapses (`trade_lapsed`).
    #[default]
    AsMade,
    /// Rules version 1: any offer is taken, and acceptance executes it on the deeds as they
    /// are then (a deed mortgaged or lifted meanwhile changes hands as it is now).
    AsAccepted,
}

/// How the creditor of a bankrupt pays the interest on the mortgages it keeps (MO-BANKR-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyInheritedInterest))]
pub enum InheritedInterest {
    /// The default since rules version 2: deed by deed in square order; each deed's interest
    /// the creditor's cash covers is paid at once, each one it does not cover becomes its own
    /// debt to the bank.
    #[default]
    PerDeed,
    /// Rules version 1: one payment of the whole interest, or one debt to the bank of the
    /// whole interest when the cash does not cover it.
    InTotal,
}

/// Options fixed at creation (spec §16); a field left out takes the default of the game's
/// rules version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyConfig))]
pub struct Config {
    /// The seat count, 2–6 (MO-COMP-1). Optional: the table's seats decide; when given it must
    /// equal them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<u8>,
    /// Money each player starts with (MO-SETUP-1), 1 to 1,000,000.
    pub start_money: i64,
    /// Rent is paid on landing, without a claim (MO-RENT-2). Default: the seed's claim rule.
    pub auto_collect_rent: bool,
    /// Mortgaged Bahnhöfe and Werke count towards the owner's rent level (MO-D-4).
    pub count_mortgaged_for_rail_util: bool,
    /// The dice of a Werk's rent: rolled for it (`roll`, the seed's wording) or the move's
    /// (`move`) (MO-RENT-7).
    pub utility_rent_dice: UtilityRentDice,
    /// Opening bid of a building-shortage auction, at least 1 (MO-BUILD-8).
    pub building_auction_min_bid: i64,
    /// Rounding of the 10 % mortgage interest (MO-D-12).
    pub interest_rounding: InterestRounding,
    /// The card deck (MO-D-15).
    pub deck: DeckChoice,
    /// End after this many full rounds, ranked by net worth (MO-END-2); `null`: play to the
    /// last solvent player.
    pub round_limit: Option<u32>,
    /// Offers stand on the deeds as made and lapse when one changes (`as_made`, the default
    /// since rules version 2), or are executed as things are at acceptance (`as_accepted`,
    /// version 1) (MO-TRADE-2, MO-TRADE-4).
    pub trade_offers: TradeOffers,
    /// Interest on inherited mortgages paid deed by deed (`per_deed`, the default since rules
    /// version 2) or as one sum (`in_total`, version 1) (MO-BANKR-2).
    pub inherited_interest: InheritedInterest,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            players: None,
            start_money: board().constants.start_money,
            auto_collect_rent: false,
            count_mortgaged_for_rail_util: true,
            utility_rent_dice: UtilityRentDice::Roll,
            building_auction_min_bid: 1,
            interest_rounding: InterestRounding::Up,
            deck: DeckChoice::HasbroDeDu,
            round_limit: None,
            trade_offers: TradeOffers::AsMade,
            inherited_interest: InheritedInterest::PerDeed,
        }
    }
}

/// The largest start money accepted: keeps every sum of the game far inside `i64`.
const MAX_START_MONEY: i64 = 1_000_000;

impl Config {
    /// The options a game created under `rules_version` gets for every option left out.
    /// The registry never asks for a version after the current one ([`super::Monopoly`]'s
    /// `RULES_VERSION`); this answers such a version as the current one.
    pub fn defaults(rules_version: u32) -> Config {
        if rules_version < 2 {
            Config {
                trade_offers: TradeOffers::AsAccepted,
                inherited_interest: InheritedInterest::InTotal,
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

    /// Refuses values outside their range, and a `players` that differs from the seat count.
    ///
    /// # Errors
    /// [`RuleError::bad_config`] naming the option.
    pub fn validate(&self, seats: usize) -> Result<(), RuleError> {
        if let Some(players) = self.players {
            if usize::from(players) != seats {
                return Err(RuleError::bad_config(format!(
                    "players is {players} but the table has {seats} seats"
                )));
            }
        }
        if !(1..=MAX_START_MONEY).contains(&self.start_money) {
            return Err(RuleError::bad_config(format!(
                "start_money must be 1 to {MAX_START_MONEY}, not {}",
                self.start_money
            )));
        }
        if !(1..=MAX_START_MONEY).contains(&self.building_auction_min_bid) {
            return Err(RuleError::bad_config(format!(
                "building_auction_min_bid must be 1 to {MAX_START_MONEY}, not {}",
                self.building_auction_min_bid
            )));
        }
        if self.round_limit == Some(0) {
            return Err(RuleError::bad_config(
                "round_limit must be at least 1 (or null for no limit)",
            ));
        }
        Ok(())
    }

    /// 10 % of a mortgage value, rounded as configured (MO-COMP-10, MO-D-12).
    pub fn interest(&self, mortgage_value: i64) -> i64 {
        let percent = board().constants.mortgage_interest_percent;
        let tenths = mortgage_value * percent;
        match self.interest_rounding {
            InterestRounding::Up => (tenths + 99) / 100,
            InterestRounding::Down => tenths / 100,
        }
    }
}

/// Reads a config stored in a state or an event (`#[serde(deserialize_with)]`): what it names,
/// the rest as rules version 1, under which every config without the version-2 options was
/// stored.
pub(crate) fn stored<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Config, D::Error> {
    let json = Value::deserialize(deserializer)?;
    Config::read(&json, 1).map_err(serde::de::Error::custom)
}
