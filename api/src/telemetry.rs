//! Structured logs with `tracing`. Logs go to stderr (stdout carries only the listening
//! address, for launchers). `RUST_LOG` filters (default `info`).

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber; later calls are no-ops (tests call it repeatedly).
pub fn init(json: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}
