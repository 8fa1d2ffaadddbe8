//! A private PostgreSQL cluster started from the system's server binaries.
//!
//! The service and the tests use `DATABASE_URL` when it is set; when it is not, they call
//! [`LocalPostgres::start`] so that nothing has to be set up by hand (`docs/architecture.md`,
//! "PostgreSQL without set-up"). The cluster listens on a Unix socket only (inside the data directory), so it
//! never clashes with another server on the machine and needs no password (`trust` over a socket
//! nobody else can reach).
//!
//! ```no_run
//! use db::local_pg::{LaunchOptions, LocalPostgres};
//!
//! let pg = LocalPostgres::start(std::path::Path::new("data/pg"))?;
//! let url = pg.database_url("postgres");
//! // ... connect with `url`; the server stops when `pg` is dropped.
//! # Ok::<(), db::local_pg::LaunchError>(())
//! ```
//!
//! `initdb`, `pg_ctl` and `postgres` refuse to run as root; when the current uid is 0 every
//! command runs as the `postgres` system user through `runuser -u postgres --`, and the data
//! directory is handed to that user first.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use diesel::{Connection, PgConnection};

/// Name of the superuser `initdb` creates; fixed so that URLs do not depend on who ran it.
pub const SUPERUSER: &str = "postgres";

/// Sub-directory of the data directory that holds the server's Unix socket.
const SOCKET_SUBDIR: &str = "run";

/// `sun_path` is 108 bytes on Linux (104 on BSDs); stay below both with the socket file name.
const MAX_SOCKET_PATH: usize = 100;

/// Why the local cluster could not be started.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// Neither PATH nor `/usr/lib/postgresql/*/bin` has `initdb` and `pg_ctl`.
    #[error(
        "no PostgreSQL server binaries found (looked for initdb and pg_ctl on PATH and in \
         /usr/lib/postgresql/*/bin): install the PostgreSQL server (Debian: `apt-get install \
         postgresql`) or set DATABASE_URL"
    )]
    NoBinaries,
    /// Running as root, but there is no `postgres` user to run the server as.
    #[error(
        "running as root, but the server cannot run as root and there is no `postgres` system \
         user: create one (Debian: `apt-get install postgresql` does) or set DATABASE_URL"
    )]
    NoPostgresUser,
    /// The socket path would not fit into a Unix socket address.
    #[error(
        "the data directory path is too long for a Unix socket ({path} is {len} bytes, limit \
         {MAX_SOCKET_PATH}): use a shorter data directory"
    )]
    SocketPathTooLong {
        /// The socket file path that was too long.
        path: String,
        /// Its length in bytes.
        len: usize,
    },
    /// A file-system step failed.
    #[error("{action}: {source}")]
    Io {
        /// What was being done.
        action: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// `initdb` or `pg_ctl` failed; the message carries its output and the server log's tail.
    #[error("`{command}` failed ({status}):\n{output}")]
    Command {
        /// The command line that failed.
        command: String,
        /// Its exit status.
        status: String,
        /// Its stdout/stderr and, for `pg_ctl start`, the end of the server log.
        output: String,
    },
    /// The server started but did not accept connections in time.
    #[error("the server did not accept connections within {0:?}: {1}")]
    NotReady(Duration, String),
}

/// Knobs for [`LocalPostgres::start_with`].
#[derive(Debug, Clone)]
pub struct LaunchOptions {
    /// Turn off `fsync`, `full_page_writes` and (see below) `synchronous_commit`: much faster,
    /// and a crash of the machine may lose or corrupt data. For throw-away test clusters only.
    pub unsafe_fast: bool,
    /// Keep `synchronous_commit` on even when `unsafe_fast`: every acknowledged commit is
    /// handed to the operating system before the client hears of it, so it survives a crash
    /// of the server (`pg_ctl stop -m immediate`, `kill -9`), though not of the machine.
    /// Without it the last fraction of a second of acknowledged commits is lost in such a
    /// crash, which a test that crashes the server on purpose must not mistake for a fault
    /// of the service.
    pub commits_survive_server_crash: bool,
    /// `max_connections` of the server (`None` keeps PostgreSQL's default of 100).
    pub max_connections: Option<u32>,
    /// How long to wait for the server to accept connections.
    pub start_timeout: Duration,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            unsafe_fast: false,
            commits_survive_server_crash: true,
            max_connections: None,
            start_timeout: Duration::from_secs(60),
        }
    }
}

impl LaunchOptions {
    /// Options for a throw-away test cluster: no fsync, room for many parallel test pools.
    pub fn for_tests() -> Self {
        LaunchOptions {
            unsafe_fast: true,
            commits_survive_server_crash: false,
            max_connections: Some(300),
            ..LaunchOptions::default()
        }
    }

