-- The api tells an unknown token (401) from a token of another game (403) by looking the
-- token's hash up across all games; this index keeps that lookup fast.
CREATE INDEX seats_token_sha256_idx ON seats (token_sha256) WHERE token_sha256 IS NOT NULL;
