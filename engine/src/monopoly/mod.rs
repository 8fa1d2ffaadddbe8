//! Monopoly, German edition (currency M), 2–6 players, following `engine/rules/monopoly.md`.
//! Rule IDs in comments and error messages refer to that spec.
//!
//! The first game where players act outside their turn: rent claims, building, selling,
//! mortgages and trades are standing actions of any seat (MO-D-2), listed by
//! [`Game::legal_actions`] for every seat, while [`Game::active_seats`] names the seats the
//! game waits for. Bids and trade offers cannot be listed, so they come as
//! [`Game::action_templates`].
//!
//! ```
//! use engine::monopoly::{Action, Config, Monopoly};
//! use engine::{Game, Seat, Viewer};
//! use rand::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let events = Monopoly::setup(&Config::default(), 3, &mut rng).unwrap();
//! let mut state = Monopoly::replay(&events);
//! let seat = Monopoly::active_seats(&state)[0];
//! assert_eq!(Monopoly::legal_actions(&state, seat), vec![Action::Roll]);
//! for event in Monopoly::decide(&state, seat, &Action::Roll, &mut rng).unwrap() {
//!     Monopoly::evolve(&mut state, &event);
//! }
//! // Everything but the decks' order is public.
//! let view = Monopoly::view(&state, Viewer::Spectator);
//! assert_eq!(view.decks[0].cards + view.decks[1].cards, 32);
//! ```

pub mod action;
pub mod config;
pub mod data;
mod decide;
mod determinize;
mod dice;
pub mod errors;
pub mod event;
mod evolve;
mod holdings;
mod market;
mod offers;
mod options;
mod rules;
pub mod state;
mod turn;
pub mod view;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use config::{
    Config, DeckChoice, InheritedInterest, InterestRounding, TradeOffers, UtilityRentDice,
};
pub use data::{board, Card, Deck};
pub use event::{EndReason, Event, JailExit};
pub use state::{PaymentReason, State};
pub use view::View;

use crate::listing::{self, Visit, Walk};
use crate::playout::{self, Choice};
use crate::template::{self, draw, ActionTemplate, Domain};
use crate::{Game, Outcome, RuleError, Seat, Viewer};
use errors::Refused;
use holdings::{DeedSet, Holdings};
use rand::RngCore;
use state::{Step, TradeOffer};
use std::cell::{Cell, OnceCell};
use std::ops::RangeInclusive;

/// The Monopoly rules.
pub struct Monopoly;

type Scratch = crate::scratch::Scratch<Monopoly>;

