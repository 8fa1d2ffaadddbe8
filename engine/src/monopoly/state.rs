//! The full Monopoly state, the decks' order (the only secret) included. Only `evolve` changes
//! it. Squares are numbered 0–39 from LOS; a property is named by its square.

use super::config::Config;
use super::data::{board, Card, Deck, DeedKind};
use crate::{Outcome, Seat};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Read as its rules version wrote it (see [`super::config`]).
    #[serde(deserialize_with = "super::config::stored")]
    pub config: Config,
    pub players: Vec<Player>,
    /// The 28 title deeds in square order (see [`super::data::Board::deeds`]).
    pub deeds: Vec<Deed>,
    /// Houses and hotels in the bank (MO-COMP-5, MO-BUILD-7).
    pub bank_houses: u8,
    pub bank_hotels: u8,
    /// The face-down decks, top card first, indexed by [`Deck::index`]. Secret until the end.
    pub decks: [Vec<Card>; 2],
    /// How many cards at the top of each deck have not been drawn since the shuffle. Every
    /// drawn card goes under its deck in the open (MO-CARD-1, MO-CARD-2), so only these top
    /// cards are in an order nobody knows; the rest of the deck is public knowledge.
    pub undrawn: [u8; 2],
    /// Winner of the starting roll (MO-SETUP-4): rounds are counted from this seat.
    pub first_seat: Seat,
    /// Full rounds played (MO-END-2).
    pub rounds_completed: u32,
    pub turn: Option<Turn>,
    /// Rent waiting for its owner's claim (MO-RENT-2).
    pub rents: Vec<PendingRent>,
    pub next_rent: u32,
    /// Open debts, oldest first; the first debtor is raising funds (MO-DEBT-1).
    pub debts: Vec<Debt>,
    pub auction: Option<Auction>,
    /// Squares of a bankrupt's estate still to be auctioned by the bank (MO-BANKR-3).
    pub bank_sales: Vec<u8>,
    pub shortage: Option<Shortage>,
    pub inheritance: Option<Inheritance>,
    /// Open offers, oldest first. An offer never changes once made, so copies of the state
    /// (every `decide` works on one, searches make millions) share them.
    pub offers: Vec<Arc<TradeOffer>>,
    pub next_offer: u32,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyPlayer))]
pub struct Player {
    pub cash: i64,
    /// Square 0–39 of the token.
    pub position: u8,
    /// In jail (on square 10), not merely visiting (MO-JAIL-6).
    pub in_jail: bool,
    /// Failed attempts to roll doubles in jail so far (MO-JAIL-2 c).
    pub jail_attempts: u8,
    /// "Du kommst aus dem Gefängnis frei" cards held (MO-CARD-2).
    pub jail_cards: Vec<Card>,
    pub bankrupt: bool,
}

/// One title deed's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyDeed))]
pub struct Deed {
    /// `None`: the bank holds it.
    pub owner: Option<Seat>,
    /// Face down (MO-MORT-2).
    pub mortgaged: bool,
    /// Buildings on a street: 0–4 houses, 5 = a hotel (MO-BUILD-4).
    pub level: u8,
}

/// The level that stands for a hotel.
pub const HOTEL: u8 = 5;

/// Houses standing on a street of `level`.
pub fn houses_at(level: u8) -> u8 {
    if level == HOTEL {
        0
    } else {
        level
    }
}

/// The player on turn and what the turn still owes (MO-TURN-1..7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyTurn))]
pub struct Turn {
    pub seat: Seat,
    /// Doubles rolled in a row this turn (MO-TURN-5).
    pub doubles: u8,
    /// Whether the turn's first roll happened: it closes earlier rent windows (MO-RENT-2).
    pub rolled: bool,
    /// The last roll owes another (doubles, MO-TURN-4).
    pub again: bool,
    pub step: Step,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyStep))]
pub enum Step {
    /// The player must roll (at the start, after doubles, or in jail).
    Roll,
    /// A move is being resolved (an auction or a debt holds it up).
    Moving,
    /// Buy `square` at its printed price or decline (MO-BUY-1, MO-BUY-2).
    Buy { square: u8 },
    /// Card G06: pay `amount` or draw from `deck` (MO-CARD-4).
    PayOrDraw { amount: i64, deck: Deck },
    /// Nothing is owed: the player may end the turn (MO-TURN-7).
    Done,
}

