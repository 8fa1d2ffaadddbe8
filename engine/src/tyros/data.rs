//! The map, the constants and the scoring tables, read once from
//! `engine/rules/tyros-map.json` (next to the spec, provenance block included).
//!
//! Only the grid size, the cell kinds and the seed's routes are sourced; the field numbering and
//! the positions of desert and sea are RECONSTRUCTED (TR-MAP-3). The data file describes its two
//! alternatives in words: the desert in one of the first three cells of column 3, and the sea
//! at row 5 / column 6. Both keep the file's rule that fields are numbered column by column,
//! west to east and north to south, skipping Tyros, desert and sea; so every layout is built
//! from the file's grid by moving the desert or sea cell and renumbering, and the default layout
//! rebuilt this way must equal the file's grid (checked when the file is read).
//!
//! Rule code reads every count, cost and point value from here or from the game's
//! [`super::Config`], and never repeats a number.

use super::cards::{Cards, Empire};
use crate::data_file::{data_file, DataFile};
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// Numbered fields (TR-MAP-1, TR-COMP-4): one landscape tile per field.
pub const FIELD_COUNT: usize = 32;
/// Cells a ship can be in: Tyros and the numbered fields (desert and sea are never entered).
pub const CELL_COUNT: usize = FIELD_COUNT + 1;

/// A landscape tile, numbered like its field (TR-COMP-4). JSON: the number, 1–32.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(pub u8);

/// A cell ships can be in: Tyros (`Cell(0)`) or field n (`Cell(n)`). JSON: the data file's cell
/// id, `"TY"` or `"1"` to `"32"` (a bare number is accepted for a field too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(pub u8);

impl Tile {
    /// Its field.
    pub fn cell(self) -> Cell {
        Cell(self.0)
    }

    pub fn all() -> impl Iterator<Item = Tile> {
        (1..=FIELD_COUNT as u8).map(Tile)
    }
}

impl Cell {
    pub const TYROS: Cell = Cell(0);

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn is_tyros(self) -> bool {
        self == Cell::TYROS
    }

    /// The tile of a field; `None` for Tyros.
    pub fn tile(self) -> Option<Tile> {
        (!self.is_tyros()).then_some(Tile(self.0))
    }

