//! Monopoly, German edition (currency M), 2–6 players, following `engine/rules/monopoly.md`.
//! Rule IDs in comments and error messages refer to that spec.
//!
//! The first game where players act outside their turn: rent claims, building, selling,
//! mortgages and trades are standing actions of any seat (MO-D-2), listed by
//! [`Game::legal_actions`] for every seat, while [`Game::active_seats`] names the seats the
//! game waits for. Bids and trade offers cannot be listed, so they come as
//! [`Game::action_templates`].
//!
//! ```
//! use engine::monopoly::{Action, Config, Monopoly};
//! use engine::{Game, Seat, Viewer};
//! use rand::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let events = Monopoly::setup(&Config::default(), 3, &mut rng).unwrap();
//! let mut state = Monopoly::replay(&events);
//! let seat = Monopoly::active_seats(&state)[0];
//! assert_eq!(Monopoly::legal_actions(&state, seat), vec![Action::Roll]);
//! for event in Monopoly::decide(&state, seat, &Action::Roll, &mut rng).unwrap() {
//!     Monopoly::evolve(&mut state, &event);
//! }
//! // Everything but the decks' order is public.
//! let view = Monopoly::view(&state, Viewer::Spectator);
//! assert_eq!(view.decks[0].cards + view.decks[1].cards, 32);
//! ```

pub mod action;
mod census;
pub mod config;
pub mod data;
mod deals;
mod decide;
mod determinize;
mod dice;
pub mod errors;
pub mod event;
mod evolve;
mod holdings;
mod legal;
mod market;
mod offers;
mod options;
mod rules;
mod shared;
pub mod state;
mod templates;
mod trade;
mod turn;
pub mod view;

#[cfg(test)]
mod tests;

pub use action::{Action, Template};
pub use config::{
    Config, DeckChoice, InheritedInterest, InterestRounding, TradeOffers, UtilityRentDice,
};
pub use data::{board, Card, Deck};
pub use event::{EndReason, Event, JailExit};
pub use state::{PaymentReason, State};
pub use view::View;

use crate::playout::{self, Choice};
use crate::{Game, Seat};
use rand::RngCore;
use shared::Shared;

/// The Monopoly rules.
pub struct Monopoly;

type Scratch = crate::scratch::Scratch<Monopoly>;

impl Game for Monopoly {
    const NAME: &'static str = "monopoly";
    const TITLE: &'static str = "Monopoly (German edition)";
    /// 2: offers stand on the deeds as made (`trade_offers = as_made`) and inherited interest
    /// is settled deed by deed (`inherited_interest = per_deed`) by default (issue 24).
    const RULES_VERSION: u32 = 2;

    crate::folder::game_folder!(templates, listing_by_index);

    /// Options left out take the defaults of `rules_version` (see [`config`]).
    fn read_config(json: &serde_json::Value, rules_version: u32) -> Result<Config, String> {
        Config::read(json, rules_version).map_err(|e| e.to_string())
    }

    /// One walk of the templates, one pass over the deeds.
    fn template_actions(
        state: &State,
        seat: Seat,
        per_template: usize,
        rng: &mut dyn RngCore,
        found: &mut dyn FnMut(Action),
    ) {
        templates::fill_all(&Shared::new(state), seat, per_template, rng, found);
    }

    /// One pass over the deeds and the offers serves every seat's listing and templates.
    fn choice_counts(state: &State, counts: &mut [(usize, usize)]) {
        census::choice_counts(&Shared::new(state), counts);
    }

    /// The counting and the building share one pass over the deeds and the offers' checks.
    fn random_choice(state: &State, rng: &mut dyn RngCore) -> Option<Choice<Action>> {
        let shared = Shared::new(state);
        playout::pick_counted(
            state.players.len(),
            |counts| census::choice_counts(&shared, counts),
            rng,
            |seat, index| legal::listed_action(&shared, seat, index),
            |seat, index, rng| templates::fill(&shared, seat, index, rng),
        )
    }

    /// MO-TRADE-4: an offer goes from one player to one other.
    fn offer_to(event: &Event) -> Option<Seat> {
        match event {
            Event::TradeOffered { offer } => Some(offer.to),
            _ => None,
        }
    }
}
