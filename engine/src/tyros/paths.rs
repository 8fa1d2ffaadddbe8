//! Ship routes: checking a path a client names, and finding the cheapest one (TR-ACT-A, TR-D-6).
//!
//! A path lists the cells entered, the destination last; it is simple and never re-enters the
//! start. Tyros may be crossed; desert and sea are not cells at all (TR-MAP-4).
//!
//! The cheapest path is chosen by total cards (the move's cards plus pirate tolls for crossed
//! pirate fields), then by length. For a normal move the card count depends only on the length,
//! so a breadth-first search over (cell, tolls so far) gives, for every toll count, the shortest
//! walk; the best affordable one is always a simple path, because cutting a loop out of a walk
//! makes it shorter and never dearer. The explorer pays per cell in that cell's colour
//! (TR-AK-7), so its search keeps, per cell, every requirement that no other one beats.

use super::cards::{Cards, Empire};
use super::config::Config;
use super::data::{board, Cell, Map, CELL_COUNT};
use super::errors as e;
use super::state::State;
use crate::RuleError;
use std::cell::RefCell;
use std::ops::Deref;
use std::rc::Rc;
use std::sync::OnceLock;

const UNREACHED: u8 = u8::MAX;

/// Checks that `path` is a simple path of adjacent cells leaving `from` (TR-D-6).
///
/// # Errors
/// `tyros.invalid_path` naming the first fault.
pub fn check_path(state: &State, from: Cell, path: &[Cell]) -> Result<(), RuleError> {
    let bad = |why: String| Err(RuleError::new(e::INVALID_PATH, "TR-D-6", why));
    if path.is_empty() {
        return bad("a path enters at least one cell".into());
    }
    let map = state.map();
    let mut seen = 1u64 << from.0;
    let mut at = from;
    for &cell in path {
        if !map.adjacent(at, cell) {
            return bad(format!("{cell} is not adjacent to {at}"));
        }
        if seen & (1 << cell.0) != 0 {
            return bad(format!("the path enters {cell} twice"));
        }
        seen |= 1 << cell.0;
        at = cell;
    }
    Ok(())
}

/// Pirate fields the path crosses before its destination (TR-PIR-7).
pub fn crossed_pirates(state: &State, path: &[Cell]) -> u8 {
    let crossed = &path[..path.len().saturating_sub(1)];
    crossed
        .iter()
        .filter(|c| state.field(**c).pirate.is_some())
        .count() as u8
}

/// The cells with a pirate, as a bit mask (bit `c` for `Cell(c)`).
pub fn pirate_fields(state: &State) -> u64 {
    Cell::all()
        .filter(|&c| state.field(c).pirate.is_some())
        .fold(0u64, |mask, c| mask | 1 << c.0)
}

/// The cells of a bit mask (bit `c` for `Cell(c)`), in number order.
pub fn cells_in(mut mask: u64) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        let c = mask.trailing_zeros();
        mask &= mask.wrapping_sub(1);
        (c < u64::BITS).then_some(Cell(c as u8))
    })
}

/// Shortest walks from one cell for every number of pirate fields entered on the way.
#[derive(Debug, Clone)]
pub struct Layers {
    /// `dist[t][c]`: fewest cells entered to reach `c` having entered `t` pirate fields
    /// (`c` included).
    dist: Vec<[u8; CELL_COUNT]>,
    /// The previous (t, cell) on that walk.
    prev: Vec<[(u8, u8); CELL_COUNT]>,
    /// The layout searched, whose adjacency [`Layers::cheapest`] reads.
    map: &'static Map,
}

/// A search from one cell ([`Layers::from`]): borrowed from the layout's own searches while no
/// pirate is out, else shared with the thread's recent searches.
pub enum Search {
    Plain(&'static Layers),
    Pirates(Rc<Layers>),
}

impl Deref for Search {
    type Target = Layers;

