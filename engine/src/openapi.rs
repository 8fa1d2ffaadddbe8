//! OpenAPI schemas of every game's configuration, actions, events and views (feature `openapi`).

pub use crate::schema::{Components, GameSchemas};

/// The component schemas of every hosted game, with everything they reference, sorted by name.
pub fn game_schemas() -> Components {
    collect_all().0
}

/// The schema names of each hosted game's config, action, event and view, in catalogue order.
pub fn game_schema_names() -> Vec<GameSchemas> {
    collect_all().1
}

/// The schema of a field naming a game type: a reference to the API document's
/// `GameTypeName` (the string enum of the hosted types, which the API defines).
pub fn game_type_name() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::Ref::from_schema_name("GameTypeName").into()
}

fn collect_all() -> (Components, Vec<GameSchemas>) {
    let mut out = Vec::new();
    let names = crate::registry::all()
        .iter()
        .map(|game| game.schemas(&mut out))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    (out, names)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_game_schema_is_present_and_tagged_unions_are_one_of() {
        let schemas = super::game_schemas();
        let names: Vec<&str> = schemas.iter().map(|(n, _)| n.as_str()).collect();
        for name in [
            "TycoonAction",
            "TycoonEvent",
            "TycoonView",
            "TycoonConfig",
            "TycoonCity",
            "TycoonTicket",
        ] {
            assert!(names.contains(&name), "{name} missing from {names:?}");
        }
        let action = &schemas.iter().find(|(n, _)| n == "TycoonAction").unwrap().1;
        let json = serde_json::to_value(action).unwrap();
        assert!(json.get("oneOf").is_some(), "{json}");
    }
}
