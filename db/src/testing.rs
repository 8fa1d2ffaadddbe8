//! Test databases: one migrated template per test process, one fresh copy per test.
//!
//! ```no_run
//! let test_db = db::testing::TestDb::new();      // CREATE DATABASE ... TEMPLATE ...
//! let pool = test_db.pool(4);
//! let mut conn = db::get_conn(&pool).unwrap();
//! // ... the database is dropped when `test_db` goes out of scope.
//! ```
//!
//! The server is `DATABASE_URL` when set (the user must be allowed to CREATE DATABASE);
//! otherwise a private cluster is started once per test process in a temporary directory
//! (fsync off) and stopped and deleted when the process exits. Copying a template is a file
//! copy, much faster than migrating every test's database, and gives each test its own
//! database so tests run in parallel without seeing each other's rows.
//!
//! Names are `dbtest_<pid>_...`; databases and cluster directories left by crashed runs (whose
//! pid is gone) are dropped on the next run's start.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use diesel::prelude::*;
use diesel::sql_types::Text;

use crate::local_pg::{LaunchOptions, LocalPostgres};
use crate::Pool;

const PREFIX: &str = "dbtest_";
const DIR_PREFIX: &str = "gs-pg-";
const OWNER_FILE: &str = "owner.pid";

struct Shared {
    /// Server URL with the database name left to fill in.
    base_url: String,
    /// Migrated template to copy.
    template: String,
    /// Connection to the maintenance database; the mutex also serialises CREATE DATABASE,
    /// which fails when two copies of one template are made at once.
    admin: Mutex<PgConnection>,
    /// The private cluster, when there is no DATABASE_URL.
    cluster: Option<LocalPostgres>,
}

static SHARED: OnceLock<Shared> = OnceLock::new();
static COUNTER: AtomicU64 = AtomicU64::new(0);

fn shared() -> &'static Shared {
    SHARED.get_or_init(|| init().unwrap_or_else(|e| panic!("test database set-up failed: {e}")))
}

fn init() -> Result<Shared, String> {
    let (base_url, cluster) = match std::env::var("DATABASE_URL") {
        Ok(url) if !url.is_empty() => (url, None),
        _ => {
            let pg = start_private_cluster()?;
            (pg.database_url("postgres"), Some(pg))
        }
    };
    // SAFETY: registering a plain extern "C" fn with no captured state.
    unsafe { libc::atexit(clean_up_at_exit) };
    let mut admin = PgConnection::establish(&with_database(&base_url, "postgres"))
        .or_else(|_| PgConnection::establish(&base_url))
        .map_err(|e| format!("connect to {base_url}: {e}"))?;
    sweep_databases(&mut admin);

    let pid = std::process::id();
    let template = format!("{PREFIX}{pid}_template");
    diesel::sql_query(format!("DROP DATABASE IF EXISTS {template} WITH (FORCE)"))
        .execute(&mut admin)
        .map_err(|e| e.to_string())?;
    diesel::sql_query(format!("CREATE DATABASE {template}"))
        .execute(&mut admin)
        .map_err(|e| format!("create template database: {e}"))?;
    {
        let mut conn = PgConnection::establish(&with_database(&base_url, &template))
            .map_err(|e| e.to_string())?;
        crate::migrate(&mut conn).map_err(|e| e.to_string())?;
    } // the template must have no connections left when it is copied
    Ok(Shared {
        base_url,
        template,
        admin: Mutex::new(admin),
        cluster,
    })
}

fn start_private_cluster() -> Result<LocalPostgres, String> {
    let tmp = std::env::temp_dir();
    sweep_cluster_dirs(&tmp);
    let dir = tempfile::Builder::new()
        .prefix(DIR_PREFIX)
        .tempdir_in(&tmp)
        .map_err(|e| e.to_string())?
        .keep();
    std::fs::write(dir.join(OWNER_FILE), std::process::id().to_string())
        .map_err(|e| e.to_string())?;
    LocalPostgres::start_with(&dir.join("data"), &LaunchOptions::for_tests())
        .map_err(|e| e.to_string())
}

/// Statics are never dropped, so the process's exit stops the private cluster and deletes its
/// directory, or (on a `DATABASE_URL` server) drops the template.
extern "C" fn clean_up_at_exit() {
    let Some(shared) = SHARED.get() else { return };
    if let Some(pg) = &shared.cluster {
        let _ = pg.stop("immediate");
        if let Some(dir) = pg.data_dir().parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    } else if let Ok(mut admin) = shared.admin.try_lock() {
        let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", shared.template);
        let _ = diesel::sql_query(sql).execute(&mut *admin);
    }
}

