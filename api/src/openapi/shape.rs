//! Generic reshaping of the derived schemas into forms every client generator accepts, on
//! the document as JSON. Nothing here names a game or a type: each rule applies wherever its
//! pattern occurs, so new games and new types are shaped the same way.
//!
//! - `oneOf` with a single member (utoipa's way of carrying a default or a description next
//!   to a `$ref`) becomes the member itself with those keywords beside it (OpenAPI 3.1 allows
//!   siblings of `$ref`).
//! - `allOf` whose members are all objects (serde's `flatten`, and a tagged enum's newtype
//!   variant such as `{"stage": "turn", ...Turn}`) becomes one flat object: generators such as
//!   openapi-python-client refuse `allOf` inside a union.
//! - A `oneOf` whose members are all objects with a common, required, single-valued string
//!   property (serde's tag) is a tagged union: each inline member becomes a component named
//!   after the union and its tag value (`TycoonAction` + `buy_ticket` = `TycoonActionBuyTicket`)
//!   and the union gets a `discriminator` with an explicit mapping.
//! - A one-value `enum` becomes `const`, so that typed clients get a literal type.

use serde_json::{json, Map, Value};

/// Applies every rule of the module documentation, in order.
pub fn shape(doc: &mut Value) {
    visit(doc, &mut inline_single_one_of);
    // A flattened member may itself have been an `allOf`: a few passes reach the bottom.
    for _ in 0..3 {
        flatten_all_of(doc);
    }
    name_tagged_unions(doc);
    visit(doc, &mut enum_of_one_to_const);
}

/// Drops the components nothing refers to (the sources of flattened objects, per-game copies
/// no document uses), except those in `keep`: generators would make types of them that no
/// operation returns.
pub fn prune_unreferenced(doc: &mut Value, keep: &[&str]) {
    loop {
        let mut used: std::collections::BTreeSet<String> =
            keep.iter().map(|k| k.to_string()).collect();
        collect_refs(doc, &mut used);
        let comps = components(doc);
        let before = comps.len();
        comps.retain(|name, _| used.contains(name));
        if comps.len() == before {
            return;
        }
    }
}

fn collect_refs(value: &Value, out: &mut std::collections::BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                if let (true, Some(name)) = (k == "$ref", v.as_str().and_then(ref_name)) {
                    out.insert(name.to_string());
                }
                if k == "mapping" {
                    for target in v.as_object().into_iter().flat_map(|m| m.values()) {
                        if let Some(name) = target.as_str().and_then(ref_name) {
                            out.insert(name.to_string());
                        }
                    }
                }
                collect_refs(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// Applies `f` to every JSON object in `value`, children first.
pub fn visit(value: &mut Value, f: &mut impl FnMut(&mut Map<String, Value>)) {
    match value {
        Value::Object(map) => {
            for child in map.values_mut() {
                visit(child, f);
            }
            f(map);
        }
        Value::Array(items) => {
            for item in items {
                visit(item, f);
            }
        }
        _ => {}
    }
}

fn inline_single_one_of(map: &mut Map<String, Value>) {
    let single = matches!(map.get("oneOf"), Some(Value::Array(m)) if m.len() == 1);
    if !single {
        return;
    }
    let Some(Value::Array(mut members)) = map.remove("oneOf") else {
        return;
    };
    if let Some(Value::Object(member)) = members.pop() {
        for (k, v) in member {
            map.entry(k).or_insert(v);
        }
    }
}

/// The component schemas, by name.
pub fn components(doc: &mut Value) -> &mut Map<String, Value> {
    if !doc["components"]["schemas"].is_object() {
        doc["components"]["schemas"] = json!({});
    }
    doc["components"]["schemas"]
        .as_object_mut()
        .expect("just made an object")
}

/// The component a `$ref` names.
pub fn ref_name(reference: &str) -> Option<&str> {
    reference.strip_prefix("#/components/schemas/")
}

/// `schema`, or the component it refers to.
fn resolved<'a>(schema: &'a Value, components: &'a Map<String, Value>) -> &'a Value {
    match schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(ref_name)
    {
        Some(name) => components.get(name).unwrap_or(schema),
        None => schema,
    }
}

fn is_object_schema(schema: &Value) -> bool {
    schema.get("properties").is_some() && schema.get("oneOf").is_none()
}

fn flatten_all_of(doc: &mut Value) {
    // Resolving needs the components as they are; flattened results only replace `allOf`
    // nodes, whose members are never themselves rewritten, so one snapshot suffices.
    let snapshot = components(doc).clone();
    visit(doc, &mut |map| {
        let Some(Value::Array(members)) = map.get("allOf") else {
            return;
        };
        let members: Vec<Value> = members
            .iter()
            .map(|m| resolved(m, &snapshot).clone())
            .collect();
        if !members.iter().all(is_object_schema) {
            return;
        }
        map.remove("allOf");
        let mut properties = Map::new();
        let mut required: Vec<Value> = Vec::new();
        for member in &members {
            if let Some(Value::Object(p)) = member.get("properties") {
                properties.extend(p.clone());
            }
            if let Some(Value::Array(r)) = member.get("required") {
                for name in r {
                    if !required.contains(name) {
                        required.push(name.clone());
                    }
                }
            }
            if let Some(d) = member.get("description") {
                map.entry("description").or_insert_with(|| d.clone());
            }
        }
        map.insert("type".into(), json!("object"));
        map.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            map.insert("required".into(), Value::Array(required));
        }
    });
}

/// The single string value a property schema allows, if it allows exactly one.
fn single_value(property: &Value) -> Option<&str> {
    if let Some(v) = property.get("const") {
        return v.as_str();
    }
    match property.get("enum") {
        Some(Value::Array(values)) if values.len() == 1 => values[0].as_str(),
        _ => None,
    }
}

/// The tag property of a union's members and each member's tag value, if every member is an
/// object that requires one common single-valued string property with distinct values.
fn tag_of(members: &[&Value]) -> Option<(String, Vec<String>)> {
    let first = members.first()?;
    let candidates = first.get("properties")?.as_object()?.keys();
    'candidates: for candidate in candidates {
        let mut values = Vec::new();
        for member in members {
            let required = member
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|n| n == candidate.as_str()));
            let value = member
                .pointer(&format!("/properties/{candidate}"))
                .and_then(single_value);
            match (required, value) {
                (true, Some(v)) if !values.iter().any(|x| x == v) => values.push(v.to_string()),
                _ => continue 'candidates,
            }
        }
        return Some((candidate.clone(), values));
    }
    None
}

