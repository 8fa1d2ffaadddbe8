//! Cross-origin requests from browsers. Seats authenticate with a bearer token, never a
//! cookie, so a page on another origin can do nothing a script could not do anyway: any
//! origin is allowed by default (`--cors-origins` narrows it). Preflights are answered here;
//! actual responses get `Access-Control-Allow-Origin` and the headers a client needs to read.

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse};

/// Request headers a page may send.
pub const ALLOWED_HEADERS: &str =
    "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID";
/// Response headers a page may read.
pub const EXPOSED_HEADERS: &str = "ETag, Link, Location, Retry-After, X-Request-Id, \
     Idempotency-Replayed, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";
/// Methods a page may use.
pub const ALLOWED_METHODS: &str = "GET, HEAD, POST, OPTIONS";

/// Which origins may call the API from a browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origins {
    /// Any origin (`*`).
    Any,
    /// Only these (`scheme://host[:port]`, compared exactly).
    Listed(Vec<String>),
}

impl Origins {
    /// From `--cors-origins`: `*` for any, else a comma-separated list.
    pub fn parse(spec: &str) -> Origins {
        if spec.trim() == "*" {
            return Origins::Any;
        }
        Origins::Listed(
            spec.split(',')
                .map(|o| o.trim().trim_end_matches('/').to_string())
                .filter(|o| !o.is_empty())
                .collect(),
        )
    }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`, if allowed.
    fn allow(&self, origin: &str) -> Option<HeaderValue> {
        match self {
            Origins::Any => Some(HeaderValue::from_static("*")),
            Origins::Listed(list) => list
                .iter()
                .any(|o| o == origin)
                .then(|| HeaderValue::from_str(origin).ok())
                .flatten(),
        }
    }
}

/// The middleware (see the module documentation). Reads [`Origins`] from the app data.
///
/// # Errors
/// Whatever the inner service returns.
pub async fn cors(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody, BoxBody>>, actix_web::Error> {
    let origins = req.app_data::<web::Data<Origins>>().cloned();
    let allowed = match (origins, req.headers().get(header::ORIGIN)) {
        (Some(origins), Some(origin)) => origin.to_str().ok().and_then(|o| origins.allow(o)),
        _ => None,
    };
    let Some(allow_origin) = allowed else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    let preflight = req.method() == Method::OPTIONS
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    if preflight {
        let res = HttpResponse::NoContent()
            .insert_header((header::ACCESS_CONTROL_ALLOW_ORIGIN, allow_origin))
            .insert_header((header::ACCESS_CONTROL_ALLOW_METHODS, ALLOWED_METHODS))
            .insert_header((header::ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS))
            .insert_header((header::ACCESS_CONTROL_MAX_AGE, "86400"))
            .insert_header((header::VARY, "Origin"))
            .finish();
        return Ok(req.into_response(res).map_into_right_body());
    }
    let mut res = next.call(req).await?;
    let headers = res.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, allow_origin);
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static(EXPOSED_HEADERS),
    );
    headers.append(
        HeaderName::from_static("vary"),
        HeaderValue::from_static("Origin"),
    );
    Ok(res.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_any_or_an_exact_list() {
        assert_eq!(Origins::parse("*"), Origins::Any);
        let listed = Origins::parse("https://a.example, https://b.example/");
        assert!(listed.allow("https://b.example").is_some());
        assert!(listed.allow("https://c.example").is_none());
        assert_eq!(Origins::Any.allow("null").unwrap(), "*");
    }
}
