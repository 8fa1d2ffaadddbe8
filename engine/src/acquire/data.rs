//! Board, chain and price data, read once from `engine/rules/acquire-data.json` (next to the
//! spec, provenance block included).
//!
//! The price table is the seed's Informationskarte (SEED); rule code reads every price, bonus and
//! count from here and never repeats a number.

use serde::Deserialize;

use crate::data_file::{data_file, DataFile};
use crate::data_id::{string_ids, StringId};

/// Number of hotel chains (AQ-COMP-8); fixed by the seed's seven names.
pub const CHAIN_COUNT: usize = 7;

/// One hotel tile, by square: index `(column − 1) · rows + row`, so tiles sort by column number
/// first and row letter second, the seed's start order (AQ-SETUP-3). Serialized as `"9F"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(pub u8);

/// A hotel chain, by its index in the data file's `chains` list. Serialized as its `id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Chain(pub u8);

impl Chain {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// All seven chains in data-file order.
    pub fn all() -> impl Iterator<Item = Chain> {
        (0..CHAIN_COUNT as u8).map(Chain)
    }
}

impl Tile {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Column number, 1-based (the number printed on the tile).
    pub fn column(self) -> u8 {
        self.0 / board().rows + 1
    }

    /// Row, 0-based (0 = A).
    pub fn row(self) -> u8 {
        self.0 % board().rows
    }

    /// Orthogonal neighbours on the board (AQ-COMP-4).
    pub fn neighbours(self) -> impl Iterator<Item = Tile> {
        let b = board();
        let (col, row) = (self.0 / b.rows, self.0 % b.rows);
        let up = (row > 0).then(|| Tile(self.0 - 1));
        let down = (row + 1 < b.rows).then(|| Tile(self.0 + 1));
        let left = (col > 0).then(|| Tile(self.0 - b.rows));
        let right = (col + 1 < b.columns).then(|| Tile(self.0 + b.rows));
        [up, down, left, right].into_iter().flatten()
    }

    pub fn all() -> impl DoubleEndedIterator<Item = Tile> {
        (0..board().tile_count as u8).map(Tile)
    }
}

/// Price and both bonuses of a chain at one size (AQ-COMP-8, Info card).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Prices {
    pub price: i32,
    pub majority_bonus: i32,
    pub minority_bonus: i32,
}

#[derive(Debug, Clone, Deserialize)]
struct PriceRow {
    min: u8,
    max: Option<u8>,
    #[serde(flatten)]
    prices: Prices,
}

#[derive(Debug, Clone)]
pub struct ChainData {
    pub id: String,
    pub name: String,
    /// Price tier 1–3 (AQ-COMP-8).
    pub tier: u8,
    rows: Vec<PriceRow>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct TradeRatio {
    pub give_defunct: u8,
    pub get_survivor: u8,
}

/// Counts and amounts the seed states (AQ-COMP-*).
#[derive(Debug, Clone, Deserialize)]
pub struct Constants {
    pub players_min: usize,
    pub players_max: usize,
    pub hand_size: usize,
    pub start_tiles_per_player: usize,
    pub start_cash: i32,
    pub max_active_chains: usize,
    pub shares_per_chain: u8,
    pub max_shares_bought_per_turn: u8,
    pub founder_bonus_shares: u8,
    pub safe_size: u8,
    pub end_size: u8,
    pub trade_ratio: TradeRatio,
    pub money_unit: i32,
    pub majority_multiplier: i32,
    pub minority_multiplier: i32,
}

/// Everything printed on the board, the tiles and the Info card.
#[derive(Debug, Clone)]
pub struct Board {
    pub constants: Constants,
    pub columns: u8,
    pub rows: u8,
    pub tile_count: usize,
    row_letters: Vec<char>,
    /// Each tile's id, `"9F"`, by [`Tile::index`].
    tile_ids: Vec<String>,
    pub chains: Vec<ChainData>,
}

impl Board {
    pub fn chain(&self, chain: Chain) -> &ChainData {
        &self.chains[chain.index()]
    }

    /// Price and bonuses of `chain` at `size` tiles; `None` below 2 tiles (no chain).
    pub fn prices(&self, chain: Chain, size: u8) -> Option<Prices> {
        self.chain(chain)
            .rows
            .iter()
            .find(|r| r.min <= size && r.max.unwrap_or(u8::MAX) >= size)
            .map(|r| r.prices)
    }

    /// The price of one share of `chain` at `size` tiles, 0 for no chain.
    pub fn price(&self, chain: Chain, size: u8) -> i32 {
        self.prices(chain, size).map_or(0, |p| p.price)
    }

    fn chain_by_id(&self, id: &str) -> Option<Chain> {
        self.chains
            .iter()
            .position(|c| c.id == id)
            .map(|i| Chain(i as u8))
    }

