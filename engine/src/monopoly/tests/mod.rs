//! Monopoly tests. Test names carry the spec's rule IDs; scenarios set up a table directly (the
//! "given"), then run actions through `decide` and `evolve` with scripted dice (the "when") and
//! check events, errors and the state (the "then").

mod support;

mod coverage;
mod debts;
mod determinize;
mod playouts;
mod property;
mod scenarios;
mod setup;
mod trades;
mod turn;
mod versions;