    /// [`LaunchOptions::for_tests`] for a cluster a test crashes on purpose: what the server
    /// acknowledged before the crash is there after the restart, as on a production server.
    pub fn for_crash_tests() -> Self {
        LaunchOptions {
            commits_survive_server_crash: true,
            ..Self::for_tests()
        }
    }
}

/// The file in the data directory naming the process that launched the running cluster, so
/// that a later run can tell a cluster another live server uses from one left behind.
pub const LAUNCHER_FILE: &str = "launcher.pid";

/// A running cluster. Dropping it stops the server (`pg_ctl stop -m fast`) if this value
/// owns it: it started it, or adopted it from a launcher that is gone (a server killed with
/// `kill -9` leaves its cluster running). A cluster that another live process started is
/// reused and left running for it.
#[derive(Debug)]
pub struct LocalPostgres {
    bin_dir: PathBuf,
    data_dir: PathBuf,
    socket_dir: PathBuf,
    started_here: bool,
}

impl LocalPostgres {
    /// Starts (initialising on first use) the cluster in `data_dir` with default options.
    ///
    /// # Errors
    /// See [`LaunchError`]; every variant says what to do about it.
    pub fn start(data_dir: &Path) -> Result<LocalPostgres, LaunchError> {
        Self::start_with(data_dir, &LaunchOptions::default())
    }

    /// Starts (initialising on first use) the cluster in `data_dir`.
    ///
    /// If the cluster is already running (another process started it), it is reused: the
    /// socket directory is read from its `postmaster.pid` and the server is not stopped on
    /// drop. A `postmaster.pid` left by a killed server is removed before starting.
    ///
    /// # Errors
    /// See [`LaunchError`].
    pub fn start_with(data_dir: &Path, opts: &LaunchOptions) -> Result<LocalPostgres, LaunchError> {
        let bin_dir = find_bin_dir().ok_or(LaunchError::NoBinaries)?;
        let runner = Runner::current()?;
        fs::create_dir_all(data_dir).map_err(io_err(format!("create {}", data_dir.display())))?;
        let data_dir = data_dir
            .canonicalize()
            .map_err(io_err(format!("resolve {}", data_dir.display())))?;
        let socket_dir = data_dir.join(SOCKET_SUBDIR);
        let socket_file = socket_dir.join(".s.PGSQL.5432");
        let len = socket_file.as_os_str().len();
        if len > MAX_SOCKET_PATH {
            return Err(LaunchError::SocketPathTooLong {
                path: socket_file.display().to_string(),
                len,
            });
        }

        if !data_dir.join("PG_VERSION").exists() {
            runner.hand_over(&data_dir)?;
            let mut args = vec![
                "-D".to_string(),
                path_str(&data_dir),
                format!("--username={SUPERUSER}"),
                "--auth=trust".into(),
                "--encoding=UTF8".into(),
                "--locale=C".into(),
            ];
            if opts.unsafe_fast {
                args.push("--no-sync".into());
            }
            tracing::info!(data_dir = %data_dir.display(), "initialising PostgreSQL cluster");
            runner.run(&bin_dir.join("initdb"), &args, None)?;
        }
        if !socket_dir.exists() {
            fs::create_dir_all(&socket_dir)
                .map_err(io_err(format!("create {}", socket_dir.display())))?;
            runner.hand_over(&socket_dir)?;
        }

        let pg_ctl = bin_dir.join("pg_ctl");
        let status_args = ["status".to_string(), "-D".into(), path_str(&data_dir)];
        if runner.succeeds(&pg_ctl, &status_args) {
            return Self::reuse(bin_dir, data_dir, opts);
        }
        // pg_ctl status says nothing runs here, so a postmaster.pid is stale (killed server).
        let pid_file = data_dir.join("postmaster.pid");
        if pid_file.exists() {
            tracing::warn!(file = %pid_file.display(), "removing stale postmaster.pid");
            fs::remove_file(&pid_file).map_err(io_err(format!("remove {}", pid_file.display())))?;
        }

        let mut settings = vec![
            "listen_addresses=".to_string(),
            format!("unix_socket_directories={}", path_str(&socket_dir)),
        ];
        if opts.unsafe_fast {
            settings.extend(["fsync=off", "full_page_writes=off"].map(String::from));
            if !opts.commits_survive_server_crash {
                settings.push("synchronous_commit=off".into());
            }
        }
        if let Some(n) = opts.max_connections {
            settings.push(format!("max_connections={n}"));
        }
        // pg_ctl hands -o to `/bin/sh -c "exec postgres ..."`, so every word is shell-quoted.
        let server_opts = settings
            .iter()
            .map(|s| format!("-c {}", shell_quote(s)))
            .collect::<Vec<_>>()
            .join(" ");
        let log = data_dir.join("server.log");
        let start_args = vec![
            "start".to_string(),
            "-D".into(),
            path_str(&data_dir),
            "-w".into(),
            "-t".into(),
            opts.start_timeout.as_secs().max(1).to_string(),
            "-l".into(),
            path_str(&log),
            "-o".into(),
            server_opts,
        ];
        tracing::info!(data_dir = %data_dir.display(), "starting PostgreSQL");
        if let Err(err) = runner.run(&pg_ctl, &start_args, Some(&log)) {
            // Lost a race with another process starting the same cluster: use theirs.
            if runner.succeeds(&pg_ctl, &status_args) {
                return Self::reuse(bin_dir, data_dir, opts);
            }
            return Err(err);
        }
        let pg = LocalPostgres {
            bin_dir,
            data_dir,
            socket_dir,
            started_here: true,
        };
        pg.wait_until_ready(opts.start_timeout)?;
        pg.claim();
        Ok(pg)
    }

