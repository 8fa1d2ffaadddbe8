//! The options a Tyros game is created with (spec §12). Every field defaults to the spec's
//! choice, read from the data file; every RECONSTRUCTED value of the spec is an option here, so
//! the real rule book's values can be set without changing the engine. Each option's doc comment
//! names its provenance: SEED (the variants' text), SOURCED (published reviews) or
//! RECONSTRUCTED (a project decision).
//!
//! Rules version 2 made a bank search that finds nothing cost its cards
//! (`failed_pile_search = discard`, the amended TR-ACT-D (2)). A game keeps the rules it was
//! created under, so a config is read *as of a rules version*, as Tycoon's is: a creator's JSON
//! with that version's defaults for what it leaves out ([`Config::read`]); a config stored in a
//! state or an event without `failed_pile_search` was written under version 1 (`stored`).

use super::cards::{Card, Cards};
use super::data::{board, DesertCell, PerPlayerCount, SeaCell};
use crate::RuleError;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// How the four empires are founded (TR-SETUP-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosSetupMode))]
pub enum SetupMode {
    /// Reveal shuffled tiles; a tile next to a founded empire is set aside and redrawn (SOURCED).
    #[default]
    Random,
    /// The data file's fixture: orange 2, yellow 12, green 22, violet 30 (RECONSTRUCTED).
    Fixed,
}

/// What a player who cannot place a tile in Phase 2 does (TR-P2-4, TR-D-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosCantPlaceTile))]
pub enum CantPlaceTile {
    /// Pass and draw one tile if any remain (SOURCED, single source).
    #[default]
    PassAndDraw,
    /// Pass; the tile waits (the alternative reading of another review).
    Pass,
}

/// Where ships may be built besides one's own cities (TR-ACT-C, TR-D-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosShipyard))]
pub enum TyrosShipyard {
    /// In Tyros while the player has no city on the board (RECONSTRUCTED from a review).
    #[default]
    OnlyWhileNoCity,
    /// In Tyros at any time.
    Always,
    /// Never in Tyros.
    Never,
}

/// How the trade-card draw pile is rebuilt (TR-EOR-2, TR-RC, TR-D-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosReshuffleRule))]
pub enum ReshuffleRule {
    /// The seed's Regelkorrektur: shuffle the discards with the rest of the pile (SEED §RK).
    #[default]
    Shuffle,
    /// The base rule as the seed implies it: the discard pile turned face down, unshuffled,
    /// under the draw pile (exact procedure RECONSTRUCTED).
    FlipUnder,
}

/// What a bank search (TR-ACT-D (2)) that finds no card of the chosen colour costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosFailedPileSearch))]
pub enum FailedPileSearch {
    /// The 3 cards are discarded and the pile is shuffled, as after a search that finds one
    /// (the amended TR-ACT-D (2), rules version 2): a search cannot be repeated for free.
    #[default]
    Discard,
    /// Nothing is discarded and the pile keeps its order; the search is still the turn's
    /// action (rules version 1, which a round could not end under: see the spec's amendment).
    KeepCards,
}

