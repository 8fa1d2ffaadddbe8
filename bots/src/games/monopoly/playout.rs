//! How simulated Monopoly players play: like the people they stand for, not like dice. Rents
//! are claimed at once, offers rejected, debts paid by selling and mortgaging the least
//! valuable first, deeds bought while cash allows, auctions bid up to about the printed price,
//! houses built and mortgages lifted while money is plentiful, and deeds swapped or (on a
//! stalled board) bought so that colour groups come together; nobody mortgages, lifts or
//! offers for nothing.
//! Such a simulated game ends as real ones do, by bankruptcy, instead of wandering for
//! thousands of moves (figures in `docs/bots.md`).

use super::manners::{accepted, bid};
use super::trades::{same_group, stalled, wanted};
use crate::evaluate::next_actor;
use engine::monopoly::data::board;
use engine::monopoly::state::{State, Step};
use engine::monopoly::{Action, Monopoly};
use engine::{Game, Seat};
use rand::seq::IndexedRandom;
use rand::{Rng, RngCore};

/// Cash a simulated player keeps when buying or building.
const KEEP: i64 = 100;
/// A simulated bidder's limit, as a share of the printed price: drawn per bid between these.
const BID_LIMIT: (f64, f64) = (0.8, 1.4);
/// The chance a simulated player builds when it may and can afford it.
const BUILD_CHANCE: f64 = 0.7;
/// The chance a simulated player in jail pays the fine rather than rolling.
const JAIL_FINE_CHANCE: f64 = 0.3;

/// The next move of a simulated game and who makes it; `None` once it is over.
pub fn next_move(state: &State, rng: &mut dyn RngCore) -> Option<(Seat, Action)> {
    let seat = next_actor::<Monopoly>(state)?;
    let legal = Monopoly::legal_actions(state, seat);
    let find = |pred: &dyn Fn(&Action) -> bool| legal.iter().find(|a| pred(a)).cloned();
    if let Some(claim) = find(&|a| matches!(a, Action::ClaimRent { .. })) {
        return Some((seat, claim));
    }
    if let Some(Action::RejectTrade { offer }) = find(&|a| matches!(a, Action::RejectTrade { .. }))
    {
        let accept = Action::AcceptTrade {
            offer,
            lift: Vec::new(),
        };
        let completes = state
            .offers
            .iter()
            .find(|o| o.offer == offer)
            .is_some_and(|o| {
                completes_group(state, seat, &o.give.properties)
                    || (stalled(state) && o.give.cash >= price_of(&o.get.properties))
            });
        if completes && legal.contains(&accept) {
            return Some((seat, accept));
        }
        return Some((seat, Action::RejectTrade { offer }));
    }
    let pick = if state.auction.is_some() {
        auction_move(state, seat, rng)
    } else if state.raising_funds() == Some(seat) {
        debt_move(&legal)
    } else if let Some(turn) = state.turn.filter(|t| t.seat == seat) {
        // Listed moves only: a shortage or an inheritance may hold the turn up.
        turn_move(state, seat, turn.step, turn.rolled, &legal, rng)
            .filter(|a| matches!(a, Action::OfferTrade { .. }) || legal.contains(a))
    } else {
        None
    };
    // Shortages, inheritances and anything unforeseen: a listed move that is no standing
    // churn, else any listed move.
    let pick = pick.or_else(|| {
        let calm: Vec<&Action> = legal
            .iter()
            .filter(|a| {
                !matches!(
                    a,
                    Action::Mortgage { .. }
                        | Action::LiftMortgage { .. }
                        | Action::SellBuilding { .. }
                        | Action::WithdrawTrade { .. }
                        | Action::Build { .. }
                )
            })
            .collect();
        calm.choose(rng)
            .copied()
            .or_else(|| legal.choose(rng))
            .cloned()
    })?;
    Some((seat, pick))
}

fn auction_move(state: &State, seat: Seat, rng: &mut dyn RngCore) -> Option<Action> {
    let auction = state.auction.as_ref()?;
    let value = match auction.lot {
        engine::monopoly::state::Lot::Property { square } => {
            let price = board().deed_at(square).map_or(0, |d| board().deed(d).price);
            price as f64 * rng.random_range(BID_LIMIT.0..BID_LIMIT.1)
        }
        engine::monopoly::state::Lot::Building { .. } => 0.0,
    };
    match bid(state, seat) {
        Some(Action::Bid { amount })
            if (amount as f64) <= value && amount + KEEP <= state.player(seat).cash =>
        {
            Some(Action::Bid { amount })
        }
        _ => Some(Action::PassAuction),
    }
}