    /// Every cell: Tyros first, then the fields in number order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELL_COUNT as u8).map(Cell)
    }

    /// The numbered fields.
    pub fn fields() -> impl Iterator<Item = Cell> {
        (1..CELL_COUNT as u8).map(Cell)
    }

    fn parse(id: &str) -> Option<Cell> {
        if id == "TY" {
            return Some(Cell::TYROS);
        }
        let n: u8 = id.parse().ok()?;
        (1..=FIELD_COUNT as u8).contains(&n).then_some(Cell(n))
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_tyros() {
            f.write_str("TY")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl std::fmt::Display for Tile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Where the desert cell lies (TR-MAP-3, TR-D-1; data file `alternatives`). RECONSTRUCTED: the
/// default is the data file's grid; the others are its alternative `desert_in_col3`, which
/// names "one of the first three cells of column 3" without saying which, so all three can be
/// chosen. Fields are renumbered column by column around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosDesertCell))]
pub enum DesertCell {
    /// Row 5, column 2 (the data file's grid).
    #[default]
    Row5Col2,
    /// Row 1, column 3 (alternative `desert_in_col3`).
    Row1Col3,
    /// Row 2, column 3 (alternative `desert_in_col3`).
    Row2Col3,
    /// Row 3, column 3 (alternative `desert_in_col3`).
    Row3Col3,
}

/// Where the open-sea cell lies (TR-MAP-3, TR-D-1). RECONSTRUCTED: the default is the data
/// file's grid; `row5_col6` is its alternative `sea_at_row5` (field 28 moves to row 4). With
/// it field 32 touches only Tyros, against TR-MAP-5: tile 32 can then found an empire but
/// never join one, and stays in a hand to the end (the game still ends, TR-END-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosSeaCell))]
pub enum SeaCell {
    /// Row 4, column 6 (the data file's grid).
    #[default]
    Row4Col6,
    /// Row 5, column 6 (alternative `sea_at_row5`).
    Row5Col6,
}

impl DesertCell {
    pub const ALL: [DesertCell; 4] = [
        DesertCell::Row5Col2,
        DesertCell::Row1Col3,
        DesertCell::Row2Col3,
        DesertCell::Row3Col3,
    ];

    /// (row, column), 1-based.
    fn position(self) -> (usize, usize) {
        match self {
            DesertCell::Row5Col2 => (5, 2),
            DesertCell::Row1Col3 => (1, 3),
            DesertCell::Row2Col3 => (2, 3),
            DesertCell::Row3Col3 => (3, 3),
        }
    }
}

impl SeaCell {
    pub const ALL: [SeaCell; 2] = [SeaCell::Row4Col6, SeaCell::Row5Col6];

    fn position(self) -> (usize, usize) {
        match self {
            SeaCell::Row4Col6 => (4, 6),
            SeaCell::Row5Col6 => (5, 6),
        }
    }
}

/// A value that depends on the player count: JSON `{"3": 2, "4": 1}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosPerPlayerCount))]
pub struct PerPlayerCount {
    /// With 3 players.
    #[serde(rename = "3")]
    pub three: u8,
    /// With 4 players.
    #[serde(rename = "4")]
    pub four: u8,
}

impl PerPlayerCount {
    pub fn for_players(&self, players: usize) -> u8 {
        if players <= 3 {
            self.three
        } else {
            self.four
        }
    }
}

/// Bank trade sizes (TR-ACT-D).
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct BankTrade {
    /// Form (1): discard and draw up to this many.
    pub swap_max: u8,
    /// Form (2): discard this many for one card of a chosen colour.
    pub pick_cost: u8,
}

/// Counts and costs of the base game (data file `constants`; provenance in its `provenance`).
#[derive(Debug, Clone, Deserialize)]
pub struct Constants {
    pub players_min: usize,
    pub players_max: usize,
    pub ships_per_player: u8,
    pub ships_in_tyros_at_start: u8,
    pub cities_per_player: u8,
    pub landscape_tiles: u8,
    pub founding_tiles: u8,
    pub tiles_in_hand: u8,
    pub tiles_per_round: PerPlayerCount,
    pub empire_colours: Vec<Empire>,
    pub trade_cards_total: u8,
    pub trade_card_split: Cards,
    pub jokers_wild: bool,
    pub cards_dealt: PerPlayerCount,
    pub cards_kept: u8,
    pub move_cost_per_field: u8,
    pub ship_limit_per_field: u8,
    pub city_cost: u8,
    pub ship_build_cost: u8,
    pub tyros_build_cost: u8,
    pub tribute_cards: u8,
    pub bank_trade: BankTrade,
}

/// Points (data file `scoring`, all RECONSTRUCTED values).
#[derive(Debug, Clone, Deserialize)]
pub struct Scoring {
    pub city_control_by_rank: [i32; 4],
    pub ship_control_by_rank: [i32; 4],
    pub bonus_city_in_all_empires: i32,
}

/// Pirates! (SEED §V1).
#[derive(Debug, Clone, Deserialize)]
pub struct PirateConstants {
    pub ships_per_player: PerPlayerCount,
    pub levy_per_ship_on_arrival: u8,
    pub toll_enter: u8,
    pub toll_pass_through: u8,
    pub toll_build: u8,
    pub sink_points_same_player: i32,
    pub sink_points_each_different_players: i32,
}

/// The last round an action card may be played in (SEED §V2, §Mat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundsTo {
    /// While every player still holds a landscape tile (TR-AK-3).
    SecondToLast,
    End,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ActionCardData {
    pub id: String,
    pub rounds_from: u8,
    pub rounds_to: RoundsTo,
}

/// Action cards (SEED §V2).
#[derive(Debug, Clone, Deserialize)]
pub struct ActionCardConstants {
    pub cards: Vec<ActionCardData>,
    pub explorer_neutral_ship_control_points: i32,
}

/// War galleys (SEED §V3).
#[derive(Debug, Clone, Deserialize)]
pub struct GalleyConstants {
    pub tokens_per_player: u8,
    pub upgrade_extra_identical_cards: u8,
    pub fight_cards_min: u8,
    pub fight_cards_max: u8,
}

#[derive(Debug, Clone, Deserialize)]
pub struct GalleyOwnerPoints {
    pub galley_owner: i32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct GalleyOtherPoints {
    pub galley_owner: i32,
    pub ship_owner: i32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct OwnerPoints {
    pub owner: i32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct EachPoints {
    pub each: i32,
}

/// The sinking points of Galleys + Pirates (SEED §Komb "Übersicht", TR-COMB-3).
#[derive(Debug, Clone, Deserialize)]
pub struct CombinedSinkPoints {
    pub galley_alone: GalleyOwnerPoints,
    pub galley_with_own_ship: GalleyOwnerPoints,
    pub galley_with_other_ship: GalleyOtherPoints,
    pub two_normal_ships_same_player: OwnerPoints,
    pub two_normal_ships_different_players: EachPoints,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CombinedConstants {
    pub galley_pays_enter_toll: bool,
    pub sink_points: CombinedSinkPoints,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SmallVariant2 {
    pub bonus_city_in_all_empires: i32,
}

/// The seed's variants' numbers (data file `variants`).
#[derive(Debug, Clone, Deserialize)]
pub struct Variants {
    pub small_2: SmallVariant2,
    pub pirates: PirateConstants,
    pub action_cards: ActionCardConstants,
    pub galleys: GalleyConstants,
    pub galleys_plus_pirates: CombinedConstants,
}

/// One map layout: the grid and its orthogonal adjacency (TR-MAP-2).
#[derive(Debug, Clone)]
pub struct Map {
    /// Cell ids by row (north first) then column (west first): `"TY"`, `"SEA"`, `"DES"` or a
    /// field number.
    pub grid: Vec<Vec<String>>,
    /// Bit `i` of entry `c` is set when `Cell(i)` is orthogonally adjacent to `Cell(c)`.
    adjacency: [u64; CELL_COUNT],
    /// Its place among the board's layouts (see [`Board::layout_count`]): what is kept per
    /// layout elsewhere is kept by this.
    pub index: usize,
}

impl Map {
    pub fn adjacent(&self, a: Cell, b: Cell) -> bool {
        self.adjacency[a.index()] & (1 << b.0) != 0
    }

    /// The neighbours of a cell in number order (Tyros first).
    pub fn neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> {
        let mut mask = self.adjacency[cell.index()];
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let bit = mask.trailing_zeros() as u8;
                mask &= mask - 1;
                Cell(bit)
            })
        })
    }

    /// Shortest number of steps between two cells, or `None` when none connects them.
    pub fn distance(&self, from: Cell, to: Cell) -> Option<usize> {
        let mut seen = 1u64 << from.0;
        let mut frontier = seen;
        let mut steps = 0;
        while frontier != 0 {
            if frontier & (1 << to.0) != 0 {
                return Some(steps);
            }
            let mut next = 0;
            for c in Cell::all().filter(|c| frontier & (1 << c.0) != 0) {
                next |= self.adjacency[c.index()];
            }
            frontier = next & !seen;
            seen |= next;
            steps += 1;
        }
        None
    }

    /// Whether the numbered fields are connected without passing through Tyros (TR-MAP-5).
    pub fn fields_connected_without_tyros(&self) -> bool {
        let all_fields: u64 = Cell::fields().fold(0, |m, c| m | 1 << c.0);
        let mut seen = 1u64 << 1;
        loop {
            let mut next = seen;
            for c in Cell::fields().filter(|c| seen & (1 << c.0) != 0) {
                next |= self.adjacency[c.index()] & all_fields;
            }
            if next == seen {
                return seen == all_fields;
            }
            seen = next;
        }
    }
}

/// Everything printed on the board and in the variants' material.
#[derive(Debug, Clone)]
pub struct Board {
    pub constants: Constants,
    pub scoring: Scoring,
    pub variants: Variants,
    /// `setup = fixed`: the founding field of each empire in [`Empire::ALL`] order.
    pub first_game_setup: [Tile; 4],
    /// Adjacency as the data file lists it (its default layout), for cross-checks.
    pub listed_adjacency: BTreeMap<String, Vec<String>>,
    /// Distances from Tyros the data file states, for cross-checks.
    pub distances_from_tyros: BTreeMap<String, usize>,
    maps: Vec<Map>,
}

impl Board {
    /// The layout with the desert and sea where `desert` and `sea` put them.
    pub fn map(&self, desert: DesertCell, sea: SeaCell) -> &Map {
        &self.maps[desert as usize * SeaCell::ALL.len() + sea as usize]
    }

    /// How many layouts the desert and sea options make ([`Map::index`] is below it).
    pub fn layout_count(&self) -> usize {
        self.maps.len()
    }

    /// The action card's data by its data-file id.
    pub fn action_card(&self, id: &str) -> &ActionCardData {
        self.variants
            .action_cards
            .cards
            .iter()
            .find(|c| c.id == id)
            .expect("the data file lists every action card")
    }
}

/// The data file, compiled into the crate.
static BOARD: DataFile<Board> = data_file!("tyros-map.json", parse);

/// The board, parsed on first use.
pub fn board() -> &'static Board {
    BOARD.get()
}

mod raw {
    use super::{Constants, Scoring, Variants};
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Deserialize)]
    pub struct File {
        pub grid: Grid,
        pub fields: Vec<u8>,
        pub tyros: String,
        pub impassable: Vec<String>,
        pub adjacency: BTreeMap<String, Vec<String>>,
        pub distances_from_tyros_check: BTreeMap<String, usize>,
        pub fixtures: Fixtures,
        pub constants: Constants,
        pub scoring: Scoring,
        pub variants: Variants,
    }
    #[derive(Deserialize)]
    pub struct Grid {
        pub rows: usize,
        pub cols: usize,
        pub cells: Vec<Vec<String>>,
    }
    #[derive(Deserialize)]
    pub struct Fixtures {
        pub first_game_setup: FirstGame,
    }
    #[derive(Deserialize)]
    pub struct FirstGame {
        pub orange: u8,
        pub yellow: u8,
        pub green: u8,
        pub violet: u8,
    }
}

