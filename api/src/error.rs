//! Every error response, in one place: RFC 9457 `application/problem+json` with a stable `code`.
//!
//! Layers use these types:
//! - the engine returns [`engine::GameError`] (rule refusals carry the engine's stable code),
//! - the store returns [`db::StoreError`],
//! - handlers return [`ApiError`]; `From` impls below map the other two, and the extractor
//!   error handlers ([`json_error`], [`query_error`]), the extractors of [`crate::extract`]
//!   and the catch-all middleware ([`problemize`]) build the same envelope for failures
//!   outside handlers.
//!
//! Mapping: bad input 400/404/413/415/422, auth 401/403, conflicts 409 (with
//! `current_version`), failed `If-Match` 412, rule violations 422 (engine code), database or
//! pool unavailable 503 with `Retry-After`, anything else a logged, opaque 500. Bad input is
//! never a 500.

use std::borrow::Cow;

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::error::{JsonPayloadError, QueryPayloadError};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use db::{GameStatus, StoreError};
use engine::GameError;
use serde::Serialize;
use utoipa::ToSchema;

use crate::codes::is_listed;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// An RFC 9457 problem document.
#[derive(Debug, Clone, Serialize, serde::Deserialize, ToSchema)]
pub struct Problem {
    /// URI reference naming the problem type: `/problems/<code>`, a page saying what the code
    /// means, which rule it stands for and what to do (`/problems/` lists them all).
    #[serde(rename = "type")]
    pub type_: String,
    /// Short, human summary of the problem type.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// Human explanation of this occurrence.
    pub detail: String,
    /// Stable machine-readable code (`version_conflict`, `not_your_turn`,
    /// `tycoon.landing_fields_full`, ...). Codes never change meaning once published.
    pub code: String,
    /// On 409/412 version conflicts: the game's version now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
    /// On `invalid_record`: what fails, as `verify-record` says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<RecordFailure>,
}

/// Where an imported record fails (`invalid_record`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
pub struct RecordFailure {
    /// Index into the record's `moves` of the first move that fails; `null` when the header,
    /// the reveal or the setup does.
    #[schema(required = true)]
    pub move_index: Option<usize>,
    /// The rule ID the move breaks (for an action the rules refuse); `null` otherwise.
    #[schema(required = true)]
    pub rule: Option<String>,
    /// The stable code of the failure: `events_mismatch`, `reveal_mismatch`,
    /// `setup_mismatch`, `record_without_reveal`, `chance_outcome_invalid` (an outcome a
    /// table's record names does not fit its draw), ..., or a refused action's own rule code.
    pub reason: String,
}

/// An error a handler returns; rendered as [`Problem`].
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: Cow<'static, str>,
    pub detail: String,
    pub current_version: Option<i64>,
    /// For `invalid_record`: where the record fails (boxed: every other error is without).
    pub record: Option<Box<RecordFailure>>,
    /// The request was refused only because it ran where it may not wait for a lock (see
    /// `AppState::db_here`): nothing was written, and it is retried where it may wait.
    busy: bool,
    /// Seconds to send in `Retry-After` (a 429 of the API's own limits).
    retry_after: Option<u64>,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status.as_u16(), self.code, self.detail)
    }
}

impl ApiError {
    pub fn new(
        status: StatusCode,
        code: impl Into<Cow<'static, str>>,
        detail: impl Into<String>,
    ) -> Self {
        let code = code.into();
        debug_assert!(is_listed(&code), "problem code {code} is not in API_CODES");
        ApiError {
            status,
            code,
            detail: detail.into(),
            current_version: None,
            record: None,
            busy: false,
            retry_after: None,
        }
    }

    /// 429 `chat_rate_limited`: the sender posted its most messages to a table for now.
    pub fn chat_rate_limited(retry_after: u64, detail: impl Into<String>) -> Self {
        ApiError {
            retry_after: Some(retry_after),
            ..Self::new(StatusCode::TOO_MANY_REQUESTS, "chat_rate_limited", detail)
        }
    }

    /// 422 `invalid_record`: an imported record that does not verify.
    pub fn invalid_record(failure: &engine::record::RecordError) -> Self {
        ApiError {
            record: Some(Box::new(RecordFailure {
                move_index: failure.index,
                rule: failure.rule.map(str::to_string),
                reason: failure.code.to_string(),
            })),
            ..Self::unprocessable("invalid_record", failure.to_string())
        }
    }

    /// See [`db::StoreError::Busy`]; answered 503 should it ever reach a client.
    pub fn busy() -> Self {
        ApiError {
            busy: true,
            ..Self::unavailable("the game is busy; retry")
        }
    }

    /// Whether this is a 503: the database (or the pool) is unavailable for now.
    pub fn is_unavailable(&self) -> bool {
        self.status == StatusCode::SERVICE_UNAVAILABLE
    }

