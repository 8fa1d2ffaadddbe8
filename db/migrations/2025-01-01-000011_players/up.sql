-- Players (issue 22): one identity across games, bound to seats; a durable stream of notices
-- per player; ratings and results of finished games; seeks that match players into games.

-- A player: a unique name (compared after Unicode case folding, name_key) and the SHA-256 of
-- its secret token, like a seat's. notice_seq is the seq of the player's latest notice: the
-- notices of one player are numbered by locking this row, so their order is commit order.
CREATE TABLE players (
    id           uuid        PRIMARY KEY,
    name         text        NOT NULL CHECK (char_length(name) BETWEEN 2 AND 24),
    name_key     text        NOT NULL UNIQUE,
    token_sha256 bytea       NOT NULL UNIQUE CHECK (octet_length(token_sha256) = 32),
    notice_seq   bigint      NOT NULL DEFAULT 0 CHECK (notice_seq >= 0),
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- When the token was last replaced (NULL: never).
    token_rotated_at timestamptz
);

-- A seat may belong to a player: the player's token then acts for it (and no seat token
-- exists for it). A player holds at most one seat per game; the index also lists a player's
-- games.
ALTER TABLE seats ADD COLUMN player_id uuid REFERENCES players (id);
CREATE UNIQUE INDEX seats_player_game_idx ON seats (player_id, game_id) WHERE player_id IS NOT NULL;
ALTER TABLE seats DROP CONSTRAINT seats_taken_by_token_or_bot;
ALTER TABLE seats ADD CONSTRAINT seats_taken_by_token_bot_or_player
    CHECK ((joined_at IS NULL) = (token_sha256 IS NULL AND bot_level IS NULL AND player_id IS NULL));
ALTER TABLE seats ADD CONSTRAINT seats_player_has_no_token_or_bot
    CHECK (player_id IS NULL OR (token_sha256 IS NULL AND bot_level IS NULL));

-- Rated games (chosen at creation; every seat a player's, no bot seated) update their
-- players' ratings when they finish.
ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;

-- What each player must react to (a game waits for its seat, a game started or finished, an
-- offer, a seek matched), written in the transaction of the commit that caused it and
-- numbered per player (players.notice_seq), so a stream resumes exactly from the last seq it
-- sent. Kept for a while (the server deletes old ones), not forever.
CREATE TABLE player_notices (
    player_id  uuid        NOT NULL REFERENCES players (id),
    seq        bigint      NOT NULL CHECK (seq > 0),
    game_id    uuid        REFERENCES games (id),
    kind       text        NOT NULL,
    body       jsonb       NOT NULL,
    -- A turn's deadline (when the game has a clock).
    deadline   timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, seq)
);
CREATE INDEX player_notices_created_at_idx ON player_notices (created_at);

-- Records notices for the commit at p_at of game p_game: player p_players[i] gets a notice of
-- kind p_kinds[i] with body p_bodies[i] and deadline p_due_at[i] (or p_at plus p_due_in_us[i]
-- microseconds: a clock that started with the commit). The players' rows are locked in id
-- order (so two commits never wait for each other in a cycle); with p_may_wait false a
-- locked row raises lock_not_available instead of waiting, and the caller rolls back.
-- Returns each notice's seq, in order.
CREATE FUNCTION record_notices(
    p_game       uuid,
    p_players    uuid[],
    p_kinds      text[],
    p_bodies     jsonb[],
    p_due_at     timestamptz[],
    p_due_in_us  bigint[],
    p_at         timestamptz,
    p_may_wait   boolean
) RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
    seqs bigint[] := '{}';
    next bigint;
BEGIN
    IF p_may_wait THEN
        PERFORM 1 FROM players WHERE id = ANY (p_players) ORDER BY id FOR NO KEY UPDATE;
    ELSE
        PERFORM 1 FROM players WHERE id = ANY (p_players) ORDER BY id FOR NO KEY UPDATE NOWAIT;
    END IF;
    FOR i IN 1 .. coalesce(cardinality(p_players), 0) LOOP
        UPDATE players SET notice_seq = notice_seq + 1 WHERE id = p_players[i]
        RETURNING notice_seq INTO next;
        INSERT INTO player_notices (player_id, seq, game_id, kind, body, deadline, created_at)
        VALUES (p_players[i], next, p_game, p_kinds[i], p_bodies[i],
                coalesce(p_due_at[i], p_at + p_due_in_us[i] * interval '1 microsecond'), p_at);
        seqs := seqs || next;
    END LOOP;
    RETURN seqs;
