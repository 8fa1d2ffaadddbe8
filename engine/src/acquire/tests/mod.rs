//! Acquire tests. Test names carry the spec's rule IDs; scenarios set up a table directly (the
//! "given"), then run one action through `decide` and `evolve` (the "when") and check events,
//! errors and the state (the "then").

mod support;

mod buying;
mod coverage;
mod data;
mod determinize;
mod drawing;
mod end;
mod information;
mod mergers;
mod placing;
mod playouts;
mod scenarios;
mod setup;
mod two_players;
