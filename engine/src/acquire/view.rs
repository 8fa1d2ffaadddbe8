//! What a viewer sees. Secrets are the hands (each seat sees only its own, spectators none) and
//! the pile's order (nobody sees it; only its size). With `hidden_holdings` the other players'
//! cash and shares are hidden too until the game ends (AQ-INFO-1..3).

use super::data::{board, Chain, Tile};
use super::event::Event;
use super::rules;
use super::state::{Cell, Merger, Stage, State};
use crate::{Outcome, Seat, Viewer};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireView))]
pub struct View {
    /// The seat this view is for; `null` for a spectator.
    pub viewer: Option<Seat>,
    pub stage: Stage,
    /// The merger being settled: who decides and what is left (AQ-MERGE).
    pub merger: Option<Merger>,
    /// The seats that must act now.
    pub active_seats: Vec<Seat>,
    /// Every placed tile, with its chain (`null`: unincorporated).
    pub board: Vec<PlacedTile>,
    /// The seven chains, in data-file order; `shares` lists follow this order.
    pub chains: Vec<ChainView>,
    pub players: Vec<PlayerView>,
    /// Tiles left face down; their order is secret.
    pub draw_pile: usize,
    /// Tiles out of the game (AQ-DEAD-1, AQ-2P-6, AQ-2P-9).
    pub removed: Vec<Tile>,
    /// Two players: bank tiles waiting to be placed (AQ-2P-5).
    pub bank_tiles: Vec<Tile>,
    /// Whether the end may be announced now (AQ-END-1).
    pub end_conditions_hold: bool,
    /// Turns in a row without a placement or a draw (AQ-END-5).
    pub idle_turns: u8,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquirePlacedTile))]
pub struct PlacedTile {
    pub tile: Tile,
    pub chain: Option<Chain>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireChainView))]
pub struct ChainView {
    pub chain: Chain,
    pub name: String,
    pub tier: u8,
    pub size: u8,
    pub active: bool,
    /// 11 or more tiles (AQ-COMP-10).
    pub safe: bool,
    /// Current price and bonuses; 0 while inactive (AQ-BUY-2).
    pub price: i32,
    pub majority_bonus: i32,
    pub minority_bonus: i32,
    /// Shares left in the bank, public (AQ-INFO-1).
    pub bank_shares: u8,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquirePlayerView))]
pub struct PlayerView {
    pub seat: Seat,
    /// `null` when hidden (`hidden_holdings`, AQ-INFO-3).
    pub cash: Option<i32>,
    /// Shares per chain in `chains` order; `null` when hidden.
    pub shares: Option<Vec<u8>>,
    pub hand_size: usize,
    /// Only in the seat's own view (AQ-COMP-5).
    pub hand: Option<Vec<Tile>>,
}

/// Hands hidden from everyone but their holder (AQ-COMP-5); other seats' holdings hidden until
/// the end while `hidden_holdings` is on (AQ-INFO-3).
pub fn view(state: &State, viewer: Viewer) -> View {
    let b = board();
    let me = match viewer {
        Viewer::Seat(seat) => Some(seat),
        Viewer::Spectator => None,
    };
    let open = !state.config.hidden_holdings || state.outcome.is_some();
    View {
        viewer: me,
        stage: state.stage,
        merger: state.merger.clone(),
        active_seats: rules::actor(state).into_iter().collect(),
        board: Tile::all()
            .filter_map(|tile| match state.cell(tile) {
                Cell::Empty => None,
                Cell::Unincorporated => Some(PlacedTile { tile, chain: None }),
                Cell::Chain(chain) => Some(PlacedTile {
                    tile,
                    chain: Some(chain),
                }),
            })
            .collect(),
        chains: Chain::all()
            .map(|chain| {
                let c = state.chain(chain);
                let prices = b.prices(chain, c.size);
                ChainView {
                    chain,
                    name: b.chain(chain).name.clone(),
                    tier: b.chain(chain).tier,
                    size: c.size,
                    active: state.is_active(chain),
                    safe: state.is_safe(chain),
                    price: prices.map_or(0, |p| p.price),
                    majority_bonus: prices.map_or(0, |p| p.majority_bonus),
                    minority_bonus: prices.map_or(0, |p| p.minority_bonus),
                    bank_shares: c.bank_shares,
                }
            })
            .collect(),
        players: state
            .seats()
            .map(|seat| {
                let p = state.player(seat);
                let mine = me == Some(seat);
                PlayerView {
                    seat,
                    cash: (open || mine).then_some(p.cash),
                    shares: (open || mine).then(|| p.shares.to_vec()),
                    hand_size: p.hand.len(),
                    hand: mine.then(|| p.hand.clone()),
                }
            })
            .collect(),
        draw_pile: state.bag.len(),
        removed: state.removed.clone(),
        bank_tiles: state.bank_tiles.clone(),
        end_conditions_hold: state.turn().is_some() && rules::end_conditions_hold(state),
        idle_turns: state.idle_turns,
        outcome: state.outcome.clone(),
    }
}

/// Tile draws are shown only to the drawing seat; the pile order to nobody (AQ-INFO-2).
pub fn redact(event: &Event, viewer: Viewer) -> Option<Event> {
    match event {
        Event::TilesShuffled { tiles, .. } => Some(Event::TilesShuffled {
            tiles: *tiles,
            order: None,
        }),
        Event::TileDrawn { seat, .. } if viewer != Viewer::Seat(*seat) => Some(Event::TileDrawn {
            seat: *seat,
            tile: None,
        }),
        other => Some(other.clone()),
    }
}
