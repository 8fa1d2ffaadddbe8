//! What a viewer sees (TR-D-20). Secret: the tiles and cards in each hand (only their counts
//! are public), both piles' order, face-down fight cards until both sides have laid, and sealed
//! keep choices. Each seat sees its own; a spectator none. Once the game is over every hand is
//! shown.

use super::cards::{Card, Cards, Empire};
use super::data::{Cell, Tile};
use super::event::Event;
use super::scoring;
use super::state::{ActionCards, Due, Offer, Phase, Pirate, ScoreSheet, ShipId, State};
use crate::{Game, Outcome, Seat, Viewer};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosView))]
pub struct View {
    /// The seat this view is for; `null` for a spectator.
    pub viewer: Option<Seat>,
    pub round: u8,
    pub start_player: Seat,
    /// This round is the last (TR-END-1).
    pub last_round: bool,
    pub phase: Phase,
    /// The seats the game waits for.
    pub active_seats: Vec<Seat>,
    /// The map: cell ids by row, north first ("TY" Tyros, "SEA", "DES", field numbers).
    pub grid: Vec<Vec<String>>,
    /// The 32 fields.
    pub fields: Vec<FieldView>,
    /// Every ship; `at` is `null` for ships in their owner's supply.
    pub ships: Vec<ShipView>,
    pub players: Vec<PlayerView>,
    /// Tiles left face down; their order is secret.
    pub tile_pile: usize,
    /// Founding and played tiles not under a pirate (TR-PIR-3).
    pub used_tiles: Vec<Tile>,
    /// Trade cards left face down; their order is secret.
    pub draw_pile: usize,
    /// The face-up discard pile, first discarded first.
    pub discard_pile: Vec<Card>,
    /// Payments owed now, the first due first.
    pub dues: Vec<Due>,
    pub offer: Option<Offer>,
    pub fight: Option<FightView>,
    /// Points as they would be if the game ended now (TR-SCORE).
    pub standings: Vec<ScoreSheet>,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosFieldView))]
pub struct FieldView {
    pub field: Cell,
    pub empire: Option<Empire>,
    pub city: Option<Seat>,
    pub pirate: Option<Pirate>,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosShipView))]
pub struct ShipView {
    pub id: ShipId,
    pub owner: Seat,
    pub at: Option<Cell>,
    pub galley: bool,
    pub explorer: bool,
    /// The action-phase turn it came to its cell in (TR-GAL-4).
    pub arrived: u32,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosPlayerView))]
pub struct PlayerView {
    pub seat: Seat,
    pub tiles_in_hand: usize,
    /// Only in the seat's own view.
    pub tiles: Option<Vec<Tile>>,
    pub cards_in_hand: u32,
    /// Only in the seat's own view.
    pub cards: Option<Cards>,
    pub cities_left: u8,
    pub ships_in_supply: usize,
    pub galley_tokens: u8,
    pub action_cards: ActionCards,
    pub pirate_points: i32,
    pub bonus: i32,
    pub bank_trades_this_round: u8,
    /// End of round: the keep choice is made (its cards only in the seat's own view).
    pub keep_chosen: bool,
    pub kept: Option<Cards>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosFightView))]
pub struct FightView {
    pub field: Cell,
    pub attacker: ShipId,
    pub defender: ShipId,
    /// How many cards each side laid (public, TR-GAL-5).
    pub attacker_laid: Option<u8>,
    pub defender_laid: Option<u8>,
    /// The cards, shown to their owner at once and to everyone once both have laid.
    pub attacker_cards: Option<Cards>,
    pub defender_cards: Option<Cards>,
    pub revealed: bool,
    pub winner: Option<Seat>,
    /// The winner's equal largest groups to choose from.
    pub choices: Vec<Cards>,
}

