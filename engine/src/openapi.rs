//! OpenAPI schemas of every game's configuration, actions, events and views (feature `openapi`).

pub use crate::schema::{Components, GameSchemas};

use utoipa::openapi::schema::{
    AnyOfBuilder, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, SchemaType, Type,
};
use utoipa::openapi::{Ref, RefOr};

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

/// An `anyOf` of every hosted game's schema of one kind: the placeholder the API document's
/// per-game pass replaces by one game's schema in each game's copy of a type
/// (`TycoonGameRecord.config` is a `TycoonConfig`).
fn any_game(kind: fn(&GameSchemas) -> &String, what: &str) -> Schema {
    let mut any = AnyOfBuilder::new().description(Some(format!(
        "{what}: one of the hosted games' schemas, chosen by the game's type."
    )));
    for game in game_schema_names() {
        any = any.item(Ref::from_schema_name(kind(&game).clone()));
    }
    any.build().into()
}

/// A record's `config`: the game's configuration.
pub fn any_config() -> Schema {
    any_game(|g| &g.config, "A game configuration")
}

/// A record's list of the game's events.
pub fn any_events() -> Schema {
    ArrayBuilder::new()
        .items(RefOr::T(any_game(|g| &g.event, "A game event")))
        .build()
        .into()
}

/// A table's chance outcomes (`setup_chance`, a move's `chance`): one value per draw, each
/// a number, an item as the events write it, or a pile (an array of items and `null`s).
pub fn chance_outcomes() -> Schema {
    ArrayBuilder::new()
        .items(RefOr::T(Schema::Object(
            ObjectBuilder::new()
                .schema_type(SchemaType::AnyValue)
                .description(Some(
                    "One draw's outcome: a die's face, a number, an item, or a pile's order",
                ))
                .build(),
        )))
        .build()
        .into()
}

/// A record move's `action`: the game's action, `null` for a commit of lifecycle events.
pub fn nullable_action() -> Schema {
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(any_game(|g| &g.action, "A game action"))
        .build()
        .into()
}

/// A record move's lifecycle events (the API document's `LifecycleEvent`).
pub fn lifecycle_events() -> Schema {
    ArrayBuilder::new()
        .items(Ref::from_schema_name("LifecycleEvent"))
        .build()
        .into()
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
