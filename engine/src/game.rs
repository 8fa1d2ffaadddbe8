//! The vocabulary every game shares: seats, viewers, rule errors, outcomes and the [`Game`]
//! trait. A leaf below the crate root, so that the games, the type-erased adapter and the
//! registry all depend on it and nothing here depends on them.

use rand::RngCore;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

use crate::chance::Chance;
use crate::schema::Documented;

/// A seat at the table, numbered from 0 in playing (clockwise) order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Seat(pub u8);

/// The table is a circle: play goes from each seat to the next higher one and from the last
/// back to seat 0, in every game. That much turn order the games share; who plays when
/// (phases, merger disposals, auctions, standing actions) is each game's own.
impl Seat {
    /// The seat number as an index into per-seat tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Every seat of a table of `seats`, in playing order from seat 0.
    pub fn all(seats: usize) -> impl Iterator<Item = Seat> {
        (0..seats).map(|s| Seat(s as u8))
    }

    /// The seat after this one, clockwise, at a table of `seats`.
    pub fn next(self, seats: usize) -> Seat {
        Seat(((self.index() + 1) % seats) as u8)
    }

    /// Every seat of a table of `seats` once, clockwise, starting with this one.
    pub fn clockwise(self, seats: usize) -> impl Iterator<Item = Seat> {
        (0..seats).map(move |k| Seat(((self.index() + k) % seats) as u8))
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

/// How a finished game ended by its rules: final scores by seat and the winners (several on a
/// shared win). In the API document it is `RulesOutcome` (the `outcome` of a `game_ended`
/// event), apart from the service's `Outcome` of a finished game, which also ranks the seats
/// that left; one name for both made the events' schema the other's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = RulesOutcome))]
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
    /// The game's action templates, typed ([`Game::action_templates`]): a union tagged by the
    /// action's `type`, each variant with its typed `fixed` fields and `params` domains (see
    /// [`crate::template`]); [`crate::template::NoTemplate`] for a game that lists none.
    type Template: Clone + PartialEq + std::fmt::Debug + Serialize + Documented;

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
    /// The config options in players' words, for a lobby (each game's `options.rs`).
    const OPTIONS: &'static [crate::options::OptionText] = &[];

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
        chance: &mut dyn Chance,
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
        chance: &mut dyn Chance,
    ) -> Result<Vec<Self::Event>, RuleError>;

    /// Every concrete action `seat` may take now (empty when it may not act), whether or not
    /// the seat is active.
    fn legal_actions(state: &Self::State, seat: Seat) -> Vec<Self::Action>;

    /// The actions `seat` may take now whose parameters cannot be listed (bids, trade offers),
    /// as templates. Every instantiation of a listed template is accepted by `decide`.
    fn action_templates(_state: &Self::State, _seat: Seat) -> Vec<Self::Template> {
        Vec::new()
    }

    /// How many templates [`Game::action_templates`] lists for `seat`, always its length. The
    /// random playout driver weighs each template once but fills in only the one it picks, so a
    /// game whose templates are dear to build (trade offers to every partner) counts them here
    /// without building them; the playout tests check that the two agree at every step.
    fn action_template_count(state: &Self::State, seat: Seat) -> usize {
        Self::action_templates(state, seat).len()
    }

    /// The `index`-th template of [`Game::action_templates`] for `seat`, `None` past the end. The
    /// random playout driver fills in one template per pick; a game whose templates are dear
    /// to build builds only that one (the playout tests check it against the list).
    fn action_template(state: &Self::State, seat: Seat, index: usize) -> Option<Self::Template> {
        Self::action_templates(state, seat).into_iter().nth(index)
    }

    /// How many actions [`Game::legal_actions`] lists for `seat`, always its length. The random
    /// playout driver counts every seat's actions at every step and takes one of them, so a
    /// game whose list is dear to build (a path per move, a vector per action) counts here
    /// without building it; the playout tests check that the two agree at every step.
    fn legal_action_count(state: &Self::State, seat: Seat) -> usize {
        Self::legal_actions(state, seat).len()
    }

