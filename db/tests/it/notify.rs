use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use db::notify::{run_listener, Announcer, GameChanged, ListenEvent, Listener};
use db::store::LockWait;
use db::testing::TestDb;
use db::{GameRow, GameStatus, NewEvent, StoreError, StoredResponse};
use serde_json::json;

use crate::caller::{apply_action, ApplyOutcome, ApplyRequest};
use crate::helpers::{active_game, decision};

/// Generous: only reached when the notification never comes (the test then fails).
const PATIENCE: Duration = Duration::from_secs(20);

/// Applies one action (or a rejected one) and, as the api does, announces what committed.
fn act(
    conn: &mut diesel::PgConnection,
    announcer: &Announcer,
    game_id: uuid::Uuid,
    ok: bool,
) -> Result<(), StoreError<&'static str>> {
    let req = ApplyRequest {
        game_id,
        expected_version: None,
        idempotency: None,
        lock_wait: LockWait::Allowed,
    };
    apply_action(
        conn,
        &req,
        |g: &GameRow| {
            if !ok {
                return Err("rejected");
            }
            let tick = vec![NewEvent::system(json!({"type": "Tick"}))];
            let snapshot = json!({"counter": g.version});
            Ok((decision(tick, snapshot, GameStatus::Active, vec![0]), ()))
        },
        |_, ()| StoredResponse {
            status: 200,
            body: json!({}).into(),
        },
    )
    .map(|outcome| {
        if let ApplyOutcome::Applied { applied, .. } = outcome {
            announcer.announce(applied.change());
        }
    })
}

#[test]
fn notify_reaches_a_listener_on_another_connection() {
    let test_db = TestDb::new();
    let mut listener = Listener::connect(test_db.url(), &[]).unwrap();
    let announcer = Announcer::start(test_db.url().to_string());
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);

    assert!(act(&mut conn, &announcer, game.id, false).is_err());
    act(&mut conn, &announcer, game.id, true).unwrap();
    let change = listener.recv_timeout(PATIENCE).unwrap();
    assert_eq!(
        change,
        Some(GameChanged {
            game_id: game.id,
            version: 2
        }),
        "the rejected action sent nothing; the applied one sent its version"
    );
    assert_eq!(listener.drain().unwrap(), vec![]);
}

#[test]
fn run_listener_reports_connect_then_changes() {
    let test_db = TestDb::new();
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let url = test_db.url().to_string();
    let thread_stop = stop.clone();
    let handle = std::thread::spawn(move || {
        run_listener(&url, &[], &thread_stop, |e| {
            let _ = tx.send(e);
        })
    });
    assert_eq!(rx.recv_timeout(PATIENCE).unwrap(), ListenEvent::Connected);
    let announcer = Announcer::start(test_db.url().to_string());
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    act(&mut conn, &announcer, game.id, true).unwrap();
    assert_eq!(
        rx.recv_timeout(PATIENCE).unwrap(),
        ListenEvent::Changed(GameChanged {
            game_id: game.id,
            version: 2
        })
    );
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    handle.join().unwrap();
}

#[test]
fn payload_round_trips() {
    let change = GameChanged {
        game_id: uuid::Uuid::new_v4(),
        version: 42,
    };
    // The SQL side writes `<uuid>:<version>`; the listener tests above receive it for real.
    let payload = format!("{}:{}", change.game_id, change.version);
    assert_eq!(GameChanged::parse(&payload), Some(change));
    assert_eq!(GameChanged::parse("nope"), None);
}

#[test]
fn one_announcement_carries_many_changes_in_order() {
    let test_db = TestDb::new();
    let mut listener = Listener::connect(test_db.url(), &[]).unwrap();
    let mut conn = test_db.conn();
    let changes: Vec<GameChanged> = (1..=5)
        .map(|version| GameChanged {
            game_id: uuid::Uuid::new_v4(),
            version,
        })
        .collect();
    db::notify::announce(&mut conn, &changes, false, &[]).unwrap();
    let mut received = Vec::new();
    while received.len() < changes.len() {
        match listener.recv_timeout(PATIENCE).unwrap() {
            Some(change) => received.push(change),
            None => break,
        }
    }
    assert_eq!(received, changes);
}
