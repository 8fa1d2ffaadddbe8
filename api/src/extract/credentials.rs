//! Credentials, parsed once: a seat's or player's token from `Authorization: Bearer`, never
//! from the query string (where it would end up in logs and browser history).

use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::http::header::{self, HeaderMap};
use actix_web::{FromRequest, HttpRequest};

use crate::error::ApiError;

/// A seat token from `Authorization: Bearer <token>`. As an extractor it is required (401
/// `missing_token` without one).
#[derive(Clone)]
pub struct SeatToken(String);

impl SeatToken {
    /// The token text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether it is a player's token ([`PLAYER_TOKEN_PREFIX`]) rather than a seat's.
    pub fn is_player(&self) -> bool {
        self.0.starts_with(PLAYER_TOKEN_PREFIX)
    }
}

/// How every player token starts (seat tokens are hex digits only): a credential is told
/// apart by its form, so a request never looks a player token up among seat tokens.
pub const PLAYER_TOKEN_PREFIX: &str = "pl_";

/// Query parameter names that carry credentials in other services' APIs.
const CREDENTIAL_PARAMS: &[&str] = &[
    "token",
    "access_token",
    "player_token",
    "seat_token",
    "bearer",
    "authorization",
    "api_key",
];

/// 400 `token_in_query` when the query string carries a credential: a parameter named like
/// one, or any value that is a player token. Query strings end up in logs, histories and
/// `Referer` headers, so credentials travel only in `Authorization`.
pub fn refuse_token_in_query(req: &HttpRequest) -> Result<(), ApiError> {
    let query = req.query_string();
    if query.is_empty() {
        return Ok(());
    }
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_default();
    let leaks = pairs.iter().any(|(name, value)| {
        CREDENTIAL_PARAMS.contains(&name.to_ascii_lowercase().as_str())
            || value.starts_with(PLAYER_TOKEN_PREFIX)
    });
    if leaks {
        return Err(ApiError::bad_request(
            "token_in_query",
            "credentials are never accepted in the query string (it ends up in logs and \
             histories): send Authorization: Bearer <token>, and rotate a player token that \
             was sent this way (POST /v1/players/me/token)",
        ));
    }
    Ok(())
}

/// A player's token from `Authorization: Bearer pl_...`, required (401 `missing_token`
/// without a bearer token, `not_a_player_token` with a seat's).
#[derive(Clone)]
pub struct PlayerToken(pub SeatToken);

/// Never prints the token.
impl std::fmt::Debug for PlayerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PlayerToken(<secret>)")
    }
}

impl FromRequest for PlayerToken {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let token = refuse_token_in_query(req)
            .and_then(|()| Bearer::parse(req.headers()))
            .and_then(|b| {
                b.0.ok_or_else(|| {
                    ApiError::unauthorized(
                        "missing_token",
                        "this needs a player token: Authorization: Bearer <player token> \
                         (POST /v1/players gives one)",
                    )
                })
            })
            .and_then(|t| {
                if t.is_player() {
                    Ok(PlayerToken(t))
                } else {
                    Err(ApiError::unauthorized(
                        "not_a_player_token",
                        "this needs a player token (pl_...), not a seat token",
                    ))
                }
            });
        ready(token)
    }
}

/// Never prints the token (it is a credential).
impl std::fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SeatToken(<secret>)")
    }
}

/// The longest token accepted (ours have 64 characters).
const MAX_TOKEN: usize = 256;

/// Reads `Authorization` as RFC 9110 (section 11.4) and RFC 6750 define a bearer credential:
/// `Bearer`, in any case, then one or more spaces (not tabs), then one token68 (letters,
/// digits, `-._~+/`, then any `=`), nothing else. The one parser of credentials: the rate
/// limiter and every handler read the same token from the same header, so a token has one
/// identity however its header is spelled.
///
/// # Errors
/// 401 `invalid_token` for a header that is not such a credential.
pub fn parse_bearer(value: &[u8]) -> Result<SeatToken, ApiError> {
    let malformed = || {
        ApiError::unauthorized(
            "invalid_token",
            "expected Authorization: Bearer <seat token> (the scheme in any case, one or more \
             spaces, then the token)",
        )
    };
    // Header values come without leading or trailing whitespace (RFC 9110 5.5); trim anyway
    // for callers that pass a raw value.
    let value = value.trim_ascii();
    if value.len() < 6 || !value[..6].eq_ignore_ascii_case(b"bearer") {
        return Err(malformed());
    }
    let rest = &value[6..];
    let spaces = rest.iter().take_while(|b| **b == b' ').count();
    let token = &rest[spaces..];
    let body = token.iter().take_while(|b| **b != b'=').count();
    let token68 = body > 0
        && token[..body]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(b))
        && token[body..].iter().all(|b| *b == b'=');
    if spaces == 0 || !token68 || token.len() > MAX_TOKEN {
        return Err(malformed());
    }
    // token68 is ASCII, so this is always valid UTF-8.
    Ok(SeatToken(String::from_utf8_lossy(token).into_owned()))
}

/// The caller's credentials: a seat token, or none for a spectator. A malformed
/// `Authorization` header is a 401, never a silent downgrade to spectator.
#[derive(Debug, Clone)]
pub struct Bearer(pub Option<SeatToken>);

impl Bearer {
    /// The request's credentials, read by [`parse_bearer`].
    ///
    /// # Errors
    /// As [`parse_bearer`].
    pub fn parse(headers: &HeaderMap) -> Result<Bearer, ApiError> {
        match headers.get(header::AUTHORIZATION) {
            None => Ok(Bearer(None)),
            Some(value) => parse_bearer(value.as_bytes()).map(|t| Bearer(Some(t))),
        }
    }

    /// The token, if any.
    pub fn token(&self) -> Option<&SeatToken> {
        self.0.as_ref()
    }
}

/// 401 for a request that needs a seat token and has none.
pub fn missing_token() -> ApiError {
    ApiError::unauthorized(
        "missing_token",
        "this needs a seat token: Authorization: Bearer <token>",
    )
}

impl FromRequest for Bearer {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(refuse_token_in_query(req).and_then(|()| Bearer::parse(req.headers())))
    }
}

impl FromRequest for SeatToken {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            refuse_token_in_query(req)
                .and_then(|()| Bearer::parse(req.headers()))
                .and_then(|b| b.0.ok_or_else(missing_token)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bearer_credential_is_read_as_rfc_9110_defines_it() {
        let token = |v: &str| parse_bearer(v.as_bytes()).map(|t| t.as_str().to_string());
        for ok in [
            "Bearer abc",
            "bearer abc",
            "BEARER   abc",
            "BeArEr a-b.c_d~e+f/g==",
            " Bearer abc ",
        ] {
            let expected = ok.split_whitespace().nth(1).unwrap();
            assert_eq!(token(ok).unwrap(), expected, "{ok:?}");
        }
        for bad in [
            "Bearer",
            "Bearer ",
            "Bearer\tabc",
            "Bearer \tabc",
            "Bearer abc def",
            "Basic abc",
            "Bearerabc",
            "Bearer =abc",
            "Bearer a=b",
            "Bearer ab\u{e9}",
            "Bearer a,b",
        ] {
            assert!(token(bad).is_err(), "{bad:?} accepted");
        }
        assert!(token(&format!("Bearer {}", "a".repeat(257))).is_err());
        assert!(token(&format!("Bearer {}", "a".repeat(256))).is_ok());
    }
}
