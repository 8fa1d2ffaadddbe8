//! The game types this server hosts, by stable type name: the one list of them, in catalogue
//! order. Hosting a new game is one line here (and its `pub mod` in the crate root).

use crate::erased::{DynGame, Erased};
use crate::{acquire, monopoly, tycoon, tyros};

/// Every hosted game type, in catalogue order.
static HOSTED: &[&dyn DynGame] = &[
    &Erased::<tycoon::Tycoon>::NEW,
    &Erased::<acquire::Acquire>::NEW,
    &Erased::<monopoly::Monopoly>::NEW,
    &Erased::<tyros::Tyros>::NEW,
];

/// Every hosted game type, in catalogue order.
pub fn all() -> &'static [&'static dyn DynGame] {
    HOSTED
}

/// The game type called `name`, if hosted.
pub fn find(name: &str) -> Option<&'static dyn DynGame> {
    all().iter().copied().find(|game| game.name() == name)
}
