//! Trade offer templates (MO-TRADE-1..4): what each side of an offer may put in, the templates
//! a seat is offered toward each partner, their JSON form, and a random offer drawn from one
//! without building it.
//!
//! Random and search playouts count every seat's templates at every step, and offers are most
//! of them (a template per partner and leading field): so the sides come from the deed sets of
//! [`Holdings`], and counting a template allocates nothing.

use super::action::{CardSubset, OfferFixed, OfferParams, Template};
use super::config::TradeOffers;
use super::data::Card;
use super::holdings::{DeedSet, Holdings};
use super::state::State;
use super::Action;
use crate::template::{draw, IntegerRange, IntegerSubset};
use crate::Seat;
use rand::RngCore;
use std::ops::ControlFlow;

/// What one side of a trade could put in: cash, tradeable properties, jail cards.
pub(super) struct TradeSide<'s> {
    cash: i64,
    properties: DeedSet,
    cards: &'s [Card],
}

impl<'s> TradeSide<'s> {
    fn of(state: &'s State, holdings: &Holdings, seat: Seat) -> TradeSide<'s> {
        let player = state.player(seat);
        TradeSide {
            cash: player.cash,
            properties: holdings.tradeable(seat),
            cards: &player.jail_cards,
        }
    }

    /// What `seat` may offer `to` and ask of it, `[mine, theirs]`, such that any combination is
    /// an offer the rules take. Under `trade_offers = as_made` the proposer must pay its side,
    /// MO-TRADE-3 interest on what it receives included (MO-TRADE-4): the cash it may give is
    /// what is left after the interest on every mortgaged deed it could ask for, and when even
    /// that interest is beyond its cash, it asks for no mortgaged deed.
    fn offer(state: &'s State, holdings: &Holdings, seat: Seat, to: Seat) -> [TradeSide<'s>; 2] {
        let mut mine = TradeSide::of(state, holdings, seat);
        let mut theirs = TradeSide::of(state, holdings, to);
        if state.config.trade_offers == TradeOffers::AsMade {
            let interest = holdings.tradeable_interest(to);
            if interest <= mine.cash {
                mine.cash -= interest;
            } else {
                theirs.properties = theirs.properties.without(holdings.mortgaged);
            }
        }
        [mine, theirs]
    }
}

/// The fields of an offer. Under `trade_offers = as_made` an offer moves something
/// (MO-TRADE-2), which independent fields cannot say; so each template leads with one field
/// that gives at least one item and leaves out the fields listed before it: together the
/// templates cover every offer that moves something, each exactly once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OfferField {
    GetProperties,
    GiveProperties,
    GetCards,
    GiveCards,
    GetCash,
    GiveCash,
}

/// What a field draws from: a sub-list of squares or cards, or an amount up to some cash.
enum Pool<'s> {
    Squares(DeedSet),
    Cards(&'s [Card]),
    Cash(i64),
}

impl Pool<'_> {
    /// How many items it holds (cash: whether there is any).
    fn size(&self) -> usize {
        match *self {
            Pool::Squares(set) => set.len(),
            Pool::Cards(cards) => cards.len(),
            Pool::Cash(cash) => usize::from(cash > 0),
        }
    }
}

impl OfferField {
    const ALL: [OfferField; 6] = [
        OfferField::GetProperties,
        OfferField::GiveProperties,
        OfferField::GetCards,
        OfferField::GiveCards,
        OfferField::GetCash,
        OfferField::GiveCash,
    ];

    /// What the field draws from.
    fn pool<'s>(self, mine: &TradeSide<'s>, theirs: &TradeSide<'s>) -> Pool<'s> {
        let whose = match self {
            OfferField::GiveProperties | OfferField::GiveCards | OfferField::GiveCash => mine,
            OfferField::GetProperties | OfferField::GetCards | OfferField::GetCash => theirs,
        };
        match self {
            OfferField::GetProperties | OfferField::GiveProperties => {
                Pool::Squares(whose.properties)
            }
            OfferField::GetCards | OfferField::GiveCards => Pool::Cards(whose.cards),
            OfferField::GetCash | OfferField::GiveCash => Pool::Cash(whose.cash),
        }
    }

    /// Its place in [`OfferField::ALL`].
    fn position(self) -> usize {
        self as usize
    }
}