    /// Records this process as the cluster's launcher ([`LAUNCHER_FILE`]).
    fn claim(&self) {
        let file = self.data_dir.join(LAUNCHER_FILE);
        if let Err(e) = fs::write(&file, std::process::id().to_string()) {
            tracing::warn!(file = %file.display(), error = %e, "could not record the launcher");
        }
    }

    /// Whether the process that launched the running cluster in `data_dir` is gone (or
    /// unknown): then the cluster was left behind by an earlier run and is ours to stop.
    fn launcher_is_gone(data_dir: &Path) -> bool {
        let pid = fs::read_to_string(data_dir.join(LAUNCHER_FILE))
            .ok()
            .and_then(|t| t.trim().parse::<libc::pid_t>().ok());
        match pid {
            Some(pid) if pid > 0 => {
                // Signal 0 only checks: EPERM means it exists under another user.
                // SAFETY: kill with signal 0 sends nothing; it has no memory preconditions.
                let alive = unsafe { libc::kill(pid, 0) } == 0
                    || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
                !alive
            }
            _ => true,
        }
    }

    /// Attaches to a server already running on `data_dir`, reading its socket directory from
    /// `postmaster.pid` (line 5).
    fn reuse(
        bin_dir: PathBuf,
        data_dir: PathBuf,
        opts: &LaunchOptions,
    ) -> Result<LocalPostgres, LaunchError> {
        let pid_file = data_dir.join("postmaster.pid");
        let text = fs::read_to_string(&pid_file)
            .map_err(io_err(format!("read {}", pid_file.display())))?;
        let socket_dir = text
            .lines()
            .nth(4)
            .filter(|s| !s.trim().is_empty())
            .map(|s| PathBuf::from(s.trim()))
            .unwrap_or_else(|| data_dir.join(SOCKET_SUBDIR));
        let adopt = Self::launcher_is_gone(&data_dir);
        if adopt {
            tracing::info!(data_dir = %data_dir.display(),
                "adopting a PostgreSQL cluster left running by an earlier run; it stops with this one");
        } else {
            tracing::info!(data_dir = %data_dir.display(), "reusing running PostgreSQL cluster");
        }
        let pg = LocalPostgres {
            bin_dir,
            data_dir,
            socket_dir,
            started_here: adopt,
        };
        pg.wait_until_ready(opts.start_timeout)?;
        if adopt {
            pg.claim();
        }
        Ok(pg)
    }

    /// Connection URL for database `dbname` over the Unix socket.
    ///
    /// libpq reads a `host` query parameter that starts with `/` as a socket directory, which
    /// keeps the path readable instead of percent-encoding it into the authority part.
    pub fn database_url(&self, dbname: &str) -> String {
        format!(
            "postgres://{SUPERUSER}@localhost/{dbname}?host={}",
            path_str(&self.socket_dir)
        )
    }

    /// The directory holding the server's Unix socket.
    pub fn socket_dir(&self) -> &Path {
        &self.socket_dir
    }

    /// The cluster's data directory.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Whether this value owns the server (started or adopted it) and so stops it on drop.
    pub fn started_here(&self) -> bool {
        self.started_here
    }

    /// Stops the server now with `mode` (`fast` or `immediate`), whoever started it.
    ///
    /// Useful where `Drop` never runs (a value kept in a `static`).
    ///
    /// # Errors
    /// [`LaunchError::Command`] when `pg_ctl stop` fails.
    pub fn stop(&self, mode: &str) -> Result<(), LaunchError> {
        let args = [
            "stop".to_string(),
            "-D".into(),
            path_str(&self.data_dir),
            "-m".into(),
            mode.into(),
            "-w".into(),
        ];
        Runner::current()?.run(&self.bin_dir.join("pg_ctl"), &args, None)
    }

