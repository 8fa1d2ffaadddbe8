//! Every seat's choice counts at once, as the random playout driver asks them at every step
//! (`Game::choice_counts`, `Game::random_choice`): in the common moment of play (a turn under
//! way, nobody owing, no auction, shortage or estate open) from one pass over the open offers
//! and the deeds' [`Holdings`], by arithmetic on deed sets, instead of walking each seat's
//! listing and templates one found action at a time; every other moment counts by the walks.
//! The walks stay what listing is (they build the picked action); the playout tests compare
//! these counts with theirs at every step.

use super::data::{board, MAX_SEATS};
use super::holdings::Holdings;
use super::shared::Shared;
use super::state::State;
use super::{legal, offers, rules, templates};
use crate::{listing, Seat};

/// Every seat's `(listed actions, templates)` counts into `counts`, one entry per seat.
pub(super) fn choice_counts(shared: &Shared, counts: &mut [(usize, usize)]) {
    let state = shared.state;
    let common = state.outcome.is_none()
        && state.turn.is_some()
        && state.auction.is_none()
        && state.shortage.is_none()
        && state.inheritance.is_none()
        && state.debts.is_empty();
    if !common || counts.len() > MAX_SEATS {
        for (s, count) in counts.iter_mut().enumerate() {
            let seat = Seat(s as u8);
            *count = (
                legal::listed_count(shared, seat),
                templates::template_count(shared, seat),
            );
        }
        return;
    }
    // From the open offers and rents, by seat: the listed answers (accept as it is, reject,
    // withdraw) and rent claims, the accept-and-lift templates, and the partners each seat
    // has an open offer to (no new offer to them).
    let mut answers = [0usize; MAX_SEATS];
    let mut lifting = [0usize; MAX_SEATS];
    let mut open = [0u32; MAX_SEATS];
    for (i, offer) in state.offers.iter().enumerate() {
        let acceptance = shared.acceptance(i);
        let (from, to) = (offer.from.index(), offer.to.index());
        answers[to] += 1 + usize::from(acceptance.as_is);
        lifting[to] += usize::from(acceptance.lifting_all);
        answers[from] += 1;
        open[from] |= 1 << to;
    }
    for rent in &state.rents {
        answers[rent.owner.index()] += 1;
    }
    let holdings = shared.holdings();
    let solvent = state
        .solvent()
        .fold(0u32, |solvent, seat| solvent | 1 << seat.index());
    for (s, count) in counts.iter_mut().enumerate() {
        let seat = Seat(s as u8);
        if solvent >> s & 1 == 0 {
            *count = (0, 0);
            continue;
        }
        let listed = listing::count(|found| legal::turn_actions(state, seat, found))
            + answers[s]
            + deed_actions(state, holdings, seat);
        let partners = solvent & !(1 << s) & !open[s];
        let offers: usize = (0..MAX_SEATS)
            .filter(|&to| partners >> to & 1 == 1)
            .map(|to| offers::lead_count(state, holdings, seat, Seat(to as u8)))
            .sum();
        *count = (listed, lifting[s] + offers);
    }
}

/// How many builds, sales, mortgages and lifts `seat` has listed (see `legal::listed`).
fn deed_actions(state: &State, holdings: &Holdings, seat: Seat) -> usize {
    let b = board();
    let owned = holdings.owned(seat);
    let builds = holdings
        .whole_groups(seat)
        .flat_map(|g| b.groups[g].deeds.iter())
        .filter(|&&d| rules::builds_one(state, seat, d))
        .count();
    let sales = owned
        .and(holdings.built)
        .iter()
        .filter(|&d| rules::sells_one(state, seat, d))
        .count();
    // MO-MORT-1: any unmortgaged deed outside a built group.
    let mortgages = owned
        .without(holdings.mortgaged)
        .without(holdings.built)
        .len();
    let cash = state.player(seat).cash;
    let lifts = owned
        .and(holdings.mortgaged)
        .iter()
        .filter(|&d| holdings.lift_price(state, d) <= cash)
        .count();
    builds + sales + mortgages + lifts
}
