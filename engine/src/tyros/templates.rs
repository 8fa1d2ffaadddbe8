//! The choices that cannot be listed, as templates: card payments of "any" cards (TR-D-19),
//! fight cards (TR-GAL-5), the cards kept at the round's end (TR-EOR-1), bank trades
//! (TR-ACT-D) and trade offers (TR-ACT-E). Every instantiation of a listed template is
//! accepted by `decide`; [`super::legal`] lists a concrete default for each such decision.

use super::action::Action;
use super::cards::{Card, Cards, Empire};
use super::data::board;
use super::legal::{has_action, payment_options};
use super::payment::Options;
use super::rules::{self, Awaiting};
use super::state::State;
use super::trade;
use crate::refusal::Refused;
use crate::template::{self, draw, ActionTemplate, Domain};
use crate::Seat;
use rand::RngCore;
use std::collections::BTreeMap;

/// The templates of `seat`, in listing order; none for a seat the table does not have.
pub fn action_templates(state: &State, seat: Seat) -> Vec<ActionTemplate> {
    let mut out = Vec::new();
    if seat.index() < state.players.len() {
        templates(state, seat, &mut |t| out.push(t.build(state, seat)));
    }
    out
}

/// How many templates [`action_templates`] lists, none of them built.
pub fn action_template_count(state: &State, seat: Seat) -> usize {
    if seat.index() >= state.players.len() {
        return 0;
    }
    template::count_found(|found| templates(state, seat, found))
}

/// The `index`-th template of [`action_templates`], the only one built.
pub fn action_template(state: &State, seat: Seat, index: usize) -> Option<ActionTemplate> {
    if seat.index() >= state.players.len() {
        return None;
    }
    template::nth_found(index, |found| templates(state, seat, found)).map(|t| t.build(state, seat))
}

/// A random instantiation of the `index`-th template, drawn without building the template.
pub fn template_action(
    state: &State,
    seat: Seat,
    index: usize,
    rng: &mut dyn RngCore,
) -> Option<Action> {
    if seat.index() >= state.players.len() {
        return None;
    }
    template::nth_found(index, |found| templates(state, seat, found))
        .map(|t| t.fill(state, seat, rng))
}

/// A template of a seat as [`templates`] finds it, before it is built: counting these is cheap,
/// building one (a map of card names per domain) is not.
pub enum Template {
    /// Paying `count` cards of `hand` for an "any cards" due (TR-D-19).
    Pay { hand: Cards, count: u8 },
    /// Laying `min..=max` fight cards (TR-GAL-5).
    LayFightCards { min: u8, max: u8 },
    /// Choosing the cards kept at the round's end (TR-EOR-1).
    Keep,
    /// Swapping 1 to `max` cards with the bank (TR-ACT-D).
    BankSwap { max: u8 },
    /// Buying a card of a chosen colour from the bank (TR-ACT-D).
    BankPick,
    /// An offer to another player (TR-ACT-E), giving as [`OfferGive`] says.
    Offer(OfferGive),
}

/// What the proposer gives in an offer template; what it asks for is any cards up to the
/// largest other hand, at least one unless it gives some.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OfferGive {
    /// 1 to `max` cards of the hand.
    Some { max: u8 },
    /// The whole hand.
    All,
    /// No card.
    Nothing,
}

/// The offer templates of `seat`, who may offer now. Any offer is taken, except that under
/// TR-K1 b (`player_trade_free`, before the turn's action) an offer must leave its proposer an
/// action ([`trade::check_free_trade`]). Templates cannot say "leaves an action", so they keep
/// to offers that surely do: while a bank trade is open to the seat, those leaving a card in
/// hand (a bank trade is then an action); otherwise, if the seat has an action now, those
/// giving nothing (more cards never take an action away).
fn offer_shapes(state: &State, seat: Seat, found: &mut dyn FnMut(OfferGive)) {
    let all = state.player(seat).cards.total().min(u32::from(u8::MAX)) as u8;
    let asks = largest_other_hand(state, seat) > 0;
    let restricted =
        state.config.player_trade_free && state.turn().is_some_and(|t| t.seat == seat && !t.acted);
    if !restricted {
        if all > 0 {
            found(OfferGive::Some { max: all });
        } else if asks {
            found(OfferGive::Nothing);
        }
    } else if trade::check_bank::<Refused>(state, seat).is_ok() {
        if all > 1 {
            found(OfferGive::Some { max: all - 1 });
        }
        if asks {
            found(if all > 0 {
                OfferGive::All
            } else {
                OfferGive::Nothing
            });
        }
    } else if asks && has_action(state, seat) {
        found(OfferGive::Nothing);
    }
}

