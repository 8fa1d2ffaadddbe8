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

use crate::{Game, Outcome, RuleError, Seat, Viewer};
use rand::RngCore;
use rules::MergerStep;
use state::Step;
use std::ops::RangeInclusive;

/// The Acquire rules.
pub struct Acquire;

impl Game for Acquire {
    type Config = Config;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    const NAME: &'static str = "acquire";
    const TITLE: &'static str = "Acquire (Hotel-König, Sackson)";
    const RULES_VERSION: u32 = 1;
    const ERROR_CODES: &'static [&'static str] = errors::ALL;
    const OPTIONS: &'static [crate::options::OptionText] = options::OPTIONS;

    /// 2 to 6 (AQ-COMP-1).
    fn seat_range() -> RangeInclusive<usize> {
        let c = &board().constants;
        c.players_min..=c.players_max
    }

    fn setup(
        config: &Config,
        seats: usize,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Event>, RuleError> {
        Ok(decide::setup(config, seats, rng))
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
        _rng: &mut dyn RngCore,
    ) -> Result<Vec<Event>, RuleError> {
        decide::decide(state, seat, action)
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        let mut actions = Vec::new();
        let Some(turn) = state.turn() else {
            return actions;
        };
        if rules::actor(state) != Some(seat) {
            return actions;
        }
        match turn.step {
            Step::Place => {
                for &tile in &state.player(seat).hand {
                    match rules::check_place(state, turn, tile, None) {
                        Ok(_) => actions.push(Action::PlaceTile { tile, chain: None }),
                        Err(rules::Refusal::NameRequired(_)) => {
                            for chain in Chain::all().filter(|&c| !state.is_active(c)) {
                                actions.push(Action::PlaceTile {
                                    tile,
                                    chain: Some(chain),
                                });
                            }
                        }
                        Err(_) => {}
                    }
                }
            }
            Step::Merger => {
                let Some(m) = &state.merger else {
                    return actions;
                };
                match rules::merger_step(m) {
                    MergerStep::Survivor => actions
                        .extend(rules::largest(m).map(|chain| Action::ChooseSurvivor { chain })),
                    MergerStep::Order => actions.extend(
                        rules::valid_orders(state, m)
                            .into_iter()
                            .map(|order| Action::OrderDefuncts { order }),
                    ),
                    MergerStep::Dispose(_) => {
                        // Every concrete split: at most 13 trade counts x 26 sale counts.
                        let held = state.player(seat).shares[m.defuncts[0].chain.index()];
                        for trade in (0..=held).step_by(2) {
                            if rules::check_dispose(state, turn, 0, trade).is_err() {
                                break;
                            }
                            for sell in 0..=held - trade {
                                actions.push(Action::DisposeShares { sell, trade });
                            }
                        }
                    }
                }
            }
            Step::Buy => {
                if rules::check_announce(state, turn).is_ok() {
                    actions.push(Action::AnnounceEnd);
                }
                for chain in Chain::all() {
                    if rules::check_buy(state, turn, chain).is_ok() {
                        actions.push(Action::BuyShare { chain });
                    }
                }
                actions.push(Action::EndTurn);
            }
        }
        actions
    }

    fn active_seats(state: &State) -> Vec<Seat> {
        rules::actor(state).into_iter().collect()
    }

    fn seat_count(state: &State) -> usize {
        state.players.len()
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    /// Tile draws are shown only to the drawing seat; the pile order to nobody (AQ-INFO-2).
    fn redact(event: &Event, viewer: Viewer) -> Option<Event> {
        match event {
            Event::TilesShuffled { tiles, .. } => Some(Event::TilesShuffled {
                tiles: *tiles,
                order: None,
            }),
            Event::TileDrawn { seat, .. } if viewer != Viewer::Seat(*seat) => {
                Some(Event::TileDrawn {
                    seat: *seat,
                    tile: None,
                })
            }
            other => Some(other.clone()),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn determinize(state: &State, seat: Seat, rng: &mut dyn RngCore) -> State {
        determinize::determinize(state, seat, rng)
    }
}
