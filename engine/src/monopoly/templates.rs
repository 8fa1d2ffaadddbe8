//! The actions whose parameters cannot be listed, as templates: a bid (MO-AUC-3), the
//! creditor's lifting choice after a bankruptcy (MO-BANKR-2), accepting an offer while lifting
//! some of its mortgages (MO-TRADE-3) and new trade offers ([`super::offers`]). Every
//! instantiation of a listed template is accepted by `decide`.

use super::action::{AcceptFixed, Action, BidParams, LiftParams, Template};
use super::legal::{stage_of, Stage};
use super::offers;
use super::rules;
use super::shared::Shared;
use super::state::{State, TradeOffer};
use super::trade;
use crate::template::{self, draw, IntegerRange, IntegerSubset};
use crate::Seat;
use rand::RngCore;
use std::ops::ControlFlow;

/// The templates of `seat`, in listing order.
pub fn action_templates(state: &State, seat: Seat) -> Vec<Template> {
    let mut templates = Vec::new();
    if let Some(stage) = stage_of(state, seat) {
        let shared = Shared::new(state);
        let _ = parametric(&shared, seat, stage, &mut |p| {
            templates.push(p.build(&shared, seat));
            ControlFlow::Continue(())
        });
    }
    templates
}

/// How many templates [`action_templates`] lists, none of them built.
pub fn action_template_count(state: &State, seat: Seat) -> usize {
    template_count(&Shared::new(state), seat)
}

/// The `index`-th template of [`action_templates`], the only one built.
pub fn action_template(state: &State, seat: Seat, index: usize) -> Option<Template> {
    let stage = stage_of(state, seat)?;
    let shared = Shared::new(state);
    nth_parametric(&shared, seat, stage, index).map(|p| p.build(&shared, seat))
}

/// A random instantiation of the `index`-th template, drawn without building the template.
pub fn template_action(
    state: &State,
    seat: Seat,
    index: usize,
    rng: &mut dyn RngCore,
) -> Option<Action> {
    fill(&Shared::new(state), seat, index, rng)
}

/// [`action_template_count`] on what `shared` has gathered.
pub(super) fn template_count(shared: &Shared, seat: Seat) -> usize {
    stage_of(shared.state, seat).map_or(0, |stage| {
        template::count_found(|found| {
            let _ = parametric(shared, seat, stage, &mut |p| {
                found(p);
                ControlFlow::Continue(())
            });
        })
    })
}

/// [`template_action`] on what `shared` has gathered.
pub(super) fn fill(
    shared: &Shared,
    seat: Seat,
    index: usize,
    rng: &mut dyn RngCore,
) -> Option<Action> {
    let stage = stage_of(shared.state, seat)?;
    nth_parametric(shared, seat, stage, index).map(|p| p.fill(shared, seat, rng))
}

/// The `index`-th template [`parametric`] finds, the walk stopped there.
fn nth_parametric<'s>(
    shared: &Shared<'s>,
    seat: Seat,
    stage: Stage,
    index: usize,
) -> Option<Parametric<'s>> {
    let (mut seen, mut picked) = (0, None);
    let _ = parametric(shared, seat, stage, &mut |p| {
        if seen == index {
            picked = Some(p);
            return ControlFlow::Break(());
        }
        seen += 1;
        ControlFlow::Continue(())
    });
    picked
}

/// Every template of `seat` filled `per_template` times in listing order, from one walk of
/// the templates and one pass over the deeds ([`crate::Game::template_actions`]).
pub(super) fn fill_all(
    shared: &Shared,
    seat: Seat,
    per_template: usize,
    rng: &mut dyn RngCore,
    found: &mut dyn FnMut(Action),
) {
    let Some(stage) = stage_of(shared.state, seat) else {
        return;
    };
    let _ = parametric(shared, seat, stage, &mut |p| {
        for _ in 0..per_template {
            found(p.fill(shared, seat, rng));
        }
        ControlFlow::Continue(())
    });
}

