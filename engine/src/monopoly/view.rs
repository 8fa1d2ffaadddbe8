//! What a viewer sees: everything on the table. Monopoly's only secret is the order of the two
//! card decks (and the server's seed), so every viewer gets the same view with the decks shown
//! as counts.

use super::data::{board, Deck};
use super::event::Event;
use super::rules;
use super::state::{
    houses_at, Auction, Debt, Inheritance, PendingRent, Player, Shortage, State, TradeOffer, Turn,
    HOTEL,
};
use crate::{Outcome, Seat, Viewer};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyView))]
pub struct View {
    pub players: Vec<PlayerView>,
    /// The 28 title deeds in square order.
    pub deeds: Vec<DeedView>,
    pub bank_houses: u8,
    pub bank_hotels: u8,
    /// Face-down cards left in each deck; their order is secret.
    pub decks: Vec<DeckView>,
    pub first_seat: Seat,
    pub rounds_completed: u32,
    pub round_limit: Option<u32>,
    pub turn: Option<Turn>,
    pub rents: Vec<PendingRent>,
    pub debts: Vec<Debt>,
    pub auction: Option<Auction>,
    pub bank_sales: Vec<u8>,
    pub shortage: Option<Shortage>,
    pub inheritance: Option<Inheritance>,
    pub offers: Vec<TradeOffer>,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyPlayerView))]
pub struct PlayerView {
    pub seat: Seat,
    #[serde(flatten)]
    pub player: Player,
    /// Net worth as the round limit ranks it (MO-END-2).
    pub net_worth: i64,
    /// Cash plus what selling and mortgaging everything would raise (MO-DEBT-1).
    pub liquidation_value: i64,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyDeedView))]
pub struct DeedView {
    pub square: u8,
    pub name: String,
    pub owner: Option<Seat>,
    pub mortgaged: bool,
    pub houses: u8,
    pub hotel: bool,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyDeckView))]
pub struct DeckView {
    pub deck: Deck,
    pub cards: usize,
}

/// The same view for every viewer: everything but the decks' order is public.
pub fn view(state: &State, _viewer: Viewer) -> View {
    let b = board();
    View {
        players: state
            .seats()
            .map(|seat| PlayerView {
                seat,
                player: state.player(seat).clone(),
                net_worth: state.net_worth(seat),
                liquidation_value: rules::liquidation_value(state, seat),
            })
            .collect(),
        deeds: b
            .deeds
            .iter()
            .zip(&state.deeds)
            .map(|(data, deed)| DeedView {
                square: data.square,
                name: data.name.clone(),
                owner: deed.owner,
                mortgaged: deed.mortgaged,
                houses: houses_at(deed.level),
                hotel: deed.level == HOTEL,
            })
            .collect(),
        bank_houses: state.bank_houses,
        bank_hotels: state.bank_hotels,
        decks: Deck::ALL
            .iter()
            .map(|&deck| DeckView {
                deck,
                cards: state.decks[deck.index()].len(),
            })
            .collect(),
        first_seat: state.first_seat,
        rounds_completed: state.rounds_completed,
        round_limit: state.config.round_limit,
        turn: state.turn,
        rents: state.rents.clone(),
        debts: state.debts.clone(),
        auction: state.auction.clone(),
        bank_sales: state.bank_sales.clone(),
        shortage: state.shortage.clone(),
        inheritance: state.inheritance.clone(),
        offers: state.offers.iter().map(|o| TradeOffer::clone(o)).collect(),
        outcome: state.outcome.clone(),
    }
}

/// The decks' order is the only secret: hidden in every shuffle until the end.
pub fn redact(event: &Event, _viewer: Viewer) -> Option<Event> {
    match event {
        Event::DeckShuffled { deck, cards, .. } => Some(Event::DeckShuffled {
            deck: *deck,
            cards: *cards,
            order: None,
        }),
        other => Some(other.clone()),
    }
}
