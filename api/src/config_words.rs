//! A game's config schema in players' words, as the catalogue serves it: each option's
//! `title` and `description` are the game's [`OptionText`], each named choice a `const` with
//! its own `title`, and the developer's description (rule IDs, where a rule comes from) moves
//! to `$comment`, which JSON Schema keeps for notes that are not for display. A lobby builds
//! its form from this schema alone and shows players no rule IDs; the OpenAPI document's
//! component schemas keep the developer's words.
//!
//! `x-lobby` marks where a lobby shows an option that is not one players usually choose:
//! `"more"` (under "more options") or `"hidden"` (the lobby sets it otherwise: the seat count);
//! `x-order` is the option's place in the game's own list (a JSON object has no order).

use engine::options::{OptionText, Place};
use serde_json::{json, Map, Value};

/// `schema` (a standalone config schema, `$defs` inside) with `options`' words put in.
pub fn worded(mut schema: Value, options: &[OptionText]) -> Value {
    let Some(root) = schema.as_object_mut() else {
        return schema;
    };
    let mut defs = root
        .remove("$defs")
        .and_then(|d| match d {
            Value::Object(map) => Some(map),
            _ => None,
        })
        .unwrap_or_default();
    if let Some(Value::Object(properties)) = root.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            let Some(order) = options.iter().position(|o| o.name == name) else {
                continue;
            };
            if let Value::Object(property) = property {
                word_property(property, &options[order], &mut defs);
                property.insert("x-order".into(), json!(order));
            }
        }
    }
    if !defs.is_empty() {
        root.insert("$defs".into(), Value::Object(defs));
    }
    if let Some(notes) = root.remove("description") {
        root.insert("$comment".into(), notes);
    }
    schema
}

fn word_property(
    property: &mut Map<String, Value>,
    text: &OptionText,
    defs: &mut Map<String, Value>,
) {
    if let Some(Value::String(notes)) = property.remove("description") {
        property.insert("$comment".into(), Value::String(notes));
    }
    property.insert("title".into(), json!(text.title));
    property.insert("description".into(), json!(text.help));
    match text.place {
        Place::Main => {}
        Place::More => {
            property.insert("x-lobby".into(), json!("more"));
        }
        Place::Hidden => {
            property.insert("x-lobby".into(), json!("hidden"));
        }
    }
    if text.values.is_empty() {
        return;
    }
    // The choices live in the property or in the `$defs` entry it refers to.
    let target = match property.get("$ref").and_then(Value::as_str) {
        Some(r) => r
            .strip_prefix("#/$defs/")
            .and_then(|name| defs.get_mut(name))
            .and_then(Value::as_object_mut),
        None => Some(property),
    };
    if let Some(target) = target {
        name_choices(target, text.values);
    }
}

/// `{"enum": ["a", "b"]}` (or a single `const`) as `{"oneOf": [{"const": "a", "title": …}, …]}`;
/// its developer's description becomes a `$comment` too.
fn name_choices(schema: &mut Map<String, Value>, labels: &[(&str, &str)]) {
    if let Some(notes) = schema.remove("description") {
        schema.insert("$comment".into(), notes);
    }
    let values: Vec<Value> = match (schema.remove("enum"), schema.remove("const")) {
        (Some(Value::Array(values)), _) => values,
        (_, Some(single)) => vec![single],
        (other, _) => {
            if let Some(other) = other {
                schema.insert("enum".into(), other);
            }
            return;
        }
    };
    let choices = values
        .into_iter()
        .map(|value| {
            let title = value
                .as_str()
                .and_then(|v| labels.iter().find(|(key, _)| *key == v))
                .map(|(_, label)| *label);
            match title {
                Some(title) => json!({ "const": value, "title": title }),
                None => json!({ "const": value }),
            }
        })
        .collect();
    schema.insert("oneOf".into(), Value::Array(choices));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule ID (`MO-END-2`, `TR-D-4`, `L2`), a section sign or a provenance tag: words a
    /// player must not be shown.
    fn names_a_rule(text: &str) -> bool {
        let id = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .any(|w| {
                let parts: Vec<&str> = w.split('-').collect();
                parts.len() >= 2
                    && parts[0].len() == 2
                    && parts[0].chars().all(|c| c.is_ascii_uppercase())
                    && parts.iter().any(|p| p.chars().any(|c| c.is_ascii_digit()))
            });
        id || text.contains('§')
            || ["SEED", "SOURCED", "RECONSTRUCTED", "PUBLIC", "DERIVED"]
                .iter()
                .any(|tag| text.contains(tag))
    }

    #[test]
    fn rule_ids_and_provenance_are_recognised() {
        assert!(names_a_rule("End after this (MO-END-2)."));
        assert!(names_a_rule("see TR-D-4"));
        assert!(names_a_rule("SOURCED: 12"));
        assert!(names_a_rule("SEED §V1"));
        assert!(!names_a_rule(
            "Money each player starts with, from M 1 to M 1,000,000."
        ));
        assert!(!names_a_rule("Row 5, column 2"));
    }

    /// Every option of every hosted game has a label and help, no words for options that do
    /// not exist, a label for every named choice, and nothing a player should not read.
    #[test]
    fn every_option_of_every_game_is_worded_for_players() {
        let names = engine::openapi::game_schema_names();
        for game in engine::registry::all() {
            let info = game.info();
            let config = &names.iter().find(|n| n.game == info.name).unwrap().config;
            let schema = worded(crate::openapi::standalone_schema(config), info.options);
            let properties = schema["properties"].as_object().unwrap();
            let mut worded_names: Vec<&str> = info.options.iter().map(|o| o.name).collect();
            worded_names.sort_unstable();
            let mut keys: Vec<&str> = properties.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(
                worded_names, keys,
                "{}: options and their words differ",
                info.name
            );
            for (name, property) in properties {
                for key in ["title", "description"] {
                    let text = property[key].as_str().unwrap_or_default();
                    assert!(!text.is_empty(), "{}.{name} has no {key}", info.name);
                    assert!(
                        !names_a_rule(text),
                        "{}.{name}'s {key} names a rule: {text}",
                        info.name
                    );
                }
                let choices = property
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix("#/$defs/"))
                    .map_or(property, |def| &schema["$defs"][def]);
                if let Some(choices) = choices["oneOf"].as_array() {
                    for choice in choices {
                        let title = choice["title"].as_str().unwrap_or_default();
                        assert!(
                            !title.is_empty() && !names_a_rule(title),
                            "{}.{name}: choice {} has no label for players",
                            info.name,
                            choice["const"]
                        );
                    }
                }
                assert!(
                    choices.get("enum").is_none(),
                    "{}.{name}: choices left unnamed",
                    info.name
                );
            }
        }
    }
}
