//! What happened, in the past tense, chance outcomes included. The JSON form is stable: stored
//! logs are replayed by later versions, so variants and fields are only ever added.
//!
//! Fields that carry a secret are `Option`s: the log holds them, and `redact` empties them for
//! every viewer who may not see them (TR-D-20).

use super::cards::{Card, Cards, Empire};
use super::config::{Config, ReshuffleRule};
use super::data::{Cell, Tile};
use super::state::{ActionCard, Due, DueReason, ScoreSheet, ShipId};
use crate::{Outcome, Seat};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosEvent))]
pub enum Event {
    /// Ships, cities and cards handed out; 2 ships of each player in Tyros (TR-SETUP-1).
    GameStarted {
        players: u8,
        #[serde(deserialize_with = "super::config::stored")]
        config: Config,
    },
    /// The tile pile in this order, top last. `order` is secret (TR-SETUP-2, TR-SETUP-3).
    TilePileShuffled {
        tiles: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        order: Option<Vec<Tile>>,
    },
    /// A revealed tile founded an empire; `set_aside` were revealed before it and touched an
    /// empire already founded (TR-SETUP-2).
    EmpireFounded {
        empire: Empire,
        field: Cell,
        set_aside: Vec<Tile>,
    },
    /// Tiles dealt from the pile; `tiles` only for the seat itself (TR-SETUP-3).
    TilesDealt {
        seat: Seat,
        count: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tiles: Option<Vec<Tile>>,
    },
    /// The trade-card draw pile in this order, top last; `order` is secret (TR-SETUP-4,
    /// TR-ACT-D).
    DrawPileShuffled {
        cards: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        order: Option<Vec<Card>>,
    },
    /// TR-SETUP-5.
    StartPlayerChosen {
        seat: Seat,
    },
    /// A round begins; the start player has passed left (TR-EOR-3).
    RoundStarted {
        round: u8,
        start_player: Seat,
    },
    /// Cards drawn from the top of the draw pile; `cards` only for the seat itself (TR-P1-1).
    CardsDrawn {
        seat: Seat,
        count: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    /// The discard pile went back into the draw pile (TR-EOR-2, TR-RC). `order` is the new
    /// pile after a shuffle (secret); `flip_under` needs none.
    DrawPileRebuilt {
        rule: ReshuffleRule,
        cards: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        order: Option<Vec<Card>>,
    },
    /// Phase 2 begins (TR-P2-1).
    ExpansionStarted,
    /// A tile from the hand joined its field to `empire` (TR-P2-1, TR-P2-2).
    TilePlaced {
        seat: Seat,
        tile: Tile,
        empire: Empire,
    },
    /// The top tile of the pile went into a hand; `tile` only for the seat itself.
    TileDrawn {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tile: Option<Tile>,
    },
    /// The seat played no tile in this step (TR-P2-4, TR-P2-5).
    PlacementSkipped {
        seat: Seat,
        reason: SkipReason,
    },
    /// Pirates: a random tile of the hand went into the pile for a random one from it
    /// (TR-PIR-2); both only for the seat itself.
    TilesSwapped {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        returned: Option<Tile>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drawn: Option<Tile>,
    },
    /// Pirates: no blind swap, because the pile is empty or holds no placeable tile (TR-PIR-2).
    TileSwapSkipped {
        seat: Seat,
        reason: SwapSkipReason,
    },
    /// A whole Phase 2 placed and drew no tile: each player draws one (TR-P2-7).
    NoProgressDraws,
    /// The tile pile is empty and a player holds no tile: this round is the last (TR-END-1).
    LastRoundReached {
        round: u8,
    },
    /// The pirate phase begins (TR-PIR-3).
    PiratePhaseStarted,
    /// A pirate was put on the field of a tile drawn from the used pool (TR-PIR-3).
    PirateAppeared {
        field: Cell,
        sinks_at_turn_start: bool,
    },
    /// The used pool was empty: no pirate this round (TR-PIR-3).
    NoPirate,
    /// A pirate was sunk; its tile is back in the used pool (TR-PIR-5, TR-PIR-6, TR-COMB-3).
    PirateSunk {
        field: Cell,
        points: Vec<Points>,
    },
    /// The action phase begins (TR-ACT-0).
    ActionPhaseStarted,
    TurnStarted {
        seat: Seat,
        number: u32,
    },
    /// Card payments now owed, in the order they are paid.
    DuesOwed {
        dues: Vec<Due>,
    },
    /// The first due was paid with `cards`, to `to` (`null`: the discard pile).
    DuePaid {
        seat: Seat,
        cards: Cards,
        to: Option<Seat>,
        reason: DueReason,
    },
    /// Action A (TR-ACT-A): the ship entered `path`, the destination last. `fight_with` is
    /// the rival galley a galley fight will be fought with (TR-GAL-5).
    ShipMoved {
        seat: Seat,
        ship: ShipId,
        from: Cell,
        path: Vec<Cell>,
        wind: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fight_with: Option<ShipId>,
    },
    /// The explorer's voyage (TR-AK-6, TR-AK-7).
    ExplorerSailed {
        seat: Seat,
        ship: ShipId,
        from: Cell,
        path: Vec<Cell>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fight_with: Option<ShipId>,
    },
    /// Action B: a city on `field`; `ship` went back to the supply (TR-ACT-B).
    CityFounded {
        seat: Seat,
        field: Cell,
        ship: ShipId,
    },
    /// The first player with a city in every empire (TR-SCORE-5).
    BonusEarned {
        seat: Seat,
        points: i32,
    },
    /// Action C (TR-ACT-C, TR-GAL-2).
    ShipBuilt {
        seat: Seat,
        ship: ShipId,
        at: Cell,
        galley: bool,
    },
    /// Action D taken (TR-ACT-D, TR-K1 a).
    BankTraded {
        seat: Seat,
        form: BankForm,
    },
    /// Cards from a hand to the discard pile, face up.
    CardsDiscarded {
        seat: Seat,
        cards: Cards,
        reason: DiscardReason,
    },
    /// Bank trade (2): the card taken out of the draw pile (TR-ACT-D).
    CardTakenFromPile {
        seat: Seat,
        card: Card,
    },
    /// Bank trade (2): the draw pile held no card of `colour`. Under `failed_pile_search =
    /// discard` (rules version 2) the 3 cards were discarded before it and the pile is shuffled
    /// after it; under `keep_cards` nothing was exchanged.
    PileSearchFailed {
        seat: Seat,
        colour: Empire,
    },
    /// TR-ACT-E, public (TR-D-10).
    TradeOffered {
        from: Seat,
        to: Seat,
        give: Cards,
        get: Cards,
    },
    TradeAccepted {
        from: Seat,
        to: Seat,
        give: Cards,
        get: Cards,
    },
    TradeRejected {
        from: Seat,
        to: Seat,
    },
    TradeWithdrawn {
        from: Seat,
        to: Seat,
    },
    /// Action F (TR-AK-2).
    ActionCardPlayed {
        seat: Seat,
        card: ActionCard,
    },
    /// A laid-out card did its work and left the game (TR-AK-4, TR-AK-7).
    ActionCardUsed {
        seat: Seat,
        card: ActionCard,
    },
    /// A laid-out "Günstiger Wind" not used this round is lost (TR-AK-4).
    ActionCardLost {
        seat: Seat,
        card: ActionCard,
    },
    /// "Blockadebrecher" (TR-AK-5).
    ShipRelocated {
        seat: Seat,
        ship: ShipId,
        from: Cell,
        to: Cell,
    },
    /// A galley sank a rival normal ship (TR-GAL-4).
    ShipSunk {
        seat: Seat,
        galley: ShipId,
        ship: ShipId,
    },
    /// A galley reached a rival galley's field (TR-GAL-5).
    FightStarted {
        field: Cell,
        attacker: ShipId,
        defender: ShipId,
    },
    /// Cards laid face down; `cards` only for the seat itself until both are laid.
    FightCardsLaid {
        seat: Seat,
        count: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    /// Both sides' cards shown (TR-GAL-5). `choices` are the winner's equal largest groups when
    /// it must choose which to discard.
    FightRevealed {
        attacker_cards: Cards,
        defender_cards: Cards,
        winner: Option<Seat>,
        choices: Vec<Cards>,
    },
    /// The fight's outcome: the winner discarded `discarded`; the loser's `sunk` ship and its
    /// token went to its supply; on a tie (`winner: null`) both ships became normal ships.
    FightResolved {
        winner: Option<Seat>,
        discarded: Cards,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sunk: Option<ShipId>,
    },
    /// TR-ACT-P.
    Passed {
        seat: Seat,
    },
    TurnEnded {
        seat: Seat,
        passed: bool,
    },
    /// Everyone passed in succession (TR-ACT-0).
    ActionPhaseEnded,
    /// A sealed keep choice (TR-EOR-1); `cards` only for the seat itself.
    KeepChosen {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    GameEnded {
        outcome: Outcome,
        scores: Vec<ScoreSheet>,
    },
}

/// Points scored by one seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosPoints))]
pub struct Points {
    pub seat: Seat,
    pub points: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosSkipReason))]
pub enum SkipReason {
    /// No tile in hand (TR-P2-5).
    NoTiles,
    /// No tile in hand can be placed (TR-P2-4, TR-PIR-2).
    CannotPlace,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosSwapSkipReason))]
pub enum SwapSkipReason {
    PileEmpty,
    /// No tile in the pile could be placed now.
    NoUsableTile,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosBankForm))]
pub enum BankForm {
    /// Discard 1–3, draw as many.
    Swap,
    /// Discard 3, take a chosen colour.
    Pick,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosDiscardReason))]
pub enum DiscardReason {
    BankTrade,
    /// Cards beyond those kept at round end (TR-EOR-1).
    RoundEnd,
}
