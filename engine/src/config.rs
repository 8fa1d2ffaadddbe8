//! Reading a game's config as the rules version a game was created under reads it: the options
//! the creator names, every other one as that version's default (see "Changing a rule" in the
//! crate doc). Each game with versioned defaults says what they are (`Config::defaults` in its
//! `config.rs`); the reading is the same for all.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// `json`, a creator's config, over `defaults`: the options `json` names, the rest as in
/// `defaults`.
///
/// # Errors
/// When `json` is not an object of known options with valid values (serde would take an
/// array for the fields in order; a config is only ever an object).
pub(crate) fn read_over<C: Serialize + DeserializeOwned>(
    defaults: C,
    json: &Value,
) -> Result<C, serde_json::Error> {
    let Value::Object(given) = json else {
        return Err(serde::de::Error::custom(
            "a config is a JSON object of options",
        ));
    };
    let mut full = match serde_json::to_value(defaults) {
        Ok(Value::Object(defaults)) => defaults,
        _ => unreachable!("a config serializes to an object"),
    };
    full.extend(given.clone());
    C::deserialize(Value::Object(full))
}
