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
        rated -> Bool,
        chance_version -> Int4,
        chance_seeded -> Bool,
        imported_from -> Nullable<Uuid>,
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
        player_id -> Nullable<Uuid>,
        entropy -> Nullable<Text>,
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

diesel::table! {
    /// Players: a unique name and the hash of the player's token (migration 11).
    players (id) {
        id -> Uuid,
        name -> Text,
        name_key -> Text,
        token_sha256 -> Bytea,
        notice_seq -> Int8,
        created_at -> Timestamptz,
        token_rotated_at -> Nullable<Timestamptz>,
        challenges_from -> Text,
    }
}

diesel::table! {
    /// What each player must react to, numbered per player.
    player_notices (player_id, seq) {
        player_id -> Uuid,
        seq -> Int8,
        game_id -> Nullable<Uuid>,
        kind -> Text,
        body -> Jsonb,
        deadline -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    /// Ratings per player and game type.
    ratings (player_id, game_type) {
        player_id -> Uuid,
        game_type -> Text,
        mu -> Float8,
        sigma -> Float8,
        games -> Int4,
        updated_at -> Timestamptz,
        conservative -> Float8,
    }
}

diesel::table! {
    /// Each player's result in each finished game.
    player_results (game_id, player_id) {
        game_id -> Uuid,
        player_id -> Uuid,
        seat -> Int4,
        game_type -> Text,
        place -> Int4,
        won -> Bool,
        rated -> Bool,
        mu_before -> Nullable<Float8>,
        sigma_before -> Nullable<Float8>,
        mu_after -> Nullable<Float8>,
        sigma_after -> Nullable<Float8>,
        finished_at -> Timestamptz,
    }
}

diesel::table! {
    /// Players waiting for opponents.
    seeks (id) {
        id -> Uuid,
        player_id -> Uuid,
        game_type -> Text,
        seats -> Int4,
        clock -> Nullable<Jsonb>,
        rated -> Bool,
        config -> Jsonb,
        pool -> Text,
        status -> Text,
        fill_with_bots_after -> Nullable<Int4>,
        fill_at -> Nullable<Timestamptz>,
        expires_at -> Timestamptz,
        created_at -> Timestamptz,
        ended_at -> Nullable<Timestamptz>,
        game_id -> Nullable<Uuid>,
        seat -> Nullable<Int4>,
        entropy -> Nullable<Text>,
    }
}

diesel::table! {
    /// Stored responses of idempotent lobby requests (creating a game, taking a seat), by a
    /// hash of the key; seat tokens are never stored.
    lobby_idempotency_keys (key_sha256) {
        key_sha256 -> Bytea,
        request_fingerprint -> Bytea,
        response_status -> Nullable<Int4>,
        response_body -> Nullable<Json>,
        created_at -> Timestamptz,
    }
}

diesel::joinable!(game_events -> games (game_id));
diesel::joinable!(seats -> games (game_id));
diesel::joinable!(idempotency_keys -> games (game_id));
diesel::joinable!(bot_turns -> games (game_id));
diesel::joinable!(game_deadlines -> games (game_id));
diesel::joinable!(seats -> players (player_id));
diesel::joinable!(player_notices -> players (player_id));
diesel::joinable!(ratings -> players (player_id));
diesel::joinable!(player_results -> players (player_id));
diesel::joinable!(seeks -> players (player_id));

diesel::table! {
    /// The deployment's secret for tokens derived from an `Idempotency-Key`: one row.
    token_secret (id) {
        id -> Bool,
        secret -> Bytea,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    /// Invitations of named players (and bots) to a game (migration 26).
    challenges (id) {
        id -> Uuid,
        challenger_id -> Uuid,
        game_type -> Text,
        config -> Jsonb,
        clock -> Nullable<Jsonb>,
        rated -> Bool,
        seats -> Jsonb,
        status -> Text,
        declined_by -> Nullable<Uuid>,
        decline_reason -> Nullable<Text>,
        game_id -> Nullable<Uuid>,
        rematch_of -> Nullable<Uuid>,
        created_at -> Timestamptz,
        expires_at -> Timestamptz,
        ended_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// Each invited player's answer to a challenge (migration 26).
    challenge_answers (challenge_id, player_id) {
        challenge_id -> Uuid,
        player_id -> Uuid,
        accepted_at -> Nullable<Timestamptz>,
        entropy -> Nullable<Text>,
    }
}

diesel::table! {
    /// Whom a player takes no challenges from (migration 26).
    player_blocks (player_id, blocked_id) {
        player_id -> Uuid,
        blocked_id -> Uuid,
        created_at -> Timestamptz,
    }
}

diesel::joinable!(challenge_answers -> challenges (challenge_id));

diesel::table! {
    /// Table chat, per game and channel (migration 27).
    chat_messages (game_id, channel, seq) {
        game_id -> Uuid,
        channel -> Text,
        seq -> Int8,
        seat -> Nullable<Int4>,
        player_id -> Nullable<Uuid>,
        name -> Text,
        text -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    /// The chance outcomes a table's record named, of a game imported from it (migration 29).
    table_chance (game_id) {
        game_id -> Uuid,
        setup -> Jsonb,
        moves -> Jsonb,
    }
}

diesel::table! {
    /// Whose chat a player does not see (migration 27).
    chat_mutes (player_id, muted_id) {
        player_id -> Uuid,
        muted_id -> Uuid,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    /// Tournaments (migration 28).
    tournaments (id) {
        id -> Uuid,
        organiser_id -> Uuid,
        name -> Text,
        game_type -> Text,
        config -> Jsonb,
        clock -> Jsonb,
        rated -> Bool,
        format -> Text,
        rounds -> Nullable<Int4>,
        table_size -> Int4,
        fill_with_bots -> Bool,
        bot_level -> Text,
        max_players -> Int4,
        starts_at -> Timestamptz,
        status -> Text,
        round -> Int4,
        check_at -> Timestamptz,
        created_at -> Timestamptz,
        finished_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    /// A tournament's players (migration 28).
    tournament_players (tournament_id, player_id) {
        tournament_id -> Uuid,
        player_id -> Uuid,
        joined_at -> Timestamptz,
        withdrawn_at -> Nullable<Timestamptz>,
        out_in_round -> Nullable<Int4>,
    }
}

diesel::table! {
    /// A round's tables (migration 28).
    tournament_tables (tournament_id, round, table_no) {
        tournament_id -> Uuid,
        round -> Int4,
        table_no -> Int4,
        game_id -> Nullable<Uuid>,
        players -> Array<Nullable<Uuid>>,
    }
}

diesel::table! {
    /// Each player's result of a round (migration 28).
    tournament_results (tournament_id, round, player_id) {
        tournament_id -> Uuid,
        round -> Int4,
        player_id -> Uuid,
        place -> Nullable<Int4>,
        points -> Int4,
        score -> Int8,
        bye -> Bool,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    tournaments,
    tournament_players,
    tournament_tables,
    tournament_results,
    chat_messages,
    chat_mutes,
    table_chance,
    challenges,
    challenge_answers,
    player_blocks,
    games,
    game_events,
    seats,
    idempotency_keys,
    lobby_idempotency_keys,
    bot_turns,
    game_deadlines,
    players,
    player_notices,
    ratings,
    player_results,
    seeks,
    token_secret
);
