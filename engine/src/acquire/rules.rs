//! The checks behind every action, shared by `decide` (which reports why) and `legal_actions`
//! (which only asks whether), so the two cannot drift apart.
//!
//! Checks return a small `Copy` [`Refusal`] rather than a [`RuleError`]: `legal_actions` runs
//! many failing checks per call and must not format a message for each of them.

use super::config::{DefunctOrder, EndRule};
use super::data::{board, Chain, Prices, Tile};
use super::errors::*;
use super::state::{Cell, ChainSize, Merger, State, Step, Turn};
use crate::{RuleError, Seat};

/// Why a check failed, with just enough context to write the message later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    TileNotInHand(Tile),
    /// Would found an eighth chain (AQ-PLACE-3a): temporary.
    EighthChain(Tile),
    /// Touches two or more safe chains (AQ-PLACE-3b, AQ-MERGE-3): permanent.
    JoinsSafeChains(Tile),
    NameRequired(Tile),
    NameUnexpected(Tile),
    ChainActive(Chain),
    TileAlreadyPlaced,
    PlacementRequired,
    MergerPending,
    NoMergerDecision,
    NotLargest(Chain),
    BadOrder,
    NotEnoughShares {
        held: u8,
        asked: u8,
    },
    OddTrade(u8),
    SurvivorExhausted {
        chain: Chain,
        left: u8,
    },
    BuyLimit,
    ChainNotActive(Chain),
    BankOut(Chain),
    CannotAfford {
        price: i32,
        cash: i32,
    },
    EndConditionsUnmet,
    AnnounceAfterBuying,
    AlreadyAnnounced,
}

impl From<Refusal> for RuleError {
    fn from(refusal: Refusal) -> RuleError {
        use Refusal::*;
        match refusal {
            TileNotInHand(tile) => RuleError::new(
                TILE_NOT_IN_HAND,
                "AQ-PLACE-1",
                format!("tile {tile} is not in the player's hand"),
            ),
            EighthChain(tile) => RuleError::new(
                UNPLAYABLE_TILE,
                "AQ-PLACE-3",
                format!("tile {tile} would found an eighth chain while all seven are on the board"),
            ),
            JoinsSafeChains(tile) => RuleError::new(
                UNPLAYABLE_TILE,
                "AQ-MERGE-3",
                format!("tile {tile} touches two safe chains, which can never merge"),
            ),
            NameRequired(tile) => RuleError::new(
                CHAIN_NAME_REQUIRED,
                "AQ-FOUND-2",
                format!("tile {tile} founds a chain: name it with a chain not on the board"),
            ),
            NameUnexpected(tile) => RuleError::new(
                CHAIN_NAME_UNEXPECTED,
                "AQ-PLACE-2",
                format!("tile {tile} founds no chain, so no chain is named"),
            ),
            ChainActive(chain) => RuleError::new(
                CHAIN_ALREADY_ACTIVE,
                "AQ-FOUND-2",
                format!("{chain} is already on the board"),
            ),
            TileAlreadyPlaced => RuleError::new(
                TILE_ALREADY_PLACED,
                "AQ-TURN-1",
                "a tile has already been placed (or skipped) this turn",
            ),
            PlacementRequired => RuleError::new(
                PLACEMENT_REQUIRED,
                "AQ-PLACE-1",
                "the player must place a tile first",
            ),
            MergerPending => RuleError::new(
                MERGER_PENDING,
                "AQ-TURN-1",
                "the merger must be settled before the turn goes on",
            ),
            NoMergerDecision => RuleError::new(
                NO_MERGER_DECISION,
                "AQ-MERGE-2",
                "no merger decision of this kind is pending",
            ),
            NotLargest(chain) => RuleError::new(
                NOT_LARGEST_CHAIN,
                "AQ-MERGE-2",
                format!("{chain} is not among the largest chains of the merger"),
            ),
            BadOrder => RuleError::new(
                INVALID_DEFUNCT_ORDER,
                "AQ-MERGE-4",
                "the order must list every defunct chain once, by size, reordering only equal sizes",
            ),
            NotEnoughShares { held, asked } => RuleError::new(
                NOT_ENOUGH_SHARES,
                "AQ-DISP-2",
                format!("{asked} shares to sell and trade, but only {held} are held"),
            ),
            OddTrade(n) => RuleError::new(
                ODD_TRADE,
                "AQ-DISP-2",
                format!("shares are traded 2 for 1: {n} is not even"),
            ),
            SurvivorExhausted { chain, left } => RuleError::new(
                SURVIVOR_STOCK_EXHAUSTED,
                "AQ-DISP-4",
                format!("the bank holds only {left} shares of {chain} to trade for"),
            ),
            BuyLimit => RuleError::new(
                BUY_LIMIT_REACHED,
                "AQ-COMP-12",
                "at most 3 shares may be bought per turn",
            ),
            ChainNotActive(chain) => RuleError::new(
                CHAIN_NOT_ACTIVE,
                "AQ-BUY-1",
                format!("{chain} is not on the board"),
            ),
            BankOut(chain) => RuleError::new(
                BANK_OUT_OF_SHARES,
                "AQ-BUY-3",
                format!("the bank has no share of {chain} left"),
            ),
            CannotAfford { price, cash } => RuleError::new(
                INSUFFICIENT_CASH,
                "AQ-BUY-3",
                format!("the share costs {price} but only {cash} is on hand; there is no credit"),
            ),
            EndConditionsUnmet => RuleError::new(
                END_CONDITIONS_UNMET,
                "AQ-END-1",
                "the end may be announced only when one chain has 41 tiles or all seven are on the board with 11 or more",
            ),
            AnnounceAfterBuying => RuleError::new(
                ANNOUNCE_AFTER_BUYING,
                "AQ-END-1",
                "the end is announced after placing and before buying",
            ),
            AlreadyAnnounced => RuleError::new(
                END_ALREADY_ANNOUNCED,
                "AQ-END-1",
                "the end has already been announced",
            ),
        }
    }
}

