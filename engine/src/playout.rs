//! Random play over any [`Game`]: what every seat may do now, templates instantiated, and a
//! weighted pick among it. The engine's playout tests, its benches and the `random` bot all
//! choose their moves here, so they exercise the same actions a client can send: concrete ones
//! from [`Game::legal_actions`] and filled-in templates from [`Game::action_templates`], from
//! active seats and from seats with standing actions alike.

use rand::{Rng, RngCore};
use serde::Deserialize;

use crate::{ActionTemplate, Game, Seat};

/// One thing a seat may do now.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice<A> {
    pub seat: Seat,
    pub action: A,
    /// Whether the action fills in a template (rather than being listed as it is).
    pub from_template: bool,
}

/// Every action any seat may take in `state`: each seat's listed actions, and one uniformly
/// random instantiation of each of its templates.
///
/// # Panics
/// When a game lists a template whose instantiation is not one of its actions (a bug in the
/// game: its templates and its action type disagree).
pub fn choices<G: Game>(state: &G::State, rng: &mut dyn RngCore) -> Vec<Choice<G::Action>> {
    let mut out = Vec::new();
    choices_into::<G>(state, rng, &mut out);
    out
}

/// [`choices`] into a buffer the caller reuses (searches make millions of these lists).
///
/// # Panics
/// As [`choices`].
pub fn choices_into<G: Game>(
    state: &G::State,
    rng: &mut dyn RngCore,
    out: &mut Vec<Choice<G::Action>>,
) {
    out.clear();
    for seat in (0..G::seat_count(state)).map(|s| Seat(s as u8)) {
        seat_choices::<G>(state, seat, 1, rng, out);
    }
}

/// Appends to `out` what `seat` may take in `state`: its listed actions, and `per_template`
/// uniformly random instantiations of each of its templates.
///
/// # Panics
/// As [`choices`].
pub fn seat_choices<G: Game>(
    state: &G::State,
    seat: Seat,
    per_template: usize,
    rng: &mut dyn RngCore,
    out: &mut Vec<Choice<G::Action>>,
) {
    out.extend(
        G::legal_actions(state, seat)
            .into_iter()
            .map(|action| Choice {
                seat,
                action,
                from_template: false,
            }),
    );
    for template in G::action_templates(state, seat) {
        let template = ActionTemplate::of(&template);
        for _ in 0..per_template {
            out.push(Choice {
                seat,
                action: instantiate::<G>(&template, rng),
                from_template: true,
            });
        }
    }
}

/// A uniformly random instantiation of `template` as one of the game's actions.
///
/// # Panics
/// As [`choices`].
fn instantiate<G: Game>(template: &ActionTemplate, rng: &mut dyn RngCore) -> G::Action {
    let json = template.instantiate(rng);
    G::Action::deserialize(&json).unwrap_or_else(|e| {
        panic!(
            "{} template {template:?} gave {json}, not an action: {e}",
            G::NAME
        )
    })
}

/// A choice among `choices`, each weighted by `weight` (a weight of 0 never picks it);
/// `None` when every weight is 0 or there is no choice.
pub fn pick<'a, A>(
    rng: &mut dyn RngCore,
    choices: &'a [Choice<A>],
    mut weight: impl FnMut(&Choice<A>) -> u32,
) -> Option<&'a Choice<A>> {
    let weights: Vec<u32> = choices.iter().map(&mut weight).collect();
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 {
        return None;
    }
    let mut roll = rng.random_range(0..total);
    for (option, w) in choices.iter().zip(weights) {
        if roll < u64::from(w) {
            return Some(option);
        }
        roll -= u64::from(w);
    }
    unreachable!("roll below the total weight")
}

/// A uniformly random choice of any seat, or `None` when nobody may act: each listed action and
/// each template counts once, as in [`choices`], but templates are only counted
/// ([`Game::action_template_count`]), and only the one picked is built
/// ([`Game::action_template`]) and filled in: building every seat's templates and filling one
/// in through its JSON form were the dearest parts of a step in games that list templates for
/// every seat.
pub fn random_choice<G: Game>(
    state: &G::State,
    rng: &mut dyn RngCore,
) -> Option<Choice<G::Action>> {
    let seats = G::seat_count(state);
    let mut listed = Vec::with_capacity(seats);
    let mut template_counts = Vec::with_capacity(seats);
    for seat in (0..seats).map(|s| Seat(s as u8)) {
        listed.push(G::legal_actions(state, seat));
        template_counts.push(G::action_template_count(state, seat));
    }
    let total: usize =
        listed.iter().map(Vec::len).sum::<usize>() + template_counts.iter().sum::<usize>();
    if total == 0 {
        return None;
    }
    let mut roll = rng.random_range(0..total);
    for (s, (actions, &templates)) in listed.into_iter().zip(&template_counts).enumerate() {
        let seat = Seat(s as u8);
        if roll < actions.len() {
            let action = actions.into_iter().nth(roll).expect("roll within the list");
            return Some(Choice {
                seat,
                action,
                from_template: false,
            });
        }
        roll -= actions.len();
        if roll < templates {
            let template = G::action_template(state, seat, roll)
                .expect("action_template_count counts action_templates");
            let template = ActionTemplate::of(&template);
            return Some(Choice {
                seat,
                action: instantiate::<G>(&template, rng),
                from_template: true,
            });
        }
        roll -= templates;
    }
    unreachable!("roll below the number of choices")
}
