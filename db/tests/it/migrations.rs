use db::schema::{bot_turns, game_deadlines, game_events, games, idempotency_keys, seats};
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
    assert_eq!(applied, 10);
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
        )>(&mut conn)
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
