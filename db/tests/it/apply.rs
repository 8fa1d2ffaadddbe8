use std::sync::{Arc, Barrier};

use db::store::{self, Applied, BotTurn, Decision, IdempotencyKey, LockWait};
use db::testing::TestDb;
use db::{GameRow, GameStatus, NewEvent, StoreError, StoredResponse};
use diesel::prelude::*;
use serde_json::json;
use uuid::Uuid;

use crate::caller::{apply_action, ApplyOutcome, ApplyRequest};
use crate::helpers::{active_game, count_events, decision};

/// A decision that bumps `counter` in the snapshot and emits `n` events for seat 0, after
/// which seat `counter % 2` is active; the new counter is what it hands to [`respond`].
fn bump(n: usize) -> impl FnMut(&GameRow) -> Result<(Decision, i64), String> {
    move |game| {
        let counter = game.snapshot.as_ref().unwrap().to_value().unwrap()["counter"]
            .as_i64()
            .unwrap();
        let events = (0..n)
            .map(|i| {
                NewEvent::by_seat(
                    0,
                    json!({"type": "Bump"}),
                    json!({"type": "Bumped", "i": i}),
                )
            })
            .collect();
        let snapshot = json!({"counter": counter + 1});
        let active = vec![((counter + 1) % 2) as i32];
        Ok((
            decision(events, snapshot, GameStatus::Active, active),
            counter + 1,
        ))
    }
}

/// Applies `req` with a one-event [`bump`], answered by [`respond`]: the action most tests
/// only need to happen (or to be refused).
fn apply_bump(
    conn: &mut PgConnection,
    req: &ApplyRequest,
) -> Result<ApplyOutcome, StoreError<String>> {
    apply_action(conn, req, bump(1), respond)
}

/// The response names the new version and the counter the (last) decision handed over.
fn respond(applied: &Applied, counter: i64) -> StoredResponse {
    StoredResponse {
        status: 200,
        body: json!({"version": applied.game.version, "counter": counter}).into(),
    }
}

/// How many idempotency records the store holds.
fn stored_idempotency_keys(conn: &mut PgConnection) -> i64 {
    db::schema::idempotency_keys::table
        .count()
        .get_result(conn)
        .unwrap()
}

fn request(game_id: Uuid, expected_version: Option<i64>) -> ApplyRequest {
    ApplyRequest {
        game_id,
        expected_version,
        idempotency: None,
        lock_wait: LockWait::Allowed,
    }
}

fn idempotent(game_id: Uuid, key: &str, fingerprint: &[u8]) -> ApplyRequest {
    ApplyRequest {
        game_id,
        expected_version: None,
        idempotency: Some(IdempotencyKey {
            seat: 0,
            key: key.into(),
            fingerprint: fingerprint.to_vec(),
        }),
        lock_wait: LockWait::Allowed,
    }
}

#[test]
fn apply_action_appends_consecutive_seqs_and_updates_the_snapshot() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);

    let out = apply_action(&mut conn, &request(game.id, Some(1)), bump(3), respond).unwrap();
    let ApplyOutcome::Applied { applied, response } = out else {
        panic!("expected Applied")
    };
    assert_eq!(
        applied.events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![2, 3, 4]
    );
    assert_eq!(applied.events[0].seat, Some(0));
    assert_eq!(applied.events[0].action, Some(json!({"type": "Bump"})));
    assert_eq!(applied.game.version, 4);
    assert_eq!(
        response.body.to_value().unwrap(),
        json!({"version": 4, "counter": 1})
    );

    apply_action(&mut conn, &request(game.id, None), bump(2), respond).unwrap();
    let game = store::get_game(&mut conn, game.id).unwrap();
    assert_eq!(game.version, 6);
    assert_eq!(
        game.snapshot.map(|s| s.to_value().unwrap()),
        Some(json!({"counter": 2}))
    );
    assert_eq!(
        game.active_seats,
        [0],
        "the decision's active seats are stored"
    );
    assert!(game.updated_at >= game.created_at);
    let seqs: Vec<i64> = store::all_events(&mut conn, game.id)
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(seqs, (1..=6).collect::<Vec<_>>());
    let page: Vec<i64> = store::events_after(&mut conn, game.id, 2, 2)
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(page, vec![3, 4]);
    assert_eq!(store::events_up_to(&mut conn, game.id, 3).unwrap().len(), 3);
}

