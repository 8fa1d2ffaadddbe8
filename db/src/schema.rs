//! Diesel table definitions, written by hand to match `migrations/` (no diesel CLI needed to
//! build). `tests/it/migrations.rs` loads every column of every table through these definitions,
//! so a drift between the two fails a test rather than a request.

diesel::table! {
    /// One row per game: current snapshot and version (= seq of the last event).
    games (id) {
        id -> Uuid,
        game_type -> Text,
        rules_version -> Int4,
        config -> Jsonb,
        status -> Text,
        version -> Int8,
        snapshot -> Nullable<Json>,
        seat_count -> Int4,
        rng_seed -> Bytea,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        finished_at -> Nullable<Timestamptz>,
        active_seats -> Array<Int4>,
        clock -> Nullable<Jsonb>,
        lifecycle -> Nullable<Json>,
    }
}

diesel::table! {
    /// Append-only event log; UPDATE/DELETE/TRUNCATE are refused by a trigger.
    game_events (game_id, seq) {
        game_id -> Uuid,
        seq -> Int8,
        seat -> Nullable<Int4>,
        action -> Nullable<Jsonb>,
        event -> Jsonb,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    /// Seats; `token_sha256` NULL means the seat is open.
    seats (game_id, seat) {
        game_id -> Uuid,
        seat -> Int4,
        name -> Nullable<Text>,
        token_sha256 -> Nullable<Bytea>,
        joined_at -> Nullable<Timestamptz>,
        bot_level -> Nullable<Text>,
        bot_budget_ms -> Nullable<Int4>,
    }
}

diesel::table! {
    /// Games whose next move is a bot's, claimed by server processes with a lease.
    bot_turns (game_id) {
        game_id -> Uuid,
        version -> Int8,
        seat -> Int4,
        due_at -> Timestamptz,
        leased_by -> Nullable<Text>,
        leased_until -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// Games with something due at a time (a clock running out, an open game expiring),
    /// claimed by server processes with a lease.
    game_deadlines (game_id) {
        game_id -> Uuid,
        kind -> Text,
        version -> Int8,
        due_at -> Timestamptz,
        leased_by -> Nullable<Text>,
        leased_until -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// Stored responses of idempotent action requests.
    idempotency_keys (game_id, seat, key) {
        game_id -> Uuid,
        seat -> Int4,
        key -> Text,
        request_fingerprint -> Bytea,
        response_status -> Nullable<Int4>,
        response_body -> Nullable<Json>,
        created_at -> Timestamptz,
        response_version -> Nullable<Int8>,
    }
}

diesel::joinable!(game_events -> games (game_id));
diesel::joinable!(seats -> games (game_id));
diesel::joinable!(idempotency_keys -> games (game_id));
diesel::joinable!(bot_turns -> games (game_id));
diesel::joinable!(game_deadlines -> games (game_id));

diesel::allow_tables_to_appear_in_same_query!(
    games,
    game_events,
    seats,
    idempotency_keys,
    bot_turns,
    game_deadlines
);
