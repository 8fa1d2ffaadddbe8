//! What a bot may look at. A bot is handed an [`InfoSet`], never the state itself: the true
//! state stays private to this module, and the only way to look at a position is
//! [`InfoSet::sample`], a state drawn by [`Game::determinize`] that the seat cannot tell apart
//! from the real one. So no level can read another hand or the order of a pile, by design
//! rather than by care. The recent log reaches the bot only as its seat saw it
//! ([`Game::redact`]), condensed into the memory its manners need.

use crate::BotGame;
use engine::{Seat, Viewer};
use rand::RngCore;

/// The position as one seat knows it.
pub struct InfoSet<'a, G: BotGame> {
    state: &'a G::State,
    seat: Seat,
    memory: G::Memory,
}

impl<'a, G: BotGame> InfoSet<'a, G> {
    /// The position of `state` as `seat` knows it, with nothing remembered of the log.
    pub fn new(state: &'a G::State, seat: Seat) -> Self {
        InfoSet::with_log(state, seat, &[])
    }

    /// The position of `state` as `seat` knows it, remembering `recent`: the last events of
    /// the log up to `state`, oldest first, as stored (each is redacted for the seat here).
    pub fn with_log(state: &'a G::State, seat: Seat, recent: &[G::Event]) -> Self {
        let seen: Vec<G::Event> = recent
            .iter()
            .filter_map(|e| G::redact(e, Viewer::Seat(seat)))
            .collect();
        let memory = G::remember(state, seat, &seen);
        InfoSet {
            state,
            seat,
            memory,
        }
    }

    /// The seat the bot plays.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// What the seat's manners remember of the recent log.
    pub fn memory(&self) -> &G::Memory {
        &self.memory
    }

    /// Whether the game waits for the seat.
    pub fn is_active(&self) -> bool {
        G::active_seats(self.state).contains(&self.seat)
    }

    /// A state the seat cannot tell apart from the real one: everything it may not see dealt
    /// anew from `rng`.
    pub fn sample(&self, rng: &mut dyn RngCore) -> G::State {
        G::determinize(self.state, self.seat, rng)
    }
}
