//! A working copy of a game's state that folds every event it emits.
//!
//! An action that sets off follow-up rules (a turn end, a payday, a merger) is decided on a
//! scratch copy: each follow-up step sees exactly the state the log will produce, and the real
//! state stays untouched until the caller folds the returned events.

use crate::Game;

pub(crate) struct Scratch<G: Game> {
    pub state: G::State,
    pub events: Vec<G::Event>,
}

impl<G: Game> Scratch<G> {
    pub fn new(state: &G::State) -> Self {
        Scratch {
            state: state.clone(),
            events: Vec::with_capacity(8),
        }
    }

    pub fn emit(&mut self, event: G::Event) {
        G::evolve(&mut self.state, &event);
        self.events.push(event);
    }
}
