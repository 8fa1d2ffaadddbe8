//! The layout every game folder shares, and the [`Game`](crate::Game) items that follow from it.
//!
//! A file name means the same thing in every game's folder (`src/<game>/`):
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the module doc (the game, its spec), the `Game` implementation: name, title, rules version and what only this game says (a versioned config reading, templates, offers) |
//! | `data.rs` | the data file's tables, read once (`engine/rules/<game>-*.json`), and the ids that name them |
//! | `config.rs`, `options.rs` | options fixed at creation; the same options in players' words |
//! | `state.rs`, `action.rs`, `event.rs`, `view.rs`, `errors.rs` | the state, what a seat may ask, what happened, what a viewer sees of it (and of each event: `redact`), the rejection codes |
//! | `rules.rs` | the checks behind the actions, shared by `decide.rs` (which says why) and `legal.rs` (which only asks whether), so the two cannot drift apart |
//! | `decide.rs` | `setup` and `decide`: every check, then the events an action causes, chance included |
//! | `evolve.rs` | `evolve`: folding one event into the state, never failing, never drawing chance |
//! | `legal.rs` | `active_seats` and `legal_actions`: whom the game waits for, what each seat may do |
//! | `determinize.rs` | `determinize`: the state as one seat could believe it, for the bots |
//! | `tests/` | `support.rs`, `coverage.rs`, `data.rs`, a file per rule section, `scenarios.rs`, `playouts.rs` |
//!
//! A game may add files of its own (Tycoon's `payday.rs`, Monopoly's `market.rs`), each one
//! family of rules that `decide.rs` or `evolve.rs` hands work to.
//!
//! [`game_folder!`] turns the layout into the `Game` items that merely point at it, so a game's
//! `mod.rs` writes only what is its own, and a folder that does not follow the layout does not
//! compile.

/// The [`Game`](crate::Game) items that every game answers from the same file of its folder
/// (see the module doc), for use inside `impl Game for …` in the game's `mod.rs`:
///
/// - the types `Config`, `State`, `Action`, `Event` and `View` of `config.rs`, `state.rs`,
///   `action.rs`, `event.rs` and `view.rs`; `ERROR_CODES` is `errors::ALL`, `OPTIONS` is
///   `options::OPTIONS`;
/// - `seat_range` from the data file's `constants.players_min` and `players_max`;
/// - `setup` and `decide` from `decide.rs`, `evolve` from `evolve.rs`, `legal_actions` and
///   `active_seats` from `legal.rs`, `view` and `redact` from `view.rs`, `determinize` from
///   `determinize.rs`, `empty_state` from `State::empty`;
/// - `seat_count` and `outcome` from the state's `players` and `outcome` fields.
///
/// Everything else keeps the trait's default or is written beside the macro: the name, title
/// and rules version, and where a game has them, a versioned config reading, templates and
/// offers.
macro_rules! game_folder {
    () => {
        type Config = config::Config;
        type State = state::State;
        type Action = action::Action;
        type Event = event::Event;
        type View = view::View;

        const ERROR_CODES: &'static [&'static str] = errors::ALL;
        const OPTIONS: &'static [$crate::options::OptionText] = options::OPTIONS;

        fn seat_range() -> ::std::ops::RangeInclusive<usize> {
            let constants = &data::board().constants;
            constants.players_min..=constants.players_max
        }

        fn setup(
            config: &config::Config,
            seats: usize,
            rng: &mut dyn ::rand::RngCore,
        ) -> ::std::result::Result<Vec<event::Event>, $crate::RuleError> {
            decide::setup(config, seats, rng)
        }

        fn empty_state() -> state::State {
            state::State::empty()
        }

        fn evolve(state: &mut state::State, event: &event::Event) {
            evolve::evolve(state, event)
        }

        fn decide(
            state: &state::State,
            seat: $crate::Seat,
            action: &action::Action,
            rng: &mut dyn ::rand::RngCore,
        ) -> ::std::result::Result<Vec<event::Event>, $crate::RuleError> {
            decide::decide(state, seat, action, rng)
        }

        fn legal_actions(state: &state::State, seat: $crate::Seat) -> Vec<action::Action> {
            legal::legal_actions(state, seat)
        }

        fn active_seats(state: &state::State) -> Vec<$crate::Seat> {
            legal::active_seats(state)
        }

        fn seat_count(state: &state::State) -> usize {
            state.players.len()
        }

        fn view(state: &state::State, viewer: $crate::Viewer) -> view::View {
            view::view(state, viewer)
        }

        fn redact(event: &event::Event, viewer: $crate::Viewer) -> Option<event::Event> {
            view::redact(event, viewer)
        }

        fn outcome(state: &state::State) -> Option<$crate::Outcome> {
            state.outcome.clone()
        }

        fn determinize(
            state: &state::State,
            seat: $crate::Seat,
            rng: &mut dyn ::rand::RngCore,
        ) -> state::State {
            determinize::determinize(state, seat, rng)
        }
    };
}

pub(crate) use game_folder;
