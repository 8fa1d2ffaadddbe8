use db::store::{self, Decision, NewGame, NewSeat};
use db::{GameRow, GameStatus, NewEvent, RngSeed};
use diesel::prelude::*;
use serde_json::json;
use uuid::Uuid;

/// An open game of `seats` seats, all open.
pub fn open_game(conn: &mut PgConnection, seats: usize) -> GameRow {
    store::create_game(
        conn,
        NewGame {
            id: Uuid::new_v4(),
            game_type: "tycoon".into(),
            rules_version: 1,
            config: json!({"players": seats}),
            rng_seed: RngSeed([7; 32]),
            seats: vec![NewSeat::Open; seats],
            initial: None,
            bot_game_limit: None,
            clock: None,
            open_ttl: std::time::Duration::from_secs(86_400),
            rated: false,
            chance_version: 1,
            chance_seeded: false,
            entropies: Vec::new(),
            imported_from: None,
        },
    )
    .unwrap()
}

/// An active game with two named seats and one setup event (version 1).
pub fn active_game(conn: &mut PgConnection) -> GameRow {
    store::create_game(
        conn,
        NewGame {
            id: Uuid::new_v4(),
            game_type: "tycoon".into(),
            rules_version: 1,
            config: json!({}),
            rng_seed: RngSeed([1; 32]),
            seats: vec![
                NewSeat::Taken {
                    name: "Ann".into(),
                    token: "token-ann".into(),
                },
                NewSeat::Taken {
                    name: "Bob".into(),
                    token: "token-bob".into(),
                },
            ],
            initial: Some(decision(
                vec![NewEvent::system(json!({"type": "GameStarted"}))],
                json!({"counter": 0}),
                GameStatus::Active,
                vec![0],
            )),
            bot_game_limit: None,
            clock: None,
            open_ttl: std::time::Duration::from_secs(86_400),
            rated: false,
            chance_version: 1,
            chance_seeded: false,
            entropies: Vec::new(),
            imported_from: None,
        },
    )
    .unwrap()
}

/// A decision of `events` leaving `snapshot`, `status` and `active_seats`, and nothing else:
/// no bot turn, lifecycle, deadline change, notices or finish. What most store tests decide;
/// a test that needs one of the rest sets it on this.
pub fn decision(
    events: Vec<NewEvent>,
    snapshot: serde_json::Value,
    status: GameStatus,
    active_seats: Vec<i32>,
) -> Decision {
    Decision {
        events,
        snapshot: snapshot.into(),
        status,
        active_seats,
        bot_turn: None,
        lifecycle: None,
        deadline: Default::default(),
        notices: Vec::new(),
        finish: None,
    }
}

pub fn count_events(conn: &mut PgConnection, game: Uuid) -> i64 {
    use db::schema::game_events;
    game_events::table
        .filter(game_events::game_id.eq(game))
        .count()
        .get_result(conn)
        .unwrap()
}

/// How long a test waits for something another session or process does before it fails: a
/// guard against a hang, never a measure of speed (a loaded 2-core machine stays far below).
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(60);

/// Waits until `waiters` sessions wait for a lock the session with server process `holder`
/// holds (PostgreSQL's `pg_blocking_pids`), asking on `watcher`, a connection outside any
/// transaction (inside one, `pg_stat_activity` would show the same sessions throughout).
///
/// # Panics
/// After [`PATIENCE`] without that many waiters.
pub fn wait_until_blocked_by(watcher: &mut PgConnection, holder: i32, waiters: i64) {
    #[derive(QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let n = diesel::sql_query(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
        )
        .bind::<diesel::sql_types::Integer, _>(holder)
        .get_result::<Count>(watcher)
        .unwrap()
        .n;
        if n >= waiters {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "gave up after {PATIENCE:?} waiting for {waiters} sessions to wait for the lock of \
             process {holder} ({n} do)"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// The server process (pid) of the session on `conn`.
pub fn backend_pid(conn: &mut PgConnection) -> i32 {
    #[derive(QueryableByName)]
    struct Pid {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        pid: i32,
    }
    diesel::sql_query("SELECT pg_backend_pid() AS pid")
        .get_result::<Pid>(conn)
        .unwrap()
        .pid
}