    fn deref(&self) -> &Layers {
        match self {
            Search::Plain(layers) => layers,
            Search::Pirates(layers) => layers,
        }
    }
}

/// How many searches with pirates out a thread keeps (a direct-mapped cache).
const RECENT_SEARCHES: usize = 64;

/// What a search with pirates out depends on: the layout (by address; layouts live for the
/// program), the pirate fields, the start and the layers kept.
type SearchKey = (usize, u64, Cell, usize);

/// A kept search and what it was made for.
type KeptSearch = Option<(SearchKey, Rc<Layers>)>;

thread_local! {
    /// The thread's recent searches with pirates out. Pirates move seldom, and a playout lists
    /// every seat's moves from every ship at every step (and again for the move it picks), so
    /// the same searches come back step after step. A search is a pure function of its key,
    /// so a kept one is exactly what searching again would give.
    static RECENT: RefCell<[KeptSearch; RECENT_SEARCHES]> =
        const { RefCell::new([const { None }; RECENT_SEARCHES]) };
}

/// [`Layers::search`] of `map` from `from` with `pirates` and `layers`, kept for the next ask.
fn recent_search(map: &'static Map, from: Cell, pirates: u64, layers: usize) -> Rc<Layers> {
    let key: SearchKey = (std::ptr::from_ref(map) as usize, pirates, from, layers);
    let mixed = (key.0 as u64 ^ pirates ^ u64::from(from.0) << 48 ^ (layers as u64) << 56)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let slot = (mixed >> 58) as usize % RECENT_SEARCHES;
    RECENT.with_borrow_mut(|recent| match &recent[slot] {
        Some((kept, layers)) if *kept == key => Rc::clone(layers),
        _ => {
            let search = Rc::new(Layers::search(map, from, pirates, layers));
            recent[slot] = Some((key, Rc::clone(&search)));
            search
        }
    })
}

/// One way to reach a destination: `len` cells entered, `tolls` pirate fields crossed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    pub len: u8,
    pub tolls: u8,
    via_layer: u8,
    via: Cell,
}

impl Layers {
    /// The search from `from` (breadth first, neighbours in number order) for a mover holding
    /// `cards`: walks crossing more pirate fields than `cards` can pay the tolls of are never
    /// affordable, so their layers are left out. Leaving out the highest layers changes
    /// nothing in the others: a step never leads to a lower layer, so their cells enter the
    /// queue in the same order.
    ///
    /// Without a pirate on the board the search depends on the layout alone; it is made once
    /// per layout and cell and borrowed from then on (every listing searches from every ship).
    pub fn from(state: &State, from: Cell, cards: u32) -> Search {
        Layers::with_pirates(state.map(), pirate_fields(state), from, cards)
    }

    /// [`Layers::from`] with the board's pirate fields given ([`pirate_fields`]): a listing
    /// searches from every ship of a seat on the same board.
    pub fn with_pirates(map: &'static Map, pirates: u64, from: Cell, cards: u32) -> Search {
        if pirates == 0 {
            return Search::Plain(Layers::plain(map, from));
        }
        let toll = u32::from(board().variants.pirates.toll_pass_through);
        let payable_tolls = cards.checked_div(toll).map_or(usize::MAX, |n| n as usize);
        let on_fields = (pirates & !(1 << Cell::TYROS.0)).count_ones() as usize;
        let layers = 1 + on_fields.min(payable_tolls);
        Search::Pirates(recent_search(map, from, pirates, layers))
    }

