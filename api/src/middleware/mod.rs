//! What every request passes through besides its handler: [`head`] (HEAD answered wherever
//! GET is), [`cors`] (cross-origin browsers), [`rate_limit`] (per-client budgets). Metrics and
//! request ids are [`crate::metrics::track`]'s.

pub mod cors;
pub mod head;
pub mod rate_limit;
