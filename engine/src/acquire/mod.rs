//! Acquire (Sid Sackson), after its German edition Hotel-König, 2–6 players, following
//! `engine/rules/acquire.md`. Rule IDs in comments and error messages refer to that spec.
//!
//! ```
//! use engine::acquire::{Acquire, Action, Config};
//! use engine::{Game, Seat, Viewer};
//! use rand::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let events = Acquire::setup(&Config::default(), 4, &mut rng).unwrap();
//! let mut state = Acquire::replay(&events);
//! let seat = Acquire::active_seats(&state)[0];
//! let action = Acquire::legal_actions(&state, seat)[0].clone();
//! assert!(matches!(action, Action::PlaceTile { .. } | Action::EndTurn | Action::BuyShare { .. }));
//! for event in Acquire::decide(&state, seat, &action, &mut rng).unwrap() {
//!     Acquire::evolve(&mut state, &event);
//! }
//! // A spectator sees no tile in any hand.
//! let view = Acquire::view(&state, Viewer::Spectator);
//! assert!(view.players.iter().all(|p| p.hand.is_none()));
//! ```

pub mod action;
pub mod config;
pub mod data;
mod decide;
mod determinize;
pub mod errors;
pub mod event;
mod evolve;
mod legal;
mod options;
mod rules;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use config::{Config, DefunctOrder, EndRule};
pub use data::{board, Chain, Tile};
pub use event::{EndReason, Event, Payout};
pub use rules::bonus_awards;
pub use state::State;
pub use view::View;

use crate::Game;

/// The Acquire rules.
pub struct Acquire;

impl Game for Acquire {
    const NAME: &'static str = "acquire";
    const TITLE: &'static str = "Acquire (Hotel-König, Sackson)";
    const RULES_VERSION: u32 = 1;

    crate::folder::game_folder!();
}