/// Options fixed at creation. Unknown keys are refused; a missing key takes its default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosConfig))]
pub struct Config {
    /// Founding of the empires (TR-SETUP-2). `random` is SOURCED; `fixed` is a RECONSTRUCTED
    /// test layout (the rule book's first-game layout is unknown).
    pub setup: SetupMode,
    /// Position of the desert cell (TR-MAP-3, TR-D-1). RECONSTRUCTED; alternatives from the
    /// data file.
    pub desert_cell: DesertCell,
    /// Position of the open-sea cell (TR-MAP-3, TR-D-1). RECONSTRUCTED; alternative from the
    /// data file.
    pub sea_cell: SeaCell,
    /// Ships per player, 2 of them starting in Tyros (TR-COMP-2, TR-PIR-1). `null` means the
    /// rule's own number: 10 (SOURCED), or with Pirates 5 for 4 players and 6 for 3 (SEED §V1).
    pub ships_per_player: Option<u8>,
    /// City markers per player (TR-COMP-3). SOURCED: 10.
    pub cities_per_player: u8,
    /// Trade cards of each colour and jokers (TR-COMP-7, TR-D-2). RECONSTRUCTED: 12 each; only
    /// the total of 60 is SOURCED.
    pub trade_card_split: Cards,
    /// Jokers are wild for colour costs, the galley's "2 identical" and fights (TR-COMP-8,
    /// TR-D-14). SOURCED for colour costs; RECONSTRUCTED for "identical". Without it a joker is
    /// a colour of its own that pays only "any card" costs.
    pub jokers_wild: bool,
    /// Landscape tiles in each hand (TR-COMP-11). SOURCED: 4.
    pub tiles_in_hand: u8,
    /// Tiles each player plays per round, as laps of Phase 2 (TR-COMP-12, TR-P2-5, TR-D-3).
    /// 4 players 1 (SOURCED); 3 players 2 (RECONSTRUCTED).
    pub tiles_per_round: PerPlayerCount,
    /// What a player who cannot place does (TR-P2-4, TR-D-4). SOURCED (single source).
    pub cant_place_tile: CantPlaceTile,
    /// Trade cards dealt each round (TR-COMP-9). SOURCED: 12 with 3 players, 10 with 4.
    pub cards_dealt: PerPlayerCount,
    /// Trade cards a player may keep at round end (TR-COMP-10). SOURCED: 3.
    pub cards_kept: u8,
    /// Building ships in Tyros (TR-ACT-C, TR-D-8). RECONSTRUCTED.
    pub tyros_shipyard: TyrosShipyard,
    /// Rebuilding the trade-card draw pile (TR-EOR-2, TR-RC, TR-D-12). `shuffle` is the seed's
    /// correction (SEED §RK); `flip_under` the base rule as implied.
    pub reshuffle_rule: ReshuffleRule,
    /// Points for a city-controlled field by empire rank 1–4 (TR-SCORE-4). RECONSTRUCTED.
    pub score_city: [i32; 4],
    /// Points for a ship-controlled field by empire rank 1–4 (TR-SCORE-4). RECONSTRUCTED.
    pub score_ship: [i32; 4],
    /// Bonus of the first player with a city in every empire (TR-SCORE-5). Concept SEED
    /// §KV-2; 6 is RECONSTRUCTED; the seed's Kleinvariante 2 raises it to 9 (TR-K2).
    pub bonus_city_in_all_empires: i32,
    /// Kleinvariante 1a: trade with the bank at most once per player and round (TR-K1, SEED
    /// §KV-1).
    pub bank_trade_once_per_round: bool,
    /// Kleinvariante 1b: trade with a player is no action; once per own turn, before or after
    /// the action, the active player may make one trade (TR-K1, SEED §KV-1; timing
    /// RECONSTRUCTED).
    pub player_trade_free: bool,
    /// Variant 1, Pirates! (SEED §V1, spec §7).
    pub pirates: bool,
    /// Variant 2, action cards (SEED §V2, spec §8).
    pub action_cards: bool,
    /// Variant 3, war galleys (SEED §V3, spec §9); with `pirates` the combination rules of
    /// SEED §Komb (spec §10) apply.
    pub galleys: bool,
    /// What a bank search that finds nothing costs (TR-ACT-D (2)). SOURCED rule (rds, as
    /// amended: the cards are spent either way). Default `discard` (rules version 2); games
    /// created under rules version 1 keep `keep_cards`, RECONSTRUCTED by the first rules version.
    pub failed_pile_search: FailedPileSearch,
    /// First round in which "Der Entdecker" may be played (TR-AK-6, TR-D-15). SEED rule text:
    /// 3 (the seed's card template says 2).
    pub explorer_from_round: u8,
}

