//! What a seat may do now: concrete actions (`legal_actions`) and templates for the choices
//! that cannot be listed (`action_templates`): card payments of "any" cards, bank trades,
//! trade offers, fight cards and keep choices.
//!
//! Lists stay small: a move is listed once per ship and destination, with its cheapest path and
//! total cost. Every decision that only a template describes also gets one concrete default
//! action, so a client that reads only `legal_actions` can always act. Every listed action and
//! every instantiation of a listed template is accepted by `decide`: both are built from the
//! checks in `rules`.

use super::action::Action;
use super::cards::{Card, Cards, Empire};
use super::data::{board, Cell, CELL_COUNT};
use super::paths::{self, Layers};
use super::payment::{self, Options};
use super::rules::{self, Awaiting};
use super::state::{ActionCard, CardStatus, ShipId, State, Turn};
use crate::listing::{self, Visit, Walk};
use crate::refusal::Refused;
use crate::template::{draw, ActionTemplate, Domain};
use crate::Seat;
use rand::RngCore;
use std::collections::BTreeMap;

pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    listing::all(|found| listed(state, seat, found))
}

/// The concrete actions of `seat`, each handed to `found` as a recipe in listing order (see
/// [`crate::listing`]): counting them builds no move's path. Stops where `found` breaks.
pub fn listed(state: &State, seat: Seat, found: &mut Visit<'_, Action>) -> Walk {
    match rules::awaiting(state) {
        Awaiting::Payment(p) if p == seat => match payment_options(state) {
            Options::Listed(list) => {
                for cards in list {
                    found(&|| Action::Pay { cards })?;
                }
            }
            Options::AnyOf { hand, count } => found(&|| Action::Pay {
                cards: spare_cards(&hand, count),
            })?,
        },
        Awaiting::FightCards(p) if p == seat => found(&|| Action::LayFightCards {
            cards: default_fight_cards(state, seat),
        })?,
        Awaiting::FightChoice(p) if p == seat => {
            if let Some(f) = &state.fight {
                for &cards in &f.choices {
                    found(&|| Action::ChooseFightDiscard { cards })?;
                }
            }
        }
        Awaiting::Offer(to) if to == seat => {
            let offer = state.offer.expect("an offer is pending");
            if state.player(seat).cards.contains(&offer.get) {
                found(&|| Action::AcceptTrade)?;
            }
            found(&|| Action::RejectTrade)?;
        }
        Awaiting::Placement(p) if p == seat => placements(state, seat, found)?,
        Awaiting::Turn(p) if p == seat => {
            let turn = *state.turn().expect("the action phase is on");
            turn_actions(state, seat, turn, found)?;
        }
        Awaiting::Keep if rules::keep_pending(state, seat) => found(&|| {
            let hand = state.player(seat).cards;
            let kept = state.config.cards_kept;
            Action::Keep {
                cards: hand.minus(&spare_cards(&hand, hand.total() as u8 - kept)),
            }
        })?,
        _ => {}
    }
    if state.offer.is_some_and(|o| o.from == seat) {
        found(&|| Action::WithdrawTrade)?;
    }
    Walk::Continue(())
}

