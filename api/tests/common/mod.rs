//! A real `server` process for the integration tests that need one (several processes on one
//! database, kill -9, captured logs).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A `server` child process, killed when dropped.
pub struct Server {
    pub child: Child,
    /// `http://127.0.0.1:<port>`, as the server printed it.
    pub base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `server` on `database_url` on any free port; its log (stderr) goes to `log` when
/// given. Returns once the server has printed the address it listens on.
#[allow(dead_code)] // not every test binary that includes this module starts plain servers
pub fn start_server(database_url: &str, rust_log: &str, log: Option<&Path>) -> Server {
    start_server_with(database_url, rust_log, log, &[])
}

/// [`start_server`] with more environment (settings such as `BOT_THREADS`).
pub fn start_server_with(
    database_url: &str,
    rust_log: &str,
    log: Option<&Path>,
    env: &[(&str, &str)],
) -> Server {
    let stderr = match log {
        Some(p) => Stdio::from(std::fs::File::create(p).expect("create the log file")),
        None => Stdio::null(),
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_server"))
        .env("DATABASE_URL", database_url)
        .env("PORT", "0")
        .env("POOL_SIZE", "4")
        .env("WORKERS", "2")
        .env("RUST_LOG", rust_log)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("start the server binary");
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    Server { child, base }
}

/// `GET {base}/v1/games/{id}/legal-actions` as the seat holding `token`, which must succeed.
#[allow(dead_code)] // not every test binary that includes this module acts
pub async fn legal_actions(
    client: &reqwest::Client,
    base: &str,
    id: &str,
    token: &str,
) -> serde_json::Value {
    client
        .get(format!("{base}/v1/games/{id}/legal-actions"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// How long a test waits for something the server does in the background before it fails:
/// generous, so a loaded 2-core machine never trips it; reaching it means a hang.
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(60);

/// Polls `probe` every 20 ms until it returns `Some`, and returns that. Panics naming `what`
/// when [`PATIENCE`] runs out.
pub async fn wait_for<T, F, Fut>(what: &str, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        if let Some(found) = probe().await {
            return found;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "gave up after {PATIENCE:?} waiting for {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// The value of gauge `name` on `{base}/metrics`.
#[allow(dead_code)] // not every test binary that includes this module reads metrics
pub async fn gauge(client: &reqwest::Client, base: &str, name: &str) -> i64 {
    let text = client
        .get(format!("{base}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("{name} missing:\n{text}"))
}
