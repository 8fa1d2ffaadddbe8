//! Who may act and what they may do: the seats the game waits for, and every concrete action
//! of a seat, its turn's own and the standing actions MO-D-2 allows it (rent claims, building,
//! selling, mortgages, answers to offers). Each is listed when the check `decide` runs
//! ([`super::rules`], [`super::trade`]) lets it through. Bids, offers and lifting choices
//! cannot be listed: they are templates ([`super::templates`]).

use super::action::Action;
use super::data::board;
use super::holdings::DeedSet;
use super::rules;
use super::shared::Shared;
use super::state::{State, Step};
use crate::listing::{self, Visit, Walk};
use crate::refusal::Refused;
use crate::Seat;

/// The seats the game waits for: the bidders who are not the high bidder, the declarers of a
/// building shortage, a bankrupt's creditor, a debtor, or else the player on turn.
pub fn active_seats(state: &State) -> Vec<Seat> {
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

/// Every concrete action of `seat`.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    let shared = Shared::new(state);
    listing::all(|found| listed(&shared, seat, found))
}

/// How many actions [`legal_actions`] lists, none of them built.
pub fn legal_action_count(state: &State, seat: Seat) -> usize {
    listed_count(&Shared::new(state), seat)
}

/// The `index`-th action of [`legal_actions`], the only one built.
pub fn legal_action(state: &State, seat: Seat, index: usize) -> Option<Action> {
    listed_action(&Shared::new(state), seat, index)
}

/// [`legal_action_count`] on what `shared` has gathered.
pub(super) fn listed_count(shared: &Shared, seat: Seat) -> usize {
    listing::count(|found| listed(shared, seat, found))
}

/// [`legal_action`] on what `shared` has gathered.
pub(super) fn listed_action(shared: &Shared, seat: Seat, index: usize) -> Option<Action> {
    listing::nth(index, |found| listed(shared, seat, found))
}

/// Which kind of moment `seat` is in, as MO-D-2 sees it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    Auction,
    Shortage,
    Inheritance,
    /// Someone is raising funds: `debtor`.
    Debt(Seat),
    Free,
}

pub(super) fn stage_of(state: &State, seat: Seat) -> Option<Stage> {
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

pub(super) fn turn_actions(state: &State, seat: Seat, found: &mut Visit<'_, Action>) -> Walk {
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
        if rules::sells_one(state, seat, d) {
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