    fn tile_by_id(&self, id: &str) -> Option<Tile> {
        let split = id.find(|c: char| !c.is_ascii_digit())?;
        let (num, letter) = id.split_at(split);
        let column: u8 = num.parse().ok()?;
        let mut letters = letter.chars();
        let letter = letters.next()?.to_ascii_uppercase();
        if letters.next().is_some() || column == 0 || column > self.columns {
            return None;
        }
        let row = self.row_letters.iter().position(|&c| c == letter)? as u8;
        Some(Tile((column - 1) * self.rows + row))
    }
}

/// The data file, compiled into the crate.
static BOARD: DataFile<Board> = data_file!("acquire-data.json", parse);

/// The board, parsed on first use.
pub fn board() -> &'static Board {
    BOARD.get()
}

/// The raw shape of the data file (only the parts the rules use).
mod raw {
    use super::{Constants, PriceRow};
    use serde::Deserialize;
    use std::collections::HashMap;

    #[derive(Deserialize)]
    pub struct File {
        pub constants: Constants,
        pub board: Board,
        pub chains: Vec<Chain>,
        pub price_table: HashMap<String, Vec<PriceRow>>,
    }
    #[derive(Deserialize)]
    pub struct Board {
        pub columns: Vec<u8>,
        pub rows: Vec<String>,
        pub tile_count: usize,
    }
    #[derive(Deserialize)]
    pub struct Chain {
        pub id: String,
        pub name: String,
        pub tier: u8,
    }
}

/// Parse and cross-check the data file.
fn parse(json: &str) -> Result<Board, String> {
    let file: raw::File = serde_json::from_str(json).map_err(|e| e.to_string())?;
    if file.chains.len() != CHAIN_COUNT {
        return Err(format!("the engine expects {CHAIN_COUNT} chains"));
    }
    let row_letters: Vec<char> = file
        .board
        .rows
        .iter()
        .map(|r| r.chars().next().ok_or("empty row name"))
        .collect::<Result<_, _>>()?;
    let columns = file.board.columns.len() as u8;
    let rows = row_letters.len() as u8;
    if usize::from(columns) * usize::from(rows) != file.board.tile_count
        || file.board.tile_count > usize::from(u8::MAX)
    {
        return Err("tile_count must be columns x rows and fit a byte".into());
    }
    let chains = file
        .chains
        .iter()
        .map(|c| {
            let rows = file
                .price_table
                .get(&format!("tier_{}", c.tier))
                .ok_or(format!("no price table for tier {}", c.tier))?
                .clone();
            Ok(ChainData {
                id: c.id.clone(),
                name: c.name.clone(),
                tier: c.tier,
                rows,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let tile_ids = (0..file.board.tile_count)
        .map(|i| {
            let (column, row) = (i / usize::from(rows) + 1, i % usize::from(rows));
            format!("{column}{}", row_letters[row])
        })
        .collect();
    Ok(Board {
        constants: file.constants,
        columns,
        rows,
        tile_count: file.board.tile_count,
        row_letters,
        tile_ids,
        chains,
    })
}

impl StringId for Chain {
    const WHAT: &'static str = "chain";
    const SCHEMA_NAME: &'static str = "AcquireChain";
    const SCHEMA_DESCRIPTION: &'static str = "An Acquire hotel chain id.";

    fn id(self) -> &'static str {
        &board().chain(self).id
    }

    fn from_id(id: &str) -> Option<Chain> {
        board().chain_by_id(id)
    }

    fn all_ids() -> impl Iterator<Item = &'static str> {
        board().chains.iter().map(|c| c.id.as_str())
    }
}

impl StringId for Tile {
    const WHAT: &'static str = "tile";
    const SCHEMA_NAME: &'static str = "AcquireTile";
    const SCHEMA_DESCRIPTION: &'static str =
        "An Acquire tile: column number 1-12 then row letter A-I, e.g. 9F.";

    fn id(self) -> &'static str {
        &board().tile_ids[self.index()]
    }

    /// Also in lower case (`9f`), as [`Tile::from_str`](std::str::FromStr) reads it.
    fn from_id(id: &str) -> Option<Tile> {
        board().tile_by_id(id)
    }

    fn all_ids() -> impl Iterator<Item = &'static str> {
        board().tile_ids.iter().map(String::as_str)
    }
}

string_ids!(Chain, Tile);

impl std::fmt::Display for Chain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&board().chain(*self).name)
    }
}

impl std::fmt::Display for Tile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl std::str::FromStr for Tile {
    type Err = String;

    fn from_str(s: &str) -> Result<Tile, String> {
        board()
            .tile_by_id(s)
            .ok_or_else(|| format!("unknown tile `{s}`"))
    }
}
