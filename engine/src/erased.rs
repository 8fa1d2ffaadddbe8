//! The type-erased face of a [`Game`]: JSON in, JSON out, chosen by type name at run time.
//!
//! The HTTP layer loads a stored snapshot with [`DynGame::load`], works on the returned
//! [`DynState`] and stores [`DynState::snapshot`] again. Snapshots go between their JSON text
//! and the game's own types directly, without a `serde_json::Value` tree in between; parsing
//! happens once per request, not once per call.

use crate::chance::Chance;
use crate::{Game, Outcome, RuleError, Seat, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use std::marker::PhantomData;

/// Catalogue entry of a game type.
#[derive(Debug, Clone, Serialize)]
pub struct GameInfo {
    /// Stable type name used in URLs and documents.
    pub name: &'static str,
    /// Human title.
    pub title: &'static str,
    pub min_seats: usize,
    pub max_seats: usize,
    pub rules_version: u32,
    /// The configuration used when a creator gives none.
    pub default_config: Value,
    /// The game's own rejection codes ([`Game::ERROR_CODES`]).
    pub error_codes: &'static [&'static str],
    /// The config options in players' words ([`Game::OPTIONS`]).
    pub options: &'static [crate::options::OptionText],
}

/// Why the erased adapter refused something.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    /// The configuration JSON does not describe a valid configuration of this game.
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
    /// The action JSON is not one of this game's actions.
    #[error("invalid action: {0}")]
    InvalidAction(String),
    /// The action is well formed but the rules refuse it.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// A stored state or event could not be read back: a server-side fault, never the client's.
    #[error("stored game data is unreadable: {0}")]
    Corrupt(String),
}

/// A loaded game state behind the erased interface.
pub trait DynState: Send {
    /// Decide and, when accepted, fold the events into this state. On error nothing changes.
    ///
    /// # Errors
    /// [`GameError::InvalidAction`] for JSON that is no action, [`GameError::Rule`] for a refusal.
    fn apply(
        &mut self,
        seat: Seat,
        action: &Value,
        chance: &mut dyn Chance,
    ) -> Result<Vec<Value>, GameError>;
    /// Decide only (a dry run): the events the action would cause; the state never changes.
    ///
    /// # Errors
    /// As [`DynState::apply`].
    fn check(
        &self,
        seat: Seat,
        action: &Value,
        chance: &mut dyn Chance,
    ) -> Result<Vec<Value>, GameError>;
    /// Every concrete action `seat` may take now, active or not.
    fn legal_actions(&self, seat: Seat) -> Vec<Value>;
    /// The templates of actions `seat` may take now whose parameters cannot be listed, as
    /// JSON (each in the game's typed form, [`Game::Template`]; read generically as
    /// [`crate::ActionTemplate`]).
    fn action_templates(&self, seat: Seat) -> Vec<Value>;
    /// The seats the game is waiting for.
    fn active_seats(&self) -> Vec<Seat>;
    /// What `viewer` may see, as JSON text ready to embed in a response (no tree built).
    fn view(&self, viewer: Viewer) -> Box<RawValue>;
    fn outcome(&self) -> Option<Outcome>;
    /// Folds one more stored event into this state (a replay that needs the state between
    /// events, such as the seats a game waited for after each commit).
    ///
    /// # Errors
    /// [`GameError::Corrupt`] when the JSON is not an event of this game (the state is then
    /// unchanged).
    fn evolve(&mut self, event: &Value) -> Result<(), GameError>;
    /// The state as a JSON tree (for inspection and comparisons).
    fn to_json(&self) -> Value;
    /// The state as the JSON text [`DynGame::load`] reads back: what is stored.
    fn snapshot(&self) -> String;
}

