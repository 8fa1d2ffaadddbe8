//! The JSON shapes of the HTTP API. These are API types, not rows and not engine types: the
//! handlers convert once, so a column rename or an engine refactor never silently changes the
//! wire format. Request bodies reject unknown fields (400 `invalid_body`), so a typo such as
//! `expected_verison` is reported instead of ignored.
//!
//! By endpoint family: [`games`] (catalogue and lobby), [`play`], [`history`]; [`schema`]
//! holds the schemas of game-specific fields (one game's action, event, view or config,
//! chosen by the game's type), which the OpenAPI document specializes per game.

pub mod challenges;
pub mod chance;
pub mod chat;
pub mod games;
pub mod history;
pub mod lifecycle;
pub mod play;
pub mod player_stream;
pub mod players;
pub mod record;
pub mod schema;
pub mod seeks;
pub mod tournaments;

pub use challenges::*;
pub use chance::*;
pub use chat::*;
pub use games::*;
pub use history::*;
pub use lifecycle::*;
pub use play::*;
pub use player_stream::*;
pub use players::*;
pub use record::*;
pub use seeks::*;
pub use tournaments::*;