    fn wait_until_ready(&self, timeout: Duration) -> Result<(), LaunchError> {
        let url = self.database_url("postgres");
        let deadline = Instant::now() + timeout;
        loop {
            match PgConnection::establish(&url) {
                Ok(_) => return Ok(()),
                Err(e) if Instant::now() >= deadline => {
                    return Err(LaunchError::NotReady(timeout, e.to_string()))
                }
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }
}

impl Drop for LocalPostgres {
    fn drop(&mut self) {
        if self.started_here {
            if let Err(e) = self.stop("fast") {
                tracing::warn!(error = %e, "could not stop local PostgreSQL");
            }
        }
    }
}

/// `initdb`/`pg_ctl` directory: from PATH if both are there, else the newest
/// `/usr/lib/postgresql/<version>/bin` (Debian's layout, which does not put them on PATH).
pub fn find_bin_dir() -> Option<PathBuf> {
    let has_both = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Some(path) = std::env::var_os("PATH") {
        if let Some(dir) = std::env::split_paths(&path).find(|d| has_both(d)) {
            return Some(dir);
        }
    }
    let mut versions: Vec<(Vec<u32>, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let key = name
                .split('.')
                .map(|p| p.parse::<u32>().ok())
                .collect::<Option<Vec<u32>>>()?;
            let bin = entry.path().join("bin");
            has_both(&bin).then_some((key, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

/// Runs server commands as the current user, or as `postgres` when we are root.
struct Runner {
    /// `(uid, gid)` of the `postgres` user when running as root.
    as_postgres: Option<(libc::uid_t, libc::gid_t)>,
}

impl Runner {
    fn current() -> Result<Runner, LaunchError> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Ok(Runner { as_postgres: None });
        }
        let ids = postgres_user_ids().ok_or(LaunchError::NoPostgresUser)?;
        Ok(Runner {
            as_postgres: Some(ids),
        })
    }

    /// Gives `dir` to the user the server runs as (no-op unless root).
    fn hand_over(&self, dir: &Path) -> Result<(), LaunchError> {
        if let Some((uid, gid)) = self.as_postgres {
            std::os::unix::fs::chown(dir, Some(uid), Some(gid))
                .map_err(io_err(format!("chown {} to postgres", dir.display())))?;
        }
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
            .map_err(io_err(format!("chmod 700 {}", dir.display())))
    }

    fn command(&self, program: &Path, args: &[String]) -> Command {
        let mut cmd = if self.as_postgres.is_some() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(program);
            c
        } else {
            Command::new(program)
        };
        // The postgres user may not be allowed into our working directory (e.g. /root).
        cmd.args(args).current_dir("/");
        cmd
    }

    fn succeeds(&self, program: &Path, args: &[String]) -> bool {
        self.command(program, args)
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    }

    fn run(&self, program: &Path, args: &[String], log: Option<&Path>) -> Result<(), LaunchError> {
        let mut cmd = self.command(program, args);
        let command = format!("{cmd:?}");
        let out: Output = cmd
            .output()
            .map_err(io_err(format!("run {}", program.display())))?;
        if out.status.success() {
            return Ok(());
        }
        let mut output = String::new();
        output.push_str(&String::from_utf8_lossy(&out.stdout));
        output.push_str(&String::from_utf8_lossy(&out.stderr));
        if let Some(log) = log {
            if let Ok(text) = fs::read_to_string(log) {
                let tail: Vec<&str> = text.lines().rev().take(20).collect();
                let _ = write!(output, "\nserver log ({}):", log.display());
                for line in tail.iter().rev() {
                    let _ = write!(output, "\n  {line}");
                }
            }
        }
        Err(LaunchError::Command {
            command,
            status: out.status.to_string(),
            output,
        })
    }
}

fn postgres_user_ids() -> Option<(libc::uid_t, libc::gid_t)> {
    let name = std::ffi::CString::new("postgres").ok()?;
    // SAFETY: getpwnam returns null or a pointer to a static passwd record, read at once.
    let pw = unsafe { libc::getpwnam(name.as_ptr()) };
    if pw.is_null() {
        return None;
    }
    // SAFETY: checked non-null above.
    let pw = unsafe { &*pw };
    Some((pw.pw_uid, pw.pw_gid))
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn path_str(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn io_err(action: String) -> impl FnOnce(std::io::Error) -> LaunchError {
    move |source| LaunchError::Io { action, source }
}
