//! HTTP API: placeholder.
