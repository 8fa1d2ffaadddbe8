//! The JSON the api writes into the database, apart from the API's own types.
//!
//! A stored value outlives the code that wrote it: a game created today is read back by every
//! later version of the server. So each stored shape is its own type here, changed only by
//! adding (an optional field, a variant), and converted to the API's (or the lifecycle fold's)
//! types at the edge. A value that does not read is an error the caller answers with a 500,
//! never a default: a clock that silently read as "no clock" would stop a running game's
//! clocks, a lifecycle that read as "everyone playing" would hand seats back from their
//! stand-in bots.
//!
//! The snapshot tests of each file pin its shape's JSON; a change that would make stored rows
//! unreadable fails them.
//!
//! Migration story: a new field is optional (`#[serde(default)]`, and skipped when empty where
//! the old rows lack it), a new variant is only added; a shape that must change in another
//! way gets a new type read beside the old one (an untagged fallback or a version field),
//! never an edit of the old one's JSON.

mod clock;
mod lifecycle;

pub use clock::{clock_kind, StoredClock, StoredOnTimeout};
pub use lifecycle::{
    StoredLeft, StoredLeftReason, StoredLifecycle, StoredRun, StoredSeat, StoredSeatClock,
};

use serde::{Deserialize, Serialize};

use crate::dto::BotLevel;

/// The level of the server's bot, as stored in a clock (`greedy` when a row has none) and as a
/// seat's stand-in in the lifecycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StoredBot {
    Random,
    #[default]
    Greedy,
    Mcts,
}

impl From<BotLevel> for StoredBot {
    fn from(level: BotLevel) -> Self {
        match level {
            BotLevel::Random => StoredBot::Random,
            BotLevel::Greedy => StoredBot::Greedy,
            BotLevel::Mcts => StoredBot::Mcts,
        }
    }
}

impl From<StoredBot> for BotLevel {
    fn from(stored: StoredBot) -> Self {
        match stored {
            StoredBot::Random => BotLevel::Random,
            StoredBot::Greedy => BotLevel::Greedy,
            StoredBot::Mcts => BotLevel::Mcts,
        }
    }
}
