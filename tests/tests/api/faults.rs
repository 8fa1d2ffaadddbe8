//! Faults under load: PostgreSQL stopped and started again, and an exhausted connection pool.
//! The service answers 503 problem+json with `Retry-After` (never a 500, never a hang), recovers
//! without a restart, and long polls never hold a pool connection while they wait.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use db::local_pg::{LaunchOptions, LocalPostgres};
use diesel::prelude::*;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{metric, spawn_app_with, wait_for, Game, TestApp};

/// What a response was, enough to judge it: status, problem+json or not, `Retry-After`.
#[derive(Debug, Clone)]
struct Seen {
    status: u16,
    problem: bool,
    retry_after: bool,
    code: String,
}

async fn seen(res: reqwest::Response) -> Seen {
    let status = res.status().as_u16();
    let problem = res
        .headers()
        .get("content-type")
        .is_some_and(|v| v.as_bytes() == b"application/problem+json");
    let retry_after = res.headers().contains_key("retry-after");
    let body: Value = res.json().await.unwrap_or(Value::Null);
    Seen {
        status,
        problem,
        retry_after,
        code: body["code"].as_str().unwrap_or("").to_string(),
    }
}

fn assert_503(s: &Seen) {
    assert!(
        s.status == 503 && s.problem && s.retry_after && s.code == "unavailable",
        "expected 503 problem+json with Retry-After, got {s:?}"
    );
}

