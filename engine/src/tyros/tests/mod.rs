//! Tyros tests.