    /// Whether this is [`ApiError::busy`].
    pub fn is_busy(&self) -> bool {
        self.busy
    }

    /// 429 for a client over its rate limit (the limiter adds `Retry-After`).
    pub fn rate_limited(retry_after: u64) -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many requests; retry in {retry_after} s"),
        )
    }

    pub fn bad_request(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, detail)
    }

    pub fn unprocessable(code: impl Into<Cow<'static, str>>, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, detail)
    }

    pub fn not_found(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, detail)
    }

    pub fn game_not_found() -> Self {
        Self::not_found("game_not_found", "no game with this id")
    }

    pub fn unauthorized(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, code, detail)
    }

    pub fn forbidden(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, detail)
    }

    pub fn conflict(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, detail)
    }

    /// 500 `applied_unanswered`: an action was committed at `version`, but its answer could
    /// not be built (a server fault, logged with its `cause`). The problem says that the action
    /// was applied, so that no client takes the 500 for a refusal and sends it again.
    pub fn applied_unanswered(game_id: uuid::Uuid, version: i64, cause: &ApiError) -> Self {
        tracing::error!(%game_id, version, error = %cause, "an applied action's answer could not be built");
        ApiError {
            current_version: Some(version),
            ..Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "applied_unanswered",
                format!(
                    "the action was applied (the game is at version {version}), but its answer \
                     could not be built; read the game for its state (the fault is logged)"
                ),
            )
        }
    }

    /// 409 with the game's version now.
    pub fn version_conflict(current: i64) -> Self {
        ApiError {
            current_version: Some(current),
            ..Self::conflict(
                "version_conflict",
                format!("the game is at version {current}, not the expected one"),
            )
        }
    }

    /// 412 for a failed `If-Match`, with the game's version now.
    pub fn precondition_failed(current: i64) -> Self {
        ApiError {
            current_version: Some(current),
            ..Self::new(
                StatusCode::PRECONDITION_FAILED,
                "precondition_failed",
                format!("If-Match does not match: the game is at version {current}"),
            )
        }
    }

    pub fn unavailable(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", detail)
    }

    /// A server-side fault: logged in full here, reported opaquely.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "an internal error occurred; it has been logged",
        )
    }

    /// The envelope for a bare status (unknown route, wrong method, ...).
    pub fn from_status(status: StatusCode) -> Self {
        let code = match status {
            StatusCode::NOT_FOUND => "not_found",
            StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
            StatusCode::PAYLOAD_TOO_LARGE => "body_too_large",
            StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
            StatusCode::BAD_REQUEST => "bad_request",
            s if s.is_server_error() => "internal",
            _ => "error",
        };
        Self::new(
            status,
            code,
            status.canonical_reason().unwrap_or("error").to_string(),
        )
    }

    pub fn problem(&self) -> Problem {
        Problem {
            type_: format!("/problems/{}", self.code),
            title: self
                .status
                .canonical_reason()
                .unwrap_or("Error")
                .to_string(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code.to_string(),
            current_version: self.current_version,
            record: self.record.as_deref().cloned(),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse<BoxBody> {
        let mut res = HttpResponse::build(self.status);
        res.content_type(PROBLEM_JSON);
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            res.insert_header((header::RETRY_AFTER, "1"));
        }
        if let Some(seconds) = self.retry_after {
            res.insert_header((header::RETRY_AFTER, seconds.to_string()));
        }
        res.body(serde_json::to_vec(&self.problem()).unwrap_or_default())
    }
}

/// Why a store call's decision closure refused: always an engine verdict.
#[derive(Debug)]
pub enum Refusal {
    Game(GameError),
    Api(ApiError),
}

impl From<GameError> for Refusal {
    fn from(e: GameError) -> Self {
        Refusal::Game(e)
    }
}

impl From<ApiError> for Refusal {
    fn from(e: ApiError) -> Self {
        Refusal::Api(e)
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> Self {
        match e {
            GameError::InvalidConfig(m) => ApiError::unprocessable("invalid_config", m),
            GameError::InvalidAction(m) => ApiError::bad_request("invalid_action", m),
            GameError::Rule(r) => ApiError::unprocessable(r.code, r.message),
            GameError::Corrupt(m) => ApiError::internal(format!("corrupt game data: {m}")),
        }
    }
}

impl From<Refusal> for ApiError {
    fn from(e: Refusal) -> Self {
        match e {
            Refusal::Game(g) => g.into(),
            Refusal::Api(a) => a,
        }
    }
}

impl<E: Into<ApiError>> From<StoreError<E>> for ApiError {
    fn from(e: StoreError<E>) -> Self {
        match e {
            StoreError::NotFound => ApiError::game_not_found(),
            StoreError::VersionConflict { current } => ApiError::version_conflict(current),
            StoreError::IdempotencyMismatch => ApiError::unprocessable(
                "idempotency_key_reused",
                "this Idempotency-Key was already used for a different request",
            ),
            StoreError::IdempotencyInFlight => ApiError::conflict(
                "idempotency_key_in_flight",
                "a request with this Idempotency-Key is still being processed; retry",
            ),
            StoreError::WrongStatus { current, required } => {
                let code = match (current, required) {
                    (c, _) if c.is_over() => "game_over",
                    (_, GameStatus::Open) => "game_already_started",
                    (GameStatus::Open, _) => "game_not_started",
                    _ => "wrong_status",
                };
                ApiError::conflict(
                    code,
                    format!("the game is {current}; this needs it to be {required}"),
                )
            }
            StoreError::SeatUnavailable { seat: Some(s) } => {
                ApiError::conflict("seat_taken", format!("seat {s} is already taken"))
            }
            StoreError::SeatUnavailable { seat: None } => {
                ApiError::conflict("no_open_seat", "no open seat is left")
            }
            StoreError::NoSuchSeat { seat } => {
                ApiError::unprocessable("no_such_seat", format!("the game has no seat {seat}"))
            }
            StoreError::TooManyBotGames { running, limit } => ApiError::conflict(
                "bot_game_limit",
                format!(
                    "the server already runs {running} games with a bot in every seat (at most \
                     {limit}); try again when one has finished, or take a seat yourself"
                ),
            ),
            StoreError::AlreadySeated => ApiError::conflict(
                "already_seated",
                "this player already holds a seat of this game",
            ),
            StoreError::Rejected(e) => e.into(),
            StoreError::Busy => ApiError::busy(),
            StoreError::Unavailable(m) => {
                tracing::warn!(error = %m, "database unavailable");
                ApiError::unavailable("the database is unavailable; retry later")
            }
            StoreError::Database(e) => ApiError::internal(format!("database error: {e}")),
        }
    }
}

/// A statement's error inside a transaction the api runs itself: mapped as the store maps it.
impl From<diesel::result::Error> for ApiError {
    fn from(e: diesel::result::Error) -> Self {
        StoreError::<std::convert::Infallible>::from(e).into()
    }
}

impl From<std::convert::Infallible> for ApiError {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

/// `JsonConfig` error handler: malformed JSON and wrong shapes are 400, oversized bodies 413,
/// a wrong content type 415.
pub fn json_error(err: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let api = match &err {
        JsonPayloadError::OverflowKnownLength { .. } | JsonPayloadError::Overflow { .. } => {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body_too_large",
                err.to_string(),
            )
        }
        JsonPayloadError::ContentType => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "the body must be application/json",
        ),
        JsonPayloadError::Deserialize(e) if e.is_data() => {
            ApiError::bad_request("invalid_body", e.to_string())
        }
        JsonPayloadError::Deserialize(e) => ApiError::bad_request("malformed_json", e.to_string()),
        JsonPayloadError::Payload(actix_web::error::PayloadError::Overflow) => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
            err.to_string(),
        ),
        _ => ApiError::bad_request("bad_body", err.to_string()),
    };
    api.into()
}

