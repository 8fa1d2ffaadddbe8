//! Operations: liveness, readiness, metrics, and the docs page's address.

use actix_web::http::header;
use actix_web::web::Data;
use actix_web::{get, HttpResponse};

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

/// `/docs` -> `/docs/` (the Swagger UI, served from files compiled into the binary).
pub async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/docs/"))
        .finish()
}
