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
//! 1. Its folder `src/<game>/` with the usual files (`config.rs`, `data.rs` and its data file,
//!    `state.rs`, `action.rs`, `event.rs`, `decide.rs`, `evolve.rs`, `view.rs`, `errors.rs`,
//!    `tests/`) and a `Game` implementation in `mod.rs`.
//! 2. Its spec in `engine/rules/<game>.md`; its tests cite every rule ID of it in a test's name
//!    or `///` doc comment. The tests folder has the same files in every game: `support.rs`
//!    (table set-up and `accepted`/`refused` helpers), `coverage.rs` (`spec_coverage::uncited`
//!    over the spec and every test file; the error codes pinned), `data.rs` (the data file's
//!    tables), one file per rule section of the spec, `scenarios.rs` (the spec's worked
//!    examples) and `playouts.rs` (seeded random games through `checked_playout::play`, with
//!    the game's conservation, money and secrecy checks).
//! 3. Two lines here: its `pub mod <game>;` and its rules type in the [`hosted_games!`] list
//!    below. The registry, the catalogue, the OpenAPI schemas and every endpoint follow from
//!    it. (The module is declared outside the macro so that `cargo fmt` reaches its files.)
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
pub mod erased;
#[cfg(feature = "openapi")]
pub mod openapi;
pub mod playout;
pub mod registry;
pub mod schema;
mod scratch;
#[cfg(test)]
mod spec_coverage;
pub mod template;

pub mod acquire;
pub mod monopoly;
pub mod tycoon;
pub mod tyros;

/// Declares the list of hosted games: each game's rules type, in catalogue order.
macro_rules! hosted_games {
    ($($game:path),+ $(,)?) => {
        /// Every hosted game type, in catalogue order (see [`registry`]).
        static HOSTED: &[&dyn DynGame] = &[$(&erased::Erased::<$game>::NEW),+];
    };
}

hosted_games! {
    tycoon::Tycoon,
    acquire::Acquire,
    monopoly::Monopoly,
    tyros::Tyros,
}

use rand::RngCore;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

pub use erased::{DynGame, DynState, GameError, GameInfo};
pub use schema::Documented;
pub use template::{ActionTemplate, Domain};

/// A seat at the table, numbered from 0 in playing (clockwise) order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Seat(pub u8);

impl Seat {
    /// The seat number as an index into per-seat tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// Who is looking at a game: a seated player sees his own secrets, a spectator only public facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// The rejection codes every game may use (see [`RuleError::not_your_turn`] and
/// [`RuleError::game_over`]).
pub const SHARED_CODES: &[&str] = &["not_your_turn", "game_over"];

/// A rule refused an action. `code` is stable API (clients match on it); `message` is for humans
/// and names the rule ID of the spec it enforces.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RuleError {
    /// Stable machine-readable code, e.g. `not_your_turn` or `tycoon.landing_fields_full`.
    /// Published codes never change meaning (see `tests::error_codes_are_stable` per game).
    pub code: &'static str,
    /// The rule ID in the game's spec, e.g. `TY-FAC-3`.
    pub rule: &'static str,
    /// One sentence for humans.
    pub message: String,
}

impl RuleError {
    pub fn new(code: &'static str, rule: &'static str, message: impl Into<String>) -> Self {
        let message = message.into();
        RuleError {
            code,
            rule,
            message: format!("{message} ({rule})"),
        }
    }

    /// The seat asking is not among those who may act now.
    pub fn not_your_turn(seat: Seat) -> Self {
        RuleError::new(
            "not_your_turn",
            "TURN",
            format!("it is not the turn of {seat}"),
        )
    }

    /// The game has ended; nothing more can be done.
    pub fn game_over() -> Self {
        RuleError::new("game_over", "END", "the game is over")
    }

    /// The configuration or seat count given at creation is not acceptable.
    pub fn bad_config(message: impl Into<String>) -> Self {
        RuleError::new("invalid_config", "SETUP", message)
    }
}

/// How a finished game ended: final scores by seat and the winners (several on a shared win).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Outcome {
    /// Seats with the best score; more than one on a tie.
    pub winners: Vec<Seat>,
    /// The score each seat finished with, indexed by seat (money for the economic games).
    pub scores: Vec<i64>,
}

impl Outcome {
    /// The outcome where the highest score wins and equal best scores share the win.
    pub fn highest_wins(scores: Vec<i64>) -> Outcome {
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners = (0..scores.len())
            .filter(|&i| scores[i] == best)
            .map(|i| Seat(i as u8))
            .collect();
        Outcome { winners, scores }
    }
}

