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
mod market;
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

use crate::template::{self, ActionTemplate, Domain};
use crate::{Game, Outcome, RuleError, Seat, Viewer};
use errors::Refused;
use rand::RngCore;
use state::{Step, TradeOffer};
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
        let mut actions = Vec::new();
        if let Some(stage) = stage_of(state, seat) {
            listed(state, seat, stage, &mut actions);
        }
        actions
    }

    fn action_templates(state: &State, seat: Seat) -> Vec<ActionTemplate> {
        let mut templates = Vec::new();
        if let Some(stage) = stage_of(state, seat) {
            parametric(state, seat, stage, &mut |p| {
                templates.push(p.build(state, seat));
            });
        }
        templates
    }

    fn action_template_count(state: &State, seat: Seat) -> usize {
        let Some(stage) = stage_of(state, seat) else {
            return 0;
        };
        template::count_found(|found| parametric(state, seat, stage, found))
    }

    fn action_template(state: &State, seat: Seat, index: usize) -> Option<ActionTemplate> {
        let stage = stage_of(state, seat)?;
        template::nth_found(index, |found| parametric(state, seat, stage, found))
            .map(|p| p.build(state, seat))
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

/// The concrete actions of `seat`: the turn's own, and the standing actions MO-D-2 allows.
fn listed(state: &State, seat: Seat, stage: Stage, out: &mut Vec<Action>) {
    match stage {
        Stage::Auction => {
            let auction = state.auction.as_ref().expect("stage says so");
            if auction.bidders.contains(&seat) && auction.high.map(|h| h.seat) != Some(seat) {
                out.push(Action::PassAuction);
            }
        }
        Stage::Shortage => {
            let shortage = state.shortage.as_ref().expect("stage says so");
            if shortage.waiting.contains(&seat) {
                out.push(Action::DeclareDemand {
                    squares: Vec::new(),
                });
                for (square, kind) in rules::single_builds(state, seat) {
                    if kind == shortage.building {
                        out.push(Action::DeclareDemand {
                            squares: vec![square],
                        });
                    }
                }
            }
        }
        Stage::Inheritance => {
            if state.inheritance.as_ref().map(|i| i.creditor) == Some(seat) {
                out.push(Action::SettleInheritance { lift: Vec::new() });
            }
        }
        Stage::Debt(debtor) => {
            claims(state, seat, out);
            answers(state, seat, Some(debtor), out);
            if seat == debtor {
                sales(state, seat, out);
                mortgages(state, seat, out);
                let debt = state.debt_of(seat).map_or(0, |d| d.total());
                if state.player(seat).cash >= debt {
                    out.push(Action::PayDebt);
                }
                if rules::liquidation_value(state, seat) < debt {
                    out.push(Action::DeclareBankruptcy);
                }
            }
        }
        Stage::Free => {
            turn_actions(state, seat, out);
            claims(state, seat, out);
            for (square, _) in rules::single_builds(state, seat) {
                out.push(Action::Build {
                    squares: vec![square],
                });
            }
            sales(state, seat, out);
            mortgages(state, seat, out);
            for square in state.owned(seat) {
                if rules::check_lift::<Refused>(state, seat, square).is_ok() {
                    out.push(Action::LiftMortgage { square });
                }
            }
            answers(state, seat, None, out);
        }
    }
}

fn turn_actions(state: &State, seat: Seat, out: &mut Vec<Action>) {
    let Some(turn) = state.turn.filter(|t| t.seat == seat) else {
        return;
    };
    let player = state.player(seat);
    match turn.step {
        Step::Roll => {
            if player.in_jail && !turn.rolled {
                if player.cash >= board().constants.jail_fine {
                    out.push(Action::PayJailFine);
                }
                out.extend(
                    player
                        .jail_cards
                        .iter()
                        .map(|&card| Action::UseJailCard { card }),
                );
            }
            out.push(Action::Roll);
        }
        Step::Buy { square } => {
            let price = board()
                .deed(board().deed_at(square).expect("a property"))
                .price;
            if player.cash >= price {
                out.push(Action::BuyProperty);
            }
            out.push(Action::DeclineProperty);
        }
        Step::PayOrDraw { .. } => {
            out.push(Action::PayCardFine);
            out.push(Action::DrawCard);
        }
        Step::Done => out.push(Action::EndTurn),
        Step::Moving => {}
    }
}

fn claims(state: &State, seat: Seat, out: &mut Vec<Action>) {
    out.extend(
        state
            .rents
            .iter()
            .filter(|r| r.owner == seat)
            .map(|r| Action::ClaimRent { rent: r.rent }),
    );
}

fn sales(state: &State, seat: Seat, out: &mut Vec<Action>) {
    for square in state.owned(seat) {
        if state.deed(square).is_some_and(|d| d.level > 0)
            && rules::check_sell::<Refused>(state, seat, square).is_ok()
        {
            out.push(Action::SellBuilding { square });
        }
    }
}

fn mortgages(state: &State, seat: Seat, out: &mut Vec<Action>) {
    for square in state.owned(seat) {
        if rules::check_mortgage::<Refused>(state, seat, square).is_ok() {
            out.push(Action::Mortgage { square });
        }
    }
}

/// Accepting (without lifting), rejecting and withdrawing offers; during a debt only those
/// involving the debtor.
fn answers(state: &State, seat: Seat, debtor: Option<Seat>, out: &mut Vec<Action>) {
    for o in &state.offers {
        if debtor.is_some_and(|d| o.from != d && o.to != d) {
            continue;
        }
        if o.to == seat {
            if rules::acceptable_as_is(state, o) {
                out.push(Action::AcceptTrade {
                    offer: o.offer,
                    lift: Vec::new(),
                });
            }
            out.push(Action::RejectTrade { offer: o.offer });
        }
        if o.from == seat {
            out.push(Action::WithdrawTrade { offer: o.offer });
        }
    }
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
    /// may lead with (see [`OfferField`]).
    OfferTrade { to: Seat, lead: Option<OfferField> },
}

/// The templates of `seat`: a bid, trade offers, and lifting choices where they can be made,
/// each handed to `found` in listing order.
fn parametric<'s>(
    state: &'s State,
    seat: Seat,
    stage: Stage,
    found: &mut dyn FnMut(Parametric<'s>),
) {
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
    for o in state.offers.iter().filter(|o| o.to == seat) {
        if matches!(stage, Stage::Debt(d) if o.from != d && o.to != d) {
            continue;
        }
        if rules::acceptable_lifting_all(state, o) {
            found(Parametric::AcceptTrade(o));
        }
    }
    let partners = only
        .into_iter()
        .chain(state.solvent().filter(|&s| only.is_none() && s != seat));
    for to in partners {
        if state.offers.iter().any(|o| o.from == seat && o.to == to) {
            continue;
        }
        if state.config.trade_offers == TradeOffers::AsAccepted {
            found(Parametric::OfferTrade { to, lead: None });
            continue;
        }
        let [mine, theirs] = TradeSide::offer(state, seat, to);
        for lead in OfferField::ALL {
            if lead.available(&mine, &theirs) {
                found(Parametric::OfferTrade {
                    to,
                    lead: Some(lead),
                });
            }
        }
    }
}

impl Parametric<'_> {
    /// The template `seat` is offered.
    fn build(&self, state: &State, seat: Seat) -> ActionTemplate {
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
                let [mine, theirs] = TradeSide::offer(state, seat, to);
                offer_template(to, &mine, &theirs, lead)
            }
        }
    }
}

