//! Pure rules engines for the board-game server: no I/O, no async, no clock.
//!
//! Every game implements [`Game`] in the decide/evolve form: [`Game::decide`] checks an action
//! against the rules and returns the events it causes (drawing any chance outcome from the RNG
//! it is given), and [`Game::evolve`] folds one event into the state without ever failing or
//! touching an RNG. A game's state is therefore always the fold of its event log, and a replay
//! needs neither the seed nor the RNG algorithm.
//!
//! The HTTP layer never sees a game's concrete types: it goes through [`registry`], which maps a
//! game type name to a [`DynGame`] speaking JSON. Title, seat range, rules version and schemas
//! all come from the game's own [`Game`] implementation.
//!
//! # Adding a game
//!
//! 1. Its folder `src/<game>/` in the layout every game shares (`docs/architecture.md`): the
//!    data file's tables in `data.rs` (a `data_file::DataFile`, its ids `data_id::StringId`),
//!    `config.rs`, `state.rs`, `action.rs`, `event.rs`, `errors.rs`, the checks in `rules.rs`,
//!    `decide.rs`, `evolve.rs`, `legal.rs`, `view.rs`, `determinize.rs`, and in `mod.rs` an
//!    `impl Game` with its name, title, rules version and `game_folder!()`.
//! 2. Its spec in `engine/rules/<game>.md`; its tests cite every rule ID of it in a test's name
//!    or `///` doc comment. The tests folder has the same files in every game: `support.rs`
//!    (table set-up, and `accepted`/`refused` through `rule_tests`), `coverage.rs` (its
//!    `spec_coverage::Spec`: every rule ID cited; the error codes pinned), `data.rs` (the data
//!    file's tables), one file per rule section of the spec, `scenarios.rs` (the spec's worked
//!    examples) and `playouts.rs` (seeded random games through `checked_playout::play`, with
//!    the game's conservation, money and secrecy checks).
//! 3. Two lines: its `pub mod <game>;` here and its rules type in [`registry`]'s list. The
//!    catalogue, the OpenAPI schemas and every endpoint follow from it.
//! 4. Optionally a bench: `benches/<game>.rs` calling `common::bench_game` and a `[[bench]]`
//!    entry in `Cargo.toml`.
//!
//! ```
//! use engine::{registry, Seat, Viewer};
//! use rand::SeedableRng;
//!
//! let tycoon = registry::find("tycoon").unwrap();
//! let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
//! let (mut game, setup_events) = tycoon.setup(&serde_json::json!({}), 3, &mut rng).unwrap();
//! assert!(!setup_events.is_empty());
//! let legal = game.legal_actions(Seat(0));
//! let events = game.apply(Seat(0), &legal[0], &mut rng).unwrap();
//! assert!(!events.is_empty());
//! // Views come as JSON text, ready to embed in a response.
//! let view: serde_json::Value = serde_json::from_str(game.view(Viewer::Spectator).get()).unwrap();
//! assert_eq!(view["players"].as_array().unwrap().len(), 3);
//! ```
//!
//! # Changing a rule
//!
//! A game keeps the rules it was created under. A change of behaviour bumps
//! [`Game::RULES_VERSION`] and becomes a config option whose default [`Game::read_config`] picks
//! by version (Tycoon's `tie_break`, version 2); configs stored inside states and events must
//! keep reading as the version that wrote them.

pub mod chance;
#[cfg(test)]
mod checked_determinize;
#[cfg(test)]
mod checked_playout;
mod config;
mod data_file;
mod data_id;
pub mod erased;
mod folder;
mod game;
mod listing;
#[cfg(feature = "openapi")]
pub mod openapi;
pub mod options;
pub mod playout;
pub mod record;
mod refusal;
pub mod registry;
#[cfg(test)]
mod rule_tests;
pub mod schema;
mod scratch;
#[cfg(test)]
mod spec_coverage;
pub mod template;

pub mod acquire;
pub mod monopoly;
pub mod tycoon;
pub mod tyros;

pub use erased::{DynGame, DynState, GameError, GameInfo};
pub use game::{Game, Outcome, RuleError, Seat, Viewer, SHARED_CODES};
pub use schema::Documented;
pub use template::{ActionTemplate, Domain};
