//! Request headers, parsed once: idempotency keys, preconditions, content negotiation, stream
//! resumption. Credentials are [`super::credentials`].

use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::http::header::{self, HeaderMap};
use actix_web::{FromRequest, HttpRequest};

use crate::error::ApiError;

/// A header's value as text; `None` when absent or not visible ASCII.
fn header_str(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// An `Idempotency-Key`: 1 to 255 visible ASCII characters (spaces allowed inside).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// The key text.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// The request's `Idempotency-Key`, if it has one; a malformed one is a 400.
#[derive(Debug, Clone)]
pub struct Idempotency(pub Option<IdempotencyKey>);

impl FromRequest for Idempotency {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let Some(v) = req.headers().get("idempotency-key") else {
            return ready(Ok(Idempotency(None)));
        };
        let key = v.to_str().ok().map(str::trim).filter(|k| {
            !k.is_empty() && k.len() <= 255 && k.bytes().all(|b| b.is_ascii_graphic() || b == b' ')
        });
        ready(
            key.map(|k| Idempotency(Some(IdempotencyKey(k.to_string()))))
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "invalid_idempotency_key",
                        "Idempotency-Key must be 1 to 255 visible ASCII characters",
                    )
                }),
        )
    }
}

/// The version an entity tag we issued carries (`"v12-seat0"` -> 12).
pub fn etag_version(tag: &str) -> Option<i64> {
    let tag = tag.trim().trim_start_matches("W/").trim_matches('"');
    let rest = tag.strip_prefix('v')?;
    let digits = rest.split('-').next()?;
    digits.parse().ok()
}

/// `If-Match`: the version the client means, `None` when absent or `*`. A tag we never issued
/// names no version of any game; it is read as version -1, which no game ever has, so the
/// precondition fails (412).
#[derive(Debug, Clone, Copy)]
pub struct IfMatch(pub Option<i64>);

impl FromRequest for IfMatch {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let version = header_str(req.headers(), header::IF_MATCH)
            .map(str::trim)
            .filter(|v| *v != "*")
            .map(|v| v.split(',').find_map(etag_version).unwrap_or(-1));
        ready(Ok(IfMatch(version)))
    }
}

/// The version an action is conditional on, from the body's `expected_version` or from
/// `If-Match` (they must agree), and which of the two named it: a failed `If-Match` is a 412,
/// a stale `expected_version` a 409.
#[derive(Debug, Clone, Copy, Default)]
pub struct Precondition {
    /// The version the game must be at; `None`: any.
    pub version: Option<i64>,
    /// Whether `If-Match` named it.
    pub from_if_match: bool,
}

impl Precondition {
    /// Combines the body's `expected_version` with `If-Match`.
    ///
    /// # Errors
    /// 400 `conflicting_versions` when they name different versions.
    pub fn combine(expected_version: Option<i64>, if_match: IfMatch) -> Result<Self, ApiError> {
        match (expected_version, if_match.0) {
            (Some(a), Some(b)) if a != b => Err(ApiError::bad_request(
                "conflicting_versions",
                "expected_version and If-Match name different versions",
            )),
            (Some(a), _) => Ok(Precondition {
                version: Some(a),
                from_if_match: false,
            }),
            (None, Some(b)) => Ok(Precondition {
                version: Some(b),
                from_if_match: true,
            }),
            (None, None) => Ok(Precondition::default()),
        }
    }

    /// A version conflict becomes 412 when `If-Match` asked for the version.
    pub fn refine(&self, e: ApiError) -> ApiError {
        match e.current_version {
            Some(current)
                if self.from_if_match && e.status == actix_web::http::StatusCode::CONFLICT =>
            {
                ApiError::precondition_failed(current)
            }
            _ => e,
        }
    }
}

/// `If-None-Match`, as sent (`None` when absent).
#[derive(Debug, Clone)]
pub struct IfNoneMatch(pub Option<String>);

impl IfNoneMatch {
    /// The newest version among the tags (ours carry their version), if any.
    pub fn known_version(&self) -> Option<i64> {
        self.0
            .as_deref()
            .and_then(|v| v.split(',').find_map(etag_version))
    }

    /// Whether `etag` is among the tags (or the header is `*`).
    pub fn matches(&self, etag: &str) -> bool {
        self.0.as_deref().is_some_and(|v| {
            v.trim() == "*"
                || v.split(',')
                    .any(|t| t.trim().trim_start_matches("W/") == etag)
        })
    }
}

impl FromRequest for IfNoneMatch {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let value = header_str(req.headers(), header::IF_NONE_MATCH).map(str::to_string);
        ready(Ok(IfNoneMatch(value)))
    }
}

/// Whether the client asked for NDJSON (`Accept: application/x-ndjson`).
#[derive(Debug, Clone, Copy)]
pub struct WantsNdjson(pub bool);

/// The NDJSON media type.
pub const NDJSON: &str = "application/x-ndjson";

impl FromRequest for WantsNdjson {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let wants = header_str(req.headers(), header::ACCEPT).is_some_and(|a| a.contains(NDJSON));
        ready(Ok(WantsNdjson(wants)))
    }
}

/// `Last-Event-ID` of a reconnecting event stream: the last seq the client saw.
#[derive(Debug, Clone, Copy)]
pub struct LastEventId(pub Option<i64>);

impl FromRequest for LastEventId {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let Some(value) = req.headers().get("last-event-id") else {
            return ready(Ok(LastEventId(None)));
        };
        let parsed = value
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<i64>().ok())
            .filter(|v| *v >= 0);
        ready(parsed.map(|v| LastEventId(Some(v))).ok_or_else(|| {
            ApiError::bad_request(
                "invalid_header",
                "Last-Event-ID must be a seq this stream sent (a whole number, 0 or more)",
            )
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etag_versions_are_read_from_our_tags_only() {
        assert_eq!(etag_version("\"v12-seat0\""), Some(12));
        assert_eq!(etag_version("W/\"v3-j1-spectator\""), Some(3));
        assert_eq!(etag_version("\"x12\""), None);
    }

    #[test]
    fn a_precondition_refuses_two_different_versions() {
        assert!(Precondition::combine(Some(3), IfMatch(Some(4))).is_err());
        let p = Precondition::combine(None, IfMatch(Some(4))).unwrap();
        assert_eq!((p.version, p.from_if_match), (Some(4), true));
        let p = Precondition::combine(Some(4), IfMatch(Some(4))).unwrap();
        assert_eq!((p.version, p.from_if_match), (Some(4), false));
    }
}