#[test]
fn finishing_event_sets_status_and_finished_at_and_stops_further_actions() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    let finish = |_: &GameRow| {
        let resign = vec![NewEvent::by_seat(
            1,
            json!({"type": "Resign"}),
            json!({"type": "Resigned"}),
        )];
        let snapshot = json!({"counter": 0, "over": true});
        Ok::<_, String>((
            decision(resign, snapshot, GameStatus::Finished, Vec::new()),
            0,
        ))
    };
    apply_action(&mut conn, &request(game.id, None), finish, respond).unwrap();
    let game = store::get_game(&mut conn, game.id).unwrap();
    assert_eq!(game.status, GameStatus::Finished);
    assert!(game.finished_at.is_some());
    assert_eq!(game.active_seats, Vec::<i32>::new());
    let again = apply_bump(&mut conn, &request(game.id, None));
    assert!(matches!(
        again,
        Err(StoreError::WrongStatus {
            current: GameStatus::Finished,
            ..
        })
    ));
}

#[test]
fn stale_expected_version_is_a_conflict_and_writes_nothing() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    let result = apply_bump(&mut conn, &request(game.id, Some(0)));
    assert!(matches!(
        result,
        Err(StoreError::VersionConflict { current: 1 })
    ));
    let after = store::get_game(&mut conn, game.id).unwrap();
    assert_eq!(after.version, 1);
    assert_eq!(after.snapshot, game.snapshot);
    assert_eq!(after.updated_at, game.updated_at);
    assert_eq!(count_events(&mut conn, game.id), 1);
}

#[test]
fn rejected_decision_writes_nothing() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    let req = idempotent(game.id, "k1", b"same");
    let reject = |_: &GameRow| Err::<(Decision, i64), _>("tycoon.not_your_turn");
    let result = apply_action(&mut conn, &req, reject, respond);
    assert!(matches!(
        result,
        Err(StoreError::Rejected("tycoon.not_your_turn"))
    ));
    let after = store::get_game(&mut conn, game.id).unwrap();
    assert_eq!((after.version, after.updated_at), (1, game.updated_at));
    assert_eq!(count_events(&mut conn, game.id), 1);
    let keys = stored_idempotency_keys(&mut conn);
    assert_eq!(keys, 0, "a rejection stores no idempotency record");
}

#[test]
fn unknown_game_is_not_found_and_the_closure_never_runs() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let result = apply_action(
        &mut conn,
        &request(Uuid::new_v4(), None),
        |_: &GameRow| -> Result<(Decision, i64), String> { panic!("must not decide") },
        respond,
    );
    assert!(matches!(result, Err(StoreError::NotFound)));
}

#[test]
fn same_idempotency_key_and_request_replays_the_stored_response() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    let req = ApplyRequest {
        expected_version: Some(1),
        ..idempotent(game.id, "retry-me", b"body-1")
    };
    let first = apply_bump(&mut conn, &req).unwrap();
    let ApplyOutcome::Applied { response, .. } = first else {
        panic!("expected Applied")
    };
    // The retry carries the now-stale expected version: it replays instead of conflicting.
    let again = apply_action(
        &mut conn,
        &req,
        |_: &GameRow| -> Result<(Decision, i64), String> { panic!("a replay must not decide") },
        respond,
    )
    .unwrap();
    let ApplyOutcome::Replayed {
        response: replayed,
        version,
    } = again
    else {
        panic!("expected Replayed")
    };
    assert_eq!(replayed, response);
    assert_eq!(
        version,
        Some(2),
        "the version is stored beside the response"
    );
    assert_eq!(store::get_game(&mut conn, game.id).unwrap().version, 2);
    assert_eq!(count_events(&mut conn, game.id), 2);
}

#[test]
fn same_idempotency_key_with_a_different_request_is_refused() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    apply_bump(&mut conn, &idempotent(game.id, "k", b"body-1")).unwrap();
    let result = apply_bump(&mut conn, &idempotent(game.id, "k", b"body-2"));
    assert!(matches!(result, Err(StoreError::IdempotencyMismatch)));
    assert_eq!(count_events(&mut conn, game.id), 2);
    // The key is per seat: seat 1 may use the same key.
    let mut other = idempotent(game.id, "k", b"body-2");
    other.idempotency.as_mut().unwrap().seat = 1;
    apply_bump(&mut conn, &other).unwrap();
}

#[test]
fn idempotency_record_without_response_is_in_flight() {
    use db::schema::idempotency_keys as ik;
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    diesel::insert_into(ik::table)
        .values((
            ik::game_id.eq(game.id),
            ik::seat.eq(0),
            ik::key.eq("busy"),
            ik::request_fingerprint.eq(b"f".to_vec()),
        ))
        .execute(&mut conn)
        .unwrap();
    let result = apply_bump(&mut conn, &idempotent(game.id, "busy", b"f"));
    assert!(matches!(result, Err(StoreError::IdempotencyInFlight)));
    assert_eq!(count_events(&mut conn, game.id), 1);
}

