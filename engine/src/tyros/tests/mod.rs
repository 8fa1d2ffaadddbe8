//! Tyros tests. Test names and the `///` comments on them carry the spec's rule IDs; scenarios
//! set a table up directly (the "given"), run actions through `decide` and `evolve` (the
//! "when") and check events, errors and the state (the "then").

mod support;

mod action_cards;
mod actions;
mod components;
mod coverage;
mod determinize;
mod ending;
mod galleys;
mod phases;
mod pirates;
mod playouts;
mod scenarios;
mod setup;
mod small_variants;
mod versions;
