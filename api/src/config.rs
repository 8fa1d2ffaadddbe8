//! Configuration by flags or environment (clap with `env`).

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::middleware::client_address::{ClientAddresses, ForwardingHeader, TrustedProxies};
use crate::middleware::cors::Origins;
use crate::middleware::rate_limit::{Budget, Limits};

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
    /// PostgreSQL URL of a read replica (or a multi-host URL with
    /// `target_session_attrs=prefer-standby`): documents, legal actions, event pages, states,
    /// long polls and streams are read there, never older than a version the request names.
    /// Needs --database-url.
    #[arg(
        long,
        env = "READ_DATABASE_URL",
        hide_env_values = true,
        requires = "database_url"
    )]
    pub read_database_url: Option<String>,
    /// How long a read that names a version waits for the replica to replay it before the
    /// primary answers, in milliseconds.
    #[arg(long, env = "READ_MAX_WAIT_MS", default_value_t = 500, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub read_max_wait_ms: u32,
    /// Where the embedded cluster keeps its data between runs.
    #[arg(long, env = "DATA_DIR", default_value = "./data/postgres")]
    pub data_dir: PathBuf,
    /// Largest number of pooled database connections.
    #[arg(long, env = "POOL_SIZE", default_value_t = 10)]
    pub pool_size: u32,
    /// HTTP worker threads (default: one per pool connection, at least one per core).
    /// Workers run most database work themselves (see `AppState::db_here`), so while one
    /// waits for its statement's commit the others serve requests: as many workers as
    /// connections let every connection be in use at once.
    #[arg(long, env = "WORKERS")]
    pub workers: Option<usize>,
    /// Log format: `text` (plain; coloured only on a terminal) or `json` (one object per line,
    /// for log shippers).
    #[arg(long, env = "LOG_FORMAT", value_enum)]
    pub log_format: Option<LogFormat>,
    /// The same as `--log-format json`; kept for existing deployments. `--log-format` wins
    /// when both are given.
    #[arg(long, env = "LOG_JSON", default_value_t = false)]
    pub log_json: bool,
    /// Origins whose pages may call the API from a browser: `*` for any, or a
    /// comma-separated list of `scheme://host[:port]`.
    #[arg(long, env = "CORS_ORIGINS", default_value = "*")]
    pub cors_origins: String,
    /// Budget per seat token, BURST/PER_SECOND.
    #[arg(long, env = "RATE_LIMIT_TOKEN", default_value = "600/60")]
    pub rate_limit_token: Budget,
    /// Budget per client address for requests without a token, BURST/PER_SECOND.
    #[arg(long, env = "RATE_LIMIT_ADDRESS", default_value = "600/60")]
    pub rate_limit_address: Budget,
    /// Budget per client address for creating games and joining seats, BURST/PER_SECOND.
    #[arg(long, env = "RATE_LIMIT_LOBBY", default_value = "60/1")]
    pub rate_limit_lobby: Budget,
    /// Reverse proxies in front of the server, as CIDR blocks or addresses (comma-separated):
    /// on requests from these, the client's address for its rate limits is read from
    /// `Forwarded` or `X-Forwarded-For`. Empty: every peer is the client itself, and
    /// forwarding headers are ignored.
    #[arg(long, env = "TRUSTED_PROXIES", default_value = "")]
    pub trusted_proxies: TrustedProxies,
    /// The one forwarding header the trusted proxies write, and the only one read:
    /// `x-forwarded-for` (nginx, HAProxy) or `forwarded` (RFC 7239). A proxy passes the other
    /// header through from the client, so reading both would let a client choose its address.
    #[arg(long, env = "CLIENT_ADDRESS_HEADER", value_enum, default_value_t)]
    pub client_address_header: ForwardingHeader,
    /// Switch rate limiting off (for load measurements only).
    #[arg(long, env = "NO_RATE_LIMITS", default_value_t = false)]
    pub no_rate_limits: bool,
    /// Run every database call on the blocking thread pool, never on an HTTP worker (see
    /// `AppState::db_here`; for comparison and for databases where even lock-free
    /// statements can stall).
    #[arg(long, env = "DB_ON_BLOCKING_POOL", default_value_t = false)]
    pub db_on_blocking_pool: bool,
    /// Threads that think for bot seats (0: this process moves no bots; others on the same
    /// database still do).
    #[arg(long, env = "BOT_THREADS", default_value_t = 1)]
    pub bot_threads: usize,
    /// Largest time budget per bot move in milliseconds; larger requested budgets are clamped.
    #[arg(long, env = "BOT_MAX_BUDGET_MS", default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=60_000))]
    pub bot_max_budget_ms: u32,
    /// Pause before each bot move in milliseconds, so that spectators can follow.
    #[arg(long, env = "BOT_MOVE_DELAY_MS", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=60_000))]
    pub bot_move_delay_ms: u32,
    /// How long a process may think about a bot move before another process may take it
    /// over (it presumes the first dead), in seconds; keep it above the largest budget.
    #[arg(long, env = "BOT_LEASE_SECS", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=3600))]
    pub bot_lease_secs: u32,
    /// Most games allowed to run with a bot in every seat at once (0: none), stand-in bots
    /// for absent players included; creating or filling one more is refused with 409
    /// `bot_game_limit`.
    #[arg(long, env = "BOT_MAX_GAMES", default_value_t = 50)]
    pub bot_max_games: u32,
    /// How long an open game waits for its seats to be taken before it ends as `expired`
    /// (`90s`, `30m`, `24h`, `7d`, ...).
    #[arg(long, env = "OPEN_GAME_TTL", default_value = "24h")]
    pub open_game_ttl: humantime::Duration,
    /// How long a seek waits for opponents before it expires (`30m`, `1h`, `1d`, ...).
    #[arg(long, env = "SEEK_TTL", default_value = "1h")]
    pub seek_ttl: humantime::Duration,
    /// How long a challenge waits for its players' answers before it expires (`10m`, `1h`,
    /// `1d`, ...).
    #[arg(long, env = "CHALLENGE_TTL", default_value = "1h")]
    pub challenge_ttl: humantime::Duration,
    /// Budget per player token, BURST/PER_SECOND (a player acts in many games with one
    /// token, so its budget is larger than a seat token's).
    #[arg(long, env = "RATE_LIMIT_PLAYER", default_value = "1200/120")]
    pub rate_limit_player: Budget,
    /// Threads that fire deadlines (clocks running out, open games expiring); 0: this process
    /// fires none (others on the same database still do).
    #[arg(long, env = "DEADLINE_THREADS", default_value_t = 1)]
    pub deadline_threads: usize,
}

