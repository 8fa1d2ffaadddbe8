use db::schema::{
    bot_turns, game_deadlines, game_events, games, idempotency_keys, lobby_idempotency_keys, seats,
};
use db::testing::TestDb;
use diesel::prelude::*;
use diesel::sql_types::Text;
use diesel_migrations::MigrationHarness;
use serde_json::json;

use crate::helpers::active_game;

#[derive(QueryableByName)]
struct Line {
    #[diesel(sql_type = Text)]
    line: String,
}

/// Tables, columns, constraints, indexes, triggers, functions and column compression of the
/// public schema, as text.
fn schema_fingerprint(conn: &mut PgConnection) -> Vec<String> {
    let sql = "
        SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' '
               || is_nullable || ' ' || coalesce(column_default, '') AS line
          FROM information_schema.columns WHERE table_schema = 'public'
        UNION ALL
        SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' '
               || pg_get_constraintdef(oid)
          FROM pg_constraint WHERE connamespace = 'public'::regnamespace
        UNION ALL
        SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
        UNION ALL
        SELECT 'trigger ' || tgrelid::regclass::text || ' ' || pg_get_triggerdef(oid)
          FROM pg_trigger WHERE NOT tgisinternal
        UNION ALL
        SELECT 'function ' || proname || ' ' || md5(prosrc)
          FROM pg_proc WHERE pronamespace = 'public'::regnamespace
        UNION ALL
        SELECT 'compression ' || attrelid::regclass::text || '.' || attname || ' '
               || attcompression::text
          FROM pg_attribute
         WHERE attcompression <> '' AND attrelid IN
               (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
        ORDER BY 1";
    diesel::sql_query(sql)
        .load::<Line>(conn)
        .unwrap()
        .into_iter()
        .map(|l| l.line)
        .filter(|l| !l.contains("__diesel_schema_migrations"))
        .collect()
}

#[test]
fn every_down_migration_reverses_its_up_migration() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let migrated = schema_fingerprint(&mut conn);
    assert!(migrated.iter().any(|l| l.contains("game_events")));

    // Redo one at a time from the top, checking the schema after each full cycle.
    let applied = conn.applied_migrations().unwrap().len();
    let folders = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().is_dir())
        .count();
    assert_eq!(applied, folders);
    for _ in 0..applied {
        conn.revert_last_migration(db::MIGRATIONS).unwrap();
    }
    assert_eq!(
        schema_fingerprint(&mut conn),
        Vec::<String>::new(),
        "down.sql files left objects behind"
    );
    db::migrate(&mut conn).unwrap();
    assert_eq!(schema_fingerprint(&mut conn), migrated);

    // And each migration on its own: revert the last k, re-apply, same schema.
    for k in 1..=applied {
        for _ in 0..k {
            conn.revert_last_migration(db::MIGRATIONS).unwrap();
        }
        db::migrate(&mut conn).unwrap();
        assert_eq!(schema_fingerprint(&mut conn), migrated, "redo of last {k}");
    }
}

