//! Board data (cities, tickets, tiles, chains, cards) travels as its data file's string ids
//! and lives in states as small indices. Reading an id must not allocate: a Tycoon snapshot
//! holds dozens of tickets, and the server reads one snapshot per request.
//!
//! A game says what its id type is ([`StringId`]: what one is called, its id, how an id is
//! found, every id), and [`string_ids!`] gives the type its JSON form and its schema.

use std::collections::HashMap;

use serde::de::{self, Deserializer, Visitor};

/// Board data that travels in JSON as one of its data file's string ids (a city `"BER"`, a
/// ticket `"S09"`) and lives in states as a small index.
pub(crate) trait StringId: Copy + 'static {
    /// What one is called in an error ("unknown city `X`") and a schema's description.
    const WHAT: &'static str;
    /// Its schema's name in the API document (`TycoonCity`).
    #[cfg_attr(not(feature = "openapi"), allow(dead_code))]
    const SCHEMA_NAME: &'static str;
    /// Its schema's description: what the ids look like.
    #[cfg_attr(not(feature = "openapi"), allow(dead_code))]
    const SCHEMA_DESCRIPTION: &'static str;

    /// Its id in the data file.
    fn id(self) -> &'static str;

    /// The one with `id`, if the data file has it.
    fn from_id(id: &str) -> Option<Self>;

    /// Every id, in the data file's order (the values of the schema).
    #[cfg_attr(not(feature = "openapi"), allow(dead_code))]
    fn all_ids() -> impl Iterator<Item = &'static str>;
}

/// Implements `Serialize` (the id), `Deserialize` (through [`deserialize`], refusing an
/// unknown id) and, with the `openapi` feature, the schema (a string limited to every id) for
/// each [`StringId`] type named.
macro_rules! string_ids {
    ($($ty:ty),+ $(,)?) => {$(
        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($crate::data_id::StringId::id(*self))
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::data_id::deserialize(
                    d,
                    <$ty as $crate::data_id::StringId>::WHAT,
                    <$ty as $crate::data_id::StringId>::from_id,
                )
            }
        }

        #[cfg(feature = "openapi")]
        impl ::utoipa::PartialSchema for $ty {
            fn schema() -> ::utoipa::openapi::RefOr<::utoipa::openapi::schema::Schema> {
                $crate::schema::string_enum(
                    <$ty as $crate::data_id::StringId>::SCHEMA_DESCRIPTION,
                    <$ty as $crate::data_id::StringId>::all_ids()
                        .map(str::to_string)
                        .collect(),
                )
            }
        }

        #[cfg(feature = "openapi")]
        impl ::utoipa::ToSchema for $ty {
            fn name() -> ::std::borrow::Cow<'static, str> {
                <$ty as $crate::data_id::StringId>::SCHEMA_NAME.into()
            }
        }
    )+};
}

pub(crate) use string_ids;

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
    use super::StringId;

    /// A stand-in for a data type: ids "a" and "b".
    #[derive(Debug, Clone, Copy, PartialEq)]
    struct Letter(u8);

    impl StringId for Letter {
        const WHAT: &'static str = "letter";
        const SCHEMA_NAME: &'static str = "Letter";
        const SCHEMA_DESCRIPTION: &'static str = "a or b";

        fn id(self) -> &'static str {
            ["a", "b"][usize::from(self.0)]
        }

        fn from_id(id: &str) -> Option<Letter> {
            match id {
                "a" => Some(Letter(0)),
                "b" => Some(Letter(1)),
                _ => None,
            }
        }

        fn all_ids() -> impl Iterator<Item = &'static str> {
            ["a", "b"].into_iter()
        }
    }

    string_ids!(Letter);

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
    fn ids_are_written_as_their_id() {
        assert_eq!(
            serde_json::to_string(&[Letter(1), Letter(0)]).unwrap(),
            r#"["b","a"]"#
        );
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

    #[cfg(feature = "openapi")]
    #[test]
    fn the_schema_is_a_string_limited_to_every_id() {
        use utoipa::{PartialSchema, ToSchema};
        assert_eq!(Letter::name(), "Letter");
        let schema = serde_json::to_value(Letter::schema()).unwrap();
        assert_eq!(schema["type"], "string");
        assert_eq!(schema["enum"], serde_json::json!(["a", "b"]));
        assert_eq!(schema["description"], "a or b");
    }
}