    /// Every seat's `(listed actions, templates)` counts ([`Game::legal_action_count`],
    /// [`Game::action_template_count`]) into `counts`, one entry per seat in seat order: what
    /// the random playout driver asks at every step. A game whose seats' listings share work
    /// (a pass over the board) does it once here; the playout tests check the counts against
    /// the per-seat ones.
    fn choice_counts(state: &Self::State, counts: &mut [(usize, usize)]) {
        for (s, count) in counts.iter_mut().enumerate() {
            let seat = Seat(s as u8);
            *count = (
                Self::legal_action_count(state, seat),
                Self::action_template_count(state, seat),
            );
        }
    }

    /// A uniformly random choice of any seat among its listed actions and templates, or `None`
    /// when nobody may act: what random playouts and rollouts take at every step
    /// ([`crate::playout::random_choice`]). By default every seat's list is built once
    /// ([`crate::playout::listed_choice`]); a game that counts without building overrides it
    /// with [`crate::playout::counted_choice`] or shares work between counting and building.
    /// Whatever it does, it draws from `rng` and picks exactly as `counted_choice` (the
    /// playout tests check it at every step).
    fn random_choice(
        state: &Self::State,
        rng: &mut dyn RngCore,
    ) -> Option<crate::playout::Choice<Self::Action>> {
        crate::playout::listed_choice::<Self>(state, rng)
    }

    /// Every template of `seat` instantiated `per_template` times in a row, in listing order,
    /// each handed to `found`: [`Game::template_action`] for every index, drawing from `rng`
    /// in that order. Searches ask this for every candidate list; a game may fill them all
    /// from one walk of its templates, drawing exactly as the loop does (the playout tests
    /// check it).
    ///
    /// # Panics
    /// When the game lists a template whose instantiation is not one of its actions.
    fn template_actions(
        state: &Self::State,
        seat: Seat,
        per_template: usize,
        rng: &mut dyn RngCore,
        found: &mut dyn FnMut(Self::Action),
    ) {
        for index in 0..Self::action_template_count(state, seat) {
            for _ in 0..per_template {
                found(
                    Self::template_action(state, seat, index, rng)
                        .expect("action_template_count counts action_templates"),
                );
            }
        }
    }

    /// The `index`-th action of [`Game::legal_actions`] for `seat`, `None` past the end: the
    /// one action the random playout driver builds (the playout tests check it against the
    /// list).
    fn legal_action(state: &Self::State, seat: Seat, index: usize) -> Option<Self::Action> {
        Self::legal_actions(state, seat).into_iter().nth(index)
    }

    /// A uniformly random instantiation of the `index`-th template of `seat`
    /// ([`Game::action_template`]), `None` past the end. It draws from `rng` exactly what
    /// [`crate::template::ActionTemplate::instantiate`] draws and gives the action its JSON
    /// would read as, so a seeded playout is the same either way; a game may build the action
    /// directly instead of going through the template's JSON (the playout tests check the two
    /// at every step).
    ///
    /// # Panics
    /// When the game lists a template whose instantiation is not one of its actions.
    fn template_action(
        state: &Self::State,
        seat: Seat,
        index: usize,
        rng: &mut dyn RngCore,
    ) -> Option<Self::Action> {
        let template =
            crate::template::ActionTemplate::of(&Self::action_template(state, seat, index)?);
        Some(crate::template::instantiate_as::<Self::Action>(
            Self::NAME,
            &template,
            rng,
        ))
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

    /// The seat a trade offer in `event` is addressed to, when `event` makes one (the service
    /// tells that seat's player). Games without offers keep the default.
    fn offer_to(_event: &Self::Event) -> Option<Seat> {
        None
    }

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

#[cfg(test)]
mod tests {
    use super::Seat;

    #[test]
    fn seats_go_round_the_table_clockwise() {
        assert_eq!(
            Seat::all(3).collect::<Vec<_>>(),
            [Seat(0), Seat(1), Seat(2)]
        );
        assert_eq!([Seat(0).next(3), Seat(2).next(3)], [Seat(1), Seat(0)]);
        assert_eq!(
            Seat(2).clockwise(4).collect::<Vec<_>>(),
            [Seat(2), Seat(3), Seat(0), Seat(1)]
        );
    }
}
