//! Row types, one file per table. These are storage shapes: the api converts them into its own
//! JSON types and the engine's types, so a column rename never silently changes the HTTP API.

mod event;
mod game;
mod idempotency;
mod json_text;
mod player;
mod seat;

pub use event::{EventRow, NewEvent};
pub use game::{GameRow, GameStatus, RngSeed};
pub use idempotency::{IdempotencyRow, StoredResponse};
pub use json_text::JsonText;
pub use player::PlayerRow;
pub use seat::SeatRow;