/// The templates of `seat`, each handed to `found` in listing order.
pub fn templates(state: &State, seat: Seat, found: &mut dyn FnMut(Template)) {
    let hand = state.player(seat).cards;
    match rules::awaiting(state) {
        Awaiting::Payment(p) if p == seat => {
            if let Options::AnyOf { hand, count } = payment_options(state) {
                found(Template::Pay { hand, count });
            }
        }
        Awaiting::FightCards(p) if p == seat && !hand.is_empty() => {
            let g = &board().variants.galleys;
            let max = u32::from(g.fight_cards_max).min(hand.total()) as u8;
            let min = g.fight_cards_min.min(max);
            found(Template::LayFightCards { min, max });
        }
        Awaiting::Keep if rules::keep_pending(state, seat) => found(Template::Keep),
        Awaiting::Turn(p) if p == seat => {
            if trade::check_bank::<Refused>(state, seat).is_ok() && !hand.is_empty() {
                let c = &board().constants.bank_trade;
                let max = u32::from(c.swap_max).min(hand.total()) as u8;
                found(Template::BankSwap { max });
                if hand.total() >= u32::from(c.pick_cost) {
                    found(Template::BankPick);
                }
            }
            if trade::check_may_offer::<Refused>(state, seat).is_ok() {
                offer_shapes(state, seat, &mut |give| found(Template::Offer(give)));
            }
        }
        _ => {}
    }
}

impl Template {
    /// The template `seat` is offered.
    pub fn build(&self, state: &State, seat: Seat) -> ActionTemplate {
        let hand = state.player(seat).cards;
        match *self {
            Template::Pay { hand, count } => {
                ActionTemplate::new("pay").param("cards", counts(&hand, count, count))
            }
            Template::LayFightCards { min, max } => {
                ActionTemplate::new("lay_fight_cards").param("cards", counts(&hand, min, max))
            }
            Template::Keep => {
                let kept = state.config.cards_kept;
                ActionTemplate::new("keep").param("cards", counts(&hand, kept, kept))
            }
            Template::BankSwap { max } => {
                ActionTemplate::new("bank_swap").param("cards", counts(&hand, 1, max))
            }
            Template::BankPick => {
                let cost = board().constants.bank_trade.pick_cost;
                ActionTemplate::new("bank_pick")
                    .param("colour", Domain::one_of(Empire::ALL))
                    .param("cards", counts(&hand, cost, cost))
            }
            Template::Offer(give) => offer_template(state, seat, &hand, give),
        }
    }
}

