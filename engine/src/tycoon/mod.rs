//! Tycoon (Wolfgang Kramer and Horst-Rainer Rösner, Jumbo 1998), 2–4 players, after
//! `engine/rules/tycoon.md`. Rule IDs in comments and error messages refer to that spec.

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
pub mod payday;
mod rules;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use action::{Action, LoanDecision};
pub use config::{Config, StepMode, TieBreak};
pub use data::{board, City, Deck, LoanKind, Ticket};
pub use event::Event;
pub use rules::destinations;
pub use state::State;
pub use view::View;

use crate::Game;

/// The Tycoon rules.
pub struct Tycoon;

impl Game for Tycoon {
    const NAME: &'static str = "tycoon";
    const TITLE: &'static str = "Tycoon (Kramer & Rösner)";
    /// 2: majority ties follow the seeds' wording by default (`tie_break = first_built`).
    const RULES_VERSION: u32 = 2;

    crate::folder::game_folder!();

    /// Options left out take the defaults of `rules_version` (see [`config`]).
    fn read_config(json: &serde_json::Value, rules_version: u32) -> Result<Config, String> {
        Config::read(json, rules_version).map_err(|e| e.to_string())
    }
}