/// Runs `act` on `racers` threads, each with a connection of its own from `pool`, released
/// together by a barrier so that they really race; their results.
fn race<T: Send + 'static>(
    pool: &db::Pool,
    racers: usize,
    act: impl Fn(&mut PgConnection) -> T + Send + Clone + 'static,
) -> Vec<T> {
    let barrier = Arc::new(Barrier::new(racers));
    let handles: Vec<_> = (0..racers)
        .map(|_| {
            let (pool, barrier, act) = (pool.clone(), barrier.clone(), act.clone());
            std::thread::spawn(move || {
                let mut conn = db::get_conn(&pool).unwrap();
                barrier.wait();
                act(&mut conn)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

#[test]
fn twenty_racing_actions_on_one_expected_version_have_exactly_one_winner() {
    const RACERS: usize = 20;
    let test_db = TestDb::new();
    let pool = test_db.pool(RACERS as u32);
    let game = active_game(&mut db::get_conn(&pool).unwrap());
    let results = race(&pool, RACERS, move |conn| {
        apply_bump(conn, &request(game.id, Some(1)))
    });
    let winners = results.iter().filter(|r| r.is_ok()).count();
    let conflicts = results
        .iter()
        .filter(|r| matches!(r, Err(StoreError::VersionConflict { current: 2 })))
        .count();
    assert_eq!((winners, conflicts), (1, RACERS - 1));
    let mut conn = db::get_conn(&pool).unwrap();
    assert_eq!(store::get_game(&mut conn, game.id).unwrap().version, 2);
    assert_eq!(count_events(&mut conn, game.id), 2);
}

#[test]
fn racing_actions_without_expected_version_all_apply_with_consecutive_seqs() {
    const RACERS: usize = 10;
    let test_db = TestDb::new();
    let pool = test_db.pool(RACERS as u32);
    let game = active_game(&mut db::get_conn(&pool).unwrap());
    race(&pool, RACERS, move |conn| {
        apply_action(conn, &request(game.id, None), bump(2), respond).unwrap();
    });
    let mut conn = db::get_conn(&pool).unwrap();
    let game = store::get_game(&mut conn, game.id).unwrap();
    assert_eq!(game.version, 1 + 2 * RACERS as i64);
    assert_eq!(
        game.snapshot.map(|s| s.to_value().unwrap()),
        Some(json!({"counter": RACERS}))
    );
    let seqs: Vec<i64> = store::all_events(&mut conn, game.id)
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(seqs, (1..=game.version).collect::<Vec<_>>());
}

#[test]
fn old_idempotency_keys_expire_and_recent_ones_stay() {
    use db::schema::idempotency_keys as ik;
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    apply_bump(&mut conn, &idempotent(game.id, "old", b"a")).unwrap();
    apply_bump(&mut conn, &idempotent(game.id, "new", b"b")).unwrap();
    // Backdate instead of sleeping.
    diesel::update(ik::table.filter(ik::key.eq("old")))
        .set(ik::created_at.eq(chrono::Utc::now() - chrono::Duration::days(2)))
        .execute(&mut conn)
        .unwrap();
    let cutoff = chrono::Utc::now() - chrono::Duration::days(1);
    assert_eq!(
        store::expire_idempotency_keys(&mut conn, cutoff).unwrap(),
        1
    );
    let left: Vec<String> = ik::table.select(ik::key).load(&mut conn).unwrap();
    assert_eq!(left, vec!["new".to_string()]);
}

#[test]
fn an_action_overtaken_between_its_read_and_its_write_is_decided_again_on_the_new_version() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let mut other = test_db.conn();
    let game = active_game(&mut conn);
    let mut seen_versions = Vec::new();
    let mut bump_once = bump(1);
    let out = apply_action(
        &mut conn,
        &request(game.id, None),
        |g: &GameRow| {
            seen_versions.push(g.version);
            if seen_versions.len() == 1 {
                // Another action commits after this one read the game.
                apply_bump(&mut other, &request(game.id, None)).unwrap();
            }
            bump_once(g)
        },
        respond,
    )
    .unwrap();
    assert_eq!(
        seen_versions,
        vec![1, 2],
        "decided again on the newer version"
    );
    let ApplyOutcome::Applied { applied, response } = out else {
        panic!("applied, not replayed")
    };
    assert_eq!(applied.events[0].seq, 3);
    assert_eq!(
        response.body.to_value().unwrap(),
        json!({"version": 3, "counter": 2}),
        "respond gets what the last decision produced"
    );
    let game = store::get_game(&mut conn, game.id).unwrap();
    assert_eq!(game.version, 3);
    assert_eq!(
        game.snapshot.map(|s| s.to_value().unwrap()),
        Some(json!({"counter": 2})),
        "both actions count; the first decision was never written"
    );
    assert_eq!(count_events(&mut conn, game.id), 3);
}

#[test]
fn an_overtaken_action_with_an_expected_version_conflicts_instead_of_retrying() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let mut other = test_db.conn();
    let game = active_game(&mut conn);
    let mut bump_once = bump(1);
    let result = apply_action(
        &mut conn,
        &request(game.id, Some(1)),
        |g: &GameRow| {
            if g.version == 1 {
                apply_bump(&mut other, &request(game.id, None)).unwrap();
            }
            bump_once(g)
        },
        respond,
    );
    assert!(
        matches!(result, Err(StoreError::VersionConflict { current: 2 })),
        "{result:?}"
    );
    assert_eq!(count_events(&mut conn, game.id), 2);
}

/// A request from a thread that may not wait for a row lock (the api's HTTP workers).
fn without_waiting(req: ApplyRequest) -> ApplyRequest {
    ApplyRequest {
        lock_wait: LockWait::Refused,
        ..req
    }
}

/// Runs `f` while another connection's transaction holds the game's row lock. `conn` gets a
/// lock timeout first, so that an implementation that does wait fails the test with a
/// database error instead of hanging it.
fn while_row_locked<T>(
    test_db: &TestDb,
    conn: &mut PgConnection,
    game: Uuid,
    f: impl FnOnce(&mut PgConnection) -> T,
) -> T {
    diesel::sql_query("SET lock_timeout = '10s'")
        .execute(conn)
        .unwrap();
    let mut locker = test_db.conn();
    locker
        .transaction(|locker| {
            diesel::sql_query("SELECT 1 FROM games WHERE id = $1 FOR UPDATE")
                .bind::<diesel::sql_types::Uuid, _>(game)
                .execute(locker)?;
            Ok::<_, diesel::result::Error>(f(conn))
        })
        .unwrap()
}

#[test]
fn an_action_that_may_not_wait_is_busy_while_the_row_is_locked_and_writes_nothing() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    let req = without_waiting(request(game.id, Some(1)));
    let result = while_row_locked(&test_db, &mut conn, game.id, |conn| apply_bump(conn, &req));
    assert!(matches!(result, Err(StoreError::Busy)), "{result:?}");
    assert_eq!(count_events(&mut conn, game.id), 1);
    assert_eq!(store::get_game(&mut conn, game.id).unwrap().version, 1);

    // Once the lock is gone the same request applies, as a waiting one would.
    let out = apply_action(&mut conn, &req, bump(2), respond).unwrap();
    let ApplyOutcome::Applied { applied, .. } = out else {
        panic!("expected Applied")
    };
    assert_eq!(applied.game.version, 3);
    assert_eq!(count_events(&mut conn, game.id), 3);
}

#[test]
fn an_idempotent_action_that_may_not_wait_is_always_busy_and_stores_no_key() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    let req = without_waiting(idempotent(game.id, "k", b"body"));
    let result = apply_bump(&mut conn, &req);
    assert!(matches!(result, Err(StoreError::Busy)), "{result:?}");
    assert_eq!(count_events(&mut conn, game.id), 1);
    let keys = stored_idempotency_keys(&mut conn);
    assert_eq!(keys, 0);
}

#[test]
fn an_action_that_may_not_wait_arms_the_bot_turn_like_a_waiting_one() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    let mut decide = bump(1);
    let with_bot = |g: &GameRow| {
        let (mut decision, counter) = decide(g)?;
        decision.bot_turn = Some(BotTurn {
            seat: Some(1),
            delay_ms: 0,
        });
        Ok::<_, String>((decision, counter))
    };
    let req = without_waiting(request(game.id, None));
    apply_action(&mut conn, &req, with_bot, respond).unwrap();
    let armed: Vec<(i64, i32)> = db::schema::bot_turns::table
        .filter(db::schema::bot_turns::game_id.eq(game.id))
        .select((db::schema::bot_turns::version, db::schema::bot_turns::seat))
        .load(&mut conn)
        .unwrap();
    assert_eq!(armed, [(2, 1)]);
}

/// The store's optimistic step on its own: a write for a game row read before another action
/// committed is refused as `VersionMoved` (the caller decides again), writing nothing.
#[test]
fn an_append_for_a_game_read_before_another_commit_is_refused_as_version_moved() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    apply_bump(&mut conn, &request(game.id, None)).unwrap();
    let (stale_decision, _) = bump(1)(&game).unwrap();
    for wait in [LockWait::Allowed, LockWait::Refused] {
        let result = store::append_at_version(&mut conn, &game, stale_decision.clone(), wait);
        assert!(
            matches!(result, Err(store::AppendError::VersionMoved)),
            "{result:?}"
        );
    }
    assert_eq!(count_events(&mut conn, game.id), 2);
}
