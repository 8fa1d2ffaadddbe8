//! A `Date` written when the answer leaves, not up to half a second earlier.
//!
//! actix-http writes the `Date` of a worker's cached clock, refreshed every 500 ms. Clients
//! that set their seat clocks from the server's time (the web client bounds it by the `Date`
//! of fresh answers: written, rounded down to the second, between request and answer) would
//! then be up to half a second behind the bound they rely on, and a clock would show a second
//! more than the seat has. Writing the header here, from the system clock at the moment the
//! answer is built, keeps the bound true; actix-http leaves a `Date` that is already there.

use std::time::SystemTime;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HttpDate, TryIntoHeaderValue, DATE};
use actix_web::middleware::Next;

/// The middleware (see the module documentation).
///
/// # Errors
/// Whatever the inner service returns.
pub async fn now(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let mut res = next.call(req).await?;
    if let Ok(date) = HttpDate::from(SystemTime::now()).try_into_value() {
        res.headers_mut().insert(DATE, date);
    }
    Ok(res)
}