const DESERT: &str = "DES";
const SEA: &str = "SEA";
const TYROS: &str = "TY";

/// Parse and cross-check the data file.
fn parse(json: &str) -> Result<Board, String> {
    let file: raw::File = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let grid = &file.grid;
    if grid.cells.len() != grid.rows || grid.cells.iter().any(|r| r.len() != grid.cols) {
        return Err("grid.cells must be rows x cols".into());
    }
    if grid.rows * grid.cols != CELL_COUNT + 2 || file.fields.len() != FIELD_COUNT {
        return Err(format!(
            "the engine expects {FIELD_COUNT} fields, Tyros, desert and sea"
        ));
    }
    if file.tyros != TYROS || file.impassable != [SEA, DESERT] {
        return Err("unexpected ids for Tyros, desert or sea".into());
    }
    let find = |id: &str| -> Result<(usize, usize), String> {
        (0..grid.rows)
            .flat_map(|r| (0..grid.cols).map(move |c| (r, c)))
            .find(|&(r, c)| grid.cells[r][c] == id)
            .map(|(r, c)| (r + 1, c + 1))
            .ok_or(format!("no {id} cell in the grid"))
    };
    let tyros = find(TYROS)?;
    if find(DESERT)? != DesertCell::default().position()
        || find(SEA)? != SeaCell::default().position()
    {
        return Err("the default desert/sea positions differ from the grid".into());
    }
    let mut maps = Vec::new();
    for desert in DesertCell::ALL {
        for sea in SeaCell::ALL {
            let cells = layout(
                grid.rows,
                grid.cols,
                tyros,
                desert.position(),
                sea.position(),
            );
            maps.push(map_of(cells, maps.len())?);
        }
    }
    let default = &maps[0];
    if default.grid != grid.cells {
        return Err("the grid is not numbered column by column".into());
    }
    for (id, listed) in &file.adjacency {
        let cell = Cell::parse(id).ok_or(format!("unknown cell {id} in adjacency"))?;
        let mut computed: Vec<String> = default.neighbours(cell).map(|c| c.to_string()).collect();
        let mut listed = listed.clone();
        computed.sort();
        listed.sort();
        if computed != listed {
            return Err(format!("adjacency of {id} differs from the grid"));
        }
    }
    if file.adjacency.len() != CELL_COUNT {
        return Err("adjacency must list every passable cell".into());
    }
    // TR-MAP-5 holds on the file's own layout. (The alternative `sea_at_row5` cuts field 32
    // off: it then touches only Tyros; see `SeaCell::Row5Col6`.)
    if !default.fields_connected_without_tyros() {
        return Err("TR-MAP-5: fields must be connected without Tyros".into());
    }
    let f = &file.fixtures.first_game_setup;
    let tile = |n: u8| -> Result<Tile, String> {
        (1..=FIELD_COUNT as u8)
            .contains(&n)
            .then_some(Tile(n))
            .ok_or(format!("fixture field {n} out of range"))
    };
    if file.constants.empire_colours != Empire::ALL {
        return Err("empire colours must be orange, yellow, green, violet".into());
    }
    Ok(Board {
        first_game_setup: [
            tile(f.orange)?,
            tile(f.yellow)?,
            tile(f.green)?,
            tile(f.violet)?,
        ],
        constants: file.constants,
        scoring: file.scoring,
        variants: file.variants,
        listed_adjacency: file.adjacency,
        distances_from_tyros: file.distances_from_tyros_check,
        maps,
    })
}

