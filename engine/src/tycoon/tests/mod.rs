//! Tycoon tests. Test names carry the spec's rule IDs; scenarios set up a table directly (the
//! "given"), then run one action through `decide` and `evolve` (the "when") and check events,
//! errors and the state (the "then").

mod support;

mod actions;
mod coverage;
mod data;
mod determinize;
mod payday;
mod phases;
mod playouts;
mod scenarios;
mod versions;
