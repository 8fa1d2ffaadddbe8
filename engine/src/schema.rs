//! Schema helpers shared by every game (a leaf module: it imports no game).
//!
//! With the `openapi` feature, every game's config, action, event and view types derive
//! `utoipa::ToSchema`, and the [`Documented`] bound on [`crate::Game`]'s associated types makes
//! that a compile-time requirement. Without the feature the bound is empty.

#[cfg(feature = "openapi")]
pub use documented::*;

/// Types that carry an OpenAPI schema (with the `openapi` feature; any type without it).
#[cfg(feature = "openapi")]
pub trait Documented: utoipa::ToSchema {}
#[cfg(feature = "openapi")]
impl<T: utoipa::ToSchema> Documented for T {}

/// Types that carry an OpenAPI schema (with the `openapi` feature; any type without it).
#[cfg(not(feature = "openapi"))]
pub trait Documented {}
#[cfg(not(feature = "openapi"))]
impl<T> Documented for T {}

#[cfg(feature = "openapi")]
mod documented {
    use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
    use utoipa::openapi::RefOr;
    use utoipa::{PartialSchema, ToSchema};

    /// Named component schemas, each with everything it references.
    pub type Components = Vec<(String, RefOr<Schema>)>;

    /// A string schema limited to `ids` (city, ticket, tile and chain ids are strings in JSON).
    pub fn string_enum(description: &str, ids: Vec<String>) -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(description))
            .enum_values(Some(ids))
            .into()
    }

    /// The schema names of one game's config, action, event and view.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct GameSchemas {
        /// The game type name (`"tycoon"`).
        pub game: &'static str,
        pub config: String,
        pub action: String,
        pub event: String,
        pub view: String,
        /// Its action templates' union ([`crate::Game::Template`]).
        pub template: String,
    }

    /// Adds `T`'s schema and everything it references to `out`; returns `T`'s name.
    pub fn collect<T: ToSchema>(out: &mut Components) -> String {
        let name = T::name().into_owned();
        out.push((name.clone(), <T as PartialSchema>::schema()));
        T::schemas(out);
        name
    }
}
