//! The moves every game's rule tests make (test builds only): act on a table, and assert that
//! an action is accepted or refused, each time checking that `decide` and `legal_actions`
//! agree. A game's test support wraps these with its own seat numbers and RNG.

use crate::spec_coverage::Spec;
use crate::{Game, RuleError, Seat};

/// Decides `action` of `seat` and, when accepted, folds its events into `state`: the events,
/// or the refusal with `state` untouched.
///
/// # Errors
/// The refusal.
pub fn act<G: Game>(
    state: &mut G::State,
    seat: Seat,
    action: &G::Action,
    rng: &mut dyn crate::chance::Chance,
) -> Result<Vec<G::Event>, RuleError> {
    let events = G::decide(state, seat, action, rng)?;
    for event in &events {
        G::evolve(state, event);
    }
    Ok(events)
}

/// Asserts that `action` of `seat` is listed, then takes it: the events.
///
/// # Panics
/// When the action is not listed or is refused.
pub fn accepted<G: Game>(
    state: &mut G::State,
    seat: Seat,
    action: &G::Action,
    rng: &mut dyn crate::chance::Chance,
) -> Vec<G::Event> {
    let legal = G::legal_actions(state, seat);
    assert!(
        legal.contains(action),
        "{action:?} should be listed as legal: {legal:?}"
    );
    act::<G>(state, seat, action, rng).unwrap_or_else(|e| panic!("{action:?} refused: {e}"))
}

/// Asserts that `action` of `seat` is refused with `code`, by a rule of `spec` that the
/// message names, and is not listed: the refusal.
///
/// # Panics
/// When the action is accepted, refused otherwise, or listed.
pub fn refused<G: Game>(
    state: &G::State,
    seat: Seat,
    action: &G::Action,
    code: &str,
    spec: &Spec,
    rng: &mut dyn crate::chance::Chance,
) -> RuleError {
    let err = G::decide(state, seat, action, rng).expect_err("the action must be refused");
    assert_eq!(err.code, code, "{err}");
    spec.assert_names_a_rule(&err);
    assert!(
        !G::legal_actions(state, seat).contains(action),
        "a refused action must not be listed as legal"
    );
    err
}