/// A template of `seat` as [`parametric`] finds it, before it is built: counting these is
/// cheap, building one (JSON values, a field per trade item) is not.
enum Parametric<'s> {
    /// A bid from `floor` up to the bidder's `cash` (MO-AUC-3, MO-AUC-5).
    Bid { floor: i64, cash: i64 },
    /// The creditor's lifting choice over the inherited mortgaged squares (MO-BANKR-2).
    SettleInheritance(&'s [u8]),
    /// Accepting an offer, lifting any of its mortgaged properties (MO-TRADE-3).
    AcceptTrade(&'s TradeOffer),
    /// A new offer to `to` (MO-TRADE-4); under `trade_offers = as_made` one per field an offer
    /// may lead with (see [`offers::OfferField`]).
    OfferTrade {
        to: Seat,
        lead: Option<offers::OfferField>,
    },
}

/// The templates of `seat`: a bid, trade offers, and lifting choices where they can be made,
/// each handed to `found` in listing order until it breaks the walk.
fn parametric<'s>(
    shared: &Shared<'s>,
    seat: Seat,
    stage: Stage,
    found: &mut dyn FnMut(Parametric<'s>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let state = shared.state;
    // Offers go to every other solvent seat; while another seat raises funds, only to it.
    let only = match stage {
        Stage::Auction => {
            let auction = state.auction.as_ref().expect("stage says so");
            let floor = match auction.high {
                Some(h) if h.seat == seat => return ControlFlow::Continue(()),
                Some(h) => h.amount + 1,
                None => auction.min_bid,
            };
            let cash = state.player(seat).cash;
            if auction.bidders.contains(&seat) && floor <= cash {
                found(Parametric::Bid { floor, cash })?;
            }
            return ControlFlow::Continue(());
        }
        Stage::Shortage => return ControlFlow::Continue(()),
        Stage::Inheritance => {
            if let Some(i) = state.inheritance.as_ref().filter(|i| i.creditor == seat) {
                let all: i64 = i.squares.iter().map(|&s| rules::lift_price(state, s)).sum();
                if all <= state.player(seat).cash {
                    found(Parametric::SettleInheritance(&i.squares))?;
                }
            }
            return ControlFlow::Continue(());
        }
        Stage::Debt(debtor) if debtor != seat => Some(debtor),
        Stage::Debt(_) | Stage::Free => None,
    };
    for (i, o) in state
        .offers
        .iter()
        .enumerate()
        .filter(|(_, o)| o.to == seat)
    {
        if matches!(stage, Stage::Debt(d) if o.from != d && o.to != d) {
            continue;
        }
        if shared.acceptance(i).lifting_all {
            found(Parametric::AcceptTrade(o))?;
        }
    }
    let partners = only
        .into_iter()
        .chain(state.solvent().filter(|&s| only.is_none() && s != seat));
    offers::templates(state, shared.holdings(), seat, partners, &mut |to, lead| {
        found(Parametric::OfferTrade { to, lead })
    })
}

impl Parametric<'_> {
    /// The template `seat` is offered.
    fn build(&self, shared: &Shared, seat: Seat) -> Template {
        let state = shared.state;
        match *self {
            Parametric::Bid { floor, cash } => Template::Bid {
                params: BidParams {
                    amount: IntegerRange::new(floor, cash),
                },
            },
            Parametric::SettleInheritance(squares) => Template::SettleInheritance {
                params: LiftParams {
                    lift: IntegerSubset::any_of(squares.iter().copied()),
                },
            },
            Parametric::AcceptTrade(o) => Template::AcceptTrade {
                fixed: AcceptFixed { offer: o.offer },
                params: LiftParams {
                    lift: IntegerSubset::any_of(trade::mortgaged_given(state, o)),
                },
            },
            Parametric::OfferTrade { to, lead } => {
                offers::template(state, shared.holdings(), seat, to, lead)
            }
        }
    }
}

impl Parametric<'_> {
    /// A uniformly random action of the template [`Parametric::build`] builds, without
    /// building it: the same draws as its JSON instantiation (free fields by name, see
    /// [`crate::template::draw`]).
    fn fill(&self, shared: &Shared, seat: Seat, rng: &mut dyn RngCore) -> Action {
        let state = shared.state;
        match *self {
            Parametric::Bid { floor, cash } => Action::Bid {
                amount: draw::integer(rng, floor, cash),
            },
            Parametric::SettleInheritance(squares) => Action::SettleInheritance {
                lift: any_of(rng, squares),
            },
            Parametric::AcceptTrade(o) => Action::AcceptTrade {
                offer: o.offer,
                lift: any_of(rng, &trade::mortgaged_given(state, o)),
            },
            Parametric::OfferTrade { to, lead } => {
                offers::fill(state, shared.holdings(), seat, to, lead, rng)
            }
        }
    }
}

/// Any sub-list of `values`, drawn as [`template::Domain::any_subset`] draws it.
fn any_of<T: Copy>(rng: &mut dyn RngCore, values: &[T]) -> Vec<T> {
    draw::subset(rng, values.len(), 0, values.len())
        .into_iter()
        .map(|i| values[i])
        .collect()
}