#[test]
fn schema_rs_matches_the_migrated_tables() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);
    // Selecting every column through the diesel definitions fails on any name or type drift.
    games::table
        .select(games::all_columns)
        .load::<(
            uuid::Uuid,
            String,
            i32,
            serde_json::Value,
            String,
            i64,
            Option<serde_json::Value>,
            i32,
            Vec<u8>,
            chrono::DateTime<chrono::Utc>,
            chrono::DateTime<chrono::Utc>,
            Option<chrono::DateTime<chrono::Utc>>,
            Vec<i32>,
            Option<serde_json::Value>,
            Option<serde_json::Value>,
            bool,
            i32,
            bool,
            Option<uuid::Uuid>,
        )>(&mut conn)
        .unwrap();
    db::schema::table_chance::table
        .select(db::schema::table_chance::all_columns)
        .load::<(uuid::Uuid, serde_json::Value, serde_json::Value)>(&mut conn)
        .unwrap();
    game_events::table
        .select(game_events::all_columns)
        .load::<(
            uuid::Uuid,
            i64,
            Option<i32>,
            Option<serde_json::Value>,
            serde_json::Value,
            chrono::DateTime<chrono::Utc>,
        )>(&mut conn)
        .unwrap();
    seats::table
        .select(seats::all_columns)
        .load::<(
            uuid::Uuid,
            i32,
            Option<String>,
            Option<Vec<u8>>,
            Option<chrono::DateTime<chrono::Utc>>,
            Option<String>,
            Option<i32>,
            Option<uuid::Uuid>,
            Option<String>,
        )>(&mut conn)
        .unwrap();
    diesel::insert_into(bot_turns::table)
        .values((
            bot_turns::game_id.eq(game.id),
            bot_turns::version.eq(game.version),
            bot_turns::seat.eq(0),
        ))
        .execute(&mut conn)
        .unwrap();
    bot_turns::table
        .select(bot_turns::all_columns)
        .load::<(
            uuid::Uuid,
            i64,
            i32,
            chrono::DateTime<chrono::Utc>,
            Option<String>,
            Option<chrono::DateTime<chrono::Utc>>,
        )>(&mut conn)
        .unwrap();
    diesel::insert_into(game_deadlines::table)
        .values((
            game_deadlines::game_id.eq(game.id),
            game_deadlines::kind.eq("clock"),
            game_deadlines::version.eq(game.version),
            game_deadlines::due_at.eq(chrono::Utc::now()),
        ))
        .execute(&mut conn)
        .unwrap();
    game_deadlines::table
        .select(game_deadlines::all_columns)
        .load::<(
            uuid::Uuid,
            String,
            i64,
            chrono::DateTime<chrono::Utc>,
            Option<String>,
            Option<chrono::DateTime<chrono::Utc>>,
        )>(&mut conn)
        .unwrap();
    diesel::insert_into(idempotency_keys::table)
        .values((
            idempotency_keys::game_id.eq(game.id),
            idempotency_keys::seat.eq(0),
            idempotency_keys::key.eq("k"),
            idempotency_keys::request_fingerprint.eq(vec![1u8]),
        ))
        .execute(&mut conn)
        .unwrap();
    idempotency_keys::table
        .select(idempotency_keys::all_columns)
        .load::<(
            uuid::Uuid,
            i32,
            String,
            Vec<u8>,
            Option<i32>,
            Option<serde_json::Value>,
            chrono::DateTime<chrono::Utc>,
            Option<i64>,
        )>(&mut conn)
        .unwrap();
    diesel::insert_into(lobby_idempotency_keys::table)
        .values((
            lobby_idempotency_keys::key_sha256.eq(vec![7u8; 32]),
            lobby_idempotency_keys::request_fingerprint.eq(vec![1u8]),
        ))
        .execute(&mut conn)
        .unwrap();
    lobby_idempotency_keys::table
        .select(lobby_idempotency_keys::all_columns)
        .load::<(
            Vec<u8>,
            Vec<u8>,
            Option<i32>,
            Option<serde_json::Value>,
            chrono::DateTime<chrono::Utc>,
        )>(&mut conn)
        .unwrap();
    players_tables_match(&mut conn, game.id);
}

/// The tables of migration 26, written and read through the store.
fn challenge_tables_match(conn: &mut PgConnection, player: uuid::Uuid) {
    let other = db::store::create_player(conn, "Bob", "bob", "pl_u")
        .unwrap()
        .unwrap();
    let new = db::store::NewChallenge {
        challenger_id: player,
        game_type: "tycoon".into(),
        config: json!({}),
        clock: None,
        rated: false,
        seats: json!([{"player": player}, {"player": other.id}]),
        invited: vec![player, other.id],
        rematch_of: None,
        ttl: std::time::Duration::from_secs(60),
    };
    let row = db::store::insert_challenge(conn, &new).unwrap();
    assert!(row.is_pending());
    db::store::accept_challenge(conn, row.id, other.id, Some("e")).unwrap();
    let answers = db::store::challenge_answers(conn, row.id).unwrap();
    assert_eq!(
        answers.iter().filter(|a| a.accepted_at.is_some()).count(),
        1
    );
    assert_eq!(
        db::store::challenges_of(conn, other.id, 10).unwrap(),
        vec![row]
    );
    db::store::block_player(conn, other.id, player).unwrap();
    assert!(db::store::has_blocked(conn, other.id, player).unwrap());
    assert_eq!(
        db::store::challenges_from(conn, player).unwrap(),
        "everyone"
    );
}