END;
$$;

-- A player's rating per game type (Weng-Lin: mu and sigma), written in the transaction of
-- the rated game's final event. The leaderboard ranks by the conservative estimate.
CREATE TABLE ratings (
    player_id    uuid             NOT NULL REFERENCES players (id),
    game_type    text             NOT NULL,
    mu           double precision NOT NULL,
    sigma        double precision NOT NULL CHECK (sigma > 0),
    games        integer          NOT NULL DEFAULT 0 CHECK (games >= 0),
    updated_at   timestamptz      NOT NULL DEFAULT now(),
    conservative double precision GENERATED ALWAYS AS (mu - 3 * sigma) STORED,
    PRIMARY KEY (player_id, game_type)
);
CREATE INDEX ratings_leaderboard_idx ON ratings (game_type, conservative DESC, player_id);

-- Each player's result in each finished game (rated or not), written with its final event;
-- the rating before and after for a rated game. The primary key makes a second rating of one
-- game impossible.
CREATE TABLE player_results (
    game_id      uuid             NOT NULL REFERENCES games (id),
    player_id    uuid             NOT NULL REFERENCES players (id),
    seat         integer          NOT NULL,
    game_type    text             NOT NULL,
    place        integer          NOT NULL CHECK (place > 0),
    won          boolean          NOT NULL,
    rated        boolean          NOT NULL,
    mu_before    double precision,
    sigma_before double precision,
    mu_after     double precision,
    sigma_after  double precision,
    finished_at  timestamptz      NOT NULL,
    PRIMARY KEY (game_id, player_id),
    CONSTRAINT player_results_rated_iff_ratings
        CHECK (rated = (mu_before IS NOT NULL AND sigma_before IS NOT NULL
                        AND mu_after IS NOT NULL AND sigma_after IS NOT NULL))
);
CREATE INDEX player_results_player_idx ON player_results (player_id, finished_at DESC);

-- Players waiting for opponents. Seeks of one pool (same type, seats, clock, rated and
-- config) are matched under a transaction-level advisory lock on the pool, so each is
-- matched exactly once whichever process matches it.
CREATE TABLE seeks (
    id                   uuid        PRIMARY KEY,
    player_id            uuid        NOT NULL REFERENCES players (id),
    game_type            text        NOT NULL,
    seats                integer     NOT NULL CHECK (seats > 0),
    clock                jsonb,
    rated                boolean     NOT NULL,
    config               jsonb       NOT NULL,
    pool                 text        NOT NULL,
    status               text        NOT NULL DEFAULT 'waiting'
                                     CHECK (status IN ('waiting', 'matched', 'cancelled', 'expired')),
    fill_with_bots_after integer     CHECK (fill_with_bots_after > 0),
    fill_at              timestamptz,
    expires_at           timestamptz NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    ended_at             timestamptz,
    game_id              uuid        REFERENCES games (id),
    seat                 integer,
    CONSTRAINT seeks_matched_iff_game CHECK ((status = 'matched') = (game_id IS NOT NULL)),
    CONSTRAINT seeks_fill_iff_after CHECK ((fill_at IS NULL) = (fill_with_bots_after IS NULL))
);
CREATE INDEX seeks_pool_idx ON seeks (pool, created_at) WHERE status = 'waiting';
CREATE INDEX seeks_fill_idx ON seeks (fill_at) WHERE status = 'waiting' AND fill_at IS NOT NULL;
CREATE INDEX seeks_player_idx ON seeks (player_id, created_at DESC);

-- announce_changes (migration 10) plus notices: each payload in p_notices goes out on the
-- player_notices channel, so a stream in any process hears of its player's notice without
-- reading it.
CREATE FUNCTION announce_changes(p_games uuid[], p_versions bigint[], p_deadlines boolean,
                                 p_notices text[])
RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM announce_changes(p_games, p_versions, p_deadlines);
    PERFORM pg_notify('player_notices', n) FROM unnest(p_notices) AS n;
    RETURN cardinality(p_games) + coalesce(cardinality(p_notices), 0);
END;
$$;
