//! The full Tycoon state, secrets (the draw piles' order) included. Only `evolve` changes it.

use super::config::Config;
use super::data::{board, City, Deck, LoanKind, Ticket, CITY_COUNT, TRACK_SPACES};
use crate::{Outcome, Seat};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Read as its rules version wrote it (see [`super::config`]).
    #[serde(deserialize_with = "super::config::stored")]
    pub config: Config,
    /// 1, 2 or 3 (TY-COMP-12).
    pub phase: u8,
    pub players: Vec<Player>,
    /// Indexed by [`City`].
    pub cities: Vec<CityState>,
    /// Indexed by [`Deck::index`].
    pub decks: [DeckState; 2],
    /// Loan cards still in the bank, indexed by [`LoanKind::index`] (L2).
    pub loan_cards_left: [u8; 2],
    pub stage: Stage,
    /// The seat whose last hotel started the final round of the phase (TY-PHASE-1).
    pub phase_end_triggered_by: Option<Seat>,
    /// Passes in a row; a full round of them ends the phase (P4).
    pub consecutive_passes: u8,
    /// The most recent payday's incomes, for the view.
    pub last_payday: Option<Vec<Income>>,
    pub outcome: Option<Outcome>,
}

/// Where the game stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonStage))]
pub enum Stage {
    /// Before the setup events are folded.
    Setup,
    /// A player's turn.
    Turn(Turn),
    /// After payday 1 or 2: players decide, from seat 0, on each unextended loan card (TY-AFTER-1).
    LoanSettlement,
    Finished,
}

/// What the active player has done so far this turn (TY-TURN-1..3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonTurn))]
pub struct Turn {
    pub seat: Seat,
    pub flown: bool,
    pub purchased: bool,
    /// A hotel, renovation or factory was built: only purchases and ending the turn remain.
    pub main_action_done: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonPlayer))]
pub struct Player {
    pub cash: i32,
    /// Hotels standing in front of the player, buildable this phase (TY-COMP-3).
    pub hotels_in_supply: u8,
    /// Hotels still in the box, handed out 6 per phase (TY-AFTER-4).
    pub hotels_in_reserve: u8,
    pub factories_left: u8,
    pub plane: Plane,
    /// Tickets in hand, public (TY-TIX-5).
    pub tickets: Vec<Ticket>,
    pub loans: Vec<LoanCard>,
}

/// Where a plane stands (TY-COMP-5, TY-LAND-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonPlane))]
pub enum Plane {
    /// At the owner's home bank, off the board.
    Home,
    /// In a city; `field` is the landing field (0 or 1), `null` on a stopover (TY-FLY-6).
    City { city: City, field: Option<u8> },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonLoanCard))]
pub struct LoanCard {
    pub loan: LoanKind,
    /// Turned over after a payday: due at the higher amount after the next one (TY-AFTER-1).
    pub extended: bool,
}

impl LoanCard {
    /// The amount showing on the card, due when it is repaid.
    pub fn amount_due(&self) -> i32 {
        let terms = self.loan.terms();
        if self.extended {
            terms.repay_extended
        } else {
            terms.repay
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonCityState))]
pub struct CityState {
    /// Owner of the hotel on each track space; `null` for unbuilt or emptied spaces.
    pub track: [Option<Seat>; TRACK_SPACES],
    /// Index of the highest used space + 1: the chain length and the next space to build on
    /// (TY-HOTEL-3, TY-FACPAY-2).
    pub chain_length: u8,
    /// Owners of the closed hotels standing on the city picture (TY-RED-1).
    pub closed: Vec<Seat>,
    /// Owners of the factories, on field 1 then field 2 (TY-FAC-2).
    pub factories: Vec<Seat>,
    /// The seats in the order they built their first hotel here (for the
    /// `first_built` tie break).
    #[serde(default)]
    pub first_built: Vec<Seat>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DeckState {
    /// The face-down pile; the last card is the top. Secret until the game ends.
    pub draw: Vec<Ticket>,
    pub display: Vec<Ticket>,
    pub discard: Vec<Ticket>,
}

/// One player's payday income (TY-PAY-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonIncome))]
pub struct Income {
    pub seat: Seat,
    pub distribution: i32,
    pub majority: i32,
    pub factories: i32,
    pub total: i32,
}

impl State {
    /// The state before the setup events.
    pub fn empty() -> State {
        State {
            config: Config::default(),
            phase: 0,
            players: Vec::new(),
            cities: vec![CityState::default(); CITY_COUNT],
            decks: Default::default(),
            loan_cards_left: [0; 2],
            stage: Stage::Setup,
            phase_end_triggered_by: None,
            consecutive_passes: 0,
            last_payday: None,
            outcome: None,
        }
    }

    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    pub fn city(&self, city: City) -> &CityState {
        &self.cities[usize::from(city.0)]
    }

    pub fn city_mut(&mut self, city: City) -> &mut CityState {
        &mut self.cities[usize::from(city.0)]
    }

    pub fn deck(&self, deck: Deck) -> &DeckState {
        &self.decks[deck.index()]
    }

    pub fn deck_mut(&mut self, deck: Deck) -> &mut DeckState {
        &mut self.decks[deck.index()]
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        Seat::all(self.players.len())
    }

    /// The landing field a plane arriving in `city` now takes: field 1 if free, else field 2,
    /// else none (TY-LAND-2). `arriving` is ignored as an occupant: it is leaving its own field.
    pub fn free_landing_field(&self, city: City, arriving: Seat) -> Option<u8> {
        let fields = board().constants.landing_fields_per_city as u8;
        (0..fields).find(|&field| {
            !self.players.iter().enumerate().any(|(i, p)| {
                i != arriving.index()
                    && p.plane
                        == Plane::City {
                            city,
                            field: Some(field),
                        }
            })
        })
    }

    /// The seat that must decide on a loan card now: the lowest seat holding an unextended card
    /// (TY-AFTER-1: in seat order from seat 0).
    pub fn loan_settlement_seat(&self) -> Option<Seat> {
        self.seats()
            .find(|&s| self.player(s).loans.iter().any(|c| !c.extended))
    }

    /// Cash minus the amounts showing on the loan cards (TY-AFTER-3).
    pub fn net_worth(&self, seat: Seat) -> i32 {
        let p = self.player(seat);
        p.cash - p.loans.iter().map(LoanCard::amount_due).sum::<i32>()
    }
}
