//! Cross-origin requests from browsers, by `actix-cors`. Seats authenticate with a bearer
//! token, never a cookie, so a page on another origin can do nothing a script could not do
//! anyway: any origin is allowed by default (`--cors-origins` narrows it). Preflights are
//! answered for every method the API has (DELETE included: a page cancels a seek with it);
//! actual responses get `Access-Control-Allow-Origin` and the headers a client needs to read.
//! A request from an origin that is not allowed is served without CORS headers (the browser
//! then keeps the answer from the page), never refused by the server.

use actix_cors::Cors;
use actix_web::http::Method;

/// Request headers a page may send.
pub const ALLOWED_HEADERS: [&str; 6] = [
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "Last-Event-ID",
];
/// Response headers a page may read.
pub const EXPOSED_HEADERS: [&str; 9] = [
    "ETag",
    "Link",
    "Location",
    "Retry-After",
    "X-Request-Id",
    "Idempotency-Replayed",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
];
/// Methods a page may use: every method a route of the API answers.
pub const ALLOWED_METHODS: [Method; 5] = [
    Method::GET,
    Method::HEAD,
    Method::POST,
    Method::DELETE,
    Method::OPTIONS,
];

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

    /// The middleware for these origins (see the module documentation). Built per HTTP
    /// worker: `Cors` is the factory actix clones into each.
    pub fn cors(&self) -> Cors {
        let cors = Cors::default()
            .allowed_methods(ALLOWED_METHODS)
            .allowed_headers(ALLOWED_HEADERS)
            .expose_headers(EXPOSED_HEADERS)
            .max_age(86_400)
            .block_on_origin_mismatch(false);
        match self {
            // `*`, not the caller's origin echoed: no credentials travel, and caches can
            // share the answer.
            Origins::Any => cors.allow_any_origin().send_wildcard(),
            Origins::Listed(list) => list
                .iter()
                .fold(cors, |cors, origin| cors.allowed_origin(origin)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_any_or_an_exact_list() {
        assert_eq!(Origins::parse("*"), Origins::Any);
        assert_eq!(
            Origins::parse("https://a.example, https://b.example/"),
            Origins::Listed(vec!["https://a.example".into(), "https://b.example".into()])
        );
        assert_eq!(Origins::parse(""), Origins::Listed(vec![]));
    }
}
