//! What happened, in the past tense, chance outcomes included. The JSON form is stable: stored
//! logs are replayed by later versions, so variants and fields are only ever added. Every
//! change of cash is one of these events (see each variant).

use super::config::Config;
use super::data::{Card, Deck};
use super::state::{Building, Lot, PaymentReason, TradeOffer};
use crate::{Outcome, Seat};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyEvent))]
pub enum Event {
    /// Start money, tokens on LOS, deeds and buildings in the bank (MO-SETUP-1, MO-SETUP-2).
    GameStarted {
        players: u8,
        /// Every option written out (an event stored before an option existed is read with that
        /// option at rules version 1's default).
        #[serde(deserialize_with = "super::config::stored")]
        config: Config,
    },
    /// A deck was shuffled, top card first (MO-SETUP-3). `order` is secret: redacted to `null`
    /// for every viewer until the game ends.
    DeckShuffled {
        deck: Deck,
        cards: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        order: Option<Vec<Card>>,
    },
    /// One round of the starting roll: all players, then the tied highest again (MO-SETUP-4).
    StartingRolled {
        rolls: Vec<SeatRoll>,
    },
    TurnStarted {
        seat: Seat,
    },
    DiceRolled {
        seat: Seat,
        dice: [u8; 2],
    },
    /// The token moved; `backward` only by card (MO-CARD-3).
    Moved {
        seat: Seat,
        from: u8,
        to: u8,
        backward: bool,
    },
    /// LOS passed or reached: the bank pays `amount` (MO-TURN-3).
    SalaryPaid {
        seat: Seat,
        amount: i64,
    },
    /// To square 10, in jail (MO-JAIL-1).
    SentToJail {
        seat: Seat,
    },
    /// A failed doubles attempt in jail, counted from 1 (MO-JAIL-2 c).
    JailAttemptFailed {
        seat: Seat,
        attempt: u8,
    },
    /// Out of jail (MO-JAIL-2); a fine is a separate `paid` event.
    LeftJail {
        seat: Seat,
        how: JailExit,
    },
    /// The lander may buy `square` (MO-BUY-1).
    PurchaseOffered {
        seat: Seat,
        square: u8,
    },
    /// Bought from the bank: `price` leaves the buyer's cash.
    PropertyBought {
        seat: Seat,
        square: u8,
        price: i64,
    },
    PurchaseDeclined {
        seat: Seat,
        square: u8,
    },
    /// Rent is owed if claimed (MO-RENT-2). `dice`: the roll for a Werk's rent (MO-RENT-7).
    RentOwed {
        rent: u32,
        payer: Seat,
        owner: Seat,
        square: u8,
        amount: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dice: Option<[u8; 2]>,
    },
    /// The owner claimed (payment follows as a `paid` or `debt_opened` event).
    RentClaimed {
        rent: u32,
    },
    /// The claim window closed unclaimed: never owed (MO-RENT-2).
    RentLapsed {
        rent: u32,
    },
    /// Cash moved from `from` to `to` (`null`: the bank).
    Paid {
        from: Option<Seat>,
        to: Option<Seat>,
        amount: i64,
        reason: PaymentReason,
    },
    /// A payment that could not be made became (part of) a debt (MO-DEBT-1).
    DebtOpened {
        debtor: Seat,
        creditor: Option<Seat>,
        amount: i64,
        reason: PaymentReason,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        then_move: Option<[u8; 2]>,
    },
    /// Every line was paid (the `paid` events precede it).
    DebtPaid {
        debtor: Seat,
    },
    /// The top card was drawn and shown; a jail card is kept, any other goes under the deck
    /// (MO-CARD-1, MO-CARD-2).
    CardDrawn {
        seat: Seat,
        deck: Deck,
        card: Card,
    },
    /// G06: the drawer chooses to pay or to draw.
    CardChoiceOffered {
        seat: Seat,
        amount: i64,
        deck: Deck,
    },
    /// A jail card went under its own deck (MO-CARD-2, MO-BANKR-3).
    JailCardReturned {
        seat: Seat,
        card: Card,
    },
    /// The move and everything it set off are resolved.
    MoveFinished {
        seat: Seat,
        roll_again: bool,
    },
    TurnEnded {
        seat: Seat,
    },
    /// Another full round was played (MO-END-2).
    RoundCompleted {
        rounds: u32,
    },
    /// One unit placed; `price` leaves the buyer's cash (list price, or the winning bid of a
    /// shortage auction). Level 5 is a hotel: the street's 4 houses go back to the bank.
    BuildingBought {
        seat: Seat,
        square: u8,
        level: u8,
        price: i64,
    },
    /// Buildings went back to the bank; `amount` is paid to the seller (MO-SELL-1..4,
    /// MO-BANKR-1). Each entry is a street and its new level.
    BuildingsSold {
        seat: Seat,
        levels: Vec<SquareLevel>,
        amount: i64,
    },
    /// Face down; the bank pays `amount` (MO-MORT-2).
    Mortgaged {
        seat: Seat,
        square: u8,
        amount: i64,
    },
    /// Face up; `amount` (MV + 10 %) goes to the bank (MO-MORT-3).
    MortgageLifted {
        seat: Seat,
        square: u8,
        amount: i64,
    },
    AuctionStarted {
        lot: Lot,
        bidders: Vec<Seat>,
        min_bid: i64,
        resumes_turn: bool,
    },
    BidPlaced {
        seat: Seat,
        amount: i64,
    },
    AuctionPassed {
        seat: Seat,
    },
    /// Sold to the high bidder. For a property `amount` leaves the winner's cash; for a
    /// building unit the `building_bought` event that follows carries the payment.
    AuctionWon {
        seat: Seat,
        amount: i64,
        lot: Lot,
    },
    /// Nobody bid: the lot stays with the bank (MO-AUC-6).
    AuctionUnsold {
        lot: Lot,
    },
    /// Squares of a bankrupt's estate that the bank will auction one at a time (MO-BANKR-3).
    BankSalesQueued {
        squares: Vec<u8>,
    },
    /// A build request met a shortage: the demand window opens (MO-BUILD-8).
    ShortageOpened {
        building: Building,
        stock: u8,
        requester: Seat,
        squares: Vec<u8>,
        waiting: Vec<Seat>,
    },
    DemandDeclared {
        seat: Seat,
        squares: Vec<u8>,
    },
    ShortageEnded,
    TradeOffered {
        offer: TradeOffer,
    },
    TradeRejected {
        offer: u32,
    },
    TradeWithdrawn {
        offer: u32,
    },
    /// A deed the offer names (`square`) was mortgaged, lifted, built on or changed owner since
    /// the offer was made: it is gone and never executed on the changed terms (MO-TRADE-4,
    /// `trade_offers = as_made`).
    TradeLapsed {
        offer: u32,
        square: u8,
    },
    /// The offer was executed: cash, deeds (mortgaged state kept) and cards changed hands
    /// (MO-TRADE-4). Lifts and interest follow as their own events.
    TradeExecuted {
        offer: TradeOffer,
    },
    /// The debtor gives up (MO-DEBT-2); liquidation and transfers follow.
    BankruptcyDeclared {
        seat: Seat,
    },
    /// A deed changed hands outside a trade: to a creditor, mortgaged state kept, or (`to:
    /// null`) back to the bank, unowned and face up (MO-BANKR-2, MO-BANKR-3).
    PropertyTransferred {
        square: u8,
        from: Seat,
        to: Option<Seat>,
    },
    JailCardTransferred {
        card: Card,
        from: Seat,
        to: Seat,
    },
    /// The creditor must lift or pay interest on each received mortgage (MO-BANKR-2).
    InheritanceOffered {
        creditor: Seat,
        squares: Vec<u8>,
    },
    InheritanceSettled {
        creditor: Seat,
    },
    /// Out of the game (MO-DEBT-2); the player's rents lapse and offers are withdrawn first
    /// (MO-BANKR-5), debts owed to the player are cancelled.
    PlayerBankrupt {
        seat: Seat,
    },
    GameEnded {
        outcome: Outcome,
        reason: EndReason,
    },
}

/// One player's dice in the starting roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolySeatRoll))]
pub struct SeatRoll {
    pub seat: Seat,
    pub dice: [u8; 2],
}

/// A street and its level after a sale (0–4 houses, 5 = hotel).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolySquareLevel))]
pub struct SquareLevel {
    pub square: u8,
    pub level: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyJailExit))]
pub enum JailExit {
    /// Paid M 50 before rolling (a).
    Fine,
    /// Played a jail card (b).
    Card,
    /// Rolled doubles (c).
    Doubles,
    /// Third failed attempt: paid M 50 and moves by that roll (c).
    ThirdAttempt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyEndReason))]
pub enum EndReason {
    /// One player is left (MO-END-1).
    LastSolvent,
    /// `round_limit` full rounds were played (MO-END-2).
    RoundLimit,
}