/// A game type behind the erased interface.
pub trait DynGame: Send + Sync {
    /// The stable type name (`"tycoon"`).
    fn name(&self) -> &'static str;
    fn info(&self) -> GameInfo;
    /// Adds the schemas of this game's config, action, event and view (and everything they
    /// reference) to `out`, and returns their names.
    #[cfg(feature = "openapi")]
    fn schemas(&self, out: &mut crate::schema::Components) -> crate::schema::GameSchemas;
    /// Set up a new game under the current rules version: the initial state and the setup
    /// events (shuffles included). To start a stored game, use [`DynGame::setup_as`] with the
    /// rules version it was created under.
    ///
    /// # Errors
    /// [`GameError::InvalidConfig`] when the config or the seat count (outside the game's
    /// seat range) is refused.
    fn setup(
        &self,
        config: &Value,
        seats: usize,
        chance: &mut dyn Chance,
    ) -> Result<(Box<dyn DynState>, Vec<Value>), GameError> {
        self.setup_as(self.info().rules_version, config, seats, chance)
    }
    /// Set up a game created under `rules_version` (stored with it): options its config leaves
    /// out take that version's defaults, never a later version's.
    ///
    /// # Errors
    /// As [`DynGame::setup`]; [`GameError::Corrupt`] for a rules version this server does not
    /// know (stored data, never the client's fault).
    fn setup_as(
        &self,
        rules_version: u32,
        config: &Value,
        seats: usize,
        chance: &mut dyn Chance,
    ) -> Result<(Box<dyn DynState>, Vec<Value>), GameError>;
    /// The config `config` means under `rules_version`: every option with its value (what a
    /// record carries, so that a later version's defaults cannot change it).
    ///
    /// # Errors
    /// [`GameError::InvalidConfig`] when it is no config of this game.
    fn full_config(&self, rules_version: u32, config: &Value) -> Result<Value, GameError>;
    /// Read back a stored snapshot (the text of [`DynState::snapshot`]).
    ///
    /// # Errors
    /// [`GameError::Corrupt`] when the JSON is not a state of this game.
    fn load(&self, snapshot: &str) -> Result<Box<dyn DynState>, GameError>;
    /// Fold a stored event log from scratch.
    ///
    /// # Errors
    /// [`GameError::Corrupt`] when an event is not an event of this game.
    fn replay(&self, events: &[Value]) -> Result<Box<dyn DynState>, GameError>;
    /// The state before any event, to fold a log into one event at a time
    /// ([`DynState::evolve`]).
    fn empty(&self) -> Box<dyn DynState>;
    /// The event as `viewer` may see it. Once the game is over (`finished`) everything is shown.
    ///
    /// # Errors
    /// [`GameError::Corrupt`] when the JSON is not an event of this game.
    fn redact(
        &self,
        event: &Value,
        viewer: Viewer,
        finished: bool,
    ) -> Result<Option<Value>, GameError>;
    /// The seat a trade offer in `event` is addressed to ([`Game::offer_to`]); `None` for
    /// any other event and for JSON that is not an event of this game.
    fn offer_to(&self, event: &Value) -> Option<Seat>;
}

/// Adapts any [`Game`] to [`DynGame`]; everything it reports comes from the game itself.
pub struct Erased<G>(PhantomData<fn() -> G>);

impl<G> Erased<G> {
    /// The adapter of `G`, for the registry.
    pub const NEW: Self = Erased(PhantomData);
}

struct Loaded<G: Game> {
    state: G::State,
}

fn to_value<T: Serialize>(value: &T) -> Value {
    // Serializing our own derive(Serialize) types to a Value cannot fail: no map has non-string
    // keys and no Serialize impl returns an error.
    serde_json::to_value(value).expect("engine types serialize to JSON")
}

/// An action is a JSON object: serde would also read a tagged enum from an array whose first
/// element is the tag, which no client should rely on.
fn parse_action<G: Game>(action: &Value) -> Result<G::Action, GameError> {
    if !action.is_object() {
        return Err(GameError::InvalidAction(
            "an action is a JSON object with a \"type\"".into(),
        ));
    }
    G::Action::deserialize(action).map_err(|e| GameError::InvalidAction(e.to_string()))
}