/// Whether process `pid` exists on this machine.
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks for existence and permission.
    pid > 0
        && (unsafe { libc::kill(pid, 0) } == 0
            || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

/// Stops and deletes test clusters whose owning process is gone.
fn sweep_cluster_dirs(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(DIR_PREFIX) {
            continue;
        }
        let dir = entry.path();
        let owner = std::fs::read_to_string(dir.join(OWNER_FILE))
            .ok()
            .and_then(|s| s.trim().parse::<i32>().ok());
        if owner.is_none_or(alive) {
            continue; // still in use, or not (yet) ours to judge
        }
        let data = dir.join("data");
        if data.join("postmaster.pid").exists() {
            if let Some(bin) = crate::local_pg::find_bin_dir() {
                stop_stray(&bin, &data);
            }
        }
        tracing::info!(dir = %dir.display(), "removing leftover test cluster");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn stop_stray(bin: &Path, data: &Path) {
    let pg_ctl: PathBuf = bin.join("pg_ctl");
    // SAFETY: geteuid has no preconditions.
    let mut cmd = if unsafe { libc::geteuid() } == 0 {
        let mut c = std::process::Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(&pg_ctl);
        c
    } else {
        std::process::Command::new(&pg_ctl)
    };
    let _ = cmd
        .args(["stop", "-m", "immediate", "-D"])
        .arg(data)
        .current_dir("/")
        .output();
}

#[derive(QueryableByName)]
struct DbName {
    #[diesel(sql_type = Text)]
    datname: String,
}

/// Drops `dbtest_<pid>_*` databases whose process is gone.
fn sweep_databases(admin: &mut PgConnection) {
    let names: Vec<DbName> =
        match diesel::sql_query("SELECT datname FROM pg_database WHERE datname LIKE 'dbtest\\_%'")
            .load(admin)
        {
            Ok(n) => n,
            Err(_) => return,
        };
    for DbName { datname } in names {
        let pid = datname[PREFIX.len()..]
            .split('_')
            .next()
            .and_then(|p| p.parse::<i32>().ok());
        if pid.is_some_and(|p| !alive(p)) {
            tracing::info!(database = %datname, "dropping leftover test database");
            let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {datname} WITH (FORCE)"))
                .execute(admin);
        }
    }
}

/// `url` with its database name replaced by `name`; keeps user, host and query
/// (`postgres://user@host/old?host=/sock` -> `postgres://user@host/name?host=/sock`).
pub fn with_database(url: &str, name: &str) -> String {
    let (main, query) = match url.split_once('?') {
        Some((m, q)) => (m, Some(q)),
        None => (url, None),
    };
    let authority_start = main.find("://").map_or(0, |i| i + 3);
    let path_start = main[authority_start..]
        .find('/')
        .map_or(main.len(), |i| authority_start + i);
    let mut out = format!("{}/{}", &main[..path_start], name);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// URL of database `name` on the shared test server (starting it if needed).
pub fn server_url(name: &str) -> String {
    with_database(&shared().base_url, name)
}

/// A database of its own for one test, copied from the migrated template and dropped on drop.
#[derive(Debug)]
pub struct TestDb {
    name: String,
    url: String,
}

impl TestDb {
    /// Creates a fresh, migrated database.
    ///
    /// # Panics
    /// When the server cannot be reached or the copy fails: a test cannot go on without it.
    pub fn new() -> TestDb {
        let shared = shared();
        let name = format!(
            "{PREFIX}{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = shared.admin.lock().unwrap_or_else(|p| p.into_inner());
        let sql = format!("CREATE DATABASE {name} TEMPLATE {}", shared.template);
        let mut attempt = 0;
        loop {
            match diesel::sql_query(&sql).execute(&mut *admin) {
                Ok(_) => break,
                // Someone (autovacuum, a stray test connection) is in the template: wait.
                Err(e) if attempt < 100 && e.to_string().contains("being accessed") => {
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => panic!("{sql}: {e}"),
            }
        }
        drop(admin);
        let url = with_database(&shared.base_url, &name);
        TestDb { name, url }
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Connection URL of this database.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// A new connection of its own (not pooled).
    ///
    /// A full listen queue is waited out: when many tests connect at once on a loaded machine,
    /// the postmaster may not accept fast enough and the socket answers "Resource temporarily
    /// unavailable" (EAGAIN), which says nothing about the test.
    ///
    /// # Panics
    /// When the connection fails for another reason, or the queue stays full for 10 s.
    pub fn conn(&self) -> PgConnection {
        let mut attempt = 0;
        loop {
            match PgConnection::establish(&self.url) {
                Ok(conn) => return conn,
                Err(e) if attempt < 100 && e.to_string().contains("temporarily unavailable") => {
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(e) => panic!("connect {}: {e}", self.url),
            }
        }
    }

    /// A pool of up to `size` connections to this database.
    ///
    /// # Panics
    /// When the pool cannot connect.
    pub fn pool(&self, size: u32) -> Pool {
        crate::connect_pool(&self.url, size).expect("test pool")
    }
}

impl Default for TestDb {
    fn default() -> Self {
        TestDb::new()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Some(shared) = SHARED.get() else { return };
        let mut admin = shared.admin.lock().unwrap_or_else(|p| p.into_inner());
        // FORCE ends connections a test's pool still holds.
        let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        if let Err(e) = diesel::sql_query(&sql).execute(&mut *admin) {
            tracing::warn!(database = %self.name, error = %e, "could not drop test database");
        }
    }
}
