//! The layout every game folder shares, and the [`Game`](crate::Game) items that follow from it.
//!
//! A file name means the same thing in every game's folder (`src/<game>/`; the table is in
//! `docs/architecture.md`): `rules.rs` holds the checks shared by `decide.rs` and `legal.rs`,
//! `decide.rs` setup and decide, `evolve.rs` evolve, `legal.rs` whom the game waits for and
//! what each seat may do, `templates.rs` (where a game has them) the actions whose parameters
//! cannot be listed, `view.rs` what a viewer sees of the state and of each event,
//! `determinize.rs` the state as one seat could believe it. [`game_folder!`] turns that layout
//! into the `Game` items that merely point at it, so a game's `mod.rs` writes only what is its
//! own, and a folder that does not follow the layout does not compile.

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
/// Two options add items for the games that need them:
///
/// - `templates`: the game lists templates for actions whose parameters cannot be listed, in
///   `templates.rs`: `action_templates`, `action_template_count`, `action_template` and
///   `template_action` come from there, and the typed `Template` is `action::Template` (the
///   wire type beside the actions). A game without this option writes `type Template =
///   NoTemplate` beside the macro (associated types have no defaults);
/// - `listing_by_index`: the game's lists are dear to build, so `legal.rs` also counts them
///   and builds one entry of them (`legal_action_count`, `legal_action`).
///
/// Everything else keeps the trait's default or is written beside the macro: the name, title
/// and rules version, and where a game has them, a versioned config reading and offers.
macro_rules! game_folder {
    ($($option:ident),* $(,)?) => {
        $crate::folder::game_folder!(@common);
        $($crate::folder::game_folder!(@$option);)*
    };
    (@templates) => {
        type Template = action::Template;

        fn action_templates(state: &state::State, seat: $crate::Seat) -> Vec<action::Template> {
            templates::action_templates(state, seat)
        }

        fn action_template_count(state: &state::State, seat: $crate::Seat) -> usize {
            templates::action_template_count(state, seat)
        }

        fn action_template(
            state: &state::State,
            seat: $crate::Seat,
            index: usize,
        ) -> Option<action::Template> {
            templates::action_template(state, seat, index)
        }

        fn template_action(
            state: &state::State,
            seat: $crate::Seat,
            index: usize,
            rng: &mut dyn ::rand::RngCore,
        ) -> Option<action::Action> {
            templates::template_action(state, seat, index, rng)
        }
    };
    (@listing_by_index) => {
        fn legal_action_count(state: &state::State, seat: $crate::Seat) -> usize {
            legal::legal_action_count(state, seat)
        }

        fn legal_action(
            state: &state::State,
            seat: $crate::Seat,
            index: usize,
        ) -> Option<action::Action> {
            legal::legal_action(state, seat, index)
        }
    };
    (@common) => {
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
            chance: &mut dyn $crate::chance::Chance,
        ) -> ::std::result::Result<Vec<event::Event>, $crate::RuleError> {
            decide::setup(config, seats, chance)
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
            chance: &mut dyn $crate::chance::Chance,
        ) -> ::std::result::Result<Vec<event::Event>, $crate::RuleError> {
            decide::decide(state, seat, action, chance)
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
