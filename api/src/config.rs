//! Configuration by flags or environment (clap with `env`).

use std::net::IpAddr;
use std::path::PathBuf;

/// How the server runs. Every flag has an environment variable of the same name in capitals.
#[derive(Debug, Clone, clap::Parser)]
#[command(name = "server", about = "The board-game server (HTTP API)")]
pub struct Settings {
    /// Address to listen on.
    #[arg(long, env = "BIND", default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Port to listen on (0: any free port; the chosen one is printed).
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// PostgreSQL URL. Without it a private cluster is started in --data-dir.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,
    /// Where the embedded cluster keeps its data between runs.
    #[arg(long, env = "DATA_DIR", default_value = "./data/postgres")]
    pub data_dir: PathBuf,
    /// Largest number of pooled database connections.
    #[arg(long, env = "POOL_SIZE", default_value_t = 10)]
    pub pool_size: u32,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "WORKERS")]
    pub workers: Option<usize>,
    /// Log as JSON lines instead of text.
    #[arg(long, env = "LOG_JSON", default_value_t = false)]
    pub log_json: bool,
}

impl Settings {
    /// Settings for tests: any free port on 127.0.0.1, the given database.
    pub fn for_tests(database_url: &str) -> Settings {
        Settings {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            database_url: Some(database_url.to_string()),
            data_dir: PathBuf::from("./data/postgres"),
            pool_size: 8,
            workers: Some(2),
            log_json: false,
        }
    }
}
