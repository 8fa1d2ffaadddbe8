-- The deployment's secret for tokens derived from an Idempotency-Key (db::token::TokenSecret):
-- one row, written by the first process that starts (32 random bytes from the OS), read by
-- every process, never logged. Without it a token would be computable from the key alone.
CREATE TABLE token_secret (
    id         boolean     PRIMARY KEY DEFAULT true CHECK (id),
    secret     bytea       NOT NULL CHECK (length(secret) = 32),
    created_at timestamptz NOT NULL DEFAULT now()
);