impl Default for Config {
    fn default() -> Self {
        let b = board();
        let c = &b.constants;
        Config {
            setup: SetupMode::Random,
            desert_cell: DesertCell::default(),
            sea_cell: SeaCell::default(),
            ships_per_player: None,
            cities_per_player: c.cities_per_player,
            trade_card_split: c.trade_card_split,
            jokers_wild: c.jokers_wild,
            tiles_in_hand: c.tiles_in_hand,
            tiles_per_round: c.tiles_per_round,
            cant_place_tile: CantPlaceTile::PassAndDraw,
            cards_dealt: c.cards_dealt,
            cards_kept: c.cards_kept,
            tyros_shipyard: TyrosShipyard::OnlyWhileNoCity,
            reshuffle_rule: ReshuffleRule::Shuffle,
            score_city: b.scoring.city_control_by_rank,
            score_ship: b.scoring.ship_control_by_rank,
            bonus_city_in_all_empires: b.scoring.bonus_city_in_all_empires,
            bank_trade_once_per_round: false,
            player_trade_free: false,
            pirates: false,
            action_cards: false,
            galleys: false,
            explorer_from_round: b.action_card("entdecker").rounds_from,
            failed_pile_search: FailedPileSearch::Discard,
        }
    }
}

impl Config {
    /// The options a game created under `rules_version` gets for every option left out.
    /// The registry never asks for a version after the current one ([`super::Tyros`]'s
    /// `RULES_VERSION`); this answers such a version as the current one.
    pub fn defaults(rules_version: u32) -> Config {
        if rules_version < 2 {
            Config {
                failed_pile_search: FailedPileSearch::KeepCards,
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
/// the rest as rules version 1, under which every config without `failed_pile_search` was
/// stored.
pub(crate) fn stored<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Config, D::Error> {
    let json = Value::deserialize(deserializer)?;
    Config::read(&json, 1).map_err(serde::de::Error::custom)
}

impl Config {
    /// Ships each player owns (TR-COMP-2, TR-PIR-1).
    pub fn ships_per_player(&self, players: usize) -> u8 {
        self.ships_per_player.unwrap_or_else(|| {
            if self.pirates {
                board()
                    .variants
                    .pirates
                    .ships_per_player
                    .for_players(players)
            } else {
                board().constants.ships_per_player
            }
        })
    }

    /// Galleys + Pirates: the combination rules of spec §10 apply.
    pub fn combined(&self) -> bool {
        self.pirates && self.galleys
    }

    /// Whether a card of colour `card` may pay a cost of colour `need` (TR-COMP-8).
    pub fn pays_colour(&self, card: Card, need: Card) -> bool {
        card == need || (self.jokers_wild && card == Card::Joker)
    }

    /// Refuses a configuration the rules cannot play with `players` seats.
    ///
    /// # Errors
    /// `invalid_config` naming the contradiction.
    pub fn validate(&self, players: usize) -> Result<(), RuleError> {
        let b = board();
        let c = &b.constants;
        let refuse = |why: String| Err(RuleError::bad_config(why));
        let ships = self.ships_per_player(players);
        if ships < c.ships_in_tyros_at_start {
            return refuse(format!(
                "ships_per_player {ships} is below the {} ships that start in Tyros (TR-SETUP-1)",
                c.ships_in_tyros_at_start
            ));
        }
        let playable = usize::from(c.landscape_tiles - c.founding_tiles);
        if self.tiles_in_hand == 0 || usize::from(self.tiles_in_hand) * players > playable {
            return refuse(format!(
                "tiles_in_hand must be 1 to {} with {players} players (TR-SETUP-3)",
                playable / players
            ));
        }
        if self.tiles_per_round.for_players(players) == 0 {
            return refuse("tiles_per_round must be at least 1 (TR-P2-5)".into());
        }
        let total = self.trade_card_split.total();
        if total == 0 || total > 200 {
            return refuse(format!(
                "trade_card_split must hold 1 to 200 cards, not {total} (TR-COMP-7)"
            ));
        }
        if self.explorer_from_round == 0 {
            return refuse("explorer_from_round counts rounds from 1 (TR-AK-6)".into());
        }
        if self.setup == SetupMode::Fixed {
            let map = b.map(self.desert_cell, self.sea_cell);
            let f = b.first_game_setup;
            for (i, a) in f.iter().enumerate() {
                if f[i + 1..].iter().any(|x| map.adjacent(a.cell(), x.cell())) {
                    return refuse(
                        "setup = fixed: the fixture's founding fields touch on this map \
                         (TR-SETUP-2)"
                            .into(),
                    );
                }
            }
        }
        Ok(())
    }
}