pub fn view(state: &State, viewer: Viewer) -> View {
    let me = match viewer {
        Viewer::Seat(seat) => Some(seat),
        Viewer::Spectator => None,
    };
    let over = state.outcome.is_some();
    let sees = |seat: Seat| over || me == Some(seat);
    View {
        viewer: me,
        round: state.round,
        start_player: state.start_player,
        last_round: state.last_round,
        phase: state.phase,
        active_seats: super::Tyros::active_seats(state),
        grid: state.map().grid.clone(),
        fields: Cell::fields()
            .map(|c| {
                let f = state.field(c);
                FieldView {
                    field: c,
                    empire: f.empire,
                    city: f.city,
                    pirate: f.pirate,
                }
            })
            .collect(),
        ships: state
            .ships
            .iter()
            .enumerate()
            .map(|(i, s)| ShipView {
                id: ShipId(i as u8),
                owner: s.owner,
                at: s.at,
                galley: s.galley,
                explorer: s.explorer,
                arrived: s.arrived,
            })
            .collect(),
        players: state
            .seats()
            .map(|seat| {
                let p = state.player(seat);
                PlayerView {
                    seat,
                    tiles_in_hand: p.tiles.len(),
                    tiles: sees(seat).then(|| p.tiles.clone()),
                    cards_in_hand: p.cards.total(),
                    cards: sees(seat).then_some(p.cards),
                    cities_left: p.cities_left,
                    ships_in_supply: state.ships_in_supply(seat).count(),
                    galley_tokens: if state.config.galleys {
                        state.galley_tokens_left(seat)
                    } else {
                        0
                    },
                    action_cards: p.action_cards,
                    pirate_points: p.pirate_points,
                    bonus: p.bonus,
                    bank_trades_this_round: p.bank_trades,
                    keep_chosen: matches!(state.phase, Phase::RoundEnd)
                        && state.keep.get(seat.index()).is_some_and(Option::is_some),
                    kept: state
                        .keep
                        .get(seat.index())
                        .copied()
                        .flatten()
                        .filter(|_| sees(seat)),
                }
            })
            .collect(),
        tile_pile: state.tile_pile.len(),
        used_tiles: state.used_tiles.clone(),
        draw_pile: state.draw_pile.len(),
        discard_pile: state.discard_pile.clone(),
        dues: state.dues.clone(),
        offer: state.offer,
        fight: state.fight.as_ref().map(|f| {
            let shown = |ship: ShipId, cards: Option<Cards>| {
                cards.filter(|_| f.revealed || sees(state.ship(ship).owner))
            };
            FightView {
                field: f.field,
                attacker: f.attacker,
                defender: f.defender,
                attacker_laid: f.attacker_cards.map(|c| c.total() as u8),
                defender_laid: f.defender_cards.map(|c| c.total() as u8),
                attacker_cards: shown(f.attacker, f.attacker_cards),
                defender_cards: shown(f.defender, f.defender_cards),
                revealed: f.revealed,
                winner: f.winner,
                choices: f.choices.clone(),
            }
        }),
        standings: scoring::score_sheets(state),
        outcome: state.outcome.clone(),
    }
}

/// Secrets are shown only to the seat they belong to; pile orders to nobody (TR-D-20).
pub fn redact(event: &Event, viewer: Viewer) -> Option<Event> {
    let mine = |seat: &Seat| viewer == Viewer::Seat(*seat);
    let mut event = event.clone();
    match &mut event {
        Event::TilePileShuffled { order, .. } => *order = None,
        Event::DrawPileShuffled { order, .. } | Event::DrawPileRebuilt { order, .. } => {
            *order = None
        }
        Event::TilesDealt { seat, tiles, .. } if !mine(seat) => *tiles = None,
        Event::TileDrawn { seat, tile } if !mine(seat) => *tile = None,
        Event::TilesSwapped {
            seat,
            returned,
            drawn,
        } if !mine(seat) => {
            *returned = None;
            *drawn = None;
        }
        Event::CardsDrawn { seat, cards, .. }
        | Event::FightCardsLaid { seat, cards, .. }
        | Event::KeepChosen { seat, cards }
            if !mine(seat) =>
        {
            *cards = None
        }
        _ => {}
    }
    Some(event)
}