/// The offer templates of `seat` toward each of `partners` (skipping those it already has an
/// open offer to), each handed to `found` as its addressee and leading field until it breaks
/// the walk: one per partner under `trade_offers = as_accepted`, one per field an offer may
/// lead with under `as_made` (see [`OfferField`]).
pub(super) fn templates(
    state: &State,
    holdings: &Holdings,
    seat: Seat,
    partners: impl Iterator<Item = Seat>,
    found: &mut dyn FnMut(Seat, Option<OfferField>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    // The partners `seat` has an open offer to, by seat bit.
    let open = state
        .offers
        .iter()
        .filter(|o| o.from == seat)
        .fold(0u64, |open, o| open | 1 << (o.to.0 & 63));
    for to in partners {
        if open >> (to.0 & 63) & 1 == 1 {
            continue;
        }
        if state.config.trade_offers == TradeOffers::AsAccepted {
            found(to, None)?;
            continue;
        }
        let [mine, theirs] = TradeSide::offer(state, holdings, seat, to);
        for lead in OfferField::ALL {
            if lead.pool(&mine, &theirs).size() > 0 {
                found(to, Some(lead))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// How many templates [`templates`] finds for `seat` toward `to` (with no open offer to it):
/// the one as-accepted template, or one per field an offer may lead with.
pub(super) fn lead_count(state: &State, holdings: &Holdings, seat: Seat, to: Seat) -> usize {
    if state.config.trade_offers == TradeOffers::AsAccepted {
        return 1;
    }
    let [mine, theirs] = TradeSide::offer(state, holdings, seat, to);
    OfferField::ALL
        .iter()
        .filter(|lead| lead.pool(&mine, &theirs).size() > 0)
        .count()
}

/// An offer to `to`: any cash up to each side's holding, any tradeable properties and jail
/// cards of either side; interest is paid on mortgaged properties received (`lift` left out; a
/// client may name some of them to lift instead). Fields with nothing to choose from are left
/// out of the template: they default to 0 and empty. With a `lead` field (`trade_offers =
/// as_made`), that field holds at least one item and the fields before it are left out.
pub(super) fn template(
    state: &State,
    holdings: &Holdings,
    seat: Seat,
    to: Seat,
    lead: Option<OfferField>,
) -> Template {
    let [mine, theirs] = TradeSide::offer(state, holdings, seat, to);
    let start = lead.map_or(0, OfferField::position);
    // The fewest items a field of the template holds, `None` where the template leaves it
    // out; and a field with nothing to choose from is left out too.
    let least = |field: OfferField| {
        (field.position() >= start && field.pool(&mine, &theirs).size() > 0)
            .then_some(usize::from(Some(field) == lead))
    };
    let squares = |field: OfferField| match (least(field)?, field.pool(&mine, &theirs)) {
        (min, Pool::Squares(set)) => Some(IntegerSubset::any_of(set.squares()).at_least(min)),
        _ => None,
    };
    let cards = |field: OfferField| match (least(field)?, field.pool(&mine, &theirs)) {
        (min, Pool::Cards(cards)) => Some(CardSubset::any_of(cards.iter().copied()).at_least(min)),
        _ => None,
    };
    let cash = |field: OfferField| match (least(field)?, field.pool(&mine, &theirs)) {
        (min, Pool::Cash(cash)) => Some(IntegerRange::new(min as i64, cash)),
        _ => None,
    };
    Template::OfferTrade {
        fixed: OfferFixed { to },
        params: OfferParams {
            give_cash: cash(OfferField::GiveCash),
            give_properties: squares(OfferField::GiveProperties),
            give_cards: cards(OfferField::GiveCards),
            get_cash: cash(OfferField::GetCash),
            get_properties: squares(OfferField::GetProperties),
            get_cards: cards(OfferField::GetCards),
        },
    }
}

/// An offer as [`template`]'s instantiation draws it: its free fields by name, each only where
/// the template has it (from the `lead` field on; the lead holds at least one item).
pub(super) fn fill(
    state: &State,
    holdings: &Holdings,
    seat: Seat,
    to: Seat,
    lead: Option<OfferField>,
    rng: &mut dyn RngCore,
) -> Action {
    let [mine, theirs] = TradeSide::offer(state, holdings, seat, to);
    let start = lead.map_or(0, OfferField::position);
    // The least a field of the template holds, or `None` where the template leaves it out.
    let least =
        |field: OfferField| (field.position() >= start).then_some(usize::from(Some(field) == lead));
    let mut draw_field = |field: OfferField| -> Drawn {
        let pool = field.pool(&mine, &theirs);
        match least(field) {
            Some(min) if pool.size() > 0 => match pool {
                Pool::Squares(set) => {
                    Drawn::Squares(set.pick_squares(&draw::subset(rng, set.len(), min, set.len())))
                }
                Pool::Cards(cards) => Drawn::Cards(
                    draw::subset(rng, cards.len(), min, cards.len())
                        .into_iter()
                        .map(|i| cards[i])
                        .collect(),
                ),
                Pool::Cash(cash) => Drawn::Cash(draw::integer(rng, min as i64, cash)),
            },
            _ => Drawn::Nothing,
        }
    };
    // Free fields are drawn in the order of their names.
    let get_cards = draw_field(OfferField::GetCards).cards();
    let get_cash = draw_field(OfferField::GetCash).cash();
    let get_properties = draw_field(OfferField::GetProperties).squares();
    let give_cards = draw_field(OfferField::GiveCards).cards();
    let give_cash = draw_field(OfferField::GiveCash).cash();
    let give_properties = draw_field(OfferField::GiveProperties).squares();
    Action::OfferTrade {
        to,
        give_cash,
        give_properties,
        give_cards,
        get_cash,
        get_properties,
        get_cards,
        lift: Vec::new(),
    }
}

/// A field's drawn value.
enum Drawn {
    Squares(Vec<u8>),
    Cards(Vec<Card>),
    Cash(i64),
    Nothing,
}

impl Drawn {
    fn squares(self) -> Vec<u8> {
        match self {
            Drawn::Squares(s) => s,
            _ => Vec::new(),
        }
    }

    fn cards(self) -> Vec<Card> {
        match self {
            Drawn::Cards(c) => c,
            _ => Vec::new(),
        }
    }

    fn cash(self) -> i64 {
        match self {
            Drawn::Cash(c) => c,
            _ => 0,
        }
    }
}
