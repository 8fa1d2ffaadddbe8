//! HEAD wherever GET is: a HEAD request is routed as the GET it mirrors. The HTTP layer
//! remembers that the request was a HEAD and sends the GET's status and headers (its
//! `Content-Length` included) without the body.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;

/// The middleware (see the module documentation).
///
/// # Errors
/// Whatever the inner service returns.
pub async fn as_get(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
    next.call(req).await
}
