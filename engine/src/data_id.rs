//! Board data (cities, tickets, tiles, chains, cards) travels as its data file's string ids
//! and lives in states as small indices. Reading an id must not allocate: a Tycoon snapshot
//! holds dozens of tickets, and the server reads one snapshot per request.

use std::collections::HashMap;

use serde::de::{self, Deserializer, Visitor};

/// The position of each id in a list of board data, for reading ids in constant time (a
/// linear search comparing strings was a third of the time to read a Tycoon snapshot).
#[derive(Debug, Clone, Default)]
pub struct IdIndex(HashMap<Box<str>, u8>);

impl IdIndex {
    /// Indexes `ids` by their position (at most 256 of them: board data is indexed by `u8`).
    ///
    /// # Panics
    /// With more than 256 ids.
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a str>) -> IdIndex {
        IdIndex(
            ids.into_iter()
                .enumerate()
                .map(|(i, id)| (id.into(), u8::try_from(i).expect("at most 256 ids")))
                .collect(),
        )
    }

    /// The position of `id`.
    pub fn get(&self, id: &str) -> Option<u8> {
        self.0.get(id).copied()
    }
}

/// Reads a string id and looks it up with `lookup`; an id the data file does not know is an
/// error naming `what` ("unknown ticket `X99`"). The id is borrowed from the input (or from
/// the parser's scratch buffer), never copied into a `String`, unlike `Cow<str>`'s
/// `Deserialize`, which always allocates.
///
/// # Errors
/// When the input is not a string, or an unknown id.
pub fn deserialize<'de, D, T>(
    d: D,
    what: &'static str,
    lookup: impl Fn(&str) -> Option<T>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    d.deserialize_str(IdVisitor { what, lookup })
}

struct IdVisitor<F> {
    what: &'static str,
    lookup: F,
}

impl<'de, T, F: Fn(&str) -> Option<T>> Visitor<'de> for IdVisitor<F> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a {} id", self.what)
    }

    fn visit_str<E: de::Error>(self, id: &str) -> Result<T, E> {
        (self.lookup)(id).ok_or_else(|| E::custom(format!("unknown {} `{id}`", self.what)))
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    /// A stand-in for a data type: ids "a" and "b".
    #[derive(Debug, PartialEq)]
    struct Letter(u8);

    impl<'de> Deserialize<'de> for Letter {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            super::deserialize(d, "letter", |id| match id {
                "a" => Some(Letter(0)),
                "b" => Some(Letter(1)),
                _ => None,
            })
        }
    }

    #[test]
    fn an_index_finds_each_id_at_its_position_and_nothing_else() {
        let index = super::IdIndex::new(["x", "y", "z"]);
        assert_eq!(
            ["x", "y", "z", "w"].map(|id| index.get(id)),
            [Some(0), Some(1), Some(2), None]
        );
    }

    #[test]
    fn ids_read_borrowed_escaped_and_owned_alike() {
        let letters: Vec<Letter> = serde_json::from_str(r#"["a", "\u0062"]"#).unwrap();
        assert_eq!(letters, [Letter(0), Letter(1)]);
        let owned: Letter = serde_json::from_value(serde_json::json!("b")).unwrap();
        assert_eq!(owned, Letter(1));
    }

    #[test]
    fn unknown_ids_and_non_strings_are_refused_with_what_they_are() {
        let unknown = serde_json::from_str::<Letter>(r#""z""#).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown letter `z`"),
            "{unknown}"
        );
        let number = serde_json::from_str::<Letter>("3").unwrap_err();
        assert!(number.to_string().contains("a letter id"), "{number}");
    }
}
