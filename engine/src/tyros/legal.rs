//! Who may act and what they may do: the seats the game waits for, and every concrete action
//! of a seat (`legal_actions`). The choices that cannot be listed (card payments of "any"
//! cards, bank trades, trade offers, fight cards and keep choices) are templates
//! ([`super::templates`]).
//!
//! Lists stay small: a move is listed once per ship and destination, with its cheapest path and
//! total cost. Every decision that only a template describes also gets one concrete default
//! action, so a client that reads only `legal_actions` can always act. Every listed action is
//! accepted by `decide`: both are built from the same checks.

use super::action::Action;
use super::action_cards;
use super::building;
use super::cards::{Card, Cards, Empire};
use super::data::{board, Cell, CELL_COUNT};
use super::moves;
use super::paths::{self, Layers};
use super::payment::{self, Options};
use super::rules::{self, Awaiting};
use super::state::{ActionCard, CardStatus, ShipId, State, Turn};
use super::trade;
use crate::listing::{self, Visit, Walk};
use crate::refusal::Refused;
use crate::Seat;

/// The seats the game waits for: the one seat a payment, a fight, an offer, a placement or a
/// turn waits for, or every seat that still chooses the cards it keeps (TR-EOR-1).
pub fn active_seats(state: &State) -> Vec<Seat> {
    match rules::awaiting(state) {
        Awaiting::Nobody => Vec::new(),
        Awaiting::Payment(s)
        | Awaiting::FightCards(s)
        | Awaiting::FightChoice(s)
        | Awaiting::Offer(s)
        | Awaiting::Placement(s)
        | Awaiting::Turn(s) => vec![s],
        Awaiting::Keep => state
            .seats()
            .filter(|&s| rules::keep_pending(state, s))
            .collect(),
    }
}

/// Every concrete action of `seat`; none for a seat the table does not have.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if seat.index() >= state.players.len() {
        return Vec::new();
    }
    listing::all(|found| listed(state, seat, found))
}

/// How many actions [`legal_actions`] lists, none of them built.
pub fn legal_action_count(state: &State, seat: Seat) -> usize {
    if seat.index() >= state.players.len() {
        return 0;
    }
    listing::count(|found| listed(state, seat, found))
}

/// The `index`-th action of [`legal_actions`], the only one built.
pub fn legal_action(state: &State, seat: Seat, index: usize) -> Option<Action> {
    if seat.index() >= state.players.len() {
        return None;
    }
    listing::nth(index, |found| listed(state, seat, found))
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

pub(super) fn payment_options(state: &State) -> Options {
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
    trade::check_bank::<Refused>(state, seat).is_ok() && !state.player(seat).cards.is_empty()
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
            for plan in moves::voyages(state, seat, ship) {
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
            && building::check_city::<Refused>(state, seat, ship).is_ok()
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
                if building::check_build::<Refused>(state, seat, at, galley).is_ok() {
                    found(&|| Action::BuildShip { at, galley })?;
                }
            }
        }
    }
    if state.config.action_cards {
        let cards = state.player(seat).action_cards;
        let playable = |card| {
            cards.get(card) == CardStatus::Available
                && action_cards::check_action_card::<Refused>(state, seat, card).is_ok()
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
                if action_cards::check_sink::<Refused>(state, seat, galley, target).is_ok() {
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
    let reach = moves::MoveReach::of(state, seat);
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
                if let Some(best) = moves::best_move_route(state, seat, ship, &layers, to, wind) {
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
                if action_cards::check_blockade::<Refused>(state, seat, ship, to).is_ok() {
                    found(&|| Action::PlayBlockadeBreaker { ship, to })?;
                }
            }
        }
    }
    Walk::Continue(())
}
