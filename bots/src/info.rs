//! What a bot may look at. A bot is handed an [`InfoSet`], never the state itself: the true
//! state stays private to this module, and the only way to look at a position is
//! [`InfoSet::sample`], a state drawn by [`Game::determinize`] that the seat cannot tell apart
//! from the real one. So no level can read another hand or the order of a pile, by design
//! rather than by care.

use engine::{Game, Seat};
use rand::RngCore;

/// The position as one seat knows it.
pub struct InfoSet<'a, G: Game> {
    state: &'a G::State,
    seat: Seat,
}

impl<'a, G: Game> InfoSet<'a, G> {
    /// The position of `state` as `seat` knows it.
    pub fn new(state: &'a G::State, seat: Seat) -> Self {
        InfoSet { state, seat }
    }

    /// The seat the bot plays.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// A state the seat cannot tell apart from the real one: everything it may not see dealt
    /// anew from `rng`.
    pub fn sample(&self, rng: &mut dyn RngCore) -> G::State {
        G::determinize(self.state, self.seat, rng)
    }
}
