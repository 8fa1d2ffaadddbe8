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

/// The complete document, as served at `/openapi.json` and committed in `openapi/openapi.json`.
pub fn document() -> utoipa::openapi::OpenApi {
    let (_, doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(crate::routes::configure)
        .split_for_parts();
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
