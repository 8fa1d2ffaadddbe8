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

/// Every operation of the document with its path.
fn operations(
    openapi: &mut utoipa::openapi::OpenApi,
) -> impl Iterator<Item = (&String, &mut utoipa::openapi::path::Operation)> {
    openapi.paths.paths.iter_mut().flat_map(|(path, item)| {
        [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.patch,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        .map(move |operation| (path, operation))
    })
}

/// A `Problem` body, as every error response has.
fn problem_content() -> utoipa::openapi::Content {
    utoipa::openapi::ContentBuilder::new()
        .schema(Some(utoipa::openapi::Ref::from_schema_name("Problem")))
        .build()
}

/// Routes declare their error responses by status and description only; every 4xx and 5xx
/// response gets the `application/problem+json` body here, in one place. Every
/// `/v1/games…` operation reads or writes the database, so each may also answer 503 when it
/// is unreachable or the pool stays exhausted. Applied after the routes are in the document
/// (see [`document`]).
struct ErrorResponses;

impl Modify for ErrorResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::header::HeaderBuilder;
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        use utoipa::openapi::{RefOr, ResponseBuilder};
        let unavailable = ResponseBuilder::new()
            .description("Database unavailable (`unavailable`); retry after `Retry-After` seconds")
            .header(
                "Retry-After",
                HeaderBuilder::new()
                    .schema(ObjectBuilder::new().schema_type(Type::Integer))
                    .description(Some("Seconds to wait before retrying"))
                    .build(),
            )
            .build();
        for (path, operation) in operations(openapi) {
            let responses = &mut operation.responses.responses;
            if path.starts_with("/v1/games") {
                responses
                    .entry("503".to_string())
                    .or_insert_with(|| unavailable.clone().into());
            }
            for (status, response) in responses.iter_mut() {
                let is_error = status.starts_with('4') || status.starts_with('5');
                if let (true, RefOr::T(response)) = (is_error, response) {
                    if response.content.is_empty() {
                        response
                            .content
                            .insert(crate::error::PROBLEM_JSON.to_string(), problem_content());
                    }
                }
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
    ErrorResponses.modify(&mut doc);
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
