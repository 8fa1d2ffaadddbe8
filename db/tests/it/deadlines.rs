//! Commit times and the deadline queue (migration 10): clocks are derived from the log's
//! timestamps, so every commit of a game gets one time, later than the previous commit's even
//! when it waited for that commit's row lock; deadlines are armed from them exactly, claimed
//! by one process at a time, and expire open games.

use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
use db::store::{self, ClaimedDeadline, DeadlineChange, DeadlineKind, Decision, LockWait};
use db::testing::TestDb;
use db::{GameRow, GameStatus, NewEvent, StoredResponse};
use diesel::prelude::*;
use serde_json::json;

use crate::caller::{apply_action, ApplyOutcome, ApplyRequest};
use crate::helpers::{self, active_game, open_game};

/// A decision of `n` events that leaves the game active, doing `deadline`.
fn decision(n: usize, deadline: DeadlineChange) -> Decision {
    let events = (0..n)
        .map(|i| NewEvent::by_seat(0, json!({"type": "Go"}), json!({"type": "Went", "i": i})))
        .collect();
    Decision {
        lifecycle: Some(json!({"seats": []}).into()),
        deadline,
        ..helpers::decision(events, json!({"counter": 1}), GameStatus::Active, vec![0])
    }
}

fn apply(conn: &mut PgConnection, game: uuid::Uuid, n: usize, deadline: DeadlineChange) -> GameRow {
    let req = ApplyRequest {
        game_id: game,
        expected_version: None,
        idempotency: None,
        lock_wait: LockWait::Allowed,
    };
    match apply_action(
        conn,
        &req,
        |_| Ok::<_, String>((decision(n, deadline), ())),
        |_, ()| StoredResponse {
            status: 200,
            body: json!({}).into(),
        },
    )
    .unwrap()
    {
        ApplyOutcome::Applied { applied, .. } => applied.game,
        ApplyOutcome::Replayed { .. } => unreachable!(),
    }
}

fn deadline_row(conn: &mut PgConnection, game: uuid::Uuid) -> Option<(String, i64, DateTime<Utc>)> {
    use db::schema::game_deadlines as d;
    d::table
        .find(game)
        .select((d::kind, d::version, d::due_at))
        .first(conn)
        .optional()
        .unwrap()
}

#[test]
fn the_events_of_a_commit_share_one_time_later_than_the_previous_commits() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    apply(&mut conn, game.id, 3, DeadlineChange::Keep);
    apply(&mut conn, game.id, 2, DeadlineChange::Keep);
    let events = store::all_events(&mut conn, game.id).unwrap();
    let times: Vec<DateTime<Utc>> = events.iter().map(|e| e.created_at).collect();
    assert_eq!(times.len(), 6);
    assert!(times[1] > times[0]);
    assert!(times[1..4].iter().all(|t| *t == times[1]), "{times:?}");
    assert!(times[4] > times[3] && times[4] == times[5], "{times:?}");
    let stored = store::get_game(&mut conn, game.id).unwrap();
    assert_eq!(
        stored.updated_at, times[5],
        "the game changed at its last commit's time"
    );
    assert!(stored.lifecycle.is_some());
}

#[test]
fn a_commit_that_waited_for_the_row_lock_gets_a_time_after_the_commit_it_waited_for() {
    let test_db = TestDb::new();
    let mut holder = test_db.conn();
    let mut watcher = test_db.conn();
    let game = active_game(&mut holder);
    let url = test_db.url().to_string();
    let id = game.id;
    let holder_pid = helpers::backend_pid(&mut holder);
    // The holder locks the row; the waiter's append starts and waits for it: PostgreSQL shows
    // the waiter's session blocked by the holder's before the holder reads the time.
    let released_at = holder
        .transaction(|holder| {
            diesel::sql_query("SELECT 1 FROM games WHERE id = $1 FOR UPDATE")
                .bind::<diesel::sql_types::Uuid, _>(id)
                .execute(holder)?;
            let waiter = std::thread::spawn(move || {
                let mut conn = PgConnection::establish(&url).unwrap();
                apply(&mut conn, id, 1, DeadlineChange::Keep)
            });
            helpers::wait_until_blocked_by(&mut watcher, holder_pid, 1);
            let at: DateTime<Utc> = diesel::select(diesel::dsl::sql::<
                diesel::sql_types::Timestamptz,
            >("clock_timestamp()"))
            .get_result(holder)?;
            Ok::<_, diesel::result::Error>((at, waiter))
        })
        .unwrap();
    let (released_at, waiter) = released_at;
    let written = waiter.join().unwrap();
    assert!(
        written.updated_at > released_at,
        "{} must be after the lock was released at {released_at}",
        written.updated_at
    );
}

