//! The hand-written knowledge per game: evaluations and simulated players' preferences. The
//! weights here are judgement, tuned in the arena, not rules.

mod acquire;
pub(crate) mod monopoly;
mod tycoon;
pub(crate) mod tyros;
