//! The moves a bot considers: what its seat may do now, with templates filled in.

use engine::{playout, Game, Seat};
use rand::RngCore;

/// What `seat` may do in `state` when the game waits for it: its listed actions and up to
/// `per_template` distinct random instantiations of each of its templates. Empty when the seat
/// is not active: bots never act out of turn, even where the rules would let them (standing
/// actions).
pub fn own_actions<G: Game>(
    state: &G::State,
    seat: Seat,
    per_template: usize,
    rng: &mut dyn RngCore,
) -> Vec<G::Action> {
    if G::outcome(state).is_some() || !G::active_seats(state).contains(&seat) {
        return Vec::new();
    }
    let mut choices = Vec::new();
    playout::seat_choices::<G>(state, seat, per_template, rng, &mut choices);
    let mut actions: Vec<G::Action> = Vec::with_capacity(choices.len());
    for choice in choices {
        // Listed actions are distinct; only random instantiations can repeat.
        if !choice.from_template || !actions.contains(&choice.action) {
            actions.push(choice.action);
        }
    }
    actions
}

/// Decides `action` of `seat` on `state` and folds its events.
///
/// # Panics
/// When the rules refuse an action they listed: a bug in the game, which its playout tests
/// exist to catch.
pub fn apply<G: Game>(state: &mut G::State, seat: Seat, action: &G::Action, rng: &mut dyn RngCore) {
    let events = G::decide(state, seat, action, &mut &mut *rng).unwrap_or_else(|e| {
        panic!(
            "{} refused its own listed {action:?} of {seat}: {e}",
            G::NAME
        )
    });
    for event in &events {
        G::evolve(state, event);
    }
}
