//! Refusals whose reasons are built only when someone reads them.
//!
//! The checks behind `decide` also answer `legal_actions`, which asks thousands of times per
//! game whether an action would pass. Building every refusal's message (a formatted string or
//! two) cost more than the checks themselves, so a check that listing calls is generic over
//! its refusal: `decide` asks for the [`RuleError`], listing for a bare [`Refused`] whose
//! message is never built.

use crate::RuleError;

/// What a failed check returns: a [`RuleError`], or only the fact of the refusal.
pub(crate) trait Refusal {
    /// The refusal of the rule error `error` makes, which is called only when the refusal
    /// carries it.
    fn refuse(error: impl FnOnce() -> RuleError) -> Self;
}

impl Refusal for RuleError {
    fn refuse(error: impl FnOnce() -> RuleError) -> Self {
        error()
    }
}

/// A refusal whose reason nobody reads (see [`Refusal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Refused;

impl Refusal for Refused {
    fn refuse(_: impl FnOnce() -> RuleError) -> Self {
        Refused
    }
}
