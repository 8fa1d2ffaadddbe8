use db::local_pg::{LaunchOptions, LocalPostgres};
use diesel::prelude::*;

fn select_one(url: &str) -> i32 {
    let mut conn = PgConnection::establish(url).unwrap();
    diesel::select(1.into_sql::<diesel::sql_types::Integer>())
        .get_result(&mut conn)
        .unwrap()
}

/// One cluster of its own (not the shared test cluster): start, reuse, stop, restart after a
/// killed server.
#[test]
fn launcher_starts_reuses_and_recovers_from_a_killed_server() {
    let dir = tempfile::Builder::new()
        .prefix("gs-launch-")
        .tempdir()
        .unwrap();
    let data = dir.path().join("data");
    let opts = LaunchOptions::for_tests();

    let pg = LocalPostgres::start_with(&data, &opts).unwrap();
    assert!(pg.started_here());
    let url = pg.database_url("postgres");
    assert!(
        url.starts_with("postgres://postgres@localhost/postgres?host=/"),
        "{url}"
    );
    assert!(pg.socket_dir().join(".s.PGSQL.5432").exists());
    assert_eq!(select_one(&url), 1);

    // A second start on the running cluster attaches to it and leaves it running on drop.
    let again = LocalPostgres::start_with(&data, &opts).unwrap();
    assert!(!again.started_here());
    assert_eq!(again.database_url("postgres"), url);
    drop(again);
    assert_eq!(select_one(&url), 1);

    // Kill the server hard: a stale postmaster.pid stays behind.
    let pid: i32 = std::fs::read_to_string(data.join("postmaster.pid"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // Its Drop would try to stop the dead server.
    std::mem::forget(pg);
    // SAFETY: kill takes plain integers; it has no memory preconditions.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    let deadline = std::time::Instant::now() + crate::helpers::PATIENCE;
    // SAFETY: as above; signal 0 only checks whether the process still exists.
    while unsafe { libc::kill(pid, 0) } == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the killed server (pid {pid}) still exists after {:?}",
            crate::helpers::PATIENCE
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(data.join("postmaster.pid").exists());

    let restarted = LocalPostgres::start_with(&data, &opts).unwrap();
    assert!(restarted.started_here());
    assert_eq!(select_one(&restarted.database_url("postgres")), 1);
    drop(restarted);
    assert!(PgConnection::establish(&url).is_err(), "dropped => stopped");
}

/// After a `kill -9` of the server process the cluster keeps running; the next run adopts it
/// and stops it at exit, while a cluster whose launcher is alive is only reused (issue #18).
#[test]
fn a_cluster_left_by_a_dead_launcher_is_adopted_and_stopped_at_exit() {
    let dir = tempfile::Builder::new()
        .prefix("gs-adopt-")
        .tempdir()
        .unwrap();
    let data = dir.path().join("data");
    let opts = LaunchOptions::for_tests();
    let pg = LocalPostgres::start_with(&data, &opts).unwrap();
    let url = pg.database_url("postgres");
    // The launching process dies without stopping the cluster: its value is never dropped and
    // the launcher file names a process that has exited.
    std::mem::forget(pg);
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    std::fs::write(data.join(db::local_pg::LAUNCHER_FILE), dead.to_string()).unwrap();

    let adopted = LocalPostgres::start_with(&data, &opts).unwrap();
    assert!(adopted.started_here(), "a left-behind cluster is ours");
    assert_eq!(
        std::fs::read_to_string(data.join(db::local_pg::LAUNCHER_FILE)).unwrap(),
        std::process::id().to_string()
    );
    // A second value while this process (the launcher now) lives only reuses it.
    let reused = LocalPostgres::start_with(&data, &opts).unwrap();
    assert!(!reused.started_here());
    drop(reused);
    assert_eq!(select_one(&url), 1);
    drop(adopted);
    assert!(
        PgConnection::establish(&url).is_err(),
        "the adopted cluster stops with the run that adopted it"
    );
}
