//! What the api's process tests (`api/tests/`) and the end-to-end tests (`tests/`) both need
//! to wait for the server: one patience, one polling loop, one way to read a gauge, one reader
//! of an event stream ([`sse`]), and one client of a running server ([`client`]: create a
//! game, read, move for whoever is to move, read a counter). A crate of its own because the `tests` crate depends on `api`,
//! so `api`'s tests cannot depend on it.

use std::future::Future;
use std::time::Duration;

pub mod client;
pub mod sse;

/// How long a test waits for something the server does in the background before it fails:
/// generous, so a loaded 2-core machine never trips it; reaching it means a hang.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// How often [`wait_for`] looks again.
const POLL: Duration = Duration::from_millis(20);

/// Polls `probe` every 20 ms until it returns `Some`, and returns that.
///
/// # Panics
/// Naming `what`, when [`PATIENCE`] runs out.
pub async fn wait_for<T, F, Fut>(what: &str, probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    wait_for_within(PATIENCE, what, probe).await
}

/// [`wait_for`] with another patience, for what takes longer by nature (a cluster electing
/// a new primary).
///
/// # Panics
/// Naming `what`, when `patience` runs out.
pub async fn wait_for_within<T, F, Fut>(patience: Duration, what: &str, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + patience;
    loop {
        if let Some(found) = probe().await {
            return found;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "gave up after {patience:?} waiting for {what}"
        );
        tokio::time::sleep(POLL).await;
    }
}

/// The value of gauge `name` on `{base}/metrics`.
///
/// # Panics
/// When the request fails or the gauge is missing.
pub async fn gauge(client: &reqwest::Client, base: &str, name: &str) -> i64 {
    metric(&metrics_text(client, base).await, name)
}

/// The text exposition at `{base}/metrics`.
///
/// # Panics
/// When the request fails.
pub async fn metrics_text(client: &reqwest::Client, base: &str) -> String {
    client
        .get(format!("{base}/metrics"))
        .send()
        .await
        .expect("GET /metrics")
        .text()
        .await
        .expect("the metrics text")
}

/// The value of gauge `name` in a Prometheus text exposition.
///
/// # Panics
/// When the gauge is missing.
pub fn metric(text: &str, name: &str) -> i64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("{name} missing:\n{text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gauge_is_read_by_its_exact_name() {
        let text = "# TYPE bots_thinking gauge\nbots_thinking_total 7\nbots_thinking 2\n";
        assert_eq!(metric(text, "bots_thinking"), 2);
        assert_eq!(metric(text, "bots_thinking_total"), 7);
    }

    #[tokio::test(start_paused = true)]
    async fn wait_for_returns_what_the_probe_finds() {
        let mut calls = 0;
        let found = wait_for("the third call", || {
            calls += 1;
            let now = calls;
            async move { (now == 3).then_some(now) }
        })
        .await;
        assert_eq!(found, 3);
    }

    #[tokio::test(start_paused = true)]
    #[should_panic(expected = "waiting for nothing")]
    async fn wait_for_gives_up_after_its_patience() {
        wait_for("nothing", || async { None::<()> }).await;
    }
}