/// What one side of a trade could put in: cash, tradeable properties, jail cards.
struct TradeSide {
    cash: i64,
    properties: Vec<u8>,
    cards: Vec<Card>,
}

impl TradeSide {
    fn of(state: &State, seat: Seat) -> TradeSide {
        TradeSide {
            cash: state.player(seat).cash,
            properties: rules::tradeable(state, seat),
            cards: state.player(seat).jail_cards.clone(),
        }
    }

    /// What `seat` may offer `to` and ask of it, `[mine, theirs]`, such that any combination is
    /// an offer the rules take. Under `trade_offers = as_made` the proposer must pay its side,
    /// MO-TRADE-3 interest on what it receives included (MO-TRADE-4): the cash it may give is
    /// what is left after the interest on every mortgaged deed it could ask for, and when even
    /// that interest is beyond its cash, it asks for no mortgaged deed.
    fn offer(state: &State, seat: Seat, to: Seat) -> [TradeSide; 2] {
        let mut mine = TradeSide::of(state, seat);
        let mut theirs = TradeSide::of(state, to);
        if state.config.trade_offers == TradeOffers::AsMade {
            let mortgaged = |square: &u8| state.deed(*square).is_some_and(|d| d.mortgaged);
            let interest: i64 = theirs
                .properties
                .iter()
                .filter(|s| mortgaged(s))
                .map(|&s| rules::interest_on(state, s))
                .sum();
            if interest <= mine.cash {
                mine.cash -= interest;
            } else {
                theirs.properties.retain(|s| !mortgaged(s));
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
enum OfferField {
    GetProperties,
    GiveProperties,
    GetCards,
    GiveCards,
    GetCash,
    GiveCash,
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

    /// Whether the field can hold at least one item.
    fn available(self, mine: &TradeSide, theirs: &TradeSide) -> bool {
        self.domain(mine, theirs, 1).is_some()
    }

    /// The values the field may take with at least `min` items (cash: M `min`), if it can
    /// hold one item at all.
    fn domain(self, mine: &TradeSide, theirs: &TradeSide, min: usize) -> Option<Domain> {
        let whose = match self {
            OfferField::GiveProperties | OfferField::GiveCards | OfferField::GiveCash => mine,
            OfferField::GetProperties | OfferField::GetCards | OfferField::GetCash => theirs,
        };
        let subset = |all: Domain| match all {
            Domain::Subset {
                values, max_items, ..
            } if max_items > 0 => Some(Domain::Subset {
                values,
                min_items: min,
                max_items,
            }),
            _ => None,
        };
        match self {
            OfferField::GetProperties | OfferField::GiveProperties => {
                subset(Domain::any_subset(&whose.properties))
            }
            OfferField::GetCards | OfferField::GiveCards => {
                subset(Domain::any_subset(&whose.cards))
            }
            OfferField::GetCash | OfferField::GiveCash => {
                (whose.cash > 0).then_some(Domain::Integer {
                    min: min as i64,
                    max: whose.cash,
                })
            }
        }
    }

    /// The action field it fills.
    fn name(self) -> &'static str {
        match self {
            OfferField::GetProperties => "get_properties",
            OfferField::GiveProperties => "give_properties",
            OfferField::GetCards => "get_cards",
            OfferField::GiveCards => "give_cards",
            OfferField::GetCash => "get_cash",
            OfferField::GiveCash => "give_cash",
        }
    }
}

/// An offer to `to`: any cash up to each side's holding, any tradeable properties and jail
/// cards of either side; interest is paid on mortgaged properties received (`lift` left out; a
/// client may name some of them to lift instead). Fields with nothing to choose from are left
/// out of the template: they default to 0 and empty. With a `lead` field (`trade_offers =
/// as_made`), that field holds at least one item and the fields before it are left out.
fn offer_template(
    to: Seat,
    mine: &TradeSide,
    theirs: &TradeSide,
    lead: Option<OfferField>,
) -> ActionTemplate {
    let mut template = ActionTemplate::new("offer_trade").fixed("to", to);
    let start = lead.map_or(0, |l| {
        OfferField::ALL
            .iter()
            .position(|&f| f == l)
            .expect("a field")
    });
    for field in &OfferField::ALL[start..] {
        let min = usize::from(Some(*field) == lead);
        if let Some(domain) = field.domain(mine, theirs, min) {
            template = template.param(field.name(), domain);
        }
    }
    template
}
