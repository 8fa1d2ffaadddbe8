-- One row per game: its current state (snapshot) and the number of its last event (version).
-- The event log in game_events is the truth; the snapshot is its fold, kept for fast reads.
CREATE TABLE games (
    id            uuid        PRIMARY KEY,
    game_type     text        NOT NULL,
    rules_version integer     NOT NULL,
    config        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    status        text        NOT NULL DEFAULT 'open'
                              CHECK (status IN ('open', 'active', 'finished')),
    -- seq of the last event, 0 before any; doubles as the ETag and the optimistic-lock token.
    version       bigint      NOT NULL DEFAULT 0 CHECK (version >= 0),
    snapshot      jsonb,
    seat_count    integer     NOT NULL CHECK (seat_count > 0),
    -- Seeds the game's RNG; never leaves the server.
    rng_seed      bytea       NOT NULL CHECK (octet_length(rng_seed) = 32),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz,
    CONSTRAINT games_finished_at_iff_finished
        CHECK ((status = 'finished') = (finished_at IS NOT NULL))
);

-- Listing is newest first with keyset pagination on (created_at, id), optionally filtered.
CREATE INDEX games_listing_idx ON games (created_at DESC, id DESC);
CREATE INDEX games_type_listing_idx ON games (game_type, created_at DESC, id DESC);
CREATE INDEX games_status_listing_idx ON games (status, created_at DESC, id DESC);
CREATE INDEX games_type_status_listing_idx ON games (game_type, status, created_at DESC, id DESC);
