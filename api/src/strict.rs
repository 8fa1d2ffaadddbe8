//! Strict input, checked against the OpenAPI document's own schemas: where the document says
//! object, an array (or anything else) is refused, and an object may only have the properties
//! its schema lists, at every depth. serde alone lets both through in places: a struct also
//! deserializes from an array of its fields, and an internally tagged enum ignores extra
//! fields of its unit variants (`{"type": "end_turn", "x": 1}`).
//!
//! The check is structural only (objects, arrays, property names, union variants chosen by
//! their discriminator); value types and ranges are serde's and the engine's business. Game
//! placeholders (`anyOf` of every game's schemas, see [`crate::dto::schema`]) are not
//! checked here: they are checked against the one game's schema once the game is known
//! ([`Schemas::check`] with that schema's name).

use std::fmt;

use serde_json::{Map, Value};

/// The component schemas of the OpenAPI document, and each game's action schema name.
pub struct Schemas {
    components: Map<String, Value>,
    actions: Vec<(String, String)>,
}

/// Why a value does not have its schema's shape, with the JSON path to the spot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError {
    /// Where, as `body.seats[1].name`.
    pub path: String,
    /// What is wrong there.
    pub problem: String,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.problem)
    }
}

impl Schemas {
    /// The component schemas of `document` (an OpenAPI document as JSON); `actions` names
    /// each game's action schema (`("tycoon", "TycoonAction")`).
    pub fn new(document: &Value, actions: Vec<(String, String)>) -> Schemas {
        let components = document
            .pointer("/components/schemas")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        Schemas {
            components,
            actions,
        }
    }

    /// Checks an action of a game of type `game` against that game's action schema.
    ///
    /// # Errors
    /// As [`Schemas::check`], with paths starting at `action`.
    pub fn check_action(&self, game: &str, action: &Value) -> Result<(), ShapeError> {
        let schema = self
            .actions
            .iter()
            .find(|(g, _)| g == game)
            .and_then(|(_, name)| self.components.get(name));
        match schema {
            Some(schema) => self.walk(schema, action, &mut String::from("action")),
            None => Ok(()),
        }
    }

    /// Checks `value` against component schema `name` (a name with no schema accepts
    /// anything: there is nothing to hold it to).
    ///
    /// # Errors
    /// The first place where `value` does not have the schema's shape.
    pub fn check(&self, name: &str, value: &Value) -> Result<(), ShapeError> {
        match self.components.get(name) {
            Some(schema) => self.walk(schema, value, &mut String::from("body")),
            None => Ok(()),
        }
    }

