//! What happened, in the past tense, chance outcomes included. The JSON form is stable: stored
//! logs are replayed by later versions, so variants and fields are only ever added.

use super::config::Config;
use super::data::{City, Deck, LoanKind, Ticket};
use super::state::Income;
use crate::{Outcome, Seat};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonEvent))]
pub enum Event {
    /// Each seat gets its plane, hotels, factories and start money (TY-SETUP-1, TY-SETUP-2).
    GameStarted {
        players: u8,
        /// Every option, as this game plays it.
        // Read as its rules version wrote it: see `super::config::stored`.
        #[serde(deserialize_with = "super::config::stored")]
        config: Config,
    },
    /// A draw pile was (re)formed in this order, top card last (TY-SETUP-3, TY-TIX-4).
    /// `order` is secret: redacted to `null` for every viewer until the game ends.
    DeckShuffled {
        deck: Deck,
        cards: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        order: Option<Vec<Ticket>>,
    },
    /// Cards were turned face up from the top of a draw pile (TY-SETUP-3, TY-TIX-4).
    TicketsRevealed {
        deck: Deck,
        tickets: Vec<Ticket>,
    },
    TurnStarted {
        seat: Seat,
    },
    TicketBought {
        seat: Seat,
        ticket: Ticket,
        price: i32,
    },
    /// `from` is `null` when leaving the home bank; `field` is `null` on a stopover.
    Flew {
        seat: Seat,
        ticket: Ticket,
        from: Option<City>,
        to: City,
        field: Option<u8>,
    },
    HotelBuilt {
        seat: Seat,
        city: City,
        space: u8,
        cost: i32,
    },
    /// A red space closed the hotel on `space` (TY-RED-1).
    HotelClosed {
        city: City,
        space: u8,
        owner: Seat,
    },
    HotelRenovated {
        seat: Seat,
        city: City,
        space: u8,
    },
    FactoryBuilt {
        seat: Seat,
        city: City,
        field: u8,
        cost: i32,
    },
    /// The plane went home and the loan was paid out (TY-LOAN-1, TY-LOAN-2).
    LoanTaken {
        seat: Seat,
        loan: LoanKind,
        amount: i32,
    },
    /// The plane went home; no loan card was left (L2, P4).
    Passed {
        seat: Seat,
    },
    /// The seat built the last hotel of its supply: the round is played out (TY-PHASE-1).
    PhaseEndTriggered {
        seat: Seat,
    },
    TurnEnded {
        seat: Seat,
    },
    /// Payday incomes, all paid (TY-PAY-1).
    PaydayHeld {
        phase: u8,
        incomes: Vec<Income>,
    },
    /// A card went back to the bank against `amount` (TY-AFTER-1, TY-END-2, L5).
    LoanRepaid {
        seat: Seat,
        loan: LoanKind,
        extended: bool,
        amount: i32,
    },
    /// The card was turned over (TY-AFTER-1).
    LoanExtended {
        seat: Seat,
        loan: LoanKind,
    },
    /// Some seat must decide on an unextended card (TY-AFTER-1).
    LoanSettlementStarted,
    /// The money check and the new hotels of the next phase (TY-AFTER-3, TY-AFTER-4).
    PhaseStarted {
        phase: u8,
        hotels_per_player: u8,
        net_worths: Vec<i32>,
    },
    GameEnded {
        outcome: Outcome,
    },
}
