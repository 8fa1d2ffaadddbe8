//! The request's parts, parsed once at the edge into types that cannot be malformed: handlers
//! take these as arguments and everything below them sees only parsed values (a
//! [`SeatToken`] is never empty, an [`IdempotencyKey`] always fits the column, a
//! [`Precondition`] never names two versions, a [`StrictJson`] body has no duplicate key and
//! no unknown field). Each refusal is a problem+json answer from [`crate::error::ApiError`].
//!
//! [`credentials`] (bearer tokens), [`headers`] (keys, preconditions, negotiation), [`params`]
//! (path segments, query numbers), [`json`] (bodies).

pub mod credentials;
pub mod headers;
pub mod json;
pub mod params;

pub use credentials::*;
pub use headers::*;
pub use json::*;
pub use params::*;