#[test]
fn a_deadline_is_armed_from_the_commit_time_exactly_and_cleared() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    let after = Duration::from_micros(1_500_123);
    let written = apply(
        &mut conn,
        game.id,
        1,
        DeadlineChange::Arm {
            at: None,
            after_commit: Some(after),
        },
    );
    let (kind, version, due) = deadline_row(&mut conn, game.id).unwrap();
    assert_eq!((kind.as_str(), version), ("clock", written.version));
    assert_eq!(due, written.updated_at + TimeDelta::microseconds(1_500_123));

    // The earlier of an absolute time and one after the commit.
    let soon = written.updated_at + TimeDelta::milliseconds(10);
    let written = apply(
        &mut conn,
        game.id,
        1,
        DeadlineChange::Arm {
            at: Some(soon),
            after_commit: Some(Duration::from_secs(60)),
        },
    );
    assert_eq!(
        deadline_row(&mut conn, game.id).unwrap(),
        ("clock".to_string(), written.version, soon)
    );
    apply(&mut conn, game.id, 1, DeadlineChange::Keep);
    assert!(deadline_row(&mut conn, game.id).is_some(), "kept");
    apply(&mut conn, game.id, 1, DeadlineChange::Clear);
    assert_eq!(deadline_row(&mut conn, game.id), None);
}

#[test]
fn a_due_deadline_is_claimed_by_one_worker_at_a_time_and_a_stale_one_is_dropped() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    let written = apply(
        &mut conn,
        game.id,
        1,
        DeadlineChange::Arm {
            at: None,
            after_commit: Some(Duration::from_secs(3600)),
        },
    );
    let lease = Duration::from_secs(30);
    assert_eq!(
        store::claim_deadline(&mut conn, "a", lease).unwrap(),
        None,
        "not due"
    );
    let wait = store::next_deadline_in(&mut conn).unwrap().unwrap();
    assert!(
        wait > Duration::from_secs(3500) && wait <= Duration::from_secs(3600),
        "{wait:?}"
    );
    // Due now (backdated rather than waited for).
    diesel::sql_query("UPDATE game_deadlines SET due_at = now() - interval '1 second'")
        .execute(&mut conn)
        .unwrap();
    assert_eq!(
        store::next_deadline_in(&mut conn).unwrap(),
        Some(Duration::ZERO)
    );
    let claimed: ClaimedDeadline = store::claim_deadline(&mut conn, "a", lease)
        .unwrap()
        .unwrap();
    assert_eq!(
        (claimed.game_id, claimed.kind, claimed.version),
        (game.id, DeadlineKind::Clock, written.version)
    );
    assert!(claimed.now >= claimed.due_at);
    assert_eq!(
        store::claim_deadline(&mut conn, "b", lease).unwrap(),
        None,
        "leased to a"
    );

    // The game moved on and re-armed it: dropping the claimed one keeps the new one.
    apply(
        &mut conn,
        game.id,
        1,
        DeadlineChange::Arm {
            at: None,
            after_commit: Some(Duration::from_secs(60)),
        },
    );
    store::drop_stale_deadline(&mut conn, &claimed).unwrap();
    assert!(deadline_row(&mut conn, game.id).is_some());
    let rearmed = deadline_row(&mut conn, game.id).unwrap();
    assert_eq!(rearmed.1, claimed.version + 1);
}

/// The api's firing of an expiry: with the row locked, a game still open ends as expired
/// (no one sits in these tests' games, so no notices); otherwise the deadline is dropped.
fn expire(conn: &mut PgConnection, deadline: &ClaimedDeadline) -> Option<store::Changed> {
    store::atomically(conn, |conn| {
        let game = store::read_locked(conn, deadline.game_id)?;
        if game.status != GameStatus::Open {
            store::drop_stale_deadline(conn, deadline)?;
            return Ok::<_, db::StoreError>(None);
        }
        let change = store::LockedChange::EndOpen(GameStatus::Expired, Vec::new());
        Ok(Some(store::write_locked(conn, &game, change)?))
    })
    .unwrap()
}

#[test]
fn an_open_game_gets_an_expiry_and_ends_expired_when_it_fires() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = open_game(&mut conn, 2);
    let (kind, version, due) = deadline_row(&mut conn, game.id).unwrap();
    assert_eq!((kind.as_str(), version), ("expiry", 0));
    assert_eq!(due, game.created_at + TimeDelta::hours(24));
    diesel::sql_query("UPDATE game_deadlines SET due_at = now() - interval '1 second'")
        .execute(&mut conn)
        .unwrap();
    let claimed = store::claim_deadline(&mut conn, "a", Duration::from_secs(30))
        .unwrap()
        .unwrap();
    assert_eq!(claimed.kind, DeadlineKind::Expiry);
    let Some(store::Changed::Ended(ended)) = expire(&mut conn, &claimed) else {
        panic!("the open game did not end");
    };
    let expired = ended.game;
    assert!(ended.notices.is_empty(), "no player sits in it");
    assert_eq!(expired.status, GameStatus::Expired);
    assert_eq!(expired.finished_at, Some(expired.updated_at));
    assert_eq!(deadline_row(&mut conn, game.id), None);
    // Firing it again finds nothing open: stale.
    assert!(expire(&mut conn, &claimed).is_none());
    let err = store::join_seat(&mut conn, game.id, None, "Late", "tok").unwrap_err();
    assert!(matches!(
        err,
        db::StoreError::WrongStatus {
            current: GameStatus::Expired,
            ..
        }
    ));
}