/// `QueryConfig` error handler: 400.
pub fn query_error(err: QueryPayloadError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::bad_request("invalid_query", err.to_string()).into()
}

/// Catch-all for error responses not built by [`ApiError`] (unknown routes, wrong methods,
/// actix's own refusals): gives them the same problem+json envelope.
///
/// # Errors
/// Never; the signature is the middleware's.
pub fn problemize<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let already = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    if already {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let allow: Option<HeaderValue> = res.headers().get(header::ALLOW).cloned();
    let (req, _) = res.into_parts();
    let mut new = ApiError::from_status(status).error_response();
    if let Some(allow) = allow {
        new.headers_mut().insert(header::ALLOW, allow);
    }
    let res: ServiceResponse<EitherBody<B, BoxBody>> =
        ServiceResponse::new(req, new).map_into_right_body();
    Ok(ErrorHandlerResponse::Response(res))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An action applied without an answer is a 500 that says so, with the version it made,
    /// never a refusal a client would send again.
    #[test]
    fn an_applied_action_without_an_answer_says_it_was_applied() {
        let cause = ApiError::internal("a lifecycle that does not read");
        let error = ApiError::applied_unanswered(uuid::Uuid::nil(), 12, &cause);
        let problem = serde_json::to_value(error.problem()).unwrap();
        assert_eq!(problem["status"], 500);
        assert_eq!(problem["code"], "applied_unanswered");
        assert_eq!(problem["current_version"], 12);
        assert!(problem["detail"]
            .as_str()
            .unwrap()
            .starts_with("the action was applied"));
    }
}
