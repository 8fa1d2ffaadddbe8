//! What a seat may ask for. The JSON form (`{"type": "move", "ship": 3, "to": "9"}`) is stable
//! API: variants and fields are only ever added.
//!
//! Card choices are separate steps: an action that costs cards leaves [`super::state::Due`]s,
//! which the payer settles with [`Action::Pay`] whenever the choice is real (which colour
//! cards, which jokers, which card as toll or tribute); a payment with one possible choice is
//! made automatically.

use super::cards::{Cards, Empire};
use super::data::{Cell, Tile};
use super::state::ShipId;
use crate::template::{self, CountsKind, SeatOneOf};
use crate::Seat;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosAction))]
pub enum Action {
    /// Phase 2: play a tile from the hand onto its field (TR-P2-1). `empire` names the empire
    /// the field joins; needed only when several are adjacent (TR-P2-2).
    PlaceTile {
        tile: Tile,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        empire: Option<Empire>,
    },
    /// Action A: move one own ship to an empire field (TR-ACT-A). `path` lists the cells
    /// entered, the destination last; without it the cheapest path is taken (TR-D-6). `wind`
    /// uses a laid-out "Günstiger Wind" (TR-AK-4). `cost`, when given, is the total number of
    /// cards the move must cost (move, tolls and tribute), a guard against a stale view.
    Move {
        ship: ShipId,
        to: Cell,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<Vec<Cell>>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        wind: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost: Option<u8>,
    },
    /// Action B: found a city where `ship` stands; `ship` returns to the supply (TR-ACT-B).
    FoundCity { ship: ShipId },
    /// Action C: build a ship in a field with an own city, or in Tyros (TR-ACT-C); `galley`
    /// upgrades it to a war galley (TR-GAL-2).
    BuildShip {
        at: Cell,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        galley: bool,
    },
    /// Action D (1): discard 1–3 cards and draw as many (TR-ACT-D).
    BankSwap { cards: Cards },
    /// Action D (2): discard 3 cards and take one card of `colour` out of the draw pile
    /// (TR-ACT-D). When the pile holds none, nothing is exchanged and the action is spent.
    BankPick { colour: Empire, cards: Cards },
    /// Action E (or the free trade of TR-K1 b): offer `to` the cards `give` for the cards
    /// `get` (TR-ACT-E).
    OfferTrade { to: Seat, give: Cards, get: Cards },
    /// The recipient takes the pending offer.
    AcceptTrade,
    /// The recipient declines the pending offer.
    RejectTrade,
    /// The offerer takes the pending offer back.
    WithdrawTrade,
    /// Action F: lay out "Günstiger Wind" (TR-AK-4).
    PlayFavourableWind,
    /// Action F: "Blockadebrecher": move the rival `ship`, which shares a cell with an own
    /// ship, to the adjacent field `to` (TR-AK-5).
    PlayBlockadeBreaker { ship: ShipId, to: Cell },
    /// Action F: lay out "Der Entdecker" (TR-AK-6).
    PlayExplorer,
    /// The explorer's voyage to a neutral field (TR-AK-6, TR-AK-7); `path` and `cost` as for
    /// the `move` action.
    ExplorerVoyage {
        ship: ShipId,
        to: Cell,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<Vec<Cell>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost: Option<u8>,
    },
    /// A galley sinks a rival normal ship that has shared its field since before this turn
    /// (TR-GAL-4).
    SinkShip { galley: ShipId, target: ShipId },
    /// Take no action this turn (TR-ACT-0, TR-ACT-P).
    Pass,
    /// With `player_trade_free`: end the turn after the action without a trade (TR-K1 b).
    EndTurn,
    /// Pay the first due with these cards.
    Pay { cards: Cards },
    /// Lay cards face down in a galley fight: 1–5, or none with an empty hand (TR-GAL-5).
    LayFightCards { cards: Cards },
    /// The fight's winner names which of its equal largest groups it discards (TR-GAL-5).
    ChooseFightDiscard { cards: Cards },
    /// End of round: the cards to keep, exactly as many as may be kept (TR-EOR-1).
    Keep { cards: Cards },
}

/// The actions whose parameters cannot be listed, as templates:
/// `{"type": "pay", "params": {"cards": {"kind": "counts", "limits": {"orange": 2, "joker":
/// 1}, "min_total": 2, "max_total": 2}}}` stands for `{"type": "pay", "cards": <2 of those>}`.
/// Each variant is its action's `type`, with the fields it fixes under `fixed` and a domain per
/// free field under `params`; any choice from the domains is accepted while it is listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosTemplate))]
pub enum Template {
    /// Paying an "any cards" due with cards of the hand (TR-D-19).
    Pay { params: CardsParams },
    /// Laying fight cards (TR-GAL-5).
    LayFightCards { params: CardsParams },
    /// Choosing the cards kept at the round's end (TR-EOR-1).
    Keep { params: CardsParams },
    /// Swapping cards with the bank (TR-ACT-D).
    BankSwap { params: CardsParams },
    /// Buying a card of a chosen colour from the bank (TR-ACT-D).
    BankPick { params: BankPickParams },
    /// An offer to another player (TR-ACT-E). Either `give` is a free field (some cards of the
    /// hand), or `fixed.give` says what is given (`{}`: nothing, asking for a gift; the whole
    /// hand, under `player_trade_free` before the turn's action) and at least one card is
    /// asked for.
    OfferTrade {
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "openapi", schema(nullable = false))]
        fixed: Option<GiftFixed>,
        params: OfferParams,
    },
}

/// Trade cards counted by colour: a count for some colours, at most each colour's limit
/// (colours left out count 0), the counts summing to `min_total..=max_total`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosCardCounts))]
pub struct CardCounts {
    #[cfg_attr(feature = "openapi", schema(inline))]
    kind: CountsKind,
    /// The most cards of each colour (colours left out: none).
    pub limits: Cards,
    /// The fewest cards in all.
    pub min_total: u32,
    /// The most cards in all.
    pub max_total: u32,
}

impl CardCounts {
    /// Any `min..=max` cards, at most `limits` of each colour.
    pub fn new(limits: Cards, min: u8, max: u8) -> CardCounts {
        CardCounts {
            kind: CountsKind::Counts,
            limits,
            min_total: u32::from(min),
            max_total: u32::from(max),
        }
    }
}

template::one_of_domain!(
    /// One empire colour of the listed ones.
    EmpireOneOf,
    Empire,
    TyrosEmpireOneOf
);

/// The cards of a payment, a fight, a keep choice or a bank swap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosCardsParams))]
pub struct CardsParams {
    pub cards: CardCounts,
}

/// The colour bought from the bank and the cards paid for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosBankPickParams))]
pub struct BankPickParams {
    pub colour: EmpireOneOf,
    pub cards: CardCounts,
}

/// What an offer gives when the proposer has no choice of it: nothing, or the whole hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosGiftFixed))]
pub struct GiftFixed {
    pub give: Cards,
}

/// What an offer may contain: the seat it goes to, the cards given (when the hand holds
/// any) and the cards asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosOfferParams))]
pub struct OfferParams {
    pub to: SeatOneOf,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(nullable = false))]
    pub give: Option<CardCounts>,
    pub get: CardCounts,
}