/// One random-ish legal move by the active seat; the action's response, or `None` when the
/// poll or legal-actions read failed (the database is down).
async fn try_move(app: &TestApp, game: &Game, n: usize) -> Option<Seen> {
    let res = app
        .req(Method::GET, &format!("/v1/games/{}", game.id), None)
        .send()
        .await
        .ok()?;
    if res.status() != StatusCode::OK {
        let s = seen(res).await;
        return Some(s);
    }
    let doc: Value = res.json().await.ok()?;
    if doc["status"] != "active" {
        return None;
    }
    let seat = doc["active_seats"][0].as_u64()? as usize;
    let res = app
        .req(
            Method::GET,
            &format!("/v1/games/{}/legal-actions", game.id),
            Some(&game.tokens[seat]),
        )
        .send()
        .await
        .ok()?;
    if res.status() != StatusCode::OK {
        return Some(seen(res).await);
    }
    let legal: Value = res.json().await.ok()?;
    let actions = legal["actions"].as_array()?;
    let action = &actions[n % actions.len()];
    let res = app
        .req(
            Method::POST,
            &format!("/v1/games/{}/actions", game.id),
            Some(&game.tokens[seat]),
        )
        .json(&json!({ "action": action, "expected_version": legal["version"] }))
        .send()
        .await
        .ok()?;
    Some(seen(res).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_stopped_during_load_gives_503_with_retry_after_and_the_service_recovers() {
    // A cluster of this test's own, so that stopping it disturbs no other test. Its commits
    // survive the crash below: with `synchronous_commit=off` (the other test clusters') the
    // last moves answered 200 could be lost in it, and a client that read the game at such a
    // lost version would rightly be told 409 `version_conflict` after the restart.
    let dir = tempfile::Builder::new().prefix("pgstop").tempdir().unwrap();
    let data = dir.path().join("data");
    let d = data.clone();
    let first = tokio::task::spawn_blocking(move || {
        LocalPostgres::start_with(&d, &LaunchOptions::for_crash_tests()).expect("start PostgreSQL")
    })
    .await
    .unwrap();
    let url = first.database_url("postgres");
    let app = api::Application::build(api::Settings::for_tests(&url))
        .await
        .unwrap();
    let base = format!("http://{}", app.address());
    let server = tokio::spawn(app.run());
    // TestApp wants a TestDb for SQL helpers; this test reads only over HTTP.
    let client = reqwest::Client::new();
    let app = TestApp {
        base,
        client,
        db: tokio::task::spawn_blocking(db::testing::TestDb::new)
            .await
            .unwrap(),
    };
    let games = [app.create_game(2, 1).await, app.create_game(2, 2).await];

    // Load: every game played continuously; every action response is kept.
    let stop = Arc::new(AtomicBool::new(false));
    let oks = Arc::new(AtomicUsize::new(0));
    let responses = Arc::new(Mutex::new(Vec::<Seen>::new()));
    let app = Arc::new(app);
    let load: Vec<_> = games
        .iter()
        .cloned()
        .map(|game| {
            let (app, stop, oks, responses) =
                (app.clone(), stop.clone(), oks.clone(), responses.clone());
            tokio::spawn(async move {
                let mut n = 0;
                while !stop.load(Ordering::SeqCst) {
                    n += 1;
                    if let Some(s) = try_move(&app, &game, n).await {
                        if s.status == 200 {
                            oks.fetch_add(1, Ordering::SeqCst);
                        }
                        responses.lock().unwrap().push(s);
                    }
                }
            })
        })
        .collect();
    wait_for("20 answered moves before the outage", || async {
        (oks.load(Ordering::SeqCst) >= 20).then_some(())
    })
    .await;

    // Stop PostgreSQL the hard way while the load runs.
    tokio::task::spawn_blocking({
        let first = first;
        move || {
            first.stop("immediate").expect("pg_ctl stop -m immediate");
            first
        }
    })
    .await
    .map(std::mem::forget) // its Drop would stop the restarted server
    .unwrap();
    let res = app.req(Method::GET, "/readyz", None).send().await.unwrap();
    assert_503(&seen(res).await);
    let g = &games[0];
    let res = app
        .req(Method::GET, &format!("/v1/games/{}", g.id), None)
        .send()
        .await
        .unwrap();
    assert_503(&seen(res).await);
    let res = app
        .req(
            Method::POST,
            &format!("/v1/games/{}/actions", g.id),
            Some(&g.tokens[0]),
        )
        .json(&json!({ "action": { "type": "end_turn" } }))
        .send()
        .await
        .unwrap();
    assert_503(&seen(res).await);

    // Start it again: the same process recovers, no restart.
    let d = data.clone();
    let second = tokio::task::spawn_blocking(move || {
        LocalPostgres::start_with(&d, &LaunchOptions::for_crash_tests())
            .expect("restart PostgreSQL")
    })
    .await
    .unwrap();
    wait_for("/readyz to pass again after the restart", || async {
        let res = app.req(Method::GET, "/readyz", None).send().await.unwrap();
        if res.status() == StatusCode::OK {
            return Some(());
        }
        assert_503(&seen(res).await);
        None
    })
    .await;
    let before = oks.load(Ordering::SeqCst);
    wait_for("10 more answered moves after the restart", || async {
        (oks.load(Ordering::SeqCst) >= before + 10).then_some(())
    })
    .await;
    stop.store(true, Ordering::SeqCst);
    for t in load {
        t.await.unwrap();
    }
    let responses = responses.lock().unwrap().clone();
    let outage: Vec<_> = responses.iter().filter(|s| s.status != 200).collect();
    assert!(!outage.is_empty(), "the load saw the outage");
    for s in outage {
        assert_503(s);
    }
    server.abort();
    drop(second);
}

/// Pool use as `/metrics` reports it: (connections in use, long polls waiting).
async fn pool_use(app: &TestApp) -> (i64, i64) {
    let text = app
        .req(Method::GET, "/metrics", None)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    (
        metric(&text, "db_pool_connections") - metric(&text, "db_pool_idle_connections"),
        metric(&text, "long_polls_waiting"),
    )
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

#[derive(QueryableByName)]
struct Pid {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pid: i32,
}

/// The server process (pid) of the session on `conn`.
fn backend_pid(conn: &mut PgConnection) -> i32 {
    diesel::sql_query("SELECT pg_backend_pid() AS pid")
        .get_result::<Pid>(conn)
        .unwrap()
        .pid
}

/// How many sessions wait, directly or behind one another, for a lock the session `holder`
/// holds: each is inside a statement, on a connection it keeps until the lock is released.
fn sessions_blocked_by(conn: &mut PgConnection, holder: i32) -> i64 {
    diesel::sql_query(
        "WITH RECURSIVE blocked(pid) AS ( \
             SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)) \
             UNION \
             SELECT a.pid FROM pg_stat_activity a JOIN blocked b \
                 ON b.pid = ANY(pg_blocking_pids(a.pid))) \
         SELECT count(*) AS n FROM blocked",
    )
    .bind::<diesel::sql_types::Integer, _>(holder)
    .get_result::<Count>(conn)
    .unwrap()
    .n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exhausted_pool_gives_503_with_retry_after_and_long_polls_never_starve_actions() {
    let app = Arc::new(spawn_app_with(|s| s.pool_size = 2).await);
    let acted = app.create_game(2, 5).await;
    let quiet = app.create_game(2, 6).await;
    let version = app.version(&acted).await;
    let quiet_version = app.version(&quiet).await;

    // 60 slow long polls: 30 on the game that will change, 30 on one that will not.
    let polls: Vec<_> = (0..60)
        .map(|i| {
            let app = app.clone();
            let (id, v) = if i % 2 == 0 {
                (acted.id.clone(), version)
            } else {
                (quiet.id.clone(), quiet_version)
            };
            tokio::spawn(async move {
                let res = app
                    .req(
                        Method::GET,
                        &format!("/v1/games/{id}?wait=30&after_version={v}"),
                        None,
                    )
                    .send()
                    .await
                    .unwrap();
                seen(res).await
            })
        })
        .collect();
    // Waiting long polls hold no pool connection: with all 60 waiting, the pool is seen with
    // no connection checked out. One look at the pool would not say whose connections are out:
    // the server's own tasks (the seek filler twice a second, the deadline and bot workers)
    // check one out for a moment now and then. A connection a waiting poll held would stay
    // out for its whole wait (30 s), and the pool would never be seen idle while all 60 wait.
    let deadline = tokio::time::Instant::now() + testkit::PATIENCE;
    let mut looks = Vec::new();
    loop {
        let (in_use, waiting) = pool_use(&app).await;
        if waiting == 60 && in_use == 0 {
            break;
        }
        looks.push((waiting, in_use));
        assert!(
            tokio::time::Instant::now() < deadline,
            "waiting long polls hold no pool connection: never saw all 60 waiting with the \
             pool idle; (polls waiting, connections in use), last looks: {:?}",
            &looks[looks.len().saturating_sub(10)..]
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }

    // Actions are served while the polls wait (and wake, and re-read) on a pool of two.
    for n in 0..5 {
        let s = try_move(&app, &acted, n).await.expect("a move");
        assert_eq!(s.status, 200, "{s:?}");
    }
    // Wake-ups are asynchronous (announced after the commit, received within the listener's
    // 20 ms interval): the polls of the changed game come back, the others still wait.
    wait_for("the 30 polls of the changed game to come back", || async {
        (pool_use(&app).await.1 == 30).then_some(())
    })
    .await;

    // Exhaust the pool for real: an outside transaction holds the game's row lock, so the
    // actions that got a connection block on it with their connection, and the rest wait for
    // the pool until it gives up.
    let mut locker = app.db.conn();
    let id: uuid::Uuid = acted.id.parse().unwrap();
    diesel::sql_query("BEGIN").execute(&mut locker).unwrap();
    diesel::sql_query("SELECT 1 FROM games WHERE id = $1 FOR UPDATE")
        .bind::<diesel::sql_types::Uuid, _>(id)
        .execute(&mut locker)
        .unwrap();
    let seat = app.document(&acted, None).await["active_seats"][0]
        .as_u64()
        .unwrap() as usize;
    let legal = app.legal(&acted, seat).await;
    let done = Arc::new(AtomicUsize::new(0));
    let actions: Vec<_> = (0..8)
        .map(|_| {
            let (app, game, legal, done) =
                (app.clone(), acted.clone(), legal.clone(), done.clone());
            tokio::spawn(async move {
                let (status, body) = app
                    .act(
                        &game,
                        seat,
                        &json!({ "action": legal["actions"][0], "expected_version": legal["version"] }),
                    )
                    .await;
                done.fetch_add(1, Ordering::SeqCst);
                (status, body)
            })
        })
        .collect();
    // Two actions hold the two connections; the six others time out of the pool.
    wait_for("six actions to time out of the pool", || async {
        (done.load(Ordering::SeqCst) >= 6).then_some(())
    })
    .await;
    assert_eq!(
        done.load(Ordering::SeqCst),
        6,
        "the two holding the connections wait for the row lock"
    );
    diesel::sql_query("COMMIT").execute(&mut locker).unwrap();
    let mut statuses = Vec::new();
    for a in actions {
        let (status, body) = a.await.unwrap();
        match status.as_u16() {
            200 => {}
            409 => assert_eq!(body["code"], "version_conflict", "{body}"),
            503 => assert_eq!(body["code"], "unavailable", "{body}"),
            _ => panic!("unexpected {status}: {body}"),
        }
        statuses.push(status.as_u16());
    }
    statuses.sort();
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert!(statuses.contains(&503), "{statuses:?}");
    // The 503s carry Retry-After. The blockers' action is legal, so that they get as far
    // as the write and wait there for the row lock, holding their connections.
    let seat = app.document(&acted, None).await["active_seats"][0]
        .as_u64()
        .unwrap() as usize;
    let legal = app.legal(&acted, seat).await;
    let res = {
        let mut locker = app.db.conn();
        diesel::sql_query("BEGIN").execute(&mut locker).unwrap();
        diesel::sql_query("SELECT 1 FROM games WHERE id = $1 FOR UPDATE")
            .bind::<diesel::sql_types::Uuid, _>(id)
            .execute(&mut locker)
            .unwrap();
        let blockers: Vec<_> = (0..2)
            .map(|_| {
                let (app, game, legal) = (app.clone(), acted.clone(), legal.clone());
                tokio::spawn(async move {
                    app.act(&game, seat, &json!({ "action": legal["actions"][0] }))
                        .await
                })
            })
            .collect();
        // Both blockers hold their connection (waiting for the row lock) until the COMMIT:
        // PostgreSQL shows their sessions blocked by the locker. (Two connections in use is
        // not enough: a blocker's first try, on a connection free at once, does not wait for
        // the lock but gives its connection back and queues for another, and a background
        // task may hold one for a moment, so a read could slip into the pool in between.)
        let holder = backend_pid(&mut locker);
        let mut watcher = app.db.conn();
        wait_for("both blockers to wait for the row lock", || {
            let n = sessions_blocked_by(&mut watcher, holder);
            async move { (n == 2).then_some(()) }
        })
        .await;
        let res = app
            .req(Method::GET, &format!("/v1/games/{}", quiet.id), None)
            .send()
            .await
            .unwrap();
        let s = seen(res).await;
        diesel::sql_query("COMMIT").execute(&mut locker).unwrap();
        for b in blockers {
            b.await.unwrap();
        }
        s
    };
    assert_503(&res);

    // After all that: actions are served, and the waiting polls are still fine.
    let s = try_move(&app, &acted, 1).await.expect("a move");
    assert_eq!(s.status, 200, "{s:?}");
    for (i, p) in polls.into_iter().enumerate() {
        if i % 2 == 0 {
            let s = p.await.unwrap();
            assert_eq!(s.status, 200, "{s:?}");
        } else {
            p.abort();
        }
    }
}