    /// The search from `from` on `map` without pirates, made once per layout and cell.
    fn plain(map: &'static Map, from: Cell) -> &'static Layers {
        /// The searches of each layout, by [`Map::index`], filled on first use.
        static PLAIN: OnceLock<Vec<OnceLock<Vec<Layers>>>> = OnceLock::new();
        let layouts = PLAIN.get_or_init(|| {
            (0..board().layout_count())
                .map(|_| OnceLock::new())
                .collect()
        });
        let plain = layouts[map.index]
            .get_or_init(|| Cell::all().map(|c| Layers::search(map, c, 0, 1)).collect());
        &plain[from.index()]
    }

    /// The fewest cells any walk from `from` enters to reach each cell (`from` itself 0,
    /// unreachable cells [`u8::MAX`]), pirates or not: no route any search finds is shorter,
    /// which lets a listing skip destinations no hand could pay the cells of.
    pub fn fewest_cells(map: &'static Map, from: Cell) -> &'static [u8; CELL_COUNT] {
        &Layers::plain(map, from).dist[0]
    }

    /// The cells (bit `c` for `Cell(c)`) that some walk from `from` reaches entering at most
    /// `cells` cells, `from` included.
    pub fn within(map: &'static Map, from: Cell, cells: u8) -> u64 {
        Layers::fewest_cells(map, from)
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d <= cells)
            .fold(0, |mask, (c, _)| mask | 1 << c)
    }

    /// The breadth-first search of [`Layers::from`] with the pirate fields in the bit mask
    /// `pirates`, keeping the first `layers` layers.
    fn search(map: &'static Map, from: Cell, pirates: u64, layers: usize) -> Layers {
        let pirate = |c: Cell| ((pirates >> c.0) & 1) as u8;
        let mut dist = vec![[UNREACHED; CELL_COUNT]; layers];
        let mut prev = vec![[(0, 0); CELL_COUNT]; layers];
        dist[0][from.index()] = 0;
        // First in, first out; every (layer, cell) enters at most once.
        let mut queue = Vec::with_capacity(CELL_COUNT * layers);
        queue.push((0u8, from));
        let mut head = 0;
        while let Some(&(t, cell)) = queue.get(head) {
            head += 1;
            let d = dist[usize::from(t)][cell.index()];
            for next in map.neighbours(cell) {
                let nt = t + pirate(next);
                // Walks entering more pirates than there are loop back; they are never cheapest.
                if usize::from(nt) >= layers {
                    continue;
                }
                let slot = &mut dist[usize::from(nt)][next.index()];
                if *slot == UNREACHED && next != from {
                    *slot = d + 1;
                    prev[usize::from(nt)][next.index()] = (t, cell.0);
                    queue.push((nt, next));
                }
            }
        }
        Layers { dist, prev, map }
    }

    /// The neighbour of `to` reached in layer `t` by the fewest cells (the first in number
    /// order among equals), if any: where the shortest walk entering `to` last with `t`
    /// pirates crossed comes from.
    fn via(&self, t: usize, to: Cell) -> Option<Cell> {
        let layer = &self.dist[t];
        self.map
            .neighbours(to)
            .filter(|v| layer[v.index()] != UNREACHED)
            .min_by_key(|v| layer[v.index()])
    }

    /// The best way to enter `to` last: for each number of crossed pirates the shortest walk
    /// is priced by `price` (the total cards, or `None` when unaffordable), and the cheapest,
    /// then shortest, wins.
    pub fn cheapest(
        &self,
        to: Cell,
        mut price: impl FnMut(u8, u8) -> Option<u8>,
    ) -> Option<Candidate> {
        let mut best: Option<(u8, Candidate)> = None;
        for (t, layer) in self.dist.iter().enumerate() {
            let Some(via) = self.via(t, to) else {
                continue;
            };
            let c = Candidate {
                len: layer[via.index()] + 1,
                tolls: t as u8,
                via_layer: t as u8,
                via,
            };
            if let Some(total) = price(c.len, c.tolls) {
                if best.is_none_or(|(bt, bc)| (total, c.len) < (bt, bc.len)) {
                    best = Some((total, c));
                }
            }
        }
        best.map(|(_, c)| c)
    }

    /// The cells of a candidate's walk, `to` last.
    pub fn path(&self, candidate: &Candidate, to: Cell) -> Vec<Cell> {
        let mut path = vec![to];
        let (mut t, mut cell) = (candidate.via_layer, candidate.via);
        while self.dist[usize::from(t)][cell.index()] != 0 {
            path.push(cell);
            let (pt, pc) = self.prev[usize::from(t)][cell.index()];
            t = pt;
            cell = Cell(pc);
        }
        path.reverse();
        path
    }
}

/// What an explorer voyage along a path costs (TR-AK-7): cards per empire colour for assigned
/// cells, "any" cards for neutral cells and Tyros, and tolls for crossed pirates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VoyageCost {
    pub colour: [u8; 4],
    pub neutral: u8,
    pub tolls: u8,
}

impl VoyageCost {
    pub fn total(&self) -> u32 {
        self.colour.iter().map(|&n| u32::from(n)).sum::<u32>()
            + u32::from(self.neutral)
            + u32::from(self.tolls)
    }

    fn dominates(&self, other: &VoyageCost) -> bool {
        self.colour.iter().zip(other.colour).all(|(a, b)| *a <= b)
            && self.neutral + self.tolls <= other.neutral + other.tolls
    }