impl Template {
    /// A uniformly random action of the template [`Template::build`] builds, without building
    /// it: the same draws as its JSON instantiation (free fields by name, see
    /// [`crate::template::draw`]).
    pub fn fill(&self, state: &State, seat: Seat, rng: &mut dyn RngCore) -> Action {
        let hand = state.player(seat).cards;
        let any = |rng: &mut dyn RngCore, min: u8, max: u8| {
            draw_cards(rng, hand.to_array().map(u32::from), min, max)
        };
        match *self {
            Template::Pay { hand, count } => Action::Pay {
                cards: draw_cards(rng, hand.to_array().map(u32::from), count, count),
            },
            Template::LayFightCards { min, max } => Action::LayFightCards {
                cards: any(rng, min, max),
            },
            Template::Keep => {
                let kept = state.config.cards_kept;
                Action::Keep {
                    cards: any(rng, kept, kept),
                }
            }
            Template::BankSwap { max } => Action::BankSwap {
                cards: any(rng, 1, max),
            },
            Template::BankPick => {
                let cost = board().constants.bank_trade.pick_cost;
                let cards = any(rng, cost, cost);
                let colour = Empire::ALL[draw::index(rng, Empire::ALL.len())];
                Action::BankPick { colour, cards }
            }
            Template::Offer(give) => {
                let most = largest_other_hand(state, seat);
                let wanted = |rng: &mut dyn RngCore, min: u32| {
                    let mut counts = [0; Card::ALL.len()];
                    draw::counts(rng, &[most; Card::ALL.len()], min, most, &mut counts);
                    cards_by_name(counts)
                };
                // Free fields are drawn by name: "get" before "give".
                let (give, get) = match give {
                    OfferGive::Some { max } => {
                        let get = wanted(rng, 0);
                        (any(rng, 1, max), get)
                    }
                    OfferGive::All => (hand, wanted(rng, 1)),
                    OfferGive::Nothing => (Cards::NONE, wanted(rng, 1)),
                };
                let others: Vec<Seat> = state.seats().filter(|&o| o != seat).collect();
                let to = others[draw::index(rng, others.len())];
                Action::OfferTrade { to, give, get }
            }
        }
    }
}

/// `min..=max` cards within the per-colour limits `caps` (in [`Card::ALL`] order), drawn as
/// the "counts" domain of [`counts`] draws them.
fn draw_cards(rng: &mut dyn RngCore, caps: [u32; 5], min: u8, max: u8) -> Cards {
    let caps = Card::BY_NAME.map(|c| caps[c.index()]);
    let mut counts = [0; Card::ALL.len()];
    draw::counts(rng, &caps, u32::from(min), u32::from(max), &mut counts);
    cards_by_name(counts)
}

/// The cards of counts given in [`Card::BY_NAME`] order (a "counts" domain's key order).
fn cards_by_name(counts: [u32; 5]) -> Cards {
    let mut cards = Cards::NONE;
    for (card, n) in Card::BY_NAME.into_iter().zip(counts) {
        *cards.get_mut(card) = u8::try_from(n).expect("card counts fit a byte");
    }
    cards
}

/// The most cards another player holds (capped at 255).
fn largest_other_hand(state: &State, seat: Seat) -> u32 {
    state
        .seats()
        .filter(|&o| o != seat)
        .map(|o| state.player(o).cards.total())
        .max()
        .unwrap_or(0)
        .min(u32::from(u8::MAX))
}

/// An offer to any other player giving as `give` says, for up to as many cards as the largest
/// other hand holds (an offer asking for more than its recipient holds can only be rejected);
/// at least one card is asked for unless some are given (TR-ACT-E).
fn offer_template(state: &State, seat: Seat, hand: &Cards, give: OfferGive) -> ActionTemplate {
    let others: Vec<Seat> = state.seats().filter(|&o| o != seat).collect();
    let most = largest_other_hand(state, seat);
    let wanted = |min_total| Domain::Counts {
        limits: Card::ALL
            .iter()
            .map(|c| (c.name().to_string(), most))
            .collect(),
        min_total,
        max_total: most,
    };
    let t = ActionTemplate::new("offer_trade").param("to", Domain::one_of(others));
    match give {
        OfferGive::Some { max } => t
            .param("give", counts(hand, 1, max))
            .param("get", wanted(0)),
        OfferGive::All => t.fixed("give", hand).param("get", wanted(1)),
        OfferGive::Nothing => t.fixed("give", Cards::NONE).param("get", wanted(1)),
    }
}

/// Any `min..=max` cards of `hand`.
fn counts(hand: &Cards, min: u8, max: u8) -> Domain {
    let limits: BTreeMap<String, u32> = hand
        .iter()
        .map(|(c, n)| (c.name().to_string(), u32::from(n)))
        .collect();
    Domain::Counts {
        limits,
        min_total: u32::from(min),
        max_total: u32::from(max),
    }
}
