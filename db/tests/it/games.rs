use db::schema::seats;
use db::store::{self, Cursor, GameFilter};
use db::testing::TestDb;
use db::token::hash_token;
use db::{GameStatus, StoreError};
use diesel::prelude::*;
use serde_json::json;

use crate::helpers::{active_game, count_events, decision, open_game};

#[test]
fn create_game_with_setup_stores_game_seats_and_events_together() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    assert_eq!(game.version, 1);
    assert_eq!(game.status, GameStatus::Active);
    assert_eq!(game.seat_count, 2);
    assert_eq!(
        game.snapshot.map(|s| s.to_value().unwrap()),
        Some(json!({"counter": 0}))
    );

    let loaded = store::get_game(&mut conn, game.id).unwrap();
    assert_eq!(loaded.id, game.id);
    assert_eq!(loaded.rng_seed, game.rng_seed);
    assert_eq!(format!("{:?}", loaded.rng_seed), "RngSeed(<secret>)");

    let seats = store::seats(&mut conn, game.id).unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[1].name.as_deref(), Some("Bob"));
    assert!(!seats[1].is_open());
    assert_eq!(count_events(&mut conn, game.id), 1);
}

#[test]
fn unknown_game_is_not_found() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    assert!(matches!(
        store::get_game(&mut conn, uuid::Uuid::new_v4()),
        Err(StoreError::NotFound)
    ));
}

#[test]
fn seat_token_is_stored_only_as_its_sha256() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = open_game(&mut conn, 3);

    let token = db::token::new_token();
    assert_eq!(token.len(), 64);
    let seat = store::join_seat(&mut conn, game.id, None, "Cleo", &token).unwrap();
    assert_eq!(seat.seat, 0, "first open seat");
    let seat = store::join_seat(&mut conn, game.id, Some(2), "Dan", "dan-token").unwrap();
    assert_eq!(seat.seat, 2);

    let stored: Option<Vec<u8>> = seats::table
        .find((game.id, 0))
        .select(seats::token_sha256)
        .first(&mut conn)
        .unwrap();
    assert_eq!(stored, Some(hash_token(&token).to_vec()));
    // The raw token appears nowhere in the database.
    let dump: String = diesel::select(diesel::dsl::sql::<diesel::sql_types::Text>(
        "(SELECT string_agg(s::text, ' ') FROM seats s)",
    ))
    .get_result(&mut conn)
    .unwrap();
    assert!(!dump.contains(&token));

    let roster = store::roster(&mut conn, game.id).unwrap();
    assert_eq!(roster.seat_of(&token), Some(0));
    assert_eq!(roster.seat_of("dan-token"), Some(2));
    assert_eq!(roster.seat_of("guess"), None);
}

#[test]
fn a_roster_is_complete_once_every_seat_is_taken_and_unknown_games_have_none() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = open_game(&mut conn, 2);
    store::join_seat(&mut conn, game.id, None, "A", "a").unwrap();
    let half = store::roster(&mut conn, game.id).unwrap();
    assert!(!half.is_complete(), "seat 1 is still open");
    assert_eq!(half.seats().len(), 2);
    store::join_seat(&mut conn, game.id, None, "B", "b").unwrap();
    let full = store::roster(&mut conn, game.id).unwrap();
    assert!(full.is_complete());
    assert_eq!(full.seat_of("b"), Some(1));
    assert!(matches!(
        store::roster(&mut conn, uuid::Uuid::new_v4()),
        Err(StoreError::NotFound)
    ));
}

#[test]
fn joining_a_taken_or_missing_seat_is_refused() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = open_game(&mut conn, 2);
    store::join_seat(&mut conn, game.id, Some(1), "A", "a").unwrap();
    assert!(matches!(
        store::join_seat(&mut conn, game.id, Some(1), "B", "b"),
        Err(StoreError::SeatUnavailable { seat: Some(1) })
    ));
    assert!(matches!(
        store::join_seat(&mut conn, game.id, Some(5), "B", "b"),
        Err(StoreError::NoSuchSeat { seat: 5 })
    ));
    store::join_seat(&mut conn, game.id, None, "B", "b").unwrap();
    assert!(matches!(
        store::join_seat(&mut conn, game.id, None, "C", "c"),
        Err(StoreError::SeatUnavailable { seat: None })
    ));
}

