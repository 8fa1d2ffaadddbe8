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