/// The grid with Tyros, desert and sea at the given 1-based positions and the fields numbered
/// column by column, west to east and north to south (the data file's `numbering`).
fn layout(
    rows: usize,
    cols: usize,
    tyros: (usize, usize),
    desert: (usize, usize),
    sea: (usize, usize),
) -> Vec<Vec<String>> {
    let mut cells = vec![vec![String::new(); cols]; rows];
    let mut next = 0;
    for c in 1..=cols {
        for r in 1..=rows {
            cells[r - 1][c - 1] = if (r, c) == tyros {
                TYROS.to_string()
            } else if (r, c) == desert {
                DESERT.to_string()
            } else if (r, c) == sea {
                SEA.to_string()
            } else {
                next += 1;
                next.to_string()
            };
        }
    }
    cells
}

/// Orthogonal adjacency of a grid; desert and sea are never entered (TR-MAP-2, TR-MAP-4).
fn map_of(grid: Vec<Vec<String>>, index: usize) -> Result<Map, String> {
    let mut adjacency = [0u64; CELL_COUNT];
    let rows = grid.len();
    let cols = grid[0].len();
    let at = |r: usize, c: usize| Cell::parse(&grid[r][c]);
    for r in 0..rows {
        for c in 0..cols {
            let Some(cell) = at(r, c) else { continue };
            let mut near = Vec::new();
            if r > 0 {
                near.push((r - 1, c));
            }
            if r + 1 < rows {
                near.push((r + 1, c));
            }
            if c > 0 {
                near.push((r, c - 1));
            }
            if c + 1 < cols {
                near.push((r, c + 1));
            }
            for (nr, nc) in near {
                if let Some(other) = at(nr, nc) {
                    adjacency[cell.index()] |= 1 << other.0;
                }
            }
        }
    }
    let seen: usize = grid
        .iter()
        .flatten()
        .filter_map(|id| Cell::parse(id))
        .count();
    if seen != CELL_COUNT {
        return Err("a layout must hold every cell once".into());
    }
    Ok(Map {
        grid,
        adjacency,
        index,
    })
}

