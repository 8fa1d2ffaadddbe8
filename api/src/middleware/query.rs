//! Unknown query parameters are refused (400 `invalid_query`, naming the parameter), as
//! unknown body fields are: `?dry_run=true` on an action, or a misspelt `?limt=5`, would
//! otherwise be silently ignored and the request answered as if the client had not asked.
//! The parameters each operation takes come from the OpenAPI document (the same list the
//! router and the spec come from); paths the document does not describe (the web client, the
//! docs pages) are not checked. An unknown parameter that carries a credential is refused as
//! `token_in_query` instead (see [`crate::extract::refuse_token_in_query`]). A parameter given
//! twice (`?limit=2&limit=3`) is refused too, with the same code, rather than one value being
//! picked.

use std::sync::OnceLock;

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ResourceDef, ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::ResponseError;

use crate::error::ApiError;

/// A documented operation: its path pattern, method and query parameters.
struct Operation {
    path: ResourceDef,
    method: Method,
    query: Vec<String>,
}

fn operations() -> &'static [Operation] {
    static OPERATIONS: OnceLock<Vec<Operation>> = OnceLock::new();
    OPERATIONS.get_or_init(|| {
        let doc = crate::openapi::document();
        let mut out = Vec::new();
        for (path, item) in doc["paths"].as_object().into_iter().flatten() {
            for (method, op) in item.as_object().into_iter().flatten() {
                let Ok(method) = method.to_uppercase().parse::<Method>() else {
                    continue;
                };
                let query = op["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|p| p["in"] == "query")
                    .filter_map(|p| p["name"].as_str().map(str::to_string))
                    .collect();
                out.push(Operation {
                    path: ResourceDef::new(path.as_str()),
                    method,
                    query,
                });
            }
        }
        out
    })
}

/// What is wrong with `query` for the operation of `method` on `path`: a parameter it does not
/// take (with the ones it takes), or one given twice; `None` when nothing is, or the path is
/// not documented.
fn refusal(method: &Method, path: &str, query: &str) -> Option<Refusal> {
    if query.is_empty() {
        return None;
    }
    let method = if method == Method::HEAD {
        Method::GET
    } else {
        method.clone()
    };
    let op = operations()
        .iter()
        .find(|op| op.method == method && op.path.is_match(path))?;
    // A query that does not even decode is the handler's to refuse, with the same code.
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).ok()?;
    if let Some(name) = pairs
        .iter()
        .map(|(name, _)| name)
        .find(|n| !op.query.contains(n))
    {
        let known = if op.query.is_empty() {
            "none".to_string()
        } else {
            op.query.join(", ")
        };
        return Some(Refusal::Unknown(name.clone(), known));
    }
    let mut seen = std::collections::HashSet::new();
    pairs
        .into_iter()
        .find(|(name, _)| !seen.insert(name.clone()))
        .map(|(name, _)| Refusal::Repeated(name))
}

/// Why a query is refused.
#[derive(Debug, PartialEq, Eq)]
enum Refusal {
    /// A parameter the operation does not take, and the ones it takes.
    Unknown(String, String),
    /// A parameter given twice (which value would count is anyone's guess).
    Repeated(String),
}

/// The middleware (see the module documentation).
///
/// # Errors
/// Whatever the inner service returns.
pub async fn strict(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody, BoxBody>>, actix_web::Error> {
    let refused = refusal(req.method(), req.match_info().as_str(), req.query_string());
    if let Some(refused) = refused {
        // A credential among them is the worse mistake, and has its own code.
        let res = crate::extract::refuse_token_in_query(req.request())
            .err()
            .unwrap_or_else(|| {
                let detail = match refused {
                    Refusal::Unknown(name, known) => {
                        format!("unknown query parameter {name:?}; this operation takes: {known}")
                    }
                    Refusal::Repeated(name) => {
                        format!("query parameter {name:?} is given more than once")
                    }
                };
                ApiError::bad_request("invalid_query", detail)
            })
            .error_response();
        return Ok(req.into_response(res).map_into_right_body());
    }
    Ok(next.call(req).await?.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_documented_parameters_of_an_operation_are_accepted_once() {
        let events = "/v1/games/0b6f3c5e-2a41-4c1b-9d7e-5f0a8e2c1d34/events";
        assert_eq!(refusal(&Method::GET, events, "after=3&limit=2"), None);
        assert_eq!(
            refusal(&Method::GET, events, "after=3&foo=1"),
            Some(Refusal::Unknown("foo".into(), "after, limit".into()))
        );
        assert_eq!(
            refusal(&Method::GET, events, "limit=2&limit=3"),
            Some(Refusal::Repeated("limit".into()))
        );
        assert_eq!(
            refusal(&Method::HEAD, "/v1/game-types", "x=1"),
            Some(Refusal::Unknown("x".into(), "none".into()))
        );
        let act = "/v1/games/0b6f3c5e-2a41-4c1b-9d7e-5f0a8e2c1d34/actions";
        assert!(refusal(&Method::POST, act, "dry_run=true").is_some());
        // Not described by the document: not checked here.
        assert_eq!(refusal(&Method::GET, "/games/x", "foo=1"), None);
    }
}
