//! What a response lets caches keep, in one place. Strong entity tags everywhere a resource
//! can be revalidated (`If-None-Match` → 304), and `Cache-Control` saying how long:
//! - what can never change is `immutable` for a year: the state as of an event
//!   (`states/{seq}`: the log is append-only), and a finished game's document and event
//!   pages (nothing is appended and nothing is hidden any more);
//! - what changes only with a new release of the server (`/v1/game-types`, `/openapi.json`)
//!   may be kept for an hour, then revalidated;
//! - everything else a game shows is revalidated on every use (`no-cache`), which the
//!   version-based tags make cheap.
//!
//! A response that depends on the caller's token is `private` and varies by
//! `Authorization`: a shared cache never gives one seat's view to another caller.

use std::hash::{Hash, Hasher};

use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::HttpResponseBuilder;

/// How long an unchanging response may be kept: a year, the longest RFC 9111 suggests.
const YEAR: &str = "max-age=31536000, immutable";

/// Who may keep a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// The same for everyone (no token, or the token changes nothing).
    Public,
    /// The caller's own view (a seat token was sent).
    Private,
}

impl Audience {
    /// `Private` when the request carried credentials.
    pub fn of(has_token: bool) -> Audience {
        if has_token {
            Audience::Private
        } else {
            Audience::Public
        }
    }

    fn name(self) -> &'static str {
        match self {
            Audience::Public => "public",
            Audience::Private => "private",
        }
    }
}

/// How long a response may be kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lifetime {
    /// Never changes.
    Immutable,
    /// Changes only with a release of the server.
    Release,
    /// May change at any moment: revalidate on every use.
    Revalidate,
}

impl Lifetime {
    /// What a game's log and what is read from it may be kept: for ever once the game is over
    /// (nothing is appended and nothing is hidden any more), else revalidated on every use.
    pub fn until_over(over: bool) -> Lifetime {
        if over {
            Lifetime::Immutable
        } else {
            Lifetime::Revalidate
        }
    }
}

/// Sets `ETag`, `Cache-Control` and `Vary` on `res`.
pub fn mark(res: &mut HttpResponseBuilder, etag: &str, audience: Audience, lifetime: Lifetime) {
    let control = match lifetime {
        Lifetime::Immutable => format!("{}, {YEAR}", audience.name()),
        Lifetime::Release => format!("{}, max-age=3600", audience.name()),
        Lifetime::Revalidate => "no-cache".to_string(),
    };
    res.insert_header((header::ETAG, etag.to_string()))
        .insert_header((header::CACHE_CONTROL, control))
        .append_header((header::VARY, "Authorization"));
}

/// The answer to a conditional GET of a resource tagged `etag`: 304 when `If-None-Match` in
/// `headers` names it (and `true`), else 200; marked as [`mark`] says either way.
pub fn conditional(
    headers: &HeaderMap,
    etag: &str,
    audience: Audience,
    lifetime: Lifetime,
) -> (HttpResponseBuilder, bool) {
    let fresh = not_modified(headers, etag);
    let mut res = if fresh {
        HttpResponseBuilder::new(actix_web::http::StatusCode::NOT_MODIFIED)
    } else {
        HttpResponseBuilder::new(actix_web::http::StatusCode::OK)
    };
    mark(&mut res, etag, audience, lifetime);
    (res, fresh)
}

/// Whether `If-None-Match` in `headers` names `etag` (or is `*`).
pub fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v: &HeaderValue| v.to_str().ok())
        .is_some_and(|v| {
            v.trim() == "*"
                || v.split(',')
                    .any(|t| t.trim().trim_start_matches("W/") == etag)
        })
}

/// A strong entity tag for fixed content: 64 bits of SipHash of `bytes` (enough to tell
/// versions of a document apart; not a security property).
pub fn content_tag(prefix: &str, bytes: &[u8]) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    format!("\"{prefix}-{:016x}\"", h.finish())
}

/// The viewer part of a tag: `seat3` or `spectator`.
pub fn viewer_tag(seat: Option<i32>) -> String {
    seat.map_or_else(|| "spectator".to_string(), |s| format!("seat{s}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_match_as_sent_weak_or_strong_and_in_lists() {
        let mut h = HeaderMap::new();
        h.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_static("\"a\", W/\"s3-seat1\""),
        );
        assert!(not_modified(&h, "\"s3-seat1\""));
        assert!(!not_modified(&h, "\"s3-seat2\""));
        assert_ne!(content_tag("x", b"1"), content_tag("x", b"2"));
        assert_eq!(viewer_tag(None), "spectator");
    }
}