pub fn action_templates(state: &State, seat: Seat) -> Vec<ActionTemplate> {
    let mut out = Vec::new();
    templates(state, seat, &mut |t| out.push(t.build(state, seat)));
    out
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
/// action ([`rules::check_free_trade`]). Templates cannot say "leaves an action", so they keep
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
    } else if rules::check_bank::<Refused>(state, seat).is_ok() {
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
            if rules::check_bank::<Refused>(state, seat).is_ok() && !hand.is_empty() {
                let c = &board().constants.bank_trade;
                let max = u32::from(c.swap_max).min(hand.total()) as u8;
                found(Template::BankSwap { max });
                if hand.total() >= u32::from(c.pick_cost) {
                    found(Template::BankPick);
                }
            }
            if rules::check_may_offer::<Refused>(state, seat).is_ok() {
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

fn payment_options(state: &State) -> Options {
    let due = state.dues[0];
    payment::options(&state.config, &state.player(due.payer).cards, &state.dues)
}

/// `count` cards a player is least likely to miss: from the colours held most, jokers last.
fn spare_cards(hand: &Cards, count: u8) -> Cards {
    let mut left = *hand;
    let mut out = Cards::NONE;
    for _ in 0..count {
        let pick = Empire::ALL
            .iter()
            .map(|e| e.card())
            .filter(|&c| left.get(c) > 0)
            .max_by_key(|&c| (left.get(c), std::cmp::Reverse(c.index())))
            .unwrap_or(Card::Joker);
        if left.get(pick) == 0 {
            break;
        }
        *left.get_mut(pick) -= 1;
        *out.get_mut(pick) += 1;
    }
    out
}

/// The default fight cards: the largest group, at most 5 (TR-GAL-5).
fn default_fight_cards(state: &State, seat: Seat) -> Cards {
    let hand = state.player(seat).cards;
    let max = board().variants.galleys.fight_cards_max;
    let group = super::fight::largest_groups(&state.config, &hand)
        .first()
        .copied()
        .unwrap_or_default();
    let mut out = Cards::NONE;
    for (card, n) in group.iter() {
        let take = n.min(max - out.total() as u8);
        *out.get_mut(card) = take;
    }
    out
}

/// Phase 2: every placeable tile with every empire it can join (TR-P2-1, TR-P2-2).
fn placements(state: &State, seat: Seat, found: &mut Visit<'_, Action>) -> Walk {
    for &tile in &state.player(seat).tiles {
        if state.placeable(tile) {
            for empire in state.adjacent_empires(tile.cell()) {
                found(&|| Action::PlaceTile {
                    tile,
                    empire: Some(empire),
                })?;
            }
        }
    }
    Walk::Continue(())
}

fn turn_actions(state: &State, seat: Seat, turn: Turn, found: &mut Visit<'_, Action>) -> Walk {
    if turn.acted {
        if state.config.player_trade_free && !turn.traded {
            found(&|| Action::EndTurn)?;
        }
        return Walk::Continue(());
    }
    let mut any = false;
    actions(state, seat, &mut |build| {
        any = true;
        found(build)
    })?;
    if !turn.traded {
        found(&|| Action::Pass)?;
    } else if !any && bank_possible(state, seat) {
        // After a free trade the turn takes an action; when only a bank trade is left, one
        // concrete swap keeps a client that reads only this list able to act.
        found(&|| Action::BankSwap {
            cards: spare_cards(&state.player(seat).cards, 1),
        })?;
    }
    Walk::Continue(())
}

fn bank_possible(state: &State, seat: Seat) -> bool {
    rules::check_bank::<Refused>(state, seat).is_ok() && !state.player(seat).cards.is_empty()
}

/// Whether `seat` could take any action this turn (TR-K1 b: a free trade only beside one).
pub fn has_action(state: &State, seat: Seat) -> bool {
    listing::any(|found| actions(state, seat, found)) || bank_possible(state, seat)
}

/// The listed actions A–C, F and the galley's sinking.
fn actions(state: &State, seat: Seat, found: &mut Visit<'_, Action>) -> Walk {
    let mut own = Vec::with_capacity(state.ships.len());
    own.extend(
        (0..state.ships.len() as u8)
            .map(ShipId)
            .filter(|&id| state.ship(id).owner == seat)
            .filter_map(|id| state.ship(id).at.map(|at| (id, at))),
    );
    moves(state, seat, &own, found)?;
    if state.player(seat).action_cards.explorer == CardStatus::Laid {
        for &(ship, _) in &own {
            for plan in rules::voyages(state, seat, ship) {
                found(&|| Action::ExplorerVoyage {
                    ship,
                    to: *plan.path.last().expect("a voyage enters a cell"),
                    cost: Some(plan.total()),
                    path: Some(plan.path.clone()),
                })?;
            }
        }
    }
    // The cheap public tests below only skip checks that would fail; `rules` decides.
    for &(ship, at) in &own {
        let f = state.field(at);
        if f.empire.is_some()
            && f.city.is_none()
            && rules::check_city::<Refused>(state, seat, ship).is_ok()
        {
            found(&|| Action::FoundCity { ship })?;
        }
    }
    if state.ships_in_supply(seat).next().is_some() {
        let yards = std::iter::once(Cell::TYROS).chain(state.cities_of(seat));
        for at in yards {
            for galley in [false, true]
                .into_iter()
                .take(1 + usize::from(state.config.galleys))
            {
                if rules::check_build::<Refused>(state, seat, at, galley).is_ok() {
                    found(&|| Action::BuildShip { at, galley })?;
                }
            }
        }
    }
    if state.config.action_cards {
        let cards = state.player(seat).action_cards;
        let playable = |card| {
            cards.get(card) == CardStatus::Available
                && rules::check_action_card::<Refused>(state, seat, card).is_ok()
        };
        if playable(ActionCard::FavourableWind) {
            found(&|| Action::PlayFavourableWind)?;
        }
        if playable(ActionCard::Explorer) {
            found(&|| Action::PlayExplorer)?;
        }
        if playable(ActionCard::BlockadeBreaker) {
            blockades(state, seat, &own, found)?;
        }
    }
    if state.config.galleys {
        for &(galley, at) in own.iter().filter(|(id, _)| state.ship(*id).galley) {
            for target in state.ships_at(at) {
                if rules::check_sink::<Refused>(state, seat, galley, target).is_ok() {
                    found(&|| Action::SinkShip { galley, target })?;
                }
            }
        }
    }
    Walk::Continue(())
}

/// Action A for every own ship and destination, with the cheapest path (TR-D-6); with a
/// laid-out wind also at half price (TR-AK-4). The path is traced only when the move is built.
fn moves(state: &State, seat: Seat, own: &[(ShipId, Cell)], found: &mut Visit<'_, Action>) -> Walk {
    let wind_laid = state.player(seat).action_cards.favourable_wind == CardStatus::Laid;
    let limit = board().constants.ship_limit_per_field;
    let mut ships_at = [0u8; CELL_COUNT];
    for at in state.ships.iter().filter_map(|s| s.at) {
        ships_at[at.index()] += 1;
    }
    let targets = Cell::fields()
        .filter(|&c| ships_at[c.index()] < limit && state.field(c).empire.is_some())
        .fold(0u64, |mask, c| mask | 1 << c.0);
    let reach = rules::MoveReach::of(state, seat);
    let longest = reach.longest(wind_laid);
    let (map, pirates) = (state.map(), paths::pirate_fields(state));
    let cards = state.player(seat).cards.total();
    for &(ship, from) in own {
        // Only destinations some hand colour could pay the fewest cells of are searched.
        let near = Layers::within(map, from, longest) & targets & !(1 << from.0);
        if near == 0 {
            continue;
        }
        let layers = Layers::with_pirates(map, pirates, from, cards);
        let fewest = Layers::fewest_cells(map, from);
        for to in paths::cells_in(near) {
            let colour = state.field(to).empire.expect("targets are empire fields");
            for wind in [false, true].into_iter().take(1 + usize::from(wind_laid)) {
                if !reach.may_reach(colour, fewest[to.index()], wind) {
                    continue;
                }
                if let Some(best) = rules::best_move_route(state, seat, ship, &layers, to, wind) {
                    found(&|| Action::Move {
                        ship,
                        to,
                        cost: Some(best.total),
                        path: Some(layers.path(&best.candidate, to)),
                        wind,
                    })?;
                }
            }
        }
    }
    Walk::Continue(())
}

/// "Blockadebrecher": every rival ship sharing a cell with an own ship, to every adjacent
/// empire field with room (TR-AK-5).
fn blockades(
    state: &State,
    seat: Seat,
    own: &[(ShipId, Cell)],
    found: &mut Visit<'_, Action>,
) -> Walk {
    let mut cells: Vec<Cell> = own.iter().map(|&(_, at)| at).collect();
    cells.sort();
    cells.dedup();
    for at in cells {
        for ship in state
            .ships_at(at)
            .filter(|&id| state.ship(id).owner != seat)
        {
            for to in state.map().neighbours(at) {
                if rules::check_blockade::<Refused>(state, seat, ship, to).is_ok() {
                    found(&|| Action::PlayBlockadeBreaker { ship, to })?;
                }
            }
        }
    }
    Walk::Continue(())
}
