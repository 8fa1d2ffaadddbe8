//! Who holds which deed and in what state, gathered in one pass over the deeds: what listing
//! asks of every seat at every step (which deeds to offer for sale, mortgage, lifting or trade,
//! which groups to build on). The random playout driver counts every seat's choices at every
//! step, so one pass serves all of them ([`super::Monopoly`]'s `choice_counts`), kept with the
//! state in a [`super::shared::Shared`].

use super::data::{board, MAX_SEATS};
use super::rules;
use super::state::State;
use crate::Seat;

/// A set of title deeds by index into the board's deeds (bit `d`: deed `d`; the board has 28),
/// in square order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct DeedSet(u32);

impl DeedSet {
    pub fn insert(&mut self, deed: usize) {
        self.0 |= 1 << deed;
    }

    pub fn contains(self, deed: usize) -> bool {
        self.0 >> deed & 1 == 1
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn without(self, other: DeedSet) -> DeedSet {
        DeedSet(self.0 & !other.0)
    }

    pub fn and(self, other: DeedSet) -> DeedSet {
        DeedSet(self.0 & other.0)
    }

    /// Whether every deed of `other` is in the set.
    pub fn covers(self, other: DeedSet) -> bool {
        other.without(self).is_empty()
    }

    /// The deeds, ascending.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let deed = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                deed
            })
        })
    }

    /// The deeds' squares, ascending.
    pub fn squares(self) -> impl Iterator<Item = u8> {
        let squares = &board().deed_squares;
        self.iter().map(move |d| squares[d])
    }

    /// The squares of the `indices`-th deeds (ascending indices into [`DeedSet::iter`]).
    pub fn pick_squares(self, indices: &[usize]) -> Vec<u8> {
        let mut out = Vec::with_capacity(indices.len());
        let mut wanted = indices.iter().peekable();
        for (i, square) in self.squares().enumerate() {
            if wanted.peek() == Some(&&i) {
                out.push(square);
                wanted.next();
            }
        }
        out
    }
}

/// Every seat's deeds and the board's mortgaged and built-on groups' deeds.
pub(super) struct Holdings {
    owned: [DeedSet; MAX_SEATS],
    /// Every mortgaged deed.
    pub mortgaged: DeedSet,
    /// Every deed of a group that carries a building (MO-MORT-1, MO-TRADE-1).
    pub built: DeedSet,
    /// The MO-TRADE-3 interest on each seat's mortgaged deeds outside built groups.
    interest: [i64; MAX_SEATS],
}

impl Holdings {
    pub fn of(state: &State) -> Holdings {
        let b = board();
        // One slot past the seats collects the bank's deeds, so the pass has no branch on
        // the owner.
        let mut owned = [0u32; MAX_SEATS + 1];
        let (mut built, mut mortgaged) = (0u32, 0u32);
        for (d, (deed, &group)) in state.deeds.iter().zip(&b.group_of_deed).enumerate() {
            let owner = deed.owner.map_or(MAX_SEATS, Seat::index);
            owned[owner] |= 1 << d;
            mortgaged |= u32::from(deed.mortgaged) << d;
            if deed.level > 0 {
                built |= group;
            }
        }
        let owned: [DeedSet; MAX_SEATS] = std::array::from_fn(|s| DeedSet(owned[s]));
        let (mortgaged, built) = (DeedSet(mortgaged), DeedSet(built));
        let mut interest = [0; MAX_SEATS];
        // A mortgaged deed in a built group is no trade item (the rules let no such pair come
        // about, MO-BUILD-2 and MO-MORT-1, but the sums stay right without relying on it).
        for d in mortgaged.without(built).iter() {
            let owner = state.deeds[d].owner.expect("mortgaged deeds are owned");
            interest[owner.index()] += state.config.interest(b.deed(d).mortgage);
        }
        Holdings {
            owned,
            mortgaged,
            built,
            interest,
        }
    }

    /// What lifting mortgaged deed `d` costs ([`rules::lift_price`]).
    pub fn lift_price(&self, state: &State, d: usize) -> i64 {
        debug_assert!(
            self.mortgaged.contains(d),
            "only a mortgaged deed is lifted"
        );
        let mv = board().deed(d).mortgage;
        let price = mv + state.config.interest(mv);
        debug_assert_eq!(price, rules::lift_price(state, board().deed_squares[d]));
        price
    }

    /// The deeds `seat` owns.
    pub fn owned(&self, seat: Seat) -> DeedSet {
        self.owned[seat.index()]
    }

    /// The deeds `seat` may trade: every one it owns whose group carries no building
    /// (MO-TRADE-1).
    pub fn tradeable(&self, seat: Seat) -> DeedSet {
        self.owned(seat).without(self.built)
    }

    /// The MO-TRADE-3 interest on the mortgaged deeds among [`Holdings::tradeable`].
    pub fn tradeable_interest(&self, seat: Seat) -> i64 {
        self.interest[seat.index()]
    }

    /// The colour groups `seat` owns whole, as indices into the board's groups.
    pub fn whole_groups(&self, seat: Seat) -> impl Iterator<Item = usize> + '_ {
        let owned = self.owned(seat);
        board()
            .group_deeds
            .iter()
            .enumerate()
            .filter(move |&(_, &deeds)| owned.covers(DeedSet(deeds)))
            .map(|(g, _)| g)
    }
}
