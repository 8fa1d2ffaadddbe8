-- Retried action requests: same (game, seat, key) and same fingerprint replays the stored
-- response; a different fingerprint is a client bug and is refused.
CREATE TABLE idempotency_keys (
    game_id             uuid        NOT NULL REFERENCES games (id),
    seat                integer     NOT NULL,
    key                 text        NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    request_fingerprint bytea       NOT NULL,
    -- NULL while the request is in flight.
    response_status     integer,
    response_body       jsonb,
    created_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat, key)
);

-- For expiring old keys.
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);
