//! The options a Monopoly game is created with (spec §16); every field defaults to the spec's
//! choice and unknown keys are refused.

use super::data::board;
use crate::RuleError;
use serde::{Deserialize, Serialize};

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

/// Options fixed at creation (spec §16); every field has the spec's default.
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
    /// Opening bid of a building-shortage auction, at least 1 (MO-BUILD-8).
    pub building_auction_min_bid: i64,
    /// Rounding of the 10 % mortgage interest (MO-D-12).
    pub interest_rounding: InterestRounding,
    /// The card deck (MO-D-15).
    pub deck: DeckChoice,
    /// End after this many full rounds, ranked by net worth (MO-END-2); `null`: play to the
    /// last solvent player.
    pub round_limit: Option<u32>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            players: None,
            start_money: board().constants.start_money,
            auto_collect_rent: false,
            count_mortgaged_for_rail_util: true,
            building_auction_min_bid: 1,
            interest_rounding: InterestRounding::Up,
            deck: DeckChoice::HasbroDeDu,
            round_limit: None,
        }
    }
}

/// The largest start money accepted: keeps every sum of the game far inside `i64`.
const MAX_START_MONEY: i64 = 1_000_000;

impl Config {
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