/// `snake_case` or `kebab-case` to `PascalCase`.
pub fn pascal(name: &str) -> String {
    name.split(['_', '-', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_uppercase().chain(chars).collect::<String>()
            })
        })
        .collect()
}

fn name_tagged_unions(doc: &mut Value) {
    let names: Vec<String> = components(doc).keys().cloned().collect();
    for name in names {
        let comps = components(doc);
        let schema = &comps[&name];
        if schema.get("discriminator").is_some() {
            continue;
        }
        let Some(Value::Array(members)) = schema.get("oneOf") else {
            continue;
        };
        let members = members.clone();
        let views: Vec<&Value> = members.iter().map(|m| resolved(m, comps)).collect();
        let Some((tag, values)) = tag_of(&views) else {
            continue;
        };
        let mut refs = Vec::new();
        let mut mapping = Map::new();
        let mut new_components = Vec::new();
        for (member, value) in members.into_iter().zip(&values) {
            let reference = match member.get("$ref").and_then(Value::as_str) {
                Some(r) => r.to_string(),
                None => {
                    let variant = format!("{name}{}", pascal(value));
                    assert!(
                        !comps.contains_key(&variant),
                        "variant schema {variant} would replace an existing schema"
                    );
                    new_components.push((variant.clone(), member));
                    format!("#/components/schemas/{variant}")
                }
            };
            mapping.insert(value.clone(), json!(reference));
            refs.push(json!({ "$ref": reference }));
        }
        comps.extend(new_components);
        let union = comps[&name].as_object_mut().expect("a union is an object");
        union.insert("oneOf".into(), Value::Array(refs));
        union.insert(
            "discriminator".into(),
            json!({ "propertyName": tag, "mapping": mapping }),
        );
    }
}

fn enum_of_one_to_const(map: &mut Map<String, Value>) {
    let single = matches!(map.get("enum"), Some(Value::Array(v)) if v.len() == 1);
    if single {
        if let Some(Value::Array(mut values)) = map.remove("enum") {
            map.insert("const".into(), values.remove(0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tagged_union_gets_named_variants_and_a_discriminator() {
        let mut doc = json!({"components": {"schemas": {
            "Turn": {"type": "object", "required": ["seat"], "properties": {"seat": {"type": "integer"}}},
            "Stage": {"oneOf": [
                {"type": "object", "required": ["stage"], "properties": {"stage": {"type": "string", "enum": ["setup"]}}},
                {"allOf": [{"$ref": "#/components/schemas/Turn"},
                           {"type": "object", "required": ["stage"], "properties": {"stage": {"type": "string", "enum": ["turn"]}}}]}
            ]},
            "Config": {"type": "object", "properties": {"mode": {"oneOf": [{"$ref": "#/components/schemas/Turn"}], "default": 1}}}
        }}});
        shape(&mut doc);
        let s = &doc["components"]["schemas"];
        assert_eq!(
            s["Stage"]["discriminator"],
            json!({"propertyName": "stage", "mapping": {
                "setup": "#/components/schemas/StageSetup", "turn": "#/components/schemas/StageTurn"}})
        );
        assert_eq!(s["StageTurn"]["required"], json!(["seat", "stage"]));
        assert_eq!(
            s["StageTurn"]["properties"]["stage"]["const"],
            json!("turn")
        );
        assert!(s["StageTurn"].get("allOf").is_none());
        assert_eq!(
            s["Config"]["properties"]["mode"],
            json!({"$ref": "#/components/schemas/Turn", "default": 1})
        );
    }

    #[test]
    fn unions_without_a_common_tag_are_left_alone() {
        let mut doc = json!({"components": {"schemas": {
            "Either": {"oneOf": [{"type": "null"}, {"type": "object", "properties": {"a": {"enum": ["x"]}}, "required": ["a"]}]}
        }}});
        shape(&mut doc);
        assert!(doc["components"]["schemas"]["Either"]
            .get("discriminator")
            .is_none());
        assert_eq!(pascal("buy_ticket"), "BuyTicket");
    }
}
