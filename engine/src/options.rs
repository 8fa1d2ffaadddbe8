//! How a game's configuration options are put to players: a short label, a sentence or two of
//! help, and a label for each choice. A lobby builds its form from the config schema; the
//! catalogue (`GET /v1/game-types`) puts these words into that schema as `title` and
//! `description`, so that no player reads rule IDs or notes on where a rule comes from. Those
//! stay in the OpenAPI document's schemas and in `engine/rules/`.
//!
//! Each game lists its options in its `options.rs`; the API's catalogue test checks that every
//! option of every game has words here, and that the words name no rule ID.

use serde::Serialize;

/// Where a lobby shows an option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// With the game: an option players choose between.
    Main,
    /// Under "more options": a house rule or a detail most tables leave as it is.
    More,
    /// Not at all: the lobby sets it another way (the seat count).
    Hidden,
}

/// One option in players' words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OptionText {
    /// The config key.
    pub name: &'static str,
    /// A short label: "Round limit".
    pub title: &'static str,
    /// What it does, for a player deciding at the table.
    pub help: &'static str,
    /// For an option with named choices: each choice's label, by its value.
    pub values: &'static [(&'static str, &'static str)],
    pub place: Place,
}

impl OptionText {
    /// An option shown with the game, without named choices.
    pub const fn main(name: &'static str, title: &'static str, help: &'static str) -> Self {
        OptionText {
            name,
            title,
            help,
            values: &[],
            place: Place::Main,
        }
    }

    /// The same option under "more options".
    pub const fn more(self) -> Self {
        OptionText {
            place: Place::More,
            ..self
        }
    }

    /// The same option, not shown in a lobby.
    pub const fn hidden(self) -> Self {
        OptionText {
            place: Place::Hidden,
            ..self
        }
    }

    /// The same option with a label per choice.
    pub const fn choices(self, values: &'static [(&'static str, &'static str)]) -> Self {
        OptionText { values, ..self }
    }
}
