//! What answers when no route does: a problem+json 404 for an unknown path, and a
//! problem+json 405 with `Allow` for a known path asked with another method (the
//! `#[get]`/`#[post]` resources carry method guards, so a wrong method falls through to here
//! instead of getting actix's own 405). The known paths come from the OpenAPI document, so
//! this module depends on it and nothing depends on this module but the app's wiring.

use actix_web::dev::ResourceDef;
use actix_web::http::{header, StatusCode};
use actix_web::{HttpRequest, HttpResponse, ResponseError};

use crate::error::ApiError;

/// Unknown routes: a problem+json 404; a known route with another method: a problem+json 405
/// with `Allow` (the `#[get]`/`#[post]` resources carry method guards, so a wrong method falls
/// through to here instead of getting actix's own 405).
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    // The path as the router matched it (percent-encoded letters decoded).
    let path = req.match_info().as_str();
    let allowed: Vec<&str> = known_routes()
        .iter()
        .filter(|(def, _)| def.is_match(path))
        .flat_map(|(_, methods)| methods.iter().copied())
        .collect();
    if allowed.is_empty() {
        return ApiError::not_found("not_found", "no such route").error_response();
    }
    let mut res = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!(
            "{} is not allowed here; allowed: {}",
            req.method(),
            allowed.join(", ")
        ),
    )
    .error_response();
    if let Ok(v) = header::HeaderValue::from_str(&allowed.join(", ")) {
        res.headers_mut().insert(header::ALLOW, v);
    }
    res
}

/// Every served path pattern with its methods: the documented ones from the OpenAPI document
/// (with HEAD wherever GET is, see [`crate::middleware::head`]), plus the spec and docs pages
/// and the web client.
fn known_routes() -> &'static [(ResourceDef, Vec<&'static str>)] {
    static ROUTES: std::sync::OnceLock<Vec<(ResourceDef, Vec<&'static str>)>> =
        std::sync::OnceLock::new();
    ROUTES.get_or_init(|| {
        let doc = crate::openapi::document();
        let mut routes: Vec<_> = doc["paths"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(path, item)| {
                let has = |m: &str| item.get(m).is_some();
                let methods = [
                    ("GET", has("get")),
                    ("HEAD", has("get")),
                    ("PUT", has("put")),
                    ("POST", has("post")),
                    ("DELETE", has("delete")),
                    ("PATCH", has("patch")),
                ]
                .into_iter()
                .filter_map(|(m, has)| has.then_some(m))
                .collect();
                (ResourceDef::new(path.as_str()), methods)
            })
            .collect();
        for path in ["/openapi.json", "/docs", "/docs/{_:.*}"] {
            routes.push((ResourceDef::new(path), vec!["GET", "HEAD"]));
        }
        for path in crate::problems::PATHS {
            routes.push((ResourceDef::new(*path), vec!["GET", "HEAD"]));
        }
        for path in crate::web_client::PATHS {
            routes.push((ResourceDef::new(*path), vec!["GET", "HEAD"]));
        }
        routes
    })
}
