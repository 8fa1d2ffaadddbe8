//! A state with what listing gathers from it for any seat, gathered when first asked for: the
//! deeds' [`Holdings`] and whether each open offer can be accepted. Counting every seat's
//! choices, then building the one picked, asks these many times over; each is worked out once.

use std::cell::{Cell, OnceCell};

use super::data::MAX_SEATS;
use super::holdings::Holdings;
use super::state::State;
use super::trade::{self, Acceptance};

/// A state with what listing gathers from it for any seat, gathered when first asked for:
/// counting every seat's choices shares one [`Holdings`].
pub(super) struct Shared<'s> {
    pub state: &'s State,
    holdings: OnceCell<Holdings>,
    /// [`trade::acceptance`] of the open offers, by their place in the state's list, once
    /// asked for (listing asks it of an offer for its addressee's actions and templates).
    acceptance: [Cell<Option<Acceptance>>; OFFERS_KEPT],
}

/// The open offers whose acceptance [`Shared`] keeps: one from each seat to each other seat.
const OFFERS_KEPT: usize = MAX_SEATS * (MAX_SEATS - 1);

impl<'s> Shared<'s> {
    pub fn new(state: &'s State) -> Shared<'s> {
        Shared {
            state,
            holdings: OnceCell::new(),
            acceptance: [const { Cell::new(None) }; OFFERS_KEPT],
        }
    }

    pub fn holdings(&self) -> &Holdings {
        self.holdings.get_or_init(|| Holdings::of(self.state))
    }

    /// Whether the `index`-th open offer can be accepted now, as it is or lifting all.
    pub fn acceptance(&self, index: usize) -> Acceptance {
        let judge = || trade::acceptance(self.state, self.holdings(), &self.state.offers[index]);
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