/// Rent owed if claimed before the window closes (MO-RENT-2, MO-D-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyPendingRent))]
pub struct PendingRent {
    pub rent: u32,
    pub payer: Seat,
    pub owner: Seat,
    pub square: u8,
    /// Fixed at landing.
    pub amount: i64,
}

/// Everything one player owes and cannot pay yet (MO-DEBT-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyDebt))]
pub struct Debt {
    pub debtor: Seat,
    pub lines: Vec<DebtLine>,
    /// The move of a failed third jail attempt, made once the fine is paid (MO-JAIL-4).
    pub then_move: Option<[u8; 2]>,
}

impl Debt {
    pub fn total(&self) -> i64 {
        self.lines.iter().map(|l| l.amount).sum()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyDebtLine))]
pub struct DebtLine {
    /// `null`: the bank.
    pub creditor: Option<Seat>,
    pub amount: i64,
    pub reason: PaymentReason,
}

/// What is under the hammer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyLot))]
pub enum Lot {
    /// A title deed, sold face up (MO-AUC-1 cases 1 and 2).
    Property { square: u8 },
    /// One building unit in a shortage (MO-BUILD-8).
    Building { building: Building },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyBuilding))]
pub enum Building {
    House,
    Hotel,
}

/// An open-outcry auction (MO-AUC-5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyAuction))]
pub struct Auction {
    pub lot: Lot,
    /// Seats still in (not passed), in seat order.
    pub bidders: Vec<Seat>,
    pub high: Option<Bid>,
    pub min_bid: i64,
    /// The auction of a declined purchase: the lander's move resumes after it.
    pub resumes_turn: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyBid))]
pub struct Bid {
    pub seat: Seat,
    pub amount: i64,
}

/// A building shortage (MO-BUILD-8): the demand window, then the fill or the unit auctions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyShortage))]
pub struct Shortage {
    pub building: Building,
    /// Units of that kind in the bank when the window opened.
    pub stock: u8,
    /// The requester's request first, then declarations as they come.
    pub requests: Vec<BuildRequest>,
    /// Seats that may still declare.
    pub waiting: Vec<Seat>,
    /// Units not yet auctioned.
    pub units_left: u8,
}

/// Where a player wants units, in placing order; `placed` of them are built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyBuildRequest))]
pub struct BuildRequest {
    pub seat: Seat,
    pub squares: Vec<u8>,
    pub placed: u8,
}

/// A creditor's choice after a bankruptcy: lift each received mortgage or pay 10 % (MO-BANKR-2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyInheritance))]
pub struct Inheritance {
    pub creditor: Seat,
    pub squares: Vec<u8>,
}

/// A trade offer from one player to one other (MO-TRADE-4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyTradeOffer))]
pub struct TradeOffer {
    pub offer: u32,
    pub from: Seat,
    pub to: Seat,
    /// What the proposer gives.
    pub give: Bundle,
    /// What the proposer receives.
    pub get: Bundle,
    /// Mortgaged properties the proposer receives and lifts at once (MO-TRADE-3 a); interest is
    /// paid on the others (b).
    pub lift: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyBundle))]
pub struct Bundle {
    pub cash: i64,
    pub properties: Vec<u8>,
    pub cards: Vec<Card>,
}

impl Bundle {
    /// Nothing: no cash, no property, no card.
    pub fn is_empty(&self) -> bool {
        self.cash == 0 && self.properties.is_empty() && self.cards.is_empty()
    }
}