/// One game's rules in the decide/evolve form.
///
/// Implementations keep all secrets in `State`; `view` and `redact` decide what each viewer may
/// see. `decide` and `legal_actions` must agree: every listed action is accepted by `decide`,
/// and so is every instantiation of every listed template ([`Game::action_templates`]).
///
/// Who may act: [`Game::active_seats`] are the seats the game is *waiting for*; any other seat
/// may still have legal actions (standing actions such as Monopoly's rent claims and trade
/// offers). Callers offer every seat its own legal actions and let `decide` judge.
pub trait Game {
    /// Options fixed at creation (variants, house rules).
    type Config: Default + Serialize + for<'de> Deserialize<'de> + Documented;
    /// The full state, secrets included.
    type State: Clone + PartialEq + std::fmt::Debug + Serialize + for<'de> Deserialize<'de>;
    /// What a seat may ask for.
    type Action: Clone
        + PartialEq
        + std::fmt::Debug
        + Serialize
        + for<'de> Deserialize<'de>
        + Documented;
    /// What happened, chance outcomes included.
    type Event: Clone
        + PartialEq
        + std::fmt::Debug
        + Serialize
        + for<'de> Deserialize<'de>
        + Documented;
    /// What one viewer may see of the state.
    type View: Serialize + Documented;

    /// Stable type name used in the API (`"tycoon"`).
    const NAME: &'static str;
    /// Human title for catalogues.
    const TITLE: &'static str;
    /// Version of the rules implementation, bumped when a rule's behaviour changes. Stored with
    /// each game; a game keeps the rules version it was created under: what changed between
    /// versions is a config option, whose default [`Game::read_config`] picks by version.
    const RULES_VERSION: u32;
    /// Every game-specific rejection code (`<game>.<reason>`), for the API documentation;
    /// each game lists them in its `errors.rs`. The shared codes are [`SHARED_CODES`].
    const ERROR_CODES: &'static [&'static str] = &[];

    /// How many seats a table may have (from the game's data file).
    fn seat_range() -> RangeInclusive<usize>;

    /// Reads a creator's config JSON as rules version `rules_version` (at most
    /// [`Game::RULES_VERSION`]) reads it: options left out take that version's defaults. The
    /// default reading is serde's (`Config::default()` for what is left out), right for a game
    /// whose defaults never changed.
    ///
    /// # Errors
    /// Why the JSON is not a config of this game.
    fn read_config(json: &serde_json::Value, rules_version: u32) -> Result<Self::Config, String> {
        let _ = rules_version;
        Self::Config::deserialize(json).map_err(|e| e.to_string())
    }

    /// The events that set up a new game (shuffles included), or why the config is refused.
    /// `seats` is within [`Game::seat_range`]: the adapter checks it before calling.
    fn setup(
        config: &Self::Config,
        seats: usize,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Self::Event>, RuleError>;

    /// The state before any event: what `evolve` folds the setup events into.
    fn empty_state() -> Self::State;

    /// Fold one event into the state. Never fails, never draws chance.
    fn evolve(state: &mut Self::State, event: &Self::Event);

    /// Check `action` by `seat` against the rules and return the events it causes.
    ///
    /// # Errors
    /// A [`RuleError`] naming the broken rule; the state is never changed.
    fn decide(
        state: &Self::State,
        seat: Seat,
        action: &Self::Action,
        rng: &mut dyn RngCore,
    ) -> Result<Vec<Self::Event>, RuleError>;

    /// Every concrete action `seat` may take now (empty when it may not act), whether or not
    /// the seat is active.
    fn legal_actions(state: &Self::State, seat: Seat) -> Vec<Self::Action>;

    /// The actions `seat` may take now whose parameters cannot be listed (bids, trade offers),
    /// as templates. Every instantiation of a listed template is accepted by `decide`.
    fn action_templates(_state: &Self::State, _seat: Seat) -> Vec<ActionTemplate> {
        Vec::new()
    }

    /// The seats the game is waiting for (several while a decision goes round the table).
    fn active_seats(state: &Self::State) -> Vec<Seat>;

    /// The number of seats at the table.
    fn seat_count(state: &Self::State) -> usize;

    /// What `viewer` may see of the state.
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;

    /// The event as `viewer` may see it before the game ends, or `None` to hide it entirely.
    fn redact(event: &Self::Event, viewer: Viewer) -> Option<Self::Event>;

    /// The result once the game is over.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// A state that `seat` cannot tell apart from `state`: everything it may not see (other
    /// players' hands, face-down tiles, the order of draw piles) dealt anew at random, and
    /// everything it sees or could have learnt from the public log kept as it is.
    ///
    /// Bots search such samples instead of the real state, so they play with exactly the
    /// information of a person in that seat. Every game must say what its secrets are, so this
    /// has no default: a default returning `state` would let every search read hidden cards.
    ///
    /// Contract, checked for every game by its determinization tests:
    /// - `view(result, Seat(seat))` equals `view(state, Seat(seat))`, and so does the spectator
    ///   view; counts (hand sizes, pile sizes) and conserved pieces are kept;
    /// - the result depends only on what `seat` knows and on `rng`: two states that differ only
    ///   in what `seat` cannot see give the same result for the same `rng` stream (so unseen
    ///   parts are rebuilt in a canonical order before being shuffled);
    /// - the result is a state the game could be in: `decide` and `legal_actions` work on it.
    fn determinize(state: &Self::State, seat: Seat, rng: &mut dyn RngCore) -> Self::State;

    /// Fold a whole event log from the empty state.
    fn replay<'a>(events: impl IntoIterator<Item = &'a Self::Event>) -> Self::State
    where
        Self::Event: 'a,
    {
        let mut state = Self::empty_state();
        for event in events {
            Self::evolve(&mut state, event);
        }
        state
    }
}
