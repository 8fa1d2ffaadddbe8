//! Operations: liveness, readiness, metrics, and the docs page's address.

use actix_web::http::header;
use actix_web::web::Data;
use actix_web::{get, HttpRequest, HttpResponse};

use crate::caching::{self, Audience, Lifetime};

use crate::dto::Health;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::state::AppState;

/// Liveness.
///
/// The process answers; says nothing about the database (that is `/readyz`).
#[utoipa::path(tag = "operations", responses((status = 200, description = "Alive", body = Health)))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok".into(),
    })
}

/// Readiness.
///
/// The database is reachable: an explicit round trip to it, so a load balancer stops sending
/// requests while it is not.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, description = "Database unreachable"),
    )
)]
#[get("/readyz")]
pub async fn readyz(state: Data<AppState>) -> Result<HttpResponse, ApiError> {
    // An explicit ping: the pool hands out recently used connections unchecked.
    state.db(|conn, _| Ok(db::store::ping(conn)?)).await?;
    Ok(HttpResponse::Ok().json(Health {
        status: "ready".into(),
    }))
}

/// Prometheus metrics.
///
/// The text exposition format: requests by route and status, action latencies, open streams
/// and long polls, the database pool.
#[utoipa::path(
    tag = "operations",
    responses((status = 200, description = "Metrics", body = String, content_type = "text/plain"))
)]
#[get("/metrics")]
pub async fn metrics(state: Data<AppState>, metrics: Data<Metrics>) -> HttpResponse {
    let text = metrics.render(&state.pool);
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4")
        .body(text)
}

/// `/openapi.json` as served: the document's text and its tag, made once.
pub struct OpenApiJson {
    body: String,
    etag: String,
}

impl OpenApiJson {
    pub fn new(body: String) -> OpenApiJson {
        let etag = caching::content_tag("openapi", body.as_bytes());
        OpenApiJson { body, etag }
    }
}

/// `/openapi.json`: the contract (kept for an hour by caches, revalidated by its tag).
pub async fn openapi_json(req: HttpRequest, doc: Data<OpenApiJson>) -> HttpResponse {
    if caching::not_modified(req.headers(), &doc.etag) {
        let mut res = HttpResponse::NotModified();
        caching::mark(&mut res, &doc.etag, Audience::Public, Lifetime::Release);
        return res.finish();
    }
    let mut res = HttpResponse::Ok();
    caching::mark(&mut res, &doc.etag, Audience::Public, Lifetime::Release);
    res.content_type("application/json").body(doc.body.clone())
}

/// `/docs` -> `/docs/` (the Swagger UI, served from files compiled into the binary).
pub async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/docs/"))
        .finish()
}