/// The chains and unincorporated tiles orthogonally next to a square.
#[derive(Debug, Clone, Copy)]
pub struct Touch {
    chains: [Chain; 4],
    len: u8,
    pub unincorporated: bool,
}

impl Touch {
    /// Distinct chains touched, in neighbour order.
    pub fn chains(&self) -> &[Chain] {
        &self.chains[..usize::from(self.len)]
    }
}

pub fn touch(state: &State, tile: Tile) -> Touch {
    let mut t = Touch {
        chains: [Chain(0); 4],
        len: 0,
        unincorporated: false,
    };
    for n in tile.neighbours() {
        match state.cell(n) {
            Cell::Empty => {}
            Cell::Unincorporated => t.unincorporated = true,
            Cell::Chain(c) => {
                if !t.chains().contains(&c) {
                    t.chains[usize::from(t.len)] = c;
                    t.len += 1;
                }
            }
        }
    }
    t
}

/// What placing a tile does (AQ-PLACE-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Lone,
    Found,
    Grow(Chain),
    Merge,
}

/// Classify a tile against the board now, refusing unplayable tiles (AQ-PLACE-3, AQ-DEAD-3).
pub fn playability(state: &State, tile: Tile) -> Result<Kind, Refusal> {
    let t = touch(state, tile);
    match t.chains() {
        [] if !t.unincorporated => Ok(Kind::Lone),
        [] => {
            if state.active_chains().count() >= board().constants.max_active_chains {
                Err(Refusal::EighthChain(tile))
            } else {
                Ok(Kind::Found)
            }
        }
        [one] => Ok(Kind::Grow(*one)),
        many => {
            if many.iter().filter(|&&c| state.is_safe(c)).count() >= 2 {
                Err(Refusal::JoinsSafeChains(tile))
            } else {
                Ok(Kind::Merge)
            }
        }
    }
}

