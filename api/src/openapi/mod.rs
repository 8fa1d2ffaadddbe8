//! The OpenAPI document: paths come from the route list ([`crate::routes::configure`]) through
//! utoipa's actix-web integration; the games' action, event, view and config schemas come from
//! the engine ([`engine::openapi::game_schemas`]). The derived document is then reshaped as
//! JSON, generically: [`conventions`] (what every operation shares: errors, rate limits,
//! security), [`per_game`] (one shape per game of each document type), [`shape`] (forms every
//! client generator accepts: flat objects, named and discriminated tagged unions, `const`).

pub mod conventions;
pub mod per_game;
pub mod shape;

use std::sync::OnceLock;

use actix_web::App;
use serde_json::{Map, Value};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

use crate::error::Problem;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Board-game server",
        contact(name = "The operators of this server"),
        license(name = "MIT", identifier = "MIT"),
        description = "Rule-exact economic board games (Tycoon, Acquire, ...) for third-party \
clients: bots, web and mobile front ends, tournament tools.\n\n\
- **Seats.** A seat acts with its token as `Authorization: Bearer <token>`; without one a \
caller is a spectator and sees only public information. Tokens are shown once, when a seat is \
created or joined.\n\
- **Errors.** Every error is `application/problem+json` (RFC 9457) with a stable `code` (see \
`Problem`).\n\
- **Strict input.** Request bodies are JSON objects with no unknown field, no duplicate key \
and no array where an object is required, at every depth: such a body is a 400 \
(`invalid_body`; inside an action, `invalid_action`). An action that is well formed but \
breaks a rule is a 422 with the game's code.\n\
- **Game types.** Documents, legal actions, events and states carry the game's `type`: each \
has one schema per game (`TycoonGameDocument`, ...), discriminated by `type`.\n\
- **Changes.** Long-poll `GET /v1/games/{id}?wait=N`, or follow `GET /v1/games/{id}/stream` \
(Server-Sent Events).\n\
- **Players.** `POST /v1/players` gives a player token (`pl_...`): one identity across games. \
Seats taken with it (`{\"me\": true}` at creation, a join without a name) belong to the \
player, and the player token acts for each of them wherever a seat token does; views and \
hidden information follow the seat. `GET /v1/players/me/stream` tells a player where to act in \
all its games; seeks find opponents; rated games change Weng-Lin ratings (profiles, \
leaderboards). Credentials never go in the query string (`token_in_query`).\n\
- **Rate limits.** Per player token, per seat token, or per client address without one \
(creating games, joining seats, creating players and seeking have a tighter budget). Every response carries `RateLimit-Limit`, \
`RateLimit-Remaining` and `RateLimit-Reset`; over the limit the answer is 429 `rate_limited` \
with `Retry-After`.\n\
- **Chance anyone can check.** A game's chance comes from a secret 256-bit seed the server \
draws and commits to at creation (`chance.commitment`, its SHA-256), mixed with every seat's \
`entropy` and the game id; once the game is over the seed and the entropies are revealed \
(`chance.reveal`) and every die and deck can be recomputed (`docs/fairness.md`). \
`GET /v1/games/{id}/record` gives the self-contained record of a game. A client-given `seed` \
makes the game reproducible but every chance outcome of it public knowledge: use it only for \
tests and tournaments where every player agrees (rated games refuse it).\n\
- **Browsers.** CORS is open to any origin by default (tokens are never cookies); HEAD is \
answered wherever GET is."
    ),
    components(schemas(
        Problem,
        crate::lifecycle::LifecycleEvent,
        crate::dto::StreamVersion,
        crate::dto::PlayerNotice,
        crate::dto::GameTypeName,
        crate::dto::ClockKind
    )),
    modifiers(&SeatToken, &GameSchemas),
    tags(
        (name = "games", description = "Catalogue, creating, listing, joining, starting"),
        (name = "play", description = "Reading the game, legal actions, acting, long polling, streaming"),
        (name = "history", description = "The event log and time travel"),
        (name = "players", description = "Players, their games and stream, ratings, leaderboards, seeks"),
        (name = "challenges", description = "Challenges, rematches, and whom a player takes them from"),
        (name = "tournaments", description = "Swiss and knockout tournaments: joining, rounds, standings"),
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
                    .description(Some(
                        "The seat token from creating or joining a game, or the token of the \
                         player the seat belongs to",
                    ))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "player_token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A player's token (`pl_...`) from POST /v1/players (or its rotation)",
                    ))
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

/// The hosted games as the per-game pass needs them.
fn games() -> Vec<per_game::Game> {
    engine::openapi::game_schema_names()
        .into_iter()
        .map(|g| per_game::Game {
            name: g.game.to_string(),
            kinds: [g.config, g.action, g.event, g.view, g.template],
        })
        .collect()
}

fn build() -> Value {
    let (_, doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(crate::routes::configure)
        .split_for_parts();
    let mut doc = serde_json::to_value(doc).expect("the OpenAPI document serializes");
    conventions::apply(&mut doc);
    per_game::specialize_containers(&mut doc, &games());
    shape::shape(&mut doc);
    shape::prune_unreferenced(&mut doc, &[]);
    doc
}

/// The complete document, as served at `/openapi.json` and committed in `openapi/openapi.json`
/// (built once per process).
pub fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(build)
}

/// [`document`] as pretty JSON with a final newline (the committed file's exact form).
pub fn document_json() -> String {
    let mut json = serde_json::to_string_pretty(document()).expect("JSON serializes");
    json.push('\n');
    json
}

/// Component schema `name` as a self-contained JSON Schema: everything it references is
/// copied under `$defs` and every reference points there. `GET /v1/game-types` serves each
/// game's config schema this way, so that a client can validate a config without the rest
/// of the document.
pub fn standalone_schema(name: &str) -> Value {
    let doc = document();
    let comps = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut defs = Map::new();
    let mut pending = vec![name.to_string()];
    while let Some(next) = pending.pop() {
        if defs.contains_key(&next) {
            continue;
        }
        let Some(schema) = comps.get(&next) else {
            continue;
        };
        let mut schema = schema.clone();
        shape::visit(&mut schema, &mut |map| {
            if let Some(Value::String(r)) = map.get_mut("$ref") {
                if let Some(target) = shape::ref_name(r) {
                    pending.push(target.to_string());
                    *r = format!("#/$defs/{target}");
                }
            }
            if let Some(Value::Object(d)) = map.get_mut("discriminator") {
                if let Some(Value::Object(mapping)) = d.get_mut("mapping") {
                    for target in mapping.values_mut() {
                        if let Some(t) = target.as_str().and_then(shape::ref_name) {
                            *target = Value::String(format!("#/$defs/{t}"));
                        }
                    }
                }
            }
        });
        defs.insert(next, schema);
    }
    let mut root = defs.remove(name).unwrap_or(Value::Bool(true));
    if let Value::Object(map) = &mut root {
        map.insert(
            "$schema".into(),
            Value::String("https://json-schema.org/draft/2020-12/schema".into()),
        );
        if !defs.is_empty() {
            map.insert("$defs".into(), Value::Object(defs));
        }
    }
    root
}
