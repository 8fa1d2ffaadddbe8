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
mod options;
mod paths;
mod payment;
mod rules;
mod scoring;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use action::Action;
pub use cards::{Card, Cards, Empire};
pub use config::{CantPlaceTile, Config, ReshuffleRule, SetupMode, TyrosShipyard};
pub use data::{board, Cell, DesertCell, SeaCell, Tile};
pub use event::Event;
pub use scoring::score_sheets;
pub use state::State;
pub use view::View;

use crate::listing;
use crate::template::{self, ActionTemplate};
use crate::{Game, Outcome, RuleError, Seat, Viewer};
use rand::RngCore;
use rules::Awaiting;
use std::ops::RangeInclusive;

/// The Tyros rules.
pub struct Tyros;

impl Game for Tyros {
    type Config = Config;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    const NAME: &'static str = "tyros";
    const TITLE: &'static str = "Tyros (Wallace)";
    const RULES_VERSION: u32 = 1;
    const ERROR_CODES: &'static [&'static str] = errors::ALL;
    const OPTIONS: &'static [crate::options::OptionText] = options::OPTIONS;

    /// 3 or 4 (TR-COMP-1).
    fn seat_range() -> RangeInclusive<usize> {
        let c = &board().constants;
        c.players_min..=c.players_max
    }

    fn setup(
        config: &Config,
        seats: usize,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Event>, RuleError> {
        flow::setup(config, seats, rng)
    }

    fn empty_state() -> State {
        State::empty()
    }

    fn evolve(state: &mut State, event: &Event) {
        evolve::evolve(state, event);
    }

    fn decide(
        state: &State,
        seat: Seat,
        action: &Action,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Event>, RuleError> {
        decide::decide(state, seat, action, rng)
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        if seat.index() >= state.players.len() {
            return Vec::new();
        }
        legal::legal_actions(state, seat)
    }

    fn legal_action_count(state: &State, seat: Seat) -> usize {
        if seat.index() >= state.players.len() {
            return 0;
        }
        listing::count(|found| legal::listed(state, seat, found))
    }

    fn legal_action(state: &State, seat: Seat, index: usize) -> Option<Action> {
        if seat.index() >= state.players.len() {
            return None;
        }
        listing::nth(index, |found| legal::listed(state, seat, found))
    }

    fn action_templates(state: &State, seat: Seat) -> Vec<ActionTemplate> {
        if seat.index() >= state.players.len() {
            return Vec::new();
        }
        legal::action_templates(state, seat)
    }

    fn action_template_count(state: &State, seat: Seat) -> usize {
        if seat.index() >= state.players.len() {
            return 0;
        }
        template::count_found(|found| legal::templates(state, seat, found))
    }

    fn action_template(state: &State, seat: Seat, index: usize) -> Option<ActionTemplate> {
        if seat.index() >= state.players.len() {
            return None;
        }
        template::nth_found(index, |found| legal::templates(state, seat, found))
            .map(|t| t.build(state, seat))
    }

    fn template_action(
        state: &State,
        seat: Seat,
        index: usize,
        rng: &mut dyn RngCore,
    ) -> Option<Action> {
        if seat.index() >= state.players.len() {
            return None;
        }
        template::nth_found(index, |found| legal::templates(state, seat, found))
            .map(|t| t.fill(state, seat, rng))
    }

    fn active_seats(state: &State) -> Vec<Seat> {
        match rules::awaiting(state) {
            Awaiting::Nobody => Vec::new(),
            Awaiting::Payment(s)
            | Awaiting::FightCards(s)
            | Awaiting::FightChoice(s)
            | Awaiting::Offer(s)
            | Awaiting::Placement(s)
            | Awaiting::Turn(s) => vec![s],
            Awaiting::Keep => state
                .seats()
                .filter(|&s| rules::keep_pending(state, s))
                .collect(),
        }
    }

    fn seat_count(state: &State) -> usize {
        state.players.len()
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    /// Secrets are shown only to the seat they belong to; pile orders to nobody (TR-D-20).
    fn redact(event: &Event, viewer: Viewer) -> Option<Event> {
        let mine = |seat: &Seat| viewer == Viewer::Seat(*seat);
        let mut event = event.clone();
        match &mut event {
            Event::TilePileShuffled { order, .. } => *order = None,
            Event::DrawPileShuffled { order, .. } | Event::DrawPileRebuilt { order, .. } => {
                *order = None
            }
            Event::TilesDealt { seat, tiles, .. } if !mine(seat) => *tiles = None,
            Event::TileDrawn { seat, tile } if !mine(seat) => *tile = None,
            Event::TilesSwapped {
                seat,
                returned,
                drawn,
            } if !mine(seat) => {
                *returned = None;
                *drawn = None;
            }
            Event::CardsDrawn { seat, cards, .. }
            | Event::FightCardsLaid { seat, cards, .. }
            | Event::KeepChosen { seat, cards }
                if !mine(seat) =>
            {
                *cards = None
            }
            _ => {}
        }
        Some(event)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    /// TR-ACT-E: an offer goes from one player to one other.
    fn offer_to(event: &Event) -> Option<Seat> {
        match event {
            Event::TradeOffered { to, .. } => Some(*to),
            _ => None,
        }
    }

    fn determinize(state: &State, seat: Seat, rng: &mut dyn RngCore) -> State {
        determinize::determinize(state, seat, rng)
    }
}