impl<G: Game + 'static> DynState for Loaded<G>
where
    G::State: Send,
{
    fn apply(
        &mut self,
        seat: Seat,
        action: &Value,
        chance: &mut dyn Chance,
    ) -> Result<Vec<Value>, GameError> {
        let action = parse_action::<G>(action)?;
        let events = G::decide(&self.state, seat, &action, chance)?;
        for event in &events {
            G::evolve(&mut self.state, event);
        }
        Ok(events.iter().map(to_value).collect())
    }

    fn check(
        &self,
        seat: Seat,
        action: &Value,
        chance: &mut dyn Chance,
    ) -> Result<Vec<Value>, GameError> {
        let action = parse_action::<G>(action)?;
        let events = G::decide(&self.state, seat, &action, chance)?;
        Ok(events.iter().map(to_value).collect())
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Value> {
        G::legal_actions(&self.state, seat)
            .iter()
            .map(to_value)
            .collect()
    }

    fn action_templates(&self, seat: Seat) -> Vec<Value> {
        G::action_templates(&self.state, seat)
            .iter()
            .map(to_value)
            .collect()
    }

    fn active_seats(&self) -> Vec<Seat> {
        G::active_seats(&self.state)
    }

    fn view(&self, viewer: Viewer) -> Box<RawValue> {
        serde_json::value::to_raw_value(&G::view(&self.state, viewer))
            .expect("engine types serialize to JSON")
    }

    fn outcome(&self) -> Option<Outcome> {
        G::outcome(&self.state)
    }

    fn evolve(&mut self, event: &Value) -> Result<(), GameError> {
        let event = G::Event::deserialize(event).map_err(|e| GameError::Corrupt(e.to_string()))?;
        G::evolve(&mut self.state, &event);
        Ok(())
    }

    fn to_json(&self) -> Value {
        to_value(&self.state)
    }

    fn snapshot(&self) -> String {
        serde_json::to_string(&self.state).expect("engine types serialize to JSON")
    }
}

impl<G: Game + 'static> DynGame for Erased<G>
where
    G::State: Send,
{
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn info(&self) -> GameInfo {
        let seats = G::seat_range();
        GameInfo {
            name: G::NAME,
            title: G::TITLE,
            min_seats: *seats.start(),
            max_seats: *seats.end(),
            rules_version: G::RULES_VERSION,
            default_config: to_value(&G::Config::default()),
            error_codes: G::ERROR_CODES,
            options: G::OPTIONS,
        }
    }

    #[cfg(feature = "openapi")]
    fn schemas(&self, out: &mut crate::schema::Components) -> crate::schema::GameSchemas {
        use crate::schema::collect;
        crate::schema::GameSchemas {
            game: G::NAME,
            config: collect::<G::Config>(out),
            action: collect::<G::Action>(out),
            event: collect::<G::Event>(out),
            view: collect::<G::View>(out),
            template: collect::<G::Template>(out),
        }
    }

    fn setup_as(
        &self,
        rules_version: u32,
        config: &Value,
        seats: usize,
        chance: &mut dyn Chance,
    ) -> Result<(Box<dyn DynState>, Vec<Value>), GameError> {
        if !(1..=G::RULES_VERSION).contains(&rules_version) {
            return Err(GameError::Corrupt(format!(
                "{} has rules versions 1 to {}, not {rules_version}",
                G::TITLE,
                G::RULES_VERSION
            )));
        }
        let range = G::seat_range();
        if !range.contains(&seats) {
            return Err(GameError::InvalidConfig(format!(
                "{} is for {} to {} players, not {seats}",
                G::TITLE,
                range.start(),
                range.end()
            )));
        }
        if !config.is_object() {
            // serde would read an array as the fields in order; a config is an object.
            return Err(GameError::InvalidConfig(
                "a config is a JSON object of options".to_string(),
            ));
        }
        let config = G::read_config(config, rules_version).map_err(GameError::InvalidConfig)?;
        let events =
            G::setup(&config, seats, chance).map_err(|e| GameError::InvalidConfig(e.message))?;
        let state = G::replay(&events);
        Ok((
            Box::new(Loaded::<G> { state }),
            events.iter().map(to_value).collect(),
        ))
    }

    fn full_config(&self, rules_version: u32, config: &Value) -> Result<Value, GameError> {
        G::read_config(config, rules_version)
            .map(|c| to_value(&c))
            .map_err(GameError::InvalidConfig)
    }

    fn load(&self, snapshot: &str) -> Result<Box<dyn DynState>, GameError> {
        let state = serde_json::from_str::<G::State>(snapshot)
            .map_err(|e| GameError::Corrupt(e.to_string()))?;
        Ok(Box::new(Loaded::<G> { state }))
    }

    fn replay(&self, events: &[Value]) -> Result<Box<dyn DynState>, GameError> {
        let mut state = G::empty_state();
        for event in events {
            let event =
                G::Event::deserialize(event).map_err(|e| GameError::Corrupt(e.to_string()))?;
            G::evolve(&mut state, &event);
        }
        Ok(Box::new(Loaded::<G> { state }))
    }

    fn empty(&self) -> Box<dyn DynState> {
        Box::new(Loaded::<G> {
            state: G::empty_state(),
        })
    }

    fn redact(
        &self,
        event: &Value,
        viewer: Viewer,
        finished: bool,
    ) -> Result<Option<Value>, GameError> {
        if finished {
            return Ok(Some(event.clone()));
        }
        let event = G::Event::deserialize(event).map_err(|e| GameError::Corrupt(e.to_string()))?;
        Ok(G::redact(&event, viewer).as_ref().map(to_value))
    }

    fn offer_to(&self, event: &Value) -> Option<Seat> {
        // Only an offer's type is worth reading the event for.
        let kind = event.get("type")?.as_str()?;
        if !kind.contains("offer") {
            return None;
        }
        G::offer_to(&G::Event::deserialize(event).ok()?)
    }
}
