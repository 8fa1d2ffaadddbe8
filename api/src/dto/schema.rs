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
    let mut seen = Vec::new();
    for g in engine::openapi::game_schema_names() {
        // Games without templates share one schema: list it once.
        if !seen.contains(kind(&g)) {
            seen.push(kind(&g).clone());
            b = b.item(RefOr::Ref(Ref::from_schema_name(kind(&g).clone())));
        }
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

/// Schema of a list of action templates: each game's typed template union
/// (`MonopolyTemplate`, ...), or for a game without templates a schema nothing matches, so
/// that its list is always empty.
pub fn templates() -> Schema {
    let union = any_game(|g| &g.template, "An action template");
    ArrayBuilder::new().items(RefOr::T(union)).build().into()
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

/// A JSON Schema document: an object with any members (typed clients get a map, not an
/// empty object).
pub fn json_schema() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "A self-contained JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1): \
             everything it references is under `$defs`.",
        ))
        .additional_properties(Some(
            utoipa::openapi::schema::AdditionalProperties::<Schema>::FreeForm(true),
        ))
        .build()
        .into()
}

/// `null`, always.
pub fn always_null() -> Schema {
    ObjectBuilder::new().schema_type(Type::Null).build().into()
}

/// An event stream's `data` line: JSON text whose content is the schema named `of`, said the
/// way JSON Schema 2020-12 and OpenAPI (3.2's Server-Sent Events) say it: a string with
/// `contentMediaType: application/json` and a `contentSchema`. The wire carries text, so a
/// validator reading the stream (schemathesis) parses it before it checks the content, and a
/// generated client gets a string it parses into the named type.
fn json_text(of: &str) -> Schema {
    let content = utoipa::openapi::extensions::Extensions::from_iter([(
        "contentSchema",
        json!({ "$ref": format!("#/components/schemas/{of}") }),
    )]);
    ObjectBuilder::new()
        .schema_type(Type::String)
        .content_media_type("application/json")
        .description(Some(format!("One line of JSON: a `{of}`.")))
        .extensions(Some(content))
        .build()
        .into()
}

/// The `data` of a game stream's `game_event` message.
pub fn logged_event_text() -> Schema {
    json_text("LoggedEvent")
}

/// The `data` of a game stream's `version` message.
pub fn stream_version_text() -> Schema {
    json_text("StreamVersion")
}

/// The `data` of a game stream's `chat` message.
pub fn chat_message_text() -> Schema {
    json_text("ChatMessage")
}

/// The `data` of a player stream's message.
pub fn player_notice_text() -> Schema {
    json_text("PlayerNotice")
}
