//! What happened, in the past tense, chance outcomes included. The JSON form is stable: stored
//! logs are replayed by later versions, so variants and fields are only ever added.

use super::config::Config;
use super::data::{Chain, Tile};
use super::state::ChainSize;
use crate::{Outcome, Seat};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireEvent))]
pub enum Event {
    /// Each seat gets its start cash; the bank holds every share (AQ-SETUP-1).
    GameStarted {
        players: u8,
        config: Config,
    },
    /// The draw pile was formed in this order, top tile last (AQ-SETUP-1). `order` is secret:
    /// redacted to `null` for every viewer until the game ends.
    TilesShuffled {
        tiles: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        order: Option<Vec<Tile>>,
    },
    /// A start tile was drawn and placed at once, founding nothing (AQ-SETUP-2).
    StartTilePlaced {
        seat: Seat,
        tile: Tile,
    },
    /// The top tile of the pile went into a hand. `tile` is shown only to `seat`; everyone else
    /// gets the event with `tile: null` (AQ-INFO-2).
    TileDrawn {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tile: Option<Tile>,
    },
    TurnStarted {
        seat: Seat,
    },
    /// The player holds no playable tile and goes on to buying (AQ-PLACE-4).
    PlacementSkipped {
        seat: Seat,
    },
    /// A tile from the hand went onto its square, unincorporated for now (AQ-PLACE-2).
    TilePlaced {
        seat: Seat,
        tile: Tile,
    },
    /// A new chain: the placed tile and its whole unincorporated group (AQ-FOUND-1..3).
    /// `free_share` is false when the bank had none left (AQ-FOUND-3).
    ChainFounded {
        seat: Seat,
        chain: Chain,
        tiles: Vec<Tile>,
        free_share: bool,
    },
    /// Tiles joined an active chain (AQ-PLACE-2 "grow", AQ-2P-8).
    ChainGrew {
        chain: Chain,
        tiles: Vec<Tile>,
    },
    /// `tile` touched several chains; their sizes before the merger count (AQ-MERGE-1).
    MergerStarted {
        maker: Seat,
        tile: Tile,
        chains: Vec<ChainSize>,
    },
    /// The survivor, the unique largest chain or the maker's choice (AQ-MERGE-2).
    SurvivorChosen {
        chain: Chain,
    },
    /// The defunct chains in settling order (AQ-MERGE-4).
    DefunctsOrdered {
        order: Vec<ChainSize>,
    },
    /// Two players: a tile drawn for the bank; its column number is the bank's phantom holding
    /// (AQ-2P-2, AQ-2P-9). `tile` is `null` when the pile was empty (holding 0). Merger tiles
    /// wait to be placed (`placed_later`); final-scoring tiles leave the game.
    BankTileDrawn {
        chain: Chain,
        tile: Option<Tile>,
        holding: u8,
        placed_later: bool,
    },
    /// Majority and minority bonuses of `chain` at `size` (AQ-BONUS). `payouts` are paid;
    /// `bank_award` is what fell to the two-player bank and is not paid (AQ-BONUS-6).
    BonusesPaid {
        chain: Chain,
        size: u8,
        payouts: Vec<Payout>,
        bank_holding: Option<u8>,
        bank_award: i32,
    },
    /// The holders of a defunct chain who decide in turn, maker first (AQ-DISP-1).
    DisposalStarted {
        chain: Chain,
        holders: Vec<Seat>,
    },
    /// One holder's decision (AQ-DISP-2): `sold` at `price` each for `proceeds`, `traded` for
    /// `traded / 2` shares of `survivor`, the rest kept.
    SharesDisposed {
        seat: Seat,
        chain: Chain,
        survivor: Chain,
        sold: u8,
        traded: u8,
        kept: u8,
        price: i32,
        proceeds: i32,
    },
    /// The defunct chain's tiles joined the survivor; its name is free (AQ-MERGE-6).
    ChainAbsorbed {
        defunct: Chain,
        survivor: Chain,
        tiles: Vec<Tile>,
    },
    /// The merging tile and its unincorporated group joined the survivor (AQ-MERGE-6).
    MergerCompleted {
        survivor: Chain,
        tiles: Vec<Tile>,
    },
    /// Two players: a bank tile went onto its square (AQ-2P-5, AQ-2P-7, AQ-2P-8).
    BankTilePlaced {
        tile: Tile,
    },
    /// Two players: an unplayable bank tile left the game (AQ-2P-6).
    BankTileSetAside {
        tile: Tile,
    },
    /// The player announced the end (AQ-END-1).
    EndAnnounced {
        seat: Seat,
    },
    ShareBought {
        seat: Seat,
        chain: Chain,
        price: i32,
    },
    /// A permanently unplayable tile was shown and left the game (AQ-DEAD-1).
    DeadTileRemoved {
        seat: Seat,
        tile: Tile,
    },
    TurnEnded {
        seat: Seat,
    },
    /// Final scoring begins: after an announcement, or after a full idle round (AQ-END-5).
    FinalScoringStarted {
        reason: EndReason,
    },
    /// At the end every share of an active chain is sold at its current price (AQ-END-4).
    SharesSold {
        seat: Seat,
        chain: Chain,
        count: u8,
        price: i32,
        proceeds: i32,
    },
    GameEnded {
        outcome: Outcome,
    },
}

/// One paid bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquirePayout))]
pub struct Payout {
    pub seat: Seat,
    pub shares: u8,
    pub amount: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireEndReason))]
pub enum EndReason {
    /// A player announced the end (AQ-END-1).
    Announced,
    /// A full round passed with no tile placed and none drawn (AQ-END-5).
    Stalled,
}