impl State {
    /// The state before the setup events.
    pub fn empty() -> State {
        State {
            config: Config::default(),
            players: Vec::new(),
            deeds: vec![Deed::default(); board().deeds.len()],
            bank_houses: 0,
            bank_hotels: 0,
            decks: Default::default(),
            undrawn: [0; 2],
            first_seat: Seat(0),
            rounds_completed: 0,
            turn: None,
            rents: Vec::new(),
            next_rent: 0,
            debts: Vec::new(),
            auction: None,
            bank_sales: Vec::new(),
            shortage: None,
            inheritance: None,
            offers: Vec::new(),
            next_offer: 0,
            outcome: None,
        }
    }

    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        Seat::all(self.players.len())
    }

    /// Seats still in the game, in seat order.
    pub fn solvent(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats().filter(|&s| !self.player(s).bankrupt)
    }

    /// The deed on `square`; `None` when the square has none.
    pub fn deed(&self, square: u8) -> Option<&Deed> {
        board().deed_at(square).map(|d| &self.deeds[d])
    }

    pub fn deed_mut(&mut self, square: u8) -> Option<&mut Deed> {
        board().deed_at(square).map(|d| &mut self.deeds[d])
    }

    /// The squares of the deeds `seat` owns, in square order.
    pub fn owned(&self, seat: Seat) -> impl Iterator<Item = u8> + '_ {
        self.deeds
            .iter()
            .enumerate()
            .filter(move |(_, d)| d.owner == Some(seat))
            .map(|(i, _)| board().deed(i).square)
    }

    /// The seat on turn, if the game is running.
    pub fn turn_seat(&self) -> Option<Seat> {
        self.turn.map(|t| t.seat)
    }

    /// The open debt of `seat`, if any.
    pub fn debt_of(&self, seat: Seat) -> Option<&Debt> {
        self.debts.iter().find(|d| d.debtor == seat)
    }

    /// The debtor raising funds now (MO-DEBT-1).
    pub fn raising_funds(&self) -> Option<Seat> {
        self.debts.first().map(|d| d.debtor)
    }

    /// The next seat in play order after `seat` that is not bankrupt.
    pub fn next_solvent(&self, seat: Seat) -> Seat {
        let n = self.players.len();
        seat.next(n)
            .clockwise(n)
            .find(|&s| !self.player(s).bankrupt)
            .unwrap_or(seat)
    }

    /// How many Bahnhöfe or Werke (the kind of `square`'s deed) `owner` counts for rent
    /// (MO-RENT-6, MO-RENT-7, MO-D-4).
    pub fn same_kind_count(&self, owner: Seat, square: u8) -> usize {
        let b = board();
        let Some(this) = b.deed_at(square) else {
            return 0;
        };
        let kind = std::mem::discriminant(&b.deed(this).kind);
        b.deeds
            .iter()
            .zip(&self.deeds)
            .filter(|(data, deed)| {
                std::mem::discriminant(&data.kind) == kind
                    && deed.owner == Some(owner)
                    && (self.config.count_mortgaged_for_rail_util || !deed.mortgaged)
            })
            .count()
    }

    /// Whether `seat` owns every street of `group` (MO-BUILD-1).
    pub fn owns_group(&self, seat: Seat, group: usize) -> bool {
        board().groups[group]
            .deeds
            .iter()
            .all(|&d| self.deeds[d].owner == Some(seat))
    }

    /// Levels of the streets of `group`, in square order.
    pub fn group_levels(&self, group: usize) -> Vec<u8> {
        board().groups[group]
            .deeds
            .iter()
            .map(|&d| self.deeds[d].level)
            .collect()
    }

    /// Net worth for the round limit (MO-END-2): cash, printed price of unmortgaged and MV of
    /// mortgaged properties, buildings at purchase price (a hotel is 5 × H).
    pub fn net_worth(&self, seat: Seat) -> i64 {
        let p = self.player(seat);
        if p.bankrupt {
            return 0;
        }
        let b = board();
        let mut worth = p.cash;
        for (data, deed) in b.deeds.iter().zip(&self.deeds) {
            if deed.owner != Some(seat) {
                continue;
            }
            worth += if deed.mortgaged {
                data.mortgage
            } else {
                data.price
            };
            if let DeedKind::Street { house_cost, .. } = data.kind {
                worth += house_cost * i64::from(deed.level);
            }
        }
        worth
    }
}

/// Why money moves: carried by payment events and by the debts they leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyPaymentReason))]
pub enum PaymentReason {
    Rent,
    Tax,
    Card,
    JailFine,
    /// 10 % on a mortgaged property received (MO-TRADE-3 b, MO-BANKR-2).
    Interest,
    /// The cash of a bankrupt to the creditors (MO-BANKR-1, MO-BANKR-4).
    Bankruptcy,
}