/// Permanently unplayable: touches two safe chains (AQ-PLACE-3b, AQ-DEAD-1).
pub fn is_dead(state: &State, tile: Tile) -> bool {
    matches!(playability(state, tile), Err(Refusal::JoinsSafeChains(_)))
}

/// Whether the seat holds any playable tile (AQ-PLACE-4).
pub fn has_playable_tile(state: &State, seat: Seat) -> bool {
    state
        .player(seat)
        .hand
        .iter()
        .any(|&t| playability(state, t).is_ok())
}

fn expect_step(turn: &Turn, want: Step) -> Result<(), Refusal> {
    match (turn.step, want) {
        (a, b) if a == b => Ok(()),
        (Step::Merger, _) => Err(Refusal::MergerPending),
        (Step::Place, Step::Buy) => Err(Refusal::PlacementRequired),
        (Step::Buy, Step::Place) => Err(Refusal::TileAlreadyPlaced),
        (_, Step::Merger) => Err(Refusal::NoMergerDecision),
        _ => Err(Refusal::PlacementRequired),
    }
}

/// A placement (AQ-PLACE-1..3, AQ-FOUND-2): what the tile does.
pub fn check_place(
    state: &State,
    turn: &Turn,
    tile: Tile,
    name: Option<Chain>,
) -> Result<Kind, Refusal> {
    expect_step(turn, Step::Place)?;
    if !state.player(turn.seat).hand.contains(&tile) {
        return Err(Refusal::TileNotInHand(tile));
    }
    let kind = playability(state, tile)?;
    match (kind, name) {
        (Kind::Found, None) => Err(Refusal::NameRequired(tile)),
        (Kind::Found, Some(c)) if state.is_active(c) => Err(Refusal::ChainActive(c)),
        (Kind::Found, Some(_)) => Ok(kind),
        (_, Some(_)) => Err(Refusal::NameUnexpected(tile)),
        (_, None) => Ok(kind),
    }
}

/// What the merger waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MergerStep {
    /// The maker chooses among equal largest chains (AQ-MERGE-2).
    Survivor,
    /// The maker orders equal defunct chains (AQ-MERGE-4).
    Order,
    /// This holder disposes of his defunct shares (AQ-DISP-1).
    Dispose(Seat),
}

pub fn merger_step(m: &Merger) -> MergerStep {
    if m.survivor.is_none() {
        MergerStep::Survivor
    } else if !m.ordered {
        MergerStep::Order
    } else {
        MergerStep::Dispose(m.disposers.first().copied().unwrap_or(m.maker))
    }
}

/// The seat that must act now, if any: the turn's player, or a disposing holder.
pub fn actor(state: &State) -> Option<Seat> {
    let turn = state.turn()?;
    match (turn.step, &state.merger) {
        (Step::Merger, Some(m)) => match merger_step(m) {
            MergerStep::Dispose(seat) => Some(seat),
            _ => Some(m.maker),
        },
        _ => Some(turn.seat),
    }
}

fn merger_at<'a>(
    state: &'a State,
    turn: &Turn,
    want: fn(MergerStep) -> bool,
) -> Result<&'a Merger, Refusal> {
    expect_step(turn, Step::Merger)?;
    match &state.merger {
        Some(m) if want(merger_step(m)) => Ok(m),
        _ => Err(Refusal::NoMergerDecision),
    }
}

/// The chains tied for largest (AQ-MERGE-2).
pub fn largest(m: &Merger) -> impl Iterator<Item = Chain> + '_ {
    let max = m.chains.iter().map(|c| c.size).max().unwrap_or(0);
    m.chains
        .iter()
        .filter(move |c| c.size == max)
        .map(|c| c.chain)
}

pub fn check_survivor(state: &State, turn: &Turn, chain: Chain) -> Result<(), Refusal> {
    let m = merger_at(state, turn, |s| s == MergerStep::Survivor)?;
    if largest(m).any(|c| c == chain) {
        Ok(())
    } else {
        Err(Refusal::NotLargest(chain))
    }
}

