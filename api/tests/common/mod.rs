//! A real `server` process for the integration tests that need one (several processes on one
//! database, kill -9, captured logs).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

#[allow(unused_imports)]
// not every test binary that includes this module waits or reads gauges
pub use testkit::{gauge, wait_for};

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
