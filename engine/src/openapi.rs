//! OpenAPI schemas of every game's configuration, actions, events and views (feature `openapi`).

use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

/// A string schema limited to `ids` (city, ticket, tile and chain ids are strings in JSON).
pub(crate) fn string_enum(description: &str, ids: Vec<String>) -> RefOr<Schema> {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .description(Some(description))
        .enum_values(Some(ids))
        .into()
}

/// Named schemas per game, for the API document's `oneOf` over games.
pub struct GameSchemas {
    /// The game type name (`"tycoon"`).
    pub game: &'static str,
    pub config: String,
    pub action: String,
    pub event: String,
    pub view: String,
}

fn collect<T: ToSchema>(out: &mut Vec<(String, RefOr<Schema>)>) -> String {
    let name = T::name().into_owned();
    out.push((name.clone(), <T as PartialSchema>::schema()));
    T::schemas(out);
    name
}

/// The component schemas of every game, with everything they reference.
pub fn game_schemas() -> Vec<(String, RefOr<Schema>)> {
    collect_all().0
}

/// The schema names of each game's config, action, event and view.
pub fn game_schema_names() -> Vec<GameSchemas> {
    collect_all().1
}

fn collect_all() -> (Vec<(String, RefOr<Schema>)>, Vec<GameSchemas>) {
    use crate::tycoon;
    let mut out = Vec::new();
    let tycoon = GameSchemas {
        game: "tycoon",
        config: collect::<tycoon::Config>(&mut out),
        action: collect::<tycoon::Action>(&mut out),
        event: collect::<tycoon::Event>(&mut out),
        view: collect::<tycoon::View>(&mut out),
    };
    let acquire = GameSchemas {
        game: "acquire",
        config: collect::<crate::acquire::Config>(&mut out),
        action: collect::<crate::acquire::Action>(&mut out),
        event: collect::<crate::acquire::Event>(&mut out),
        view: collect::<crate::acquire::View>(&mut out),
    };
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    (out, vec![tycoon, acquire])
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