/// The defunct chains in the configured size order, ties in chain order (AQ-MERGE-4).
pub fn sorted_defuncts(state: &State, m: &Merger, survivor: Chain) -> Vec<ChainSize> {
    let mut defuncts: Vec<ChainSize> = m
        .chains
        .iter()
        .copied()
        .filter(|c| c.chain != survivor)
        .collect();
    match state.config.defunct_order {
        DefunctOrder::SmallestFirst => defuncts.sort_by_key(|c| (c.size, c.chain)),
        DefunctOrder::LargestFirst => {
            defuncts.sort_by_key(|c| (std::cmp::Reverse(c.size), c.chain))
        }
    }
    defuncts
}

/// Whether the maker must choose an order: two defunct chains of equal size.
pub fn order_is_open(defuncts: &[ChainSize]) -> bool {
    defuncts.windows(2).any(|w| w[0].size == w[1].size)
}

/// A maker's settling order: every defunct once, sizes in the configured order (AQ-MERGE-4).
pub fn check_order(state: &State, turn: &Turn, order: &[Chain]) -> Result<Vec<ChainSize>, Refusal> {
    let m = merger_at(state, turn, |s| s == MergerStep::Order)?;
    let survivor = m.survivor.ok_or(Refusal::NoMergerDecision)?;
    let sorted = sorted_defuncts(state, m, survivor);
    if order.len() != sorted.len() {
        return Err(Refusal::BadOrder);
    }
    let mut result = Vec::with_capacity(order.len());
    for (i, &chain) in order.iter().enumerate() {
        if order[..i].contains(&chain) {
            return Err(Refusal::BadOrder);
        }
        match sorted.iter().find(|c| c.chain == chain) {
            Some(c) if c.size == sorted[i].size => result.push(*c),
            _ => return Err(Refusal::BadOrder),
        }
    }
    Ok(result)
}

/// Every valid settling order (at most 3! of them: a tile has four sides).
pub fn valid_orders(state: &State, m: &Merger) -> Vec<Vec<Chain>> {
    let Some(survivor) = m.survivor else {
        return Vec::new();
    };
    let sorted = sorted_defuncts(state, m, survivor);
    let mut out = Vec::new();
    permute(&sorted, &mut Vec::new(), &mut out);
    out
}

fn permute(sorted: &[ChainSize], prefix: &mut Vec<Chain>, out: &mut Vec<Vec<Chain>>) {
    let i = prefix.len();
    if i == sorted.len() {
        out.push(prefix.clone());
        return;
    }
    for c in sorted.iter().filter(|c| c.size == sorted[i].size) {
        if !prefix.contains(&c.chain) {
            prefix.push(c.chain);
            permute(sorted, prefix, out);
            prefix.pop();
        }
    }
}

/// A holder's disposal of the first defunct chain's shares (AQ-DISP-2, AQ-DISP-4).
pub fn check_dispose(state: &State, turn: &Turn, sell: u8, trade: u8) -> Result<(), Refusal> {
    let m = merger_at(state, turn, |s| matches!(s, MergerStep::Dispose(_)))?;
    let (Some(survivor), Some(defunct), Some(&seat)) =
        (m.survivor, m.defuncts.first(), m.disposers.first())
    else {
        return Err(Refusal::NoMergerDecision);
    };
    let held = state.player(seat).shares[defunct.chain.index()];
    let asked = u16::from(sell) + u16::from(trade);
    if asked > u16::from(held) {
        return Err(Refusal::NotEnoughShares {
            held,
            asked: asked.min(255) as u8,
        });
    }
    let ratio = board().constants.trade_ratio.give_defunct;
    if !trade.is_multiple_of(ratio) {
        return Err(Refusal::OddTrade(trade));
    }
    let left = state.chain(survivor).bank_shares;
    if trade / ratio * board().constants.trade_ratio.get_survivor > left {
        return Err(Refusal::SurvivorExhausted {
            chain: survivor,
            left,
        });
    }
    Ok(())
}

