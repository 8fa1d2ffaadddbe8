//! Schemas of the game-specific fields. Each is an `anyOf` of every hosted game's schema of
//! one kind (action, event, view, config): the placeholder that
//! [`crate::openapi`]'s per-game pass replaces by one game's schema in each game's copy of a
//! document type (`TycoonGameDocument.view` is a `TycoonView`).
//!
//! `anyOf`, not `oneOf`: the game is chosen by the game's type, not by the value, and two
//! games' schemas may both accept one value (`{"type": "turn_started", "seat": 0}` is a Tycoon
//! and an Acquire event), which `oneOf` would make invalid.

use serde_json::json;
use utoipa::openapi::schema::{
    AnyOfBuilder, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type,
};
use utoipa::openapi::{Ref, RefOr};

fn any_game(kind: fn(&engine::openapi::GameSchemas) -> &String, what: &str) -> Schema {
    let mut b = AnyOfBuilder::new().description(Some(format!(
        "{what}: one of the hosted games' schemas, chosen by the game's type."
    )));
    for g in engine::openapi::game_schema_names() {
        b = b.item(RefOr::Ref(Ref::from_schema_name(kind(&g).clone())));
    }
    b.build().into()
}

/// Schema of an `action` field: one of every game's actions.
pub fn action() -> Schema {
    any_game(|g| &g.action, "A game action")
}

/// Schema of a `config` field.
pub fn config() -> Schema {
    any_game(|g| &g.config, "A game configuration")
}

/// Schema of a `view` field.
pub fn view() -> Schema {
    any_game(|g| &g.view, "What the caller may see of the game")
}

/// Schema of a `view` field that is `null` before the game starts.
pub fn nullable_view() -> Schema {
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(view())
        .description(Some(
            "What the caller may see of the game; `null` before the game starts.",
        ))
        .build()
        .into()
}

/// Schema of an `event` field of the log: one of the game's events, or a lifecycle event
/// (`LifecycleEvent`: a clock ran out, a seat resigned, ...), told apart by `type` (the two
/// sets of types are disjoint).
pub fn event() -> Schema {
    AnyOfBuilder::new()
        .description(Some(
            "An event of the log: one of the game's events (chosen by the game's type), or a \
             `LifecycleEvent` (a clock ran out, a seat resigned, a bot took a seat over, ...). \
             Their `type` values never overlap.",
        ))
        .item(any_game(|g| &g.event, "A game event"))
        .item(RefOr::Ref(Ref::from_schema_name("LifecycleEvent")))
        .build()
        .into()
}

/// Schema of a list of actions.
pub fn actions() -> Schema {
    ArrayBuilder::new().items(RefOr::T(action())).build().into()
}

/// A boolean that is always `value` in this shape (JSON Schema `const`, written as a
/// one-value `enum` that the document's shaping turns into `const`): lets typed clients
/// narrow a union by it.
fn always(value: bool) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Boolean)
        .enum_values(Some([json!(value)]))
        .build()
        .into()
}

/// `true`, always.
pub fn always_true() -> Schema {
    always(true)
}

/// `false`, always.
pub fn always_false() -> Schema {
    always(false)
}

/// `null`, always.
pub fn always_null() -> Schema {
    ObjectBuilder::new().schema_type(Type::Null).build().into()
}
