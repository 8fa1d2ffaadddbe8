//! The full Acquire state, secrets (hands and the pile order) included. Only `evolve` changes it.

use super::config::Config;
use super::data::{board, Chain, Tile, CHAIN_COUNT};
use crate::{Outcome, Seat};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub config: Config,
    pub players: Vec<Player>,
    /// One cell per square, indexed by [`Tile::index`].
    pub cells: Vec<Cell>,
    /// Indexed by [`Chain::index`].
    pub chains: [ChainState; CHAIN_COUNT],
    /// The face-down draw pile; the last tile is the top. Secret until the game ends.
    pub bag: Vec<Tile>,
    /// Tiles out of the game: dead tiles turned in (AQ-DEAD-1), unplayable bank tiles
    /// (AQ-2P-6) and the bank's final-scoring tiles (AQ-2P-9). Public.
    pub removed: Vec<Tile>,
    /// Two players: tiles drawn for the bank during this turn's mergers, waiting to be placed
    /// in draw order (AQ-2P-5). Public.
    pub bank_tiles: Vec<Tile>,
    pub stage: Stage,
    /// The merger being settled, if any (AQ-MERGE).
    pub merger: Option<Merger>,
    /// Turns in a row in which no tile was placed and none drawn (AQ-END-5).
    pub idle_turns: u8,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquirePlayer))]
pub struct Player {
    pub cash: i32,
    /// Shares held, indexed like the data file's chains.
    pub shares: [u8; CHAIN_COUNT],
    /// Tiles in hand: secret to everyone but this seat (AQ-COMP-5).
    pub hand: Vec<Tile>,
}

/// One square of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cell {
    Empty,
    /// A placed tile that belongs to no chain.
    Unincorporated,
    Chain(Chain),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ChainState {
    /// Tiles on the board; 0 while the chain is not active.
    pub size: u8,
    /// Shares still in the bank (AQ-INFO-1).
    pub bank_shares: u8,
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireStage))]
pub enum Stage {
    /// Before the setup events are folded.
    Setup,
    /// A player's turn.
    Turn(Turn),
    Finished,
}

/// The active player's progress through his turn (AQ-TURN-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireTurn))]
pub struct Turn {
    pub seat: Seat,
    pub step: Step,
    /// A tile was placed this turn (AQ-DRAW-1).
    pub placed: bool,
    /// Shares bought this turn (AQ-COMP-12).
    pub bought: u8,
    /// The player announced the end (AQ-END-1).
    pub announced: bool,
    /// A tile was drawn this turn (AQ-END-5).
    pub drew: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireStep))]
pub enum Step {
    /// Place a tile (AQ-PLACE-1).
    Place,
    /// A merger is being settled: see [`State::merger`] for who decides what.
    Merger,
    /// Optionally announce the end, buy up to 3 shares, then end the turn (AQ-END-1, AQ-BUY).
    Buy,
}

/// A chain with the size that counts for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireChainSize))]
pub struct ChainSize {
    pub chain: Chain,
    pub size: u8,
}

/// A merger in progress (AQ-MERGE-1..7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireMerger))]
pub struct Merger {
    /// The merger maker: the seat whose turn it is (AQ-2P-8: also for a bank tile).
    pub maker: Seat,
    /// The merging tile, already on the board.
    pub tile: Tile,
    /// Every chain the tile touched, with its size before the merger (AQ-MERGE-1).
    pub chains: Vec<ChainSize>,
    /// `null` while the maker must choose among equal largest chains (AQ-MERGE-2).
    pub survivor: Option<Chain>,
    /// The settling order is fixed (AQ-MERGE-4); until then the maker must order equal chains.
    pub ordered: bool,
    /// Defunct chains not yet absorbed, in settling order; the first is being settled.
    pub defuncts: Vec<ChainSize>,
    /// Bonuses of the first defunct are paid and its holders are disposing (AQ-MERGE-5).
    pub settling: bool,
    /// Holders still to decide on the first defunct's shares, in order (AQ-DISP-1).
    pub disposers: Vec<Seat>,
}

impl State {
    /// The state before the setup events.
    pub fn empty() -> State {
        State {
            config: Config::default(),
            players: Vec::new(),
            cells: Vec::new(),
            chains: [ChainState::default(); CHAIN_COUNT],
            bag: Vec::new(),
            removed: Vec::new(),
            bank_tiles: Vec::new(),
            stage: Stage::Setup,
            merger: None,
            idle_turns: 0,
            outcome: None,
        }
    }

    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        Seat::all(self.players.len())
    }

    pub fn cell(&self, tile: Tile) -> Cell {
        self.cells[tile.index()]
    }

    pub fn chain(&self, chain: Chain) -> &ChainState {
        &self.chains[chain.index()]
    }

    pub fn chain_mut(&mut self, chain: Chain) -> &mut ChainState {
        &mut self.chains[chain.index()]
    }

    /// On the board (AQ-COMP-8 terms: active).
    pub fn is_active(&self, chain: Chain) -> bool {
        self.chain(chain).size > 0
    }

    /// Safe chains have 11 or more tiles (AQ-COMP-10).
    pub fn is_safe(&self, chain: Chain) -> bool {
        self.chain(chain).size >= board().constants.safe_size
    }

    pub fn active_chains(&self) -> impl Iterator<Item = Chain> + '_ {
        Chain::all().filter(|&c| self.is_active(c))
    }

    /// The current share price of an active chain (AQ-BUY-2); 0 when inactive.
    pub fn price(&self, chain: Chain) -> i32 {
        board().price(chain, self.chain(chain).size)
    }

    pub fn two_player(&self) -> bool {
        self.players.len() == 2
    }

    /// The seat after `seat`, clockwise (AQ-TURN-2).
    pub fn next_seat(&self, seat: Seat) -> Seat {
        seat.next(self.players.len())
    }

    pub fn turn(&self) -> Option<&Turn> {
        match &self.stage {
            Stage::Turn(turn) => Some(turn),
            _ => None,
        }
    }

    pub fn turn_mut(&mut self) -> Option<&mut Turn> {
        match &mut self.stage {
            Stage::Turn(turn) => Some(turn),
            _ => None,
        }
    }
}
