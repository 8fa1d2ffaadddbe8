//! End-to-end tests of the HTTP API live in `tests/api/` (one binary with modules).
