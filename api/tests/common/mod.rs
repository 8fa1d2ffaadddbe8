//! A real `server` process for the integration tests that need one (several processes on one
//! database, kill -9, captured logs), and the requests those tests make of it.

// Every test binary includes this module and uses only part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

#[allow(unused_imports)]
// not every test binary that includes this module uses every helper
pub use testkit::client::{counter, create_game, create_tycoon, events, move_active_seat, Created};
#[allow(unused_imports)]
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

/// A fresh database of its own (creating one blocks, so off the async runtime).
pub async fn test_db() -> db::testing::TestDb {
    tokio::task::spawn_blocking(db::testing::TestDb::new)
        .await
        .unwrap()
}

/// [`start_server_with`] (quiet log) off the async runtime: a server starts by blocking until
/// it prints its address.
pub async fn spawn_server(database_url: &str, env: &[(&str, &str)]) -> Server {
    let (url, env) = owned(database_url, env);
    tokio::task::spawn_blocking(move || start_server_with(&url, "warn", None, &borrowed(&env)))
        .await
        .unwrap()
}

/// Two servers on one database, as [`spawn_server`] starts them, started side by side.
pub async fn spawn_two_servers(database_url: &str, env: &[(&str, &str)]) -> (Server, Server) {
    let (url, env) = owned(database_url, env);
    tokio::task::spawn_blocking(move || {
        let env = borrowed(&env);
        (
            start_server_with(&url, "warn", None, &env),
            start_server_with(&url, "warn", None, &env),
        )
    })
    .await
    .unwrap()
}

/// A database URL and environment the blocking start can own.
fn owned(database_url: &str, env: &[(&str, &str)]) -> (String, Vec<(String, String)>) {
    let env = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    (database_url.to_string(), env)
}

fn borrowed(env: &[(String, String)]) -> Vec<(&str, &str)> {
    env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// The game document of `id` as a spectator sees it.
pub async fn document(client: &reqwest::Client, base: &str, id: &str) -> serde_json::Value {
    client
        .get(format!("{base}/v1/games/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Game `id`'s version read from the database (no server need be up to ask).
pub fn version_in_db(db: &db::testing::TestDb, id: &str) -> i64 {
    db::store::get_game(&mut db.conn(), id.parse().unwrap())
        .unwrap()
        .version
}