impl Game for Monopoly {
    type Config = Config;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    const NAME: &'static str = "monopoly";
    const TITLE: &'static str = "Monopoly (German edition)";
    /// 2: offers stand on the deeds as made (`trade_offers = as_made`) and inherited interest
    /// is settled deed by deed (`inherited_interest = per_deed`) by default (issue 24).
    const RULES_VERSION: u32 = 2;
    const ERROR_CODES: &'static [&'static str] = errors::ALL;
    const OPTIONS: &'static [crate::options::OptionText] = options::OPTIONS;

    /// 2 to 6 (MO-COMP-1).
    fn seat_range() -> RangeInclusive<usize> {
        let c = &board().constants;
        c.players_min..=c.players_max
    }

    /// Options left out take the defaults of `rules_version` (see [`config`]).
    fn read_config(json: &serde_json::Value, rules_version: u32) -> Result<Config, String> {
        Config::read(json, rules_version).map_err(|e| e.to_string())
    }

    fn setup(
        config: &Config,
        seats: usize,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Event>, RuleError> {
        decide::setup(config, seats, rng)
    }

    fn empty_state() -> State {
        State::empty()
    }

    fn evolve(state: &mut State, event: &Event) {
        evolve::evolve(state, event);
    }

    fn decide(
        state: &State,
        seat: Seat,
        action: &Action,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Event>, RuleError> {
        decide::decide(state, seat, action, rng)
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        let shared = Shared::new(state);
        listing::all(|found| listed(&shared, seat, found))
    }

    fn legal_action_count(state: &State, seat: Seat) -> usize {
        Shared::new(state).listed_count(seat)
    }

    fn legal_action(state: &State, seat: Seat, index: usize) -> Option<Action> {
        Shared::new(state).listed_action(seat, index)
    }

    fn action_templates(state: &State, seat: Seat) -> Vec<ActionTemplate> {
        let mut templates = Vec::new();
        if let Some(stage) = stage_of(state, seat) {
            let shared = Shared::new(state);
            parametric(&shared, seat, stage, &mut |p| {
                templates.push(p.build(&shared, seat));
            });
        }
        templates
    }

    fn action_template_count(state: &State, seat: Seat) -> usize {
        Shared::new(state).template_count(seat)
    }

    fn action_template(state: &State, seat: Seat, index: usize) -> Option<ActionTemplate> {
        let stage = stage_of(state, seat)?;
        let shared = Shared::new(state);
        template::nth_found(index, |found| parametric(&shared, seat, stage, found))
            .map(|p| p.build(&shared, seat))
    }

    fn template_action(
        state: &State,
        seat: Seat,
        index: usize,
        rng: &mut dyn RngCore,
    ) -> Option<Action> {
        Shared::new(state).template_action(seat, index, rng)
    }

    /// One pass over the deeds serves every seat's listing and templates.
    fn choice_counts(state: &State, counts: &mut [(usize, usize)]) {
        Shared::new(state).choice_counts(counts);
    }

    /// The counting and the building share one pass over the deeds and the offers' checks.
    fn random_choice(state: &State, rng: &mut dyn RngCore) -> Option<Choice<Action>> {
        let shared = Shared::new(state);
        playout::pick_counted(
            state.players.len(),
            |counts| shared.choice_counts(counts),
            rng,
            |seat, index| shared.listed_action(seat, index),
            |seat, index, rng| shared.template_action(seat, index, rng),
        )
    }

    fn active_seats(state: &State) -> Vec<Seat> {
        if state.outcome.is_some() {
            return Vec::new();
        }
        if let Some(auction) = &state.auction {
            let high = auction.high.map(|h| h.seat);
            return auction
                .bidders
                .iter()
                .copied()
                .filter(|&s| Some(s) != high)
                .collect();
        }
        if let Some(shortage) = &state.shortage {
            return shortage.waiting.clone();
        }
        if let Some(inheritance) = &state.inheritance {
            return vec![inheritance.creditor];
        }
        if let Some(debtor) = state.raising_funds() {
            return vec![debtor];
        }
        state.turn_seat().into_iter().collect()
    }

    fn seat_count(state: &State) -> usize {
        state.players.len()
    }

    fn view(state: &State, _viewer: Viewer) -> View {
        view::view(state)
    }

    /// The decks' order is the only secret: hidden in every shuffle until the end.
    fn redact(event: &Event, _viewer: Viewer) -> Option<Event> {
        match event {
            Event::DeckShuffled { deck, cards, .. } => Some(Event::DeckShuffled {
                deck: *deck,
                cards: *cards,
                order: None,
            }),
            other => Some(other.clone()),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    /// MO-TRADE-4: an offer goes from one player to one other.
    fn offer_to(event: &Event) -> Option<Seat> {
        match event {
            Event::TradeOffered { offer } => Some(offer.to),
            _ => None,
        }
    }

    fn determinize(state: &State, seat: Seat, rng: &mut dyn RngCore) -> State {
        determinize::determinize(state, seat, rng)
    }
}

/// A state with what listing gathers from it for any seat, gathered when first asked for:
/// counting every seat's choices shares one [`Holdings`].
struct Shared<'s> {
    state: &'s State,
    holdings: OnceCell<Holdings>,
    /// [`rules::acceptance`] of the open offers, by their place in the state's list, once
    /// asked for (listing asks it of an offer for its addressee's actions and templates).
    acceptance: [Cell<Option<rules::Acceptance>>; OFFERS_KEPT],
}

/// The open offers whose acceptance [`Shared`] keeps: one from each seat to each other seat.
const OFFERS_KEPT: usize = holdings::MAX_SEATS * (holdings::MAX_SEATS - 1);

impl<'s> Shared<'s> {
    fn new(state: &'s State) -> Shared<'s> {
        Shared {
            state,
            holdings: OnceCell::new(),
            acceptance: [const { Cell::new(None) }; OFFERS_KEPT],
        }
    }

    fn holdings(&self) -> &Holdings {
        self.holdings.get_or_init(|| Holdings::of(self.state))
    }

    fn listed_count(&self, seat: Seat) -> usize {
        listing::count(|found| listed(self, seat, found))
    }

    fn listed_action(&self, seat: Seat, index: usize) -> Option<Action> {
        listing::nth(index, |found| listed(self, seat, found))
    }

    fn template_count(&self, seat: Seat) -> usize {
        stage_of(self.state, seat).map_or(0, |stage| {
            template::count_found(|found| parametric(self, seat, stage, found))
        })
    }

    fn template_action(&self, seat: Seat, index: usize, rng: &mut dyn RngCore) -> Option<Action> {
        let stage = stage_of(self.state, seat)?;
        template::nth_found(index, |found| parametric(self, seat, stage, found))
            .map(|p| p.fill(self, seat, rng))
    }

    fn choice_counts(&self, counts: &mut [(usize, usize)]) {
        for (s, count) in counts.iter_mut().enumerate() {
            let seat = Seat(s as u8);
            *count = (self.listed_count(seat), self.template_count(seat));
        }
    }

    /// Whether the `index`-th open offer can be accepted now, as it is or lifting all.
    fn acceptance(&self, index: usize) -> rules::Acceptance {
        let judge = || rules::acceptance(self.state, &self.state.offers[index]);
        let Some(kept) = self.acceptance.get(index) else {
            return judge();
        };
        kept.get().unwrap_or_else(|| {
            let acceptance = judge();
            kept.set(Some(acceptance));
            acceptance
        })
    }
}

/// Which kind of moment `seat` is in, as MO-D-2 sees it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Auction,
    Shortage,
    Inheritance,
    /// Someone is raising funds: `debtor`.
    Debt(Seat),
    Free,
}

fn stage_of(state: &State, seat: Seat) -> Option<Stage> {
    if state.outcome.is_some()
        || state.turn.is_none()
        || seat.index() >= state.players.len()
        || state.player(seat).bankrupt
    {
        return None;
    }
    Some(if state.auction.is_some() {
        Stage::Auction
    } else if state.shortage.is_some() {
        Stage::Shortage
    } else if state.inheritance.is_some() {
        Stage::Inheritance
    } else if let Some(debtor) = state.raising_funds() {
        Stage::Debt(debtor)
    } else {
        Stage::Free
    })
}

/// The concrete actions of `seat`: the turn's own, and the standing actions MO-D-2 allows, each
/// handed to `found` as a recipe in listing order (see [`crate::listing`]).
fn listed(shared: &Shared, seat: Seat, found: &mut Visit<'_, Action>) -> Walk {
    let state = shared.state;
    let Some(stage) = stage_of(state, seat) else {
        return Walk::Continue(());
    };
    match stage {
        Stage::Auction => {
            let auction = state.auction.as_ref().expect("stage says so");
            if auction.bidders.contains(&seat) && auction.high.map(|h| h.seat) != Some(seat) {
                found(&|| Action::PassAuction)?;
            }
        }
        Stage::Shortage => {
            let shortage = state.shortage.as_ref().expect("stage says so");
            if shortage.waiting.contains(&seat) {
                found(&|| Action::DeclareDemand {
                    squares: Vec::new(),
                })?;
                for (square, kind) in rules::single_builds(state, seat) {
                    if kind == shortage.building {
                        found(&|| Action::DeclareDemand {
                            squares: vec![square],
                        })?;
                    }
                }
            }
        }
        Stage::Inheritance => {
            if state.inheritance.as_ref().map(|i| i.creditor) == Some(seat) {
                found(&|| Action::SettleInheritance { lift: Vec::new() })?;
            }
        }
        Stage::Debt(debtor) => {
            claims(state, seat, found)?;
            answers(shared, seat, Some(debtor), found)?;
            if seat == debtor {
                let holdings = shared.holdings();
                let owned = holdings.owned(seat);
                sales(state, seat, owned.and(holdings.built), found)?;
                mortgages(state, seat, owned, found)?;
                let debt = state.debt_of(seat).map_or(0, |d| d.total());
                if state.player(seat).cash >= debt {
                    found(&|| Action::PayDebt)?;
                }
                if rules::liquidation_value(state, seat) < debt {
                    found(&|| Action::DeclareBankruptcy)?;
                }
            }
        }
        Stage::Free => {
            turn_actions(state, seat, found)?;
            claims(state, seat, found)?;
            let holdings = shared.holdings();
            for (square, _) in rules::single_builds_in(state, seat, holdings.whole_groups(seat)) {
                found(&|| Action::Build {
                    squares: vec![square],
                })?;
            }
            let owned = holdings.owned(seat);
            sales(state, seat, owned.and(holdings.built), found)?;
            mortgages(state, seat, owned, found)?;
            for square in owned.and(holdings.mortgaged).squares() {
                if rules::check_lift::<Refused>(state, seat, square).is_ok() {
                    found(&|| Action::LiftMortgage { square })?;
                }
            }
            answers(shared, seat, None, found)?;
        }
    }
    Walk::Continue(())
}

fn turn_actions(state: &State, seat: Seat, found: &mut Visit<'_, Action>) -> Walk {
    let Some(turn) = state.turn.filter(|t| t.seat == seat) else {
        return Walk::Continue(());
    };
    let player = state.player(seat);
    match turn.step {
        Step::Roll => {
            if player.in_jail && !turn.rolled {
                if player.cash >= board().constants.jail_fine {
                    found(&|| Action::PayJailFine)?;
                }
                for &card in &player.jail_cards {
                    found(&|| Action::UseJailCard { card })?;
                }
            }
            found(&|| Action::Roll)
        }
        Step::Buy { square } => {
            let price = board()
                .deed(board().deed_at(square).expect("a property"))
                .price;
            if player.cash >= price {
                found(&|| Action::BuyProperty)?;
            }
            found(&|| Action::DeclineProperty)
        }
        Step::PayOrDraw { .. } => {
            found(&|| Action::PayCardFine)?;
            found(&|| Action::DrawCard)
        }
        Step::Done => found(&|| Action::EndTurn),
        Step::Moving => Walk::Continue(()),
    }
}

fn claims(state: &State, seat: Seat, found: &mut Visit<'_, Action>) -> Walk {
    for r in state.rents.iter().filter(|r| r.owner == seat) {
        found(&|| Action::ClaimRent { rent: r.rent })?;
    }
    Walk::Continue(())
}

// The cheap tests on a deed's own state below only skip checks that would refuse; `rules`
// decides.

/// Selling a building on any of `owned_built`, the seat's deeds in groups with buildings.
fn sales(state: &State, seat: Seat, owned_built: DeedSet, found: &mut Visit<'_, Action>) -> Walk {
    for (d, square) in owned_built.iter().zip(owned_built.squares()) {
        if state.deeds[d].level > 0 && rules::check_sell::<Refused>(state, seat, square).is_ok() {
            found(&|| Action::SellBuilding { square })?;
        }
    }
    Walk::Continue(())
}

fn mortgages(state: &State, seat: Seat, owned: DeedSet, found: &mut Visit<'_, Action>) -> Walk {
    for (d, square) in owned.iter().zip(owned.squares()) {
        if !state.deeds[d].mortgaged
            && rules::check_mortgage::<Refused>(state, seat, square).is_ok()
        {
            found(&|| Action::Mortgage { square })?;
        }
    }
    Walk::Continue(())
}

/// Accepting (without lifting), rejecting and withdrawing offers; during a debt only those
/// involving the debtor.
fn answers(
    shared: &Shared,
    seat: Seat,
    debtor: Option<Seat>,
    found: &mut Visit<'_, Action>,
) -> Walk {
    for (i, o) in shared.state.offers.iter().enumerate() {
        if debtor.is_some_and(|d| o.from != d && o.to != d) {
            continue;
        }
        if o.to == seat {
            if shared.acceptance(i).as_is {
                found(&|| Action::AcceptTrade {
                    offer: o.offer,
                    lift: Vec::new(),
                })?;
            }
            found(&|| Action::RejectTrade { offer: o.offer })?;
        }
        if o.from == seat {
            found(&|| Action::WithdrawTrade { offer: o.offer })?;
        }
    }
    Walk::Continue(())
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
/// each handed to `found` in listing order.
fn parametric<'s>(
    shared: &Shared<'s>,
    seat: Seat,
    stage: Stage,
    found: &mut dyn FnMut(Parametric<'s>),
) {
    let state = shared.state;
    // Offers go to every other solvent seat; while another seat raises funds, only to it.
    let only = match stage {
        Stage::Auction => {
            let auction = state.auction.as_ref().expect("stage says so");
            let floor = match auction.high {
                Some(h) if h.seat == seat => return,
                Some(h) => h.amount + 1,
                None => auction.min_bid,
            };
            let cash = state.player(seat).cash;
            if auction.bidders.contains(&seat) && floor <= cash {
                found(Parametric::Bid { floor, cash });
            }
            return;
        }
        Stage::Shortage => return,
        Stage::Inheritance => {
            if let Some(i) = state.inheritance.as_ref().filter(|i| i.creditor == seat) {
                let all: i64 = i.squares.iter().map(|&s| rules::lift_price(state, s)).sum();
                if all <= state.player(seat).cash {
                    found(Parametric::SettleInheritance(&i.squares));
                }
            }
            return;
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
            found(Parametric::AcceptTrade(o));
        }
    }
    let partners = only
        .into_iter()
        .chain(state.solvent().filter(|&s| only.is_none() && s != seat));
    offers::templates(state, shared.holdings(), seat, partners, &mut |to, lead| {
        found(Parametric::OfferTrade { to, lead });
    });
}

impl Parametric<'_> {
    /// The template `seat` is offered.
    fn build(&self, shared: &Shared, seat: Seat) -> ActionTemplate {
        let state = shared.state;
        match *self {
            Parametric::Bid { floor, cash } => ActionTemplate::new("bid").param(
                "amount",
                Domain::Integer {
                    min: floor,
                    max: cash,
                },
            ),
            Parametric::SettleInheritance(squares) => {
                ActionTemplate::new("settle_inheritance").param("lift", Domain::any_subset(squares))
            }
            Parametric::AcceptTrade(o) => ActionTemplate::new("accept_trade")
                .fixed("offer", o.offer)
                .param("lift", Domain::any_subset(rules::mortgaged_given(state, o))),
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
                lift: any_of(rng, &rules::mortgaged_given(state, o)),
            },
            Parametric::OfferTrade { to, lead } => {
                offers::fill(state, shared.holdings(), seat, to, lead, rng)
            }
        }
    }
}

/// Any sub-list of `values`, drawn as [`Domain::any_subset`] draws it.
fn any_of<T: Copy>(rng: &mut dyn RngCore, values: &[T]) -> Vec<T> {
    draw::subset(rng, values.len(), 0, values.len())
        .into_iter()
        .map(|i| values[i])
        .collect()
}
