//! The game types this server hosts, by stable type name.

use crate::erased::{DynGame, Erased};
use crate::tycoon::Tycoon;

static TYCOON: Erased<Tycoon> = Erased::new("Tycoon (Kramer & Rösner)", 2, 4);

/// Every hosted game type, in catalogue order.
pub fn all() -> [&'static dyn DynGame; 1] {
    [&TYCOON]
}

/// The game type called `name`, if hosted.
pub fn find(name: &str) -> Option<&'static dyn DynGame> {
    all().into_iter().find(|game| game.info().name == name)
}