    fn resolve<'a>(&'a self, reference: &str) -> Option<&'a Value> {
        reference
            .strip_prefix("#/components/schemas/")
            .and_then(|name| self.components.get(name))
    }

    fn walk(&self, schema: &Value, value: &Value, path: &mut String) -> Result<(), ShapeError> {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            return match self.resolve(reference) {
                Some(target) => self.walk(target, value, path),
                None => Ok(()),
            };
        }
        if schema.get("anyOf").is_some() {
            return Ok(()); // a game placeholder: checked once the game is known
        }
        if let Some(members) = schema.get("allOf").and_then(Value::as_array) {
            for member in members {
                self.walk(member, value, path)?;
            }
        }
        if let Some(members) = schema.get("oneOf").and_then(Value::as_array) {
            return self.one_of(schema, members, value, path);
        }
        let types = types_of(schema);
        if value.is_null() && types.contains(&"null") {
            return Ok(());
        }
        if types.contains(&"object") || schema.get("properties").is_some() {
            let Some(object) = value.as_object() else {
                return Err(ShapeError {
                    path: path.clone(),
                    problem: format!("expected an object, not {}", kind(value)),
                });
            };
            return self.object(schema, object, path);
        }
        if types.contains(&"array") {
            let Some(items) = value.as_array() else {
                return Err(ShapeError {
                    path: path.clone(),
                    problem: format!("expected an array, not {}", kind(value)),
                });
            };
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    self.walk(item_schema, item, path)?;
                    path.truncate(len);
                }
            }
            return Ok(());
        }
        if !types.is_empty() && (value.is_object() || value.is_array()) {
            return Err(ShapeError {
                path: path.clone(),
                problem: format!("expected {}, not {}", types.join(" or "), kind(value)),
            });
        }
        Ok(())
    }

    fn object(
        &self,
        schema: &Value,
        object: &Map<String, Value>,
        path: &mut String,
    ) -> Result<(), ShapeError> {
        let properties = schema.get("properties").and_then(Value::as_object);
        let additional = schema.get("additionalProperties");
        for (key, value) in object {
            let len = path.len();
            path.push('.');
            path.push_str(key);
            match (properties.and_then(|p| p.get(key)), additional) {
                (Some(property), _) => self.walk(property, value, path)?,
                (None, Some(Value::Bool(true))) => {}
                (None, Some(extra)) if extra.is_object() => self.walk(extra, value, path)?,
                // Listed properties and nothing said about others: our objects are closed.
                (None, _) if properties.is_some() || additional == Some(&Value::Bool(false)) => {
                    path.truncate(len);
                    return Err(ShapeError {
                        path: path.clone(),
                        problem: format!("unknown field `{key}`"),
                    });
                }
                (None, _) => {}
            }
            path.truncate(len);
        }
        Ok(())
    }

    /// A tagged union is checked against the variant its discriminator names; any other
    /// `oneOf` (`null` or a value, untagged shapes) passes when some member passes.
    fn one_of(
        &self,
        schema: &Value,
        members: &[Value],
        value: &Value,
        path: &mut String,
    ) -> Result<(), ShapeError> {
        if let Some(discriminator) = schema.get("discriminator") {
            let property = discriminator["propertyName"].as_str().unwrap_or_default();
            let Some(object) = value.as_object() else {
                return Err(ShapeError {
                    path: path.clone(),
                    problem: format!("expected an object, not {}", kind(value)),
                });
            };
            let tag = object.get(property).and_then(Value::as_str);
            let target = tag.and_then(|t| discriminator["mapping"][t].as_str());
            return match target.and_then(|r| self.resolve(r)) {
                Some(variant) => self.walk(variant, value, path),
                // An unknown or missing tag: serde names the expected variants.
                None => Ok(()),
            };
        }
        let mut first_error = None;
        for member in members {
            match self.walk(member, value, path) {
                Ok(()) => return Ok(()),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}

fn types_of(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schemas() -> Schemas {
        Schemas::new(
            &json!({"components": {"schemas": {
                "Body": {"type": "object", "required": ["action"], "properties": {
                    "action": {"$ref": "#/components/schemas/Action"},
                    "game": {"anyOf": [{"$ref": "#/components/schemas/Action"}]},
                    "list": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}},
                    "maybe": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Item"}]},
                    "map": {"type": "object", "additionalProperties": {"type": "integer"}}
                }},
                "Item": {"type": "object", "properties": {"name": {"type": "string"}}},
                "Action": {"oneOf": [
                    {"$ref": "#/components/schemas/EndTurn"},
                    {"$ref": "#/components/schemas/Buy"}
                ], "discriminator": {"propertyName": "type", "mapping": {
                    "end_turn": "#/components/schemas/EndTurn",
                    "buy": "#/components/schemas/Buy"
                }}},
                "EndTurn": {"type": "object", "properties": {"type": {"const": "end_turn"}}},
                "Buy": {"type": "object", "properties": {"type": {"const": "buy"}, "ticket": {}}}
            }}}),
            vec![("game".into(), "Action".into())],
        )
    }

    #[test]
    fn objects_with_only_their_listed_fields_pass() {
        let s = schemas();
        let body = json!({"action": {"type": "buy", "ticket": "S01"}, "list": [{"name": "a"}],
                          "maybe": null, "map": {"any": 1}, "game": {"whatever": [1]}});
        assert_eq!(s.check("Body", &body), Ok(()));
    }

    #[test]
    fn unknown_fields_are_refused_even_on_variants_without_fields() {
        let s = schemas();
        let e = s
            .check("Body", &json!({"action": {"type": "end_turn", "x": 1}}))
            .unwrap_err();
        assert_eq!(e.to_string(), "body.action: unknown field `x`");
        let e = s
            .check(
                "Body",
                &json!({"action": {"type": "buy"}, "list": [{"nam": "a"}]}),
            )
            .unwrap_err();
        assert_eq!(e.path, "body.list[0]");
    }

    #[test]
    fn an_action_is_checked_against_its_games_action_schema() {
        let s = schemas();
        assert_eq!(s.check_action("game", &json!({"type": "end_turn"})), Ok(()));
        let e = s
            .check_action("game", &json!({"type": "end_turn", "x": 1}))
            .unwrap_err();
        assert_eq!(e.to_string(), "action: unknown field `x`");
    }

    #[test]
    fn arrays_where_objects_are_required_are_refused() {
        let s = schemas();
        let e = s.check("Body", &json!(["buy", null])).unwrap_err();
        assert_eq!(e.problem, "expected an object, not an array");
        let e = s
            .check("Body", &json!({"action": ["end_turn"]}))
            .unwrap_err();
        assert_eq!(e.path, "body.action");
        let e = s
            .check("Body", &json!({"action": {"type": "buy"}, "maybe": [1]}))
            .unwrap_err();
        assert_eq!(e.path, "body.maybe");
    }
}
