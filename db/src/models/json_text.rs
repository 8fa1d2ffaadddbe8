//! [`JsonText`], a `json` column read and written as its text. It exists so that snapshots
//! and stored responses go between PostgreSQL and the engine without a `serde_json::Value`
//! tree built and dropped on every request; the other row types share it.

use std::fmt;
use std::io::Write;

use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::pg::{Pg, PgValue};
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::Json;

/// A JSON document kept as its text, for a `json` column: stored and read back without
/// being parsed into a `serde_json::Value` on the way. Snapshots travel like this: the engine
/// reads the text straight into its own types and writes them straight back, which saves
/// building and dropping a tree of the whole state on every request. PostgreSQL validates the
/// text on every write.
#[derive(Clone, PartialEq, Eq, AsExpression, FromSqlRow)]
#[diesel(sql_type = Json)]
pub struct JsonText(String);

impl JsonText {
    /// Text the caller produced with a JSON serializer (the database refuses anything else).
    pub fn new(json: String) -> JsonText {
        JsonText(json)
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The JSON text, owned.
    pub fn into_string(self) -> String {
        self.0
    }

    /// Parsed into a tree, for inspection and tests.
    ///
    /// # Errors
    /// When the text is not JSON (impossible for text read from the database).
    pub fn to_value(&self) -> serde_json::Result<serde_json::Value> {
        serde_json::from_str(&self.0)
    }
}

impl From<&serde_json::Value> for JsonText {
    fn from(value: &serde_json::Value) -> JsonText {
        JsonText(value.to_string())
    }
}

impl From<serde_json::Value> for JsonText {
    fn from(value: serde_json::Value) -> JsonText {
        JsonText::from(&value)
    }
}

impl fmt::Debug for JsonText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl ToSql<Json, Pg> for JsonText {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        // The binary wire format of `json` is its text.
        out.write_all(self.0.as_bytes())?;
        Ok(IsNull::No)
    }
}

impl FromSql<Json, Pg> for JsonText {
    fn from_sql(bytes: PgValue<'_>) -> deserialize::Result<Self> {
        Ok(JsonText(String::from_utf8(bytes.as_bytes().to_vec())?))
    }
}
