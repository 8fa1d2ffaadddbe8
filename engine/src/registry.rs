//! The game types this server hosts, by stable type name.

use crate::acquire::Acquire;
use crate::erased::{DynGame, Erased};
use crate::tycoon::Tycoon;

static TYCOON: Erased<Tycoon> = Erased::new("Tycoon (Kramer & Rösner)", 2, 4);
static ACQUIRE: Erased<Acquire> = Erased::new("Acquire (Hotel-König, Sackson)", 2, 6);

/// Every hosted game type, in catalogue order.
pub fn all() -> [&'static dyn DynGame; 2] {
    [&TYCOON, &ACQUIRE]
}

/// The game type called `name`, if hosted.
pub fn find(name: &str) -> Option<&'static dyn DynGame> {
    all().into_iter().find(|game| game.info().name == name)
}
