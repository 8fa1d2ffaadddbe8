//! What a seat may ask for. The JSON form (`{"type": "claim_rent", "rent": 3}`) is stable API:
//! variants and fields are only ever added. Properties are named by their square (0–39).

use super::data::Card;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyAction))]
pub enum Action {
    /// Roll both dice: a move, another after doubles, or an attempt in jail (MO-TURN-1, MO-JAIL-2 c).
    Roll,
    /// Buy the property landed on at its printed price (MO-BUY-1).
    BuyProperty,
    /// Leave it to the bank's auction (MO-BUY-2).
    DeclineProperty,
    /// Pay M 50 at the start of a jail turn, then roll (MO-JAIL-2 a).
    PayJailFine,
    /// Play a "Du kommst aus dem Gefängnis frei" card, then roll (MO-JAIL-2 b).
    UseJailCard {
        card: Card,
    },
    /// Card G06: pay the fine.
    PayCardFine,
    /// Card G06: draw an Ereigniskarte instead.
    DrawCard,
    /// Pass the dice on (MO-TURN-7).
    EndTurn,
    /// Demand pending rent as its owner (MO-RENT-2).
    ClaimRent {
        rent: u32,
    },
    /// Buy buildings, one unit per listed square in this order; each step must be even
    /// (MO-BUILD-1..8). A street at 4 houses gets a hotel.
    Build {
        squares: Vec<u8>,
    },
    /// Sell one building of a street back to the bank (MO-SELL-1..4).
    SellBuilding {
        square: u8,
    },
    /// Mortgage a property (MO-MORT-1).
    Mortgage {
        square: u8,
    },
    /// Lift a mortgage for MV + 10 % (MO-MORT-3).
    LiftMortgage {
        square: u8,
    },
    /// Offer a trade to `to` (MO-TRADE-4). `lift`: mortgaged properties received that the
    /// proposer lifts at once; interest is paid on the others (MO-TRADE-3).
    OfferTrade {
        to: crate::Seat,
        #[serde(default)]
        give_cash: i64,
        #[serde(default)]
        give_properties: Vec<u8>,
        #[serde(default)]
        give_cards: Vec<Card>,
        #[serde(default)]
        get_cash: i64,
        #[serde(default)]
        get_properties: Vec<u8>,
        #[serde(default)]
        get_cards: Vec<Card>,
        #[serde(default)]
        lift: Vec<u8>,
    },
    /// Accept an offer made to this seat; `lift` as in the offer, for what this seat receives.
    AcceptTrade {
        offer: u32,
        #[serde(default)]
        lift: Vec<u8>,
    },
    RejectTrade {
        offer: u32,
    },
    WithdrawTrade {
        offer: u32,
    },
    /// Bid in the running auction (MO-AUC-2..5).
    Bid {
        amount: i64,
    },
    /// Leave the running auction; final (MO-AUC-5).
    PassAuction,
    /// Building shortage: the squares this seat wants units on, in order; empty passes
    /// (MO-BUILD-8).
    DeclareDemand {
        squares: Vec<u8>,
    },
    /// Pay the whole open debt (MO-DEBT-1).
    PayDebt,
    /// Give up when even selling everything would not pay the debt (MO-DEBT-1, MO-DEBT-2).
    DeclareBankruptcy,
    /// As the creditor of a bankrupt: lift these received mortgages at once, pay 10 % on the
    /// rest (MO-BANKR-2).
    SettleInheritance {
        #[serde(default)]
        lift: Vec<u8>,
    },
}
