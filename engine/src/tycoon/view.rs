//! What a viewer sees: everything on the table. Tycoon's only secret is the order of the two
//! draw piles (and the server's seed), so every viewer gets the same view with the piles shown
//! as counts.

use super::data::{board, City, Ticket};
use super::event::Event;
use super::state::{CityState, Income, Player, Stage, State};
use crate::{Outcome, Seat, Viewer};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonView))]
pub struct View {
    pub phase: u8,
    pub stage: Stage,
    pub players: Vec<PlayerView>,
    pub cities: Vec<CityView>,
    pub scheduled: DeckView,
    pub charter: DeckView,
    /// Loan cards left in the bank: `[loan10, loan16]`.
    pub loan_cards_left: [u8; 2],
    pub phase_end_triggered_by: Option<Seat>,
    pub consecutive_passes: u8,
    pub last_payday: Option<Vec<Income>>,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonPlayerView))]
pub struct PlayerView {
    pub seat: Seat,
    #[serde(flatten)]
    pub player: Player,
    /// Cash minus the amounts showing on the loan cards (TY-AFTER-3).
    pub net_worth: i32,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonCityView))]
pub struct CityView {
    pub city: City,
    #[serde(flatten)]
    pub state: CityState,
    /// First and second majority payout if payday were now (TY-MAJ-1).
    pub payout: [i32; 2],
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonDeckView))]
pub struct DeckView {
    /// Cards face down; their order is secret.
    pub draw_pile: usize,
    pub display: Vec<Ticket>,
    pub discard: Vec<Ticket>,
}

/// The same view for every viewer: nothing on the table is secret.
pub fn view(state: &State, _viewer: Viewer) -> View {
    let deck = |d: super::data::Deck| {
        let pile = state.deck(d);
        DeckView {
            draw_pile: pile.draw.len(),
            display: pile.display.clone(),
            discard: pile.discard.clone(),
        }
    };
    View {
        phase: state.phase,
        stage: state.stage.clone(),
        players: state
            .seats()
            .map(|seat| PlayerView {
                seat,
                player: state.player(seat).clone(),
                net_worth: state.net_worth(seat),
            })
            .collect(),
        cities: board()
            .cities()
            .map(|city| CityView {
                city,
                state: state.city(city).clone(),
                payout: super::payday::payout(state, city),
            })
            .collect(),
        scheduled: deck(super::data::Deck::Scheduled),
        charter: deck(super::data::Deck::Charter),
        loan_cards_left: state.loan_cards_left,
        phase_end_triggered_by: state.phase_end_triggered_by,
        consecutive_passes: state.consecutive_passes,
        last_payday: state.last_payday.clone(),
        outcome: state.outcome.clone(),
    }
}

/// Every event as it is, but a shuffle without its order: the draw piles' order is the only
/// secret.
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
