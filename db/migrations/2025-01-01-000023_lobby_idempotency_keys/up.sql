-- Idempotency-Keys of the requests that create something for an anonymous client (creating a
-- game, taking a seat), so that a retry gets the same game or seat instead of a second one.
-- Only a hash of the key (with the operation it was used for) is stored, and the response is
-- stored without its seat tokens: the api derives those from the key again on a replay, so
-- neither the key nor a token ever reaches the database. The body is `json`: stored and sent
-- again as the text it was, like the actions' stored responses.
CREATE TABLE lobby_idempotency_keys (
    key_sha256          bytea       PRIMARY KEY CHECK (length(key_sha256) = 32),
    request_fingerprint bytea       NOT NULL,
    -- NULL while the creating transaction runs (a concurrent retry waits for it).
    response_status     integer,
    response_body       json,
    created_at          timestamptz NOT NULL DEFAULT now()
);

-- For expiring old keys.
CREATE INDEX lobby_idempotency_keys_created_at_idx ON lobby_idempotency_keys (created_at);
