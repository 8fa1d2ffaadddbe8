//! Tyros (Martin Wallace, Kosmos 2002), 3–4 players, with the hall9000 variants (Regelkorrektur,
//! Kleinvarianten, Piraten!, Aktionskarten, Kriegsgaleeren gesichtet! and Galleys + Pirates),
//! after `engine/rules/tyros.md`. Rule IDs in comments and error messages refer to that spec.
//!
//! **The base rules are partly RECONSTRUCTED**: the rule book was not available. Every
//! reconstructed value is a [`Config`] option with the spec's default, so the real values can be
//! set without changing the engine. The variants follow the seed's text.
//!
//! ```
//! use engine::tyros::{Action, Config, Tyros};
//! use engine::{Game, Viewer};
//! use rand::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let events = Tyros::setup(&Config::default(), 4, &mut rng).unwrap();
//! let mut state = Tyros::replay(&events);
//! // Phase 2 of round 1: the start player places a tile.
//! let seat = Tyros::active_seats(&state)[0];
//! let action = Tyros::legal_actions(&state, seat)[0].clone();
//! assert!(matches!(action, Action::PlaceTile { .. }));
//! for event in Tyros::decide(&state, seat, &action, &mut rng).unwrap() {
//!     Tyros::evolve(&mut state, &event);
//! }
//! // A spectator sees how many tiles and cards each hand holds, never which.
//! let view = Tyros::view(&state, Viewer::Spectator);
//! assert!(view.players.iter().all(|p| p.tiles.is_none() && p.cards.is_none()));
//! assert!(view.players.iter().all(|p| p.tiles_in_hand > 0));
//! ```

pub mod action;
mod action_cards;
mod building;
pub mod cards;
pub mod config;
pub mod data;
mod decide;
mod determinize;
pub mod errors;
pub mod event;
mod evolve;
mod fight;
mod flow;
mod legal;
mod moves;
mod options;
mod paths;
mod payment;
mod rules;
mod scoring;
pub mod state;
mod templates;
mod trade;
pub mod view;

#[cfg(test)]
mod tests;

pub use action::{Action, Template};
pub use cards::{Card, Cards, Empire};
pub use config::{
    CantPlaceTile, Config, FailedPileSearch, ReshuffleRule, SetupMode, TyrosShipyard,
};
pub use data::{board, Cell, DesertCell, SeaCell, Tile};
pub use event::Event;
pub use scoring::score_sheets;
pub use state::State;
pub use view::View;

use crate::playout::{self, Choice};
use crate::{Game, Seat};
use rand::RngCore;

/// The Tyros rules.
pub struct Tyros;

impl Game for Tyros {
    const NAME: &'static str = "tyros";
    const TITLE: &'static str = "Tyros (Wallace)";
    /// Version 2: a failed bank search costs its cards (`failed_pile_search`, TR-ACT-D (2)).
    const RULES_VERSION: u32 = 2;

    crate::folder::game_folder!(templates, listing_by_index);

    /// Options left out take the defaults of `rules_version` (see [`config`]).
    fn read_config(json: &serde_json::Value, rules_version: u32) -> Result<Config, String> {
        Config::read(json, rules_version).map_err(|e| e.to_string())
    }

    /// Counting builds no move's path, so the random choice counts and builds only the one.
    fn random_choice(state: &State, rng: &mut dyn RngCore) -> Option<Choice<Action>> {
        playout::counted_choice::<Self>(state, rng)
    }

    /// TR-ACT-E: an offer goes from one player to one other.
    fn offer_to(event: &Event) -> Option<Seat> {
        match event {
            Event::TradeOffered { to, .. } => Some(*to),
            _ => None,
        }
    }
}