impl Serialize for Tile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for Tile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(d)?;
        if (1..=FIELD_COUNT as u8).contains(&n) {
            Ok(Tile(n))
        } else {
            Err(de::Error::custom(format!(
                "unknown tile {n}: tiles are 1 to {FIELD_COUNT}"
            )))
        }
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct CellVisitor;
        impl de::Visitor<'_> for CellVisitor {
            type Value = Cell;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a cell id: \"TY\" or a field number 1 to 32")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Cell, E> {
                Cell::parse(v).ok_or_else(|| E::custom(format!("unknown cell `{v}`")))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Cell, E> {
                u8::try_from(v)
                    .ok()
                    .filter(|n| (1..=FIELD_COUNT as u8).contains(n))
                    .map(Cell)
                    .ok_or_else(|| E::custom(format!("unknown field {v}")))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Cell, E> {
                match u64::try_from(v) {
                    Ok(v) => self.visit_u64(v),
                    Err(_) => Err(E::custom(format!("unknown field {v}"))),
                }
            }
        }
        d.deserialize_any(CellVisitor)
    }
}

/// Cell ids are strings and tiles numbers in JSON.
#[cfg(feature = "openapi")]
mod schema {
    use super::{Cell, Tile, FIELD_COUNT};
    use crate::schema::string_enum;
    use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
    use utoipa::openapi::RefOr;

    impl utoipa::PartialSchema for Cell {
        fn schema() -> RefOr<Schema> {
            string_enum(
                "A Tyros cell ships can be in: \"TY\" (Tyros) or a field number \"1\" to \"32\" \
                 (a bare integer is accepted for a field).",
                Cell::all().map(|c| c.to_string()).collect(),
            )
        }
    }

    impl utoipa::ToSchema for Cell {
        fn name() -> std::borrow::Cow<'static, str> {
            "TyrosCell".into()
        }
    }

    impl utoipa::PartialSchema for Tile {
        fn schema() -> RefOr<Schema> {
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .description(Some("A Tyros landscape tile, numbered like its field."))
                .minimum(Some(1))
                .maximum(Some(FIELD_COUNT as u8))
                .into()
        }
    }

    impl utoipa::ToSchema for Tile {
        fn name() -> std::borrow::Cow<'static, str> {
            "TyrosTile".into()
        }
    }
}