#[test]
fn a_start_closes_open_seats_and_writes_the_setup_events() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = open_game(&mut conn, 4);
    /// Why the api's start below wrote nothing.
    #[derive(Debug)]
    enum NotStarted {
        TooFew,
        Store(StoreError),
    }
    impl From<StoreError> for NotStarted {
        fn from(e: StoreError) -> Self {
            NotStarted::Store(e)
        }
    }
    // The api's start: lock for the start, decide the setup for the seats, append it.
    let start = |conn: &mut db::PgConnection, refuse: bool| {
        store::atomically(conn, |conn| {
            let store::Starting { game, seats } = store::lock_for_start(conn, game.id)?;
            if refuse {
                return Err(NotStarted::TooFew);
            }
            let setup = decision(
                vec![db::NewEvent::system(
                    json!({"type": "Dealt", "seats": seats.len()}),
                )],
                json!({"started": true}),
                GameStatus::Active,
                vec![0],
            );
            Ok(store::append_locked(conn, &game, setup)?)
        })
    };
    store::join_seat(&mut conn, game.id, Some(1), "A", "a").unwrap();
    store::join_seat(&mut conn, game.id, Some(3), "B", "b").unwrap();
    // A refused start writes nothing, not even the closing of the open seats.
    assert!(matches!(start(&mut conn, true), Err(NotStarted::TooFew)));
    assert_eq!(store::seats(&mut conn, game.id).unwrap().len(), 4);
    let started = start(&mut conn, false).unwrap();
    let seats = store::seats(&mut conn, game.id).unwrap();
    assert_eq!(
        seats
            .iter()
            .map(|s| (s.seat, s.name.as_deref()))
            .collect::<Vec<_>>(),
        [(0, Some("A")), (1, Some("B"))],
        "open seats closed, taken ones renumbered in order"
    );
    let roster = store::roster(&mut conn, game.id).unwrap();
    assert_eq!(roster.seat_of("b"), Some(1), "tokens follow their seats");
    assert_eq!(started.game.seat_count, 2);
    assert_eq!(started.game.version, 1);
    assert_eq!(started.game.status, GameStatus::Active);
    assert_eq!(
        started.events[0].event,
        json!({"type": "Dealt", "seats": 2})
    );
    assert!(matches!(
        start(&mut conn, false),
        Err(NotStarted::Store(StoreError::WrongStatus {
            current: GameStatus::Active,
            ..
        }))
    ));
    assert!(matches!(
        store::join_seat(&mut conn, game.id, None, "C", "c"),
        Err(StoreError::WrongStatus { .. })
    ));
}

#[test]
fn list_games_pages_newest_first_with_filters() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let mut ids: Vec<uuid::Uuid> = (0..5).map(|_| open_game(&mut conn, 2).id).collect();
    let active = active_game(&mut conn);
    ids.push(active.id);
    ids.reverse(); // newest first

    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let page = store::list_games(&mut conn, &GameFilter::default(), cursor, 2).unwrap();
        assert!(page.games.len() <= 2);
        seen.extend(page.games.iter().map(|g| g.id));
        match page.next {
            Some(next) => {
                let text = next.encode();
                cursor = Some(Cursor::decode(&text).unwrap());
                assert_eq!(cursor, Some(next));
            }
            None => break,
        }
    }
    assert_eq!(seen, ids);

    let only_active = GameFilter {
        game_type: Some("tycoon".into()),
        status: Some(GameStatus::Active),
        ..GameFilter::default()
    };
    let page = store::list_games(&mut conn, &only_active, None, 10).unwrap();
    assert_eq!(
        page.games.iter().map(|g| g.id).collect::<Vec<_>>(),
        vec![active.id]
    );
    assert_eq!(page.next, None);

    let other_type = GameFilter {
        game_type: Some("acquire".into()),
        ..GameFilter::default()
    };
    assert!(store::list_games(&mut conn, &other_type, None, 10)
        .unwrap()
        .games
        .is_empty());
    assert_eq!(Cursor::decode("garbage"), None);
}