    /// The cost of entering `cell` on the way (`last`: as the destination).
    fn enter(mut self, state: &State, toll: u8, cell: Cell, last: bool) -> VoyageCost {
        match state.field(cell).empire {
            Some(e) => self.colour[e.index()] += 1,
            None => self.neutral += 1,
        }
        if !last && state.field(cell).pirate.is_some() {
            self.tolls += toll;
        }
        self
    }

    /// Whether `hand` can pay it: colour cards with jokers filling gaps, then any cards.
    pub fn payable(&self, config: &Config, hand: &Cards) -> bool {
        let mut jokers_needed = 0u32;
        for e in Empire::ALL {
            jokers_needed +=
                u32::from(self.colour[e.index()]).saturating_sub(u32::from(hand.get(e.card())));
        }
        let jokers = if config.jokers_wild {
            u32::from(hand.joker)
        } else {
            0
        };
        jokers_needed <= jokers && self.total() <= hand.total()
    }
}

/// The voyage cost of an explicit path.
pub fn voyage_cost(state: &State, toll: u8, path: &[Cell]) -> VoyageCost {
    let last = path.len() - 1;
    path.iter()
        .enumerate()
        .fold(VoyageCost::default(), |cost, (i, &c)| {
            cost.enter(state, toll, c, i == last)
        })
}

/// For every neutral field the explorer could end on, the cheapest path `hand` can pay
/// (fewest cards, then shortest), as (destination, path, cost).
pub fn cheapest_voyages(
    state: &State,
    from: Cell,
    hand: &Cards,
    toll: u8,
    is_destination: impl Fn(Cell) -> bool,
) -> Vec<(Cell, Vec<Cell>, VoyageCost)> {
    struct Label {
        cell: Cell,
        cost: VoyageCost,
        len: u8,
        parent: Option<usize>,
    }
    let config = &state.config;
    let map = state.map();
    let mut labels: Vec<Label> = vec![Label {
        cell: from,
        cost: VoyageCost::default(),
        len: 0,
        parent: None,
    }];
    let mut kept: Vec<Vec<usize>> = vec![Vec::new(); CELL_COUNT];
    kept[from.index()].push(0);
    let mut best: Vec<Option<usize>> = vec![None; CELL_COUNT];
    // Labels in order of total cards, then length (costs grow by 1 or 2 per cell entered).
    let mut buckets: Vec<Vec<usize>> = vec![vec![0]];
    let mut total = 0;
    while total < buckets.len() {
        let mut bucket = std::mem::take(&mut buckets[total]);
        bucket.sort_by_key(|&i| labels[i].len);
        for i in bucket {
            let (cell, cost, len) = (labels[i].cell, labels[i].cost, labels[i].len);
            if cell != from && is_destination(cell) && best[cell.index()].is_none() {
                best[cell.index()] = Some(i);
            }
            for next in map.neighbours(cell) {
                let mut on_path = false;
                let mut walk = Some(i);
                while let Some(w) = walk {
                    on_path |= labels[w].cell == next;
                    walk = labels[w].parent;
                }
                if on_path {
                    continue;
                }
                let last = is_destination(next);
                let new = cost.enter(state, toll, next, last);
                if !new.payable(config, hand) {
                    continue;
                }
                if kept[next.index()]
                    .iter()
                    .any(|&k| labels[k].cost.dominates(&new) && labels[k].len <= len + 1)
                {
                    continue;
                }
                let id = labels.len();
                labels.push(Label {
                    cell: next,
                    cost: new,
                    len: len + 1,
                    parent: Some(i),
                });
                kept[next.index()].push(id);
                let t = new.total() as usize;
                if buckets.len() <= t {
                    buckets.resize(t + 1, Vec::new());
                }
                buckets[t].push(id);
            }
        }
        total += 1;
    }
    Cell::all()
        .filter_map(|dest| {
            let i = best[dest.index()]?;
            let mut path = Vec::new();
            let mut walk = Some(i);
            while let Some(w) = walk {
                if labels[w].parent.is_some() {
                    path.push(labels[w].cell);
                }
                walk = labels[w].parent;
            }
            path.reverse();
            Some((dest, path, labels[i].cost))
        })
        .collect()
}
