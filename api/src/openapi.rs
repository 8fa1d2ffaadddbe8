//! The OpenAPI document: paths come from the route list ([`crate::routes::configure`]) through
//! utoipa's actix-web integration; the games' action, event, view and config schemas come from
//! the engine ([`engine::openapi::game_schemas`]).

use actix_web::App;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

use crate::error::Problem;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Board-game server",
        description = "Rule-exact board games (Tycoon, ...) for third-party clients. Seat tokens \
                       travel as `Authorization: Bearer`; without one a caller is a spectator. \
                       Every error is `application/problem+json` with a stable `code`. Request \
                       bodies reject unknown fields (400 `invalid_body`)."
    ),
    components(schemas(Problem)),
    modifiers(&SeatToken, &GameSchemas),
    tags(
        (name = "games", description = "Catalogue, creating, listing, joining, starting"),
        (name = "play", description = "Reading the game, legal actions, acting, long polling"),
        (name = "history", description = "The event log and time travel"),
        (name = "operations", description = "Health, readiness, metrics"),
    )
)]
struct ApiDoc;

struct SeatToken;

impl Modify for SeatToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "seat_token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("The seat token from creating or joining a game"))
                    .build(),
            ),
        );
    }
}

struct GameSchemas;

impl Modify for GameSchemas {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.schemas.extend(engine::openapi::game_schemas());
    }
}

/// Every `/v1/games…` operation reads or writes the database, so each may answer 503 when it
/// is unreachable or the pool stays exhausted: documented here once rather than on every
/// route. Applied after the routes are in the document (see [`document`]).
struct DatabaseUnavailable;

impl Modify for DatabaseUnavailable {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::header::HeaderBuilder;
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
        let response = ResponseBuilder::new()
            .description("Database unavailable (`unavailable`); retry after `Retry-After` seconds")
            .header(
                "Retry-After",
                HeaderBuilder::new()
                    .schema(ObjectBuilder::new().schema_type(Type::Integer))
                    .description(Some("Seconds to wait before retrying"))
                    .build(),
            )
            .content(
                crate::error::PROBLEM_JSON,
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("Problem")))
                    .build(),
            )
            .build();
        for (path, item) in openapi.paths.paths.iter_mut() {
            if !path.starts_with("/v1/games") {
                continue;
            }
            let operations = [
                &mut item.get,
                &mut item.post,
                &mut item.put,
                &mut item.patch,
                &mut item.delete,
            ];
            for operation in operations.into_iter().flatten() {
                operation
                    .responses
                    .responses
                    .entry("503".to_string())
                    .or_insert_with(|| response.clone().into());
            }
        }
    }
}

/// The complete document, as served at `/openapi.json` and committed in `openapi/openapi.json`.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(crate::routes::configure)
        .split_for_parts();
    let mut doc = doc;
    DatabaseUnavailable.modify(&mut doc);
    doc
}

/// [`document`] as pretty JSON with a final newline (the committed file's exact form).
pub fn document_json() -> String {
    let mut json = document()
        .to_pretty_json()
        .expect("the OpenAPI document serializes");
    json.push('\n');
    json
}
