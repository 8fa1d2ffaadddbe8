//! Random play over any [`Game`]: what every seat may do now, templates instantiated, and a
//! weighted pick among it. The engine's playout tests, its benches and the `random` bot all
//! choose their moves here, so they exercise the same actions a client can send: concrete ones
//! from [`Game::legal_actions`] and filled-in templates from [`Game::action_templates`], from
//! active seats and from seats with standing actions alike.

use crate::{Game, Seat};
use rand::{Rng, RngCore};

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
/// uniformly random instantiations of each of its templates ([`Game::template_action`], in
/// listing order).
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
    for index in 0..G::action_template_count(state, seat) {
        for _ in 0..per_template {
            out.push(Choice {
                seat,
                action: G::template_action(state, seat, index, rng)
                    .expect("action_template_count counts action_templates"),
                from_template: true,
            });
        }
    }
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
/// each template counts once, as in [`choices`], but both are only counted, and only the one
/// picked is built: building every seat's lists at every step to take one entry was most of a
/// step in the games with long lists (moves with their paths, standing actions of every seat).
/// Made by [`Game::random_choice`]; every game draws and picks as [`counted_choice`] does.
pub fn random_choice<G: Game>(
    state: &G::State,
    rng: &mut dyn RngCore,
) -> Option<Choice<G::Action>> {
    G::random_choice(state, rng)
}

/// [`random_choice`] from the per-seat answers: [`Game::choice_counts`], then
/// [`Game::legal_action`] or [`Game::template_action`] for the one picked.
pub fn counted_choice<G: Game + ?Sized>(
    state: &G::State,
    rng: &mut dyn RngCore,
) -> Option<Choice<G::Action>> {
    pick_counted(
        G::seat_count(state),
        |counts| G::choice_counts(state, counts),
        rng,
        |seat, index| G::legal_action(state, seat, index),
        |seat, index, rng| G::template_action(state, seat, index, rng),
    )
}

/// The pick of [`random_choice`] over counted choices: `count` fills in every seat's
/// `(listed actions, templates)`; one of them all is drawn uniformly from `rng`, then built by
/// `listed` (the seat's listed action at an index) or `filled` (a uniformly random action of
/// the seat's template at an index, drawn from `rng`). A game that shares work between the
/// counting and the building calls this with its own closures.
///
/// # Panics
/// When `listed` or `filled` finds nothing at an index within the counts.
pub fn pick_counted<A>(
    seats: usize,
    count: impl FnOnce(&mut [(usize, usize)]),
    rng: &mut dyn RngCore,
    listed: impl FnOnce(Seat, usize) -> Option<A>,
    filled: impl FnOnce(Seat, usize, &mut dyn RngCore) -> Option<A>,
) -> Option<Choice<A>> {
    /// Seats a table may have without a heap allocation for their counts.
    const SEATS: usize = 8;
    let (mut few, mut many) = ([(0, 0); SEATS], Vec::new());
    let counts: &mut [(usize, usize)] = if seats <= SEATS {
        &mut few[..seats]
    } else {
        many.resize(seats, (0, 0));
        &mut many
    };
    count(counts);
    let total: usize = counts
        .iter()
        .map(|(listed, templates)| listed + templates)
        .sum();
    if total == 0 {
        return None;
    }
    let mut roll = rng.random_range(0..total);
    for (s, &(listed_here, templates)) in counts.iter().enumerate() {
        let seat = Seat(s as u8);
        if roll < listed_here {
            let action = listed(seat, roll).expect("roll within the list");
            return Some(Choice {
                seat,
                action,
                from_template: false,
            });
        }
        roll -= listed_here;
        if roll < templates {
            let action = filled(seat, roll, rng).expect("the counts count the templates");
            return Some(Choice {
                seat,
                action,
                from_template: true,
            });
        }
        roll -= templates;
    }
    unreachable!("roll below the number of choices")
}