/// A share purchase: its price (AQ-BUY-1..3).
pub fn check_buy(state: &State, turn: &Turn, chain: Chain) -> Result<i32, Refusal> {
    expect_step(turn, Step::Buy)?;
    if turn.bought >= board().constants.max_shares_bought_per_turn {
        return Err(Refusal::BuyLimit);
    }
    if !state.is_active(chain) {
        return Err(Refusal::ChainNotActive(chain));
    }
    if state.chain(chain).bank_shares == 0 {
        return Err(Refusal::BankOut(chain));
    }
    let price = state.price(chain);
    let cash = state.player(turn.seat).cash;
    if cash < price {
        return Err(Refusal::CannotAfford { price, cash });
    }
    Ok(price)
}

/// The end conditions E1/E2 (AQ-END-1, AQ-D1).
pub fn end_conditions_hold(state: &State) -> bool {
    let c = &board().constants;
    let sizes = || state.active_chains().map(|ch| state.chain(ch).size);
    let e2 = sizes().any(|s| s >= c.end_size);
    let e1 = match state.config.end_rule {
        EndRule::Seed => {
            state.active_chains().count() == c.max_active_chains
                && sizes().all(|s| s >= c.safe_size)
        }
        EndRule::Standard => sizes().next().is_some() && sizes().all(|s| s >= c.safe_size),
    };
    e1 || e2
}

pub fn check_announce(state: &State, turn: &Turn) -> Result<(), Refusal> {
    expect_step(turn, Step::Buy)?;
    if turn.announced {
        return Err(Refusal::AlreadyAnnounced);
    }
    if turn.bought > 0 {
        return Err(Refusal::AnnounceAfterBuying);
    }
    if !end_conditions_hold(state) {
        return Err(Refusal::EndConditionsUnmet);
    }
    Ok(())
}

pub fn check_end_turn(turn: &Turn) -> Result<(), Refusal> {
    expect_step(turn, Step::Buy)
}

/// Round a split bonus up to the money unit (AQ-BONUS-3, AQ-BONUS-4, AQ-D7).
fn ceil_unit(amount: i32, parts: i32) -> i32 {
    let unit = board().constants.money_unit;
    let share = (amount + parts - 1) / parts;
    (share + unit - 1) / unit * unit
}

/// Bonus awards for holdings `(holder, shares)`; `None` is the two-player bank's phantom
/// holding (AQ-BONUS-1..5, AQ-2P-3). Holders with no share get nothing and are not listed.
pub fn bonus_awards(
    prices: Prices,
    holdings: &[(Option<Seat>, u8)],
) -> Vec<(Option<Seat>, u8, i32)> {
    let mut ranked: Vec<(Option<Seat>, u8)> =
        holdings.iter().copied().filter(|h| h.1 > 0).collect();
    ranked.sort_by_key(|h| std::cmp::Reverse(h.1));
    let (maj, min) = (prices.majority_bonus, prices.minority_bonus);
    let Some(&(_, top)) = ranked.first() else {
        return Vec::new(); // AQ-BONUS-5
    };
    let firsts = ranked.iter().filter(|h| h.1 == top).count();
    let mut out = Vec::with_capacity(ranked.len());
    if ranked.len() == 1 {
        out.push((ranked[0].0, top, maj + min)); // AQ-BONUS-1
    } else if firsts >= 2 {
        let each = ceil_unit(maj + min, firsts as i32); // AQ-BONUS-3
        out.extend(ranked[..firsts].iter().map(|h| (h.0, h.1, each)));
    } else {
        out.push((ranked[0].0, top, maj)); // AQ-BONUS-2, AQ-BONUS-4
        let second = ranked[1].1;
        let seconds = ranked.iter().filter(|h| h.1 == second).count();
        let each = ceil_unit(min, seconds as i32);
        out.extend(ranked[1..=seconds].iter().map(|h| (h.0, h.1, each)));
    }
    out
}