/// The tables of migration 11, loaded through their diesel definitions.
fn players_tables_match(conn: &mut PgConnection, game: uuid::Uuid) {
    use db::schema::{player_notices, player_results, players, ratings, seeks};
    type Time = chrono::DateTime<chrono::Utc>;
    let player = db::store::create_player(conn, "Ann", "ann", "pl_t")
        .unwrap()
        .unwrap();
    players::table
        .select(players::all_columns)
        .load::<(
            uuid::Uuid,
            String,
            String,
            Vec<u8>,
            i64,
            Time,
            Option<Time>,
            String,
        )>(conn)
        .unwrap();
    challenge_tables_match(conn, player.id);
    diesel::insert_into(player_notices::table)
        .values((
            player_notices::player_id.eq(player.id),
            player_notices::seq.eq(1),
            player_notices::kind.eq("turn"),
            player_notices::body.eq(json!({})),
        ))
        .execute(conn)
        .unwrap();
    player_notices::table
        .select(player_notices::all_columns)
        .load::<(
            uuid::Uuid,
            i64,
            Option<uuid::Uuid>,
            String,
            serde_json::Value,
            Option<Time>,
            Time,
        )>(conn)
        .unwrap();
    diesel::insert_into(ratings::table)
        .values((
            ratings::player_id.eq(player.id),
            ratings::game_type.eq("tycoon"),
            ratings::mu.eq(25.0),
            ratings::sigma.eq(8.3),
        ))
        .execute(conn)
        .unwrap();
    ratings::table
        .select(ratings::all_columns)
        .load::<(uuid::Uuid, String, f64, f64, i32, Time, f64)>(conn)
        .unwrap();
    diesel::insert_into(player_results::table)
        .values((
            player_results::game_id.eq(game),
            player_results::player_id.eq(player.id),
            player_results::seat.eq(0),
            player_results::game_type.eq("tycoon"),
            player_results::place.eq(1),
            player_results::won.eq(true),
            player_results::rated.eq(false),
            player_results::finished_at.eq(chrono::Utc::now()),
        ))
        .execute(conn)
        .unwrap();
    player_results::table
        .select(player_results::all_columns)
        .load::<(
            uuid::Uuid,
            uuid::Uuid,
            i32,
            String,
            i32,
            bool,
            bool,
            Option<f64>,
            Option<f64>,
            Option<f64>,
            Option<f64>,
            Time,
        )>(conn)
        .unwrap();
    db::store::insert_seek(
        conn,
        &db::store::NewSeek {
            player_id: player.id,
            game_type: "tycoon".into(),
            seats: 2,
            clock: None,
            rated: false,
            config: json!({}),
            pool: "p".into(),
            fill_with_bots_after: Some(5),
            ttl: std::time::Duration::from_secs(60),
            entropy: None,
        },
    )
    .unwrap();
    seeks::table
        .select(seeks::all_columns)
        .load::<(
            uuid::Uuid,
            uuid::Uuid,
            String,
            i32,
            Option<serde_json::Value>,
            bool,
            serde_json::Value,
            String,
            String,
            Option<i32>,
            Option<Time>,
            Time,
            Time,
            Option<Time>,
            Option<uuid::Uuid>,
            Option<i32>,
            Option<String>,
        )>(conn)
        .unwrap();
}

#[test]
fn game_events_refuses_update_delete_and_truncate() {
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let game = active_game(&mut conn);

    let update = diesel::update(game_events::table.filter(game_events::game_id.eq(game.id)))
        .set(game_events::event.eq(json!({"type": "Forged"})))
        .execute(&mut conn);
    let err = update.expect_err("UPDATE must be refused").to_string();
    assert!(err.contains("append-only"), "{err}");

    let delete = diesel::delete(game_events::table).execute(&mut conn);
    let err = delete.expect_err("DELETE must be refused").to_string();
    assert!(err.contains("append-only"), "{err}");

    let truncate = diesel::sql_query("TRUNCATE game_events").execute(&mut conn);
    assert!(truncate.is_err(), "TRUNCATE must be refused");

    // Even statements matching no row are refused (statement-level trigger).
    let none =
        diesel::delete(game_events::table.filter(game_events::seq.eq(-1))).execute(&mut conn);
    assert!(none.is_err());

    let events = db::store::all_events(&mut conn, game.id).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].event, json!({"type": "GameStarted"}));
}

/// Migration 24: the token secret is made once and then read by every process: the first call
/// stores one, later calls (another process) read the same, the table holds one row of 32
/// bytes, and a second row is refused.
#[test]
fn the_token_secret_is_made_once_and_kept() {
    use db::schema::token_secret;
    let test_db = TestDb::new();
    let mut conn = test_db.conn();
    let first = db::store::token_secret(&mut conn).unwrap();
    let again = db::store::token_secret(&mut test_db.conn()).unwrap();
    assert_eq!(first.stored(), again.stored());
    let rows: Vec<(bool, Vec<u8>, chrono::DateTime<chrono::Utc>)> = token_secret::table
        .select(token_secret::all_columns)
        .load(&mut conn)
        .unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].1, first.stored());
    assert!(diesel::insert_into(token_secret::table)
        .values((
            token_secret::id.eq(false),
            token_secret::secret.eq(vec![0u8; 32])
        ))
        .execute(&mut conn)
        .is_err());
    assert!(diesel::insert_into(token_secret::table)
        .values(token_secret::secret.eq(vec![0u8; 32]))
        .execute(&mut conn)
        .is_err());
}
