//! The pool's health rules: a connection that met a server fault is closed, not reused; a
//! rested one is pinged before use, so one whose server restarted never reaches a request.

use db::testing::TestDb;
use diesel::prelude::*;
use diesel::sql_types::Integer;

/// The backend process id of a connection: tells one connection from another.
fn backend_pid(conn: &mut PgConnection) -> i32 {
    diesel::select(diesel::dsl::sql::<Integer>("pg_backend_pid()"))
        .get_result(conn)
        .unwrap()
}

#[test]
fn a_connection_marked_broken_is_closed_and_replaced() {
    let test_db = TestDb::new();
    let pool = test_db.pool(1);
    let first = {
        let mut conn = db::get_conn(&pool).unwrap();
        let pid = backend_pid(&mut conn);
        conn.mark_broken();
        pid
    };
    let mut conn = db::get_conn(&pool).unwrap();
    assert_ne!(backend_pid(&mut conn), first, "a new connection");
    assert_eq!(pool.state().connections, 1);
}

#[test]
fn a_healthy_connection_is_reused() {
    let test_db = TestDb::new();
    let pool = test_db.pool(1);
    let first = backend_pid(&mut db::get_conn(&pool).unwrap());
    let second = backend_pid(&mut db::get_conn(&pool).unwrap());
    assert_eq!(first, second);
}

#[test]
fn a_rested_connection_whose_backend_died_is_replaced_before_use() {
    let test_db = TestDb::new();
    let pool = test_db.pool(1);
    let victim = backend_pid(&mut db::get_conn(&pool).unwrap());
    // Another session ends the pooled connection's backend, as a server restart would.
    let mut admin = test_db.conn();
    let killed: bool = diesel::select(diesel::dsl::sql::<diesel::sql_types::Bool>(&format!(
        "pg_terminate_backend({victim})"
    )))
    .get_result(&mut admin)
    .unwrap();
    assert!(killed);
    std::thread::sleep(db::PING_AFTER_IDLE + std::time::Duration::from_millis(200));
    let mut conn = db::get_conn(&pool).unwrap();
    assert_ne!(
        backend_pid(&mut conn),
        victim,
        "the dead connection never came out"
    );
}
