//! One shape per game of every document type that carries game-specific fields, so that a
//! typed client narrows a response by its `type` and gets that game's view, actions and
//! events (instead of a union of every game's, which generators cannot tell apart: a Tycoon
//! and an Acquire `turn_started` look the same).
//!
//! A *container* is a component with a `type` property (the game type) whose schema holds
//! game placeholders (`anyOf` of every game's schemas of one kind, [`crate::dto::schema`])
//! or refers to other containers. Each game gets a copy named `<Game><Container>`
//! (`TycoonGameDocument`) with `type` fixed to the game's name, every placeholder replaced
//! by the game's schema and every reference to a container by the game's copy; the
//! container itself becomes a `oneOf` of the copies, discriminated by `type`. Components
//! without `type` that the copies refer to and that hold placeholders (`EventDto`) get
//! per-game copies too, but stay as they are for places that take any game's.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use super::shape::{components, pascal, ref_name};

/// One hosted game's name and the component names of its config, action, event, view and
/// template union.
pub struct Game {
    pub name: String,
    pub kinds: [String; KINDS],
}

/// How many kinds of game-specific schema there are.
pub const KINDS: usize = 5;

/// The game placeholders: for each kind, the `$ref`s of every game's schema of that kind.
fn placeholder_sets(games: &[Game]) -> Vec<BTreeSet<String>> {
    (0..KINDS)
        .map(|kind| {
            games
                .iter()
                .map(|g| format!("#/components/schemas/{}", g.kinds[kind]))
                .collect()
        })
        .collect()
}

/// Which placeholder kind `schema` is, if it is one.
fn placeholder_kind(schema: &Map<String, Value>, sets: &[BTreeSet<String>]) -> Option<usize> {
    let Some(Value::Array(members)) = schema.get("anyOf") else {
        return None;
    };
    let refs: BTreeSet<String> = members
        .iter()
        .filter_map(|m| m.get("$ref").and_then(Value::as_str).map(str::to_string))
        .collect();
    sets.iter().position(|set| *set == refs)
}

fn holds_placeholder(schema: &Value, sets: &[BTreeSet<String>]) -> bool {
    match schema {
        Value::Object(map) => {
            placeholder_kind(map, sets).is_some()
                || map.values().any(|v| holds_placeholder(v, sets))
        }
        Value::Array(items) => items.iter().any(|v| holds_placeholder(v, sets)),
        _ => false,
    }
}

fn refers_to(schema: &Value, names: &BTreeSet<String>) -> bool {
    match schema {
        Value::Object(map) => {
            map.get("$ref")
                .and_then(Value::as_str)
                .and_then(ref_name)
                .is_some_and(|n| names.contains(n))
                || map.values().any(|v| refers_to(v, names))
        }
        Value::Array(items) => items.iter().any(|v| refers_to(v, names)),
        _ => false,
    }
}

/// `schema` for `game`: placeholders replaced by the game's schemas, references to
/// specialized components by the game's copies.
fn specialize(
    schema: &Value,
    game: &Game,
    sets: &[BTreeSet<String>],
    specialized: &BTreeSet<String>,
) -> Value {
    match schema {
        Value::Object(map) => {
            if let Some(kind) = placeholder_kind(map, sets) {
                let mut out = map.clone();
                out.remove("anyOf");
                out.remove("description");
                out.insert(
                    "$ref".into(),
                    json!(format!("#/components/schemas/{}", game.kinds[kind])),
                );
                return Value::Object(out);
            }
            if let Some(name) = map.get("$ref").and_then(Value::as_str).and_then(ref_name) {
                if specialized.contains(name) {
                    let mut out = map.clone();
                    out.insert(
                        "$ref".into(),
                        json!(format!("#/components/schemas/{}{name}", pascal(&game.name))),
                    );
                    return Value::Object(out);
                }
            }
            Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), specialize(v, game, sets, specialized)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| specialize(v, game, sets, specialized))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Adds every game's copy of every container and turns containers into discriminated
/// unions (see the module documentation).
pub fn specialize_containers(doc: &mut Value, games: &[Game]) {
    let sets = placeholder_sets(games);
    let comps = components(doc);
    let is_container = |s: &Value| s.pointer("/properties/type").is_some();
    // Components holding placeholders, then (until nothing changes) containers referring to
    // them (a list of containers, such as the catalogue, simply lists the union).
    let mut specialized: BTreeSet<String> = comps
        .iter()
        .filter(|(_, s)| holds_placeholder(s, &sets))
        .map(|(n, _)| n.clone())
        .collect();
    loop {
        let more: Vec<String> = comps
            .iter()
            .filter(|(n, s)| {
                !specialized.contains(*n) && is_container(s) && refers_to(s, &specialized)
            })
            .map(|(n, _)| n.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        specialized.extend(more);
    }
    let mut copies = Vec::new();
    for name in &specialized {
        let schema = &comps[name];
        let container = is_container(schema);
        for game in games {
            let mut copy = specialize(schema, game, &sets, &specialized);
            if container {
                copy["properties"]["type"] = json!({
                    "type": "string",
                    "const": game.name,
                    "description": "The game type."
                });
            }
            if let Some(d) = copy.get("description").and_then(Value::as_str) {
                copy["description"] = json!(format!("{d} ({})", game.name));
            }
            copies.push((format!("{}{name}", pascal(&game.name)), copy));
        }
    }
    for name in &specialized {
        if !is_container(&comps[name]) {
            continue;
        }
        let mapping: Map<String, Value> = games
            .iter()
            .map(|g| {
                (
                    g.name.clone(),
                    json!(format!("#/components/schemas/{}{name}", pascal(&g.name))),
                )
            })
            .collect();
        let description = comps[name].get("description").cloned();
        let mut union = json!({
            "oneOf": mapping.values().map(|r| json!({"$ref": r})).collect::<Vec<_>>(),
            "discriminator": {"propertyName": "type", "mapping": mapping},
        });
        if let Some(d) = description {
            union["description"] = d;
        }
        comps.insert(name.clone(), union);
    }
    comps.extend(copies);
}
