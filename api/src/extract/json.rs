//! JSON request bodies, read strictly: at most [`BODY_LIMIT`] bytes of `application/json`, no
//! duplicate key at any level (serde_json would silently keep the last one), and the shape the
//! OpenAPI document gives the body type ([`crate::strict`]: objects where objects are
//! required, no unknown field at any depth) before the typed value is built.

use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::{header, StatusCode};
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use futures_util::StreamExt;
use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::strict::Schemas;

/// Largest accepted request body.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Largest accepted game record (`POST /v1/records`): a long Monopoly game's record with every
/// event is a few megabytes.
pub const RECORD_LIMIT: usize = 16 * 1024 * 1024;

/// A JSON body of type `T` of at most `LIMIT` bytes, read strictly (see the module
/// documentation).
#[derive(Debug)]
pub struct StrictJson<T, const LIMIT: usize = BODY_LIMIT>(pub T);

impl<T, const LIMIT: usize> StrictJson<T, LIMIT> {
    /// The body.
    pub fn into_inner(self) -> T {
        self.0
    }
}

/// The whole body, refused past `limit` bytes.
async fn read_limited(payload: &mut Payload, limit: usize) -> Result<web::BytesMut, ApiError> {
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| ApiError::bad_request("bad_body", e.to_string()))?;
        if body.len() + chunk.len() > limit {
            return Err(too_large(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "body_too_large",
        format!("the body is larger than {limit} bytes"),
    )
}

impl<T: DeserializeOwned + ToSchema + 'static, const LIMIT: usize> FromRequest
    for StrictJson<T, LIMIT>
{
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let is_json = is_json(req);
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        let schemas = req.app_data::<web::Data<Schemas>>().cloned();
        let mut payload = payload.take();
        Box::pin(async move {
            if !is_json {
                return Err(ApiError::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "unsupported_media_type",
                    "the body must be application/json",
                ));
            }
            if declared.is_some_and(|n| n > LIMIT) {
                return Err(too_large(LIMIT));
            }
            let body = read_limited(&mut payload, LIMIT).await?;
            decode(schemas.as_deref().map(|s| &**s), &body).map(StrictJson)
        })
    }
}

/// Whether `req` says its body is JSON (`application/json` or a `+json` type).
fn is_json(req: &HttpRequest) -> bool {
    req.mime_type()
        .ok()
        .flatten()
        .is_some_and(|m| m.subtype() == "json" || m.suffix().is_some_and(|s| s == "json"))
}

/// A body read strictly as `T`: JSON without duplicate keys, of the shape the OpenAPI
/// document gives `T`.
fn decode<T: DeserializeOwned + ToSchema>(
    schemas: Option<&Schemas>,
    body: &[u8],
) -> Result<T, ApiError> {
    let value = parse(body)?;
    if let Some(schemas) = schemas {
        schemas
            .check(&T::name(), &value)
            .map_err(|e| ApiError::bad_request("invalid_body", e.to_string()))?;
    }
    T::deserialize(value).map_err(|e| ApiError::bad_request("invalid_body", e.to_string()))
}

/// A JSON body that may be left out (accepting a challenge, asking for a rematch: their only
/// field is optional): no body reads as `T::default()`; a body is read as [`StrictJson`]
/// reads it.
#[derive(Debug)]
pub struct OptionalJson<T>(pub T);

impl<T: DeserializeOwned + ToSchema + Default + 'static> FromRequest for OptionalJson<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let json = is_json(req);
        let schemas = req.app_data::<web::Data<Schemas>>().cloned();
        let mut payload = payload.take();
        Box::pin(async move {
            let body = read_limited(&mut payload, BODY_LIMIT).await?;
            if body.iter().all(u8::is_ascii_whitespace) {
                return Ok(OptionalJson(T::default()));
            }
            if !json {
                return Err(ApiError::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "unsupported_media_type",
                    "a body must be application/json",
                ));
            }
            decode(schemas.as_deref().map(|s| &**s), &body).map(OptionalJson)
        })
    }
}

/// The body of a POST that takes none (resign, reclaim, abort, start, token rotation): nothing,
/// or an empty JSON object (what many clients send by habit). Anything else is refused as any
/// unknown field is (400 `invalid_body`), so a client that believes it sends an option learns
/// that the server knows none, instead of the request being carried out without it.
#[derive(Debug)]
pub struct NoBody;

impl FromRequest for NoBody {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(_req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let mut payload = payload.take();
        Box::pin(async move {
            let body = read_limited(&mut payload, BODY_LIMIT).await?;
            if body.iter().all(u8::is_ascii_whitespace) {
                return Ok(NoBody);
            }
            match parse(&body) {
                Ok(Value::Object(fields)) if fields.is_empty() => Ok(NoBody),
                Ok(Value::Object(fields)) => Err(ApiError::bad_request(
                    "invalid_body",
                    format!(
                        "this request takes no body: unknown field {:?}",
                        fields.keys().next().map_or("", String::as_str)
                    ),
                )),
                _ => Err(ApiError::bad_request(
                    "invalid_body",
                    "this request takes no body (or an empty JSON object)",
                )),
            }
        })
    }
}

/// Parses JSON text into a tree, refusing duplicate keys in any object.
///
/// # Errors
/// 400 `malformed_json` for text that is not JSON, `invalid_body` for a duplicate key.
pub fn parse(text: &[u8]) -> Result<Value, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(text);
    let value = NoDuplicates::deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v.0))
        .map_err(|e| {
            let code = if e.is_data() {
                "invalid_body"
            } else {
                "malformed_json"
            };
            ApiError::bad_request(code, e.to_string())
        })?;
    Ok(value)
}

/// A JSON tree whose objects had no duplicate key.
struct NoDuplicates(Value);

impl<'de> Deserialize<'de> for NoDuplicates {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_any(NoDuplicatesVisitor)
            .map(NoDuplicates)
    }
}

struct NoDuplicatesVisitor;

impl<'de> Visitor<'de> for NoDuplicatesVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(NoDuplicates(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        // Collected in a BTreeMap to find duplicates; serde_json's Map keeps the same order.
        let mut entries = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            let NoDuplicates(value) = map.next_value()?;
            match entries.entry(key) {
                Entry::Occupied(e) => {
                    return Err(de::Error::custom(format!("duplicate key `{}`", e.key())))
                }
                Entry::Vacant(e) => {
                    e.insert(value);
                }
            }
        }
        Ok(Value::Object(entries.into_iter().collect::<Map<_, _>>()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_refused_at_every_depth() {
        assert!(parse(br#"{"a": 1, "b": {"c": [1, {"d": 2}]}}"#).is_ok());
        for text in [
            r#"{"a": 1, "a": 2}"#,
            r#"{"action": {"ticket": "S99", "ticket": "S01"}}"#,
            r#"[{"x": {"y": 1, "y": 1}}]"#,
        ] {
            let e = parse(text.as_bytes()).unwrap_err();
            assert_eq!(e.code, "invalid_body", "{text}");
            assert!(e.detail.contains("duplicate key"), "{}", e.detail);
        }
        assert_eq!(parse(b"{").unwrap_err().code, "malformed_json");
    }
}
