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
    std::mem::forget(pg); // its Drop would try to stop the dead server
    unsafe { libc::kill(pid, libc::SIGKILL) };
    while unsafe { libc::kill(pid, 0) } == 0 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(data.join("postmaster.pid").exists());

    let restarted = LocalPostgres::start_with(&data, &opts).unwrap();
    assert!(restarted.started_here());
    assert_eq!(select_one(&restarted.database_url("postgres")), 1);
    drop(restarted);
    assert!(PgConnection::establish(&url).is_err(), "dropped => stopped");
}
