//! What a seat may ask for. The JSON form (`{"type": "claim_rent", "rent": 3}`) is stable API:
//! variants and fields are only ever added. Properties are named by their square (0–39).

use super::data::Card;
use crate::template::{self, IntegerRange, IntegerSubset};
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

/// The actions whose parameters cannot be listed, as templates:
/// `{"type": "bid", "params": {"amount": {"kind": "integer", "min": 11, "max": 1500}}}` stands
/// for `{"type": "bid", "amount": <11 to 1500>}`. Each variant is its action's `type`, with
/// the fields it fixes under `fixed` and a domain per free field under `params`; any choice
/// from the domains is accepted while the template is listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyTemplate))]
pub enum Template {
    /// A bid in the running auction, from the lowest allowed bid to the bidder's cash
    /// (MO-AUC-2..5).
    Bid { params: BidParams },
    /// An offer to `to` (MO-TRADE-4): cash, properties and jail cards of either side. A free
    /// field left out of `params` has nothing to choose from: leave it out of the action too.
    OfferTrade {
        fixed: OfferFixed,
        params: OfferParams,
    },
    /// Accepting the offer `offer`, lifting any of the mortgages received (MO-TRADE-3).
    AcceptTrade {
        fixed: AcceptFixed,
        params: LiftParams,
    },
    /// As the creditor of a bankrupt: lifting any of the mortgages received (MO-BANKR-2).
    SettleInheritance { params: LiftParams },
}

template::subset_domain!(
    /// Distinct Monopoly cards (jail cards) from a list.
    CardSubset,
    Card,
    MonopolyCardSubset
);

/// The free field of a bid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyBidParams))]
pub struct BidParams {
    pub amount: IntegerRange,
}

/// The mortgaged properties received that may be lifted at once (interest is paid on the
/// others).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyLiftParams))]
pub struct LiftParams {
    pub lift: IntegerSubset,
}

/// The seat a trade offer goes to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyOfferFixed))]
pub struct OfferFixed {
    pub to: crate::Seat,
}

/// The offer an acceptance names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyAcceptFixed))]
pub struct AcceptFixed {
    pub offer: u32,
}

/// What a trade offer may contain. A side with no cash, no tradeable property or no jail card
/// has no such field here (the action's field then defaults to 0 or empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyOfferParams))]
pub struct OfferParams {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub give_cash: Option<IntegerRange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub give_properties: Option<IntegerSubset>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub give_cards: Option<CardSubset>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub get_cash: Option<IntegerRange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub get_properties: Option<IntegerSubset>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub get_cards: Option<CardSubset>,
}