/// Pay if possible; else sell a building, else mortgage the cheapest deed; else give up.
fn debt_move(legal: &[Action]) -> Option<Action> {
    if legal.contains(&Action::PayDebt) {
        return Some(Action::PayDebt);
    }
    let price = |square: u8| {
        board()
            .deed_at(square)
            .map_or(i64::MAX, |d| board().deed(d).price)
    };
    let cheapest = |pred: fn(&Action) -> Option<u8>| {
        legal
            .iter()
            .filter_map(|a| pred(a).map(|s| (price(s), a)))
            .min_by_key(|(p, _)| *p)
            .map(|(_, a)| a.clone())
    };
    cheapest(|a| match a {
        Action::SellBuilding { square } => Some(*square),
        _ => None,
    })
    .or_else(|| {
        cheapest(|a| match a {
            Action::Mortgage { square } => Some(*square),
            _ => None,
        })
    })
    .or_else(|| {
        legal
            .contains(&Action::DeclareBankruptcy)
            .then_some(Action::DeclareBankruptcy)
    })
}

fn turn_move(
    state: &State,
    seat: Seat,
    step: Step,
    rolled: bool,
    legal: &[Action],
    rng: &mut dyn RngCore,
) -> Option<Action> {
    let cash = state.player(seat).cash;
    let build = |rng: &mut dyn RngCore| {
        let affordable: Vec<&Action> = legal
            .iter()
            .filter(|a| match a {
                Action::Build { squares } => board()
                    .deed_at(squares[0])
                    .and_then(|d| board().deed(d).house_cost())
                    .is_some_and(|cost| cash - cost >= 2 * KEEP),
                _ => false,
            })
            .collect();
        if rng.random_bool(BUILD_CHANCE) {
            affordable.choose(rng).map(|a| (*a).clone())
        } else {
            None
        }
    };
    match step {
        Step::Roll => {
            if !rolled {
                if let Some(b) = build(rng) {
                    return Some(b);
                }
                if let Some(trade) = trade(state, seat) {
                    return Some(trade);
                }
                let lift = legal.iter().find(|a| match a {
                    Action::LiftMortgage { square } => board()
                        .deed_at(*square)
                        .is_some_and(|d| cash - board().deed(d).price >= 2 * KEEP),
                    _ => false,
                });
                if let Some(lift) = lift {
                    return Some(lift.clone());
                }
            }
            if let Some(card) = legal
                .iter()
                .find(|a| matches!(a, Action::UseJailCard { .. }))
            {
                return Some(card.clone());
            }
            if legal.contains(&Action::PayJailFine) && rng.random_bool(JAIL_FINE_CHANCE) {
                return Some(Action::PayJailFine);
            }
            Some(Action::Roll)
        }
        Step::Buy { square } => {
            let price = board()
                .deed_at(square)
                .map_or(i64::MAX, |d| board().deed(d).price);
            if legal.contains(&Action::BuyProperty) && cash - price >= KEEP {
                Some(Action::BuyProperty)
            } else {
                Some(Action::DeclineProperty)
            }
        }
        Step::PayOrDraw { .. } => [Action::PayCardFine, Action::DrawCard].choose(rng).cloned(),
        Step::Done => build(rng).or(Some(Action::EndTurn)),
        Step::Moving => None,
    }
}

/// A trade people make to break a board bought up split: a swap of deeds that completes a
/// colour group for `seat` and one for its partner, or on a stalled board a partner's part of
/// a group bought for half as much again as its price; `None` when there is none or `seat` has
/// an offer open.
fn trade(state: &State, seat: Seat) -> Option<Action> {
    if state.offers.iter().any(|o| o.from == seat) {
        return None;
    }
    let stalled = stalled(state);
    for to in state.solvent().filter(|&s| s != seat) {
        let Some(get) = wanted(state, seat, to, stalled).into_iter().next() else {
            continue;
        };
        let give = wanted(state, to, seat, false)
            .into_iter()
            .find(|give| !same_group(give, &get));
        let cash = if give.is_some() {
            0
        } else if stalled {
            price_of(&get) * 3 / 2
        } else {
            continue;
        };
        if cash + KEEP > state.player(seat).cash {
            continue;
        }
        let offer = Action::OfferTrade {
            to,
            give_cash: cash,
            give_properties: give.unwrap_or_default(),
            give_cards: Vec::new(),
            get_cash: 0,
            get_properties: get,
            get_cards: Vec::new(),
            lift: Vec::new(),
        };
        if accepted(state, seat, &offer) {
            return Some(offer);
        }
    }
    None
}

/// The printed price of `squares`.
fn price_of(squares: &[u8]) -> i64 {
    squares
        .iter()
        .filter_map(|&s| board().deed_at(s))
        .map(|d| board().deed(d).price)
        .sum()
}

/// Whether receiving `squares` gives `seat` every street of some colour group.
fn completes_group(state: &State, seat: Seat, squares: &[u8]) -> bool {
    board().groups.iter().any(|group| {
        let mut received = false;
        let all = group.deeds.iter().all(|&d| {
            let square = board().deed(d).square;
            let gets = squares.contains(&square);
            received |= gets;
            gets || state.deeds[d].owner == Some(seat)
        });
        all && received
    })
}
