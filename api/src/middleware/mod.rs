//! What every request passes through besides its handler: [`date`] (a `Date` as of the answer), [`head`] (HEAD answered wherever
//! GET is), [`cors`] (cross-origin browsers), [`rate_limit`] (per-client budgets, with
//! [`client_address`] behind reverse proxies), [`query`] (unknown query parameters refused). Metrics and request ids are
//! [`crate::metrics::track`]'s.

pub mod client_address;
pub mod cors;
pub mod date;
pub mod head;
pub mod query;
pub mod rate_limit;