impl Settings {
    /// The rate limits in force, `None` when switched off.
    pub fn limits(&self) -> Option<Limits> {
        (!self.no_rate_limits).then_some(Limits {
            token: self.rate_limit_token,
            player: self.rate_limit_player,
            address: self.rate_limit_address,
            lobby: self.rate_limit_lobby,
        })
    }

    /// Where the rate limits read a client's address (`--trusted-proxies`,
    /// `--client-address-header`).
    pub fn client_addresses(&self) -> ClientAddresses {
        ClientAddresses {
            proxies: self.trusted_proxies.clone(),
            header: self.client_address_header,
        }
    }

    /// The log format chosen by `--log-format`, or by the older `--log-json`.
    pub fn log_format(&self) -> LogFormat {
        self.log_format.unwrap_or(if self.log_json {
            LogFormat::Json
        } else {
            LogFormat::Text
        })
    }

    /// The HTTP worker threads to start (see [`Settings::workers`]).
    pub fn http_workers(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.workers
            .unwrap_or_else(|| (self.pool_size as usize).max(cores))
            .max(1)
    }

    /// What the bot workers and the lobby need to know about bots.
    pub fn bots(&self) -> BotSettings {
        BotSettings {
            threads: self.bot_threads,
            max_budget_ms: self.bot_max_budget_ms,
            move_delay_ms: self.bot_move_delay_ms,
            lease: Duration::from_secs(u64::from(self.bot_lease_secs)),
            max_games: self.bot_max_games,
        }
    }

    /// How deadlines are fired in this process.
    pub fn deadlines(&self) -> DeadlineSettings {
        DeadlineSettings {
            threads: self.deadline_threads,
        }
    }

    /// The origins allowed to call from a browser.
    pub fn origins(&self) -> Origins {
        Origins::parse(&self.cors_origins)
    }

    /// Settings for tests: any free port on 127.0.0.1, the given database, CORS open, and rate
    /// limits switched off explicitly (every test shares one client address; the rate-limit
    /// tests switch them on with small budgets).
    pub fn for_tests(database_url: &str) -> Settings {
        Settings {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            database_url: Some(database_url.to_string()),
            read_database_url: None,
            read_max_wait_ms: 500,
            data_dir: PathBuf::from("./data/postgres"),
            pool_size: 8,
            workers: Some(2),
            log_format: None,
            log_json: false,
            cors_origins: "*".into(),
            rate_limit_token: Budget {
                burst: 600,
                per_second: 60.0,
            },
            rate_limit_address: Budget {
                burst: 600,
                per_second: 60.0,
            },
            rate_limit_lobby: Budget {
                burst: 60,
                per_second: 1.0,
            },
            trusted_proxies: TrustedProxies::default(),
            client_address_header: ForwardingHeader::default(),
            no_rate_limits: true,
            db_on_blocking_pool: false,
            bot_threads: 1,
            bot_max_budget_ms: 1000,
            bot_move_delay_ms: 0,
            bot_lease_secs: 10,
            bot_max_games: 50,
            open_game_ttl: std::time::Duration::from_secs(24 * 3600).into(),
            seek_ttl: std::time::Duration::from_secs(3600).into(),
            challenge_ttl: std::time::Duration::from_secs(3600).into(),
            rate_limit_player: Budget {
                burst: 1200,
                per_second: 120.0,
            },
            deadline_threads: 1,
        }
    }
}

/// How the server writes its log (to stderr).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines; ANSI colours only when stderr is a terminal.
    Text,
    /// One JSON object per line.
    Json,
}

/// How deadlines are fired in this process (the deadline workers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeadlineSettings {
    /// Worker threads; 0: this process fires no deadlines (others on the database do).
    pub threads: usize,
}

/// How bots run in this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotSettings {
    /// Worker threads; 0: this process moves no bots.
    pub threads: usize,
    /// Largest thinking time per move.
    pub max_budget_ms: u32,
    /// Pause before each bot move.
    pub move_delay_ms: u32,
    /// How long a claimed turn stays with its worker before others may take it.
    pub lease: Duration,
    /// Most games with a bot in every seat running at once.
    pub max_games: u32,
}

impl BotSettings {
    /// How often an idle worker looks at the queue without being woken: for wake-ups lost
    /// while the LISTEN connection was down, leases of dead processes, and delayed moves.
    pub(crate) fn poll_interval(&self) -> Duration {
        match self.move_delay_ms {
            0 => Duration::from_secs(1),
            d => Duration::from_millis(u64::from(d.clamp(20, 1000))),
        }
    }
}
