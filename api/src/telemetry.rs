//! Structured logs with `tracing`. Logs go to stderr (stdout carries only the listening
//! address, for launchers). `RUST_LOG` filters (default `info`).
//!
//! Text logs are coloured only when stderr is a terminal and `NO_COLOR` is unset: a file, a pipe
//! or a journal gets plain text, never escape sequences. JSON logs are never coloured.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Installs the global subscriber; later calls are no-ops (tests call it repeatedly).
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Json => builder.json().with_ansi(false).try_init(),
        LogFormat::Text => builder.with_ansi(colours_wanted()).try_init(),
    };
}

/// Whether text logs may carry ANSI colours: only on a terminal, and never with `NO_COLOR` set
/// to anything but the empty string (<https://no-color.org>).
fn colours_wanted() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    std::io::stderr().is_terminal() && !no_color
}
