//! The game types this server hosts, by stable type name. The list itself is
//! `hosted_games!` in the crate root: one line per game.

use crate::erased::DynGame;

/// Every hosted game type, in catalogue order.
pub fn all() -> &'static [&'static dyn DynGame] {
    crate::HOSTED
}

/// The game type called `name`, if hosted.
pub fn find(name: &str) -> Option<&'static dyn DynGame> {
    all().iter().copied().find(|game| game.name() == name)
}
