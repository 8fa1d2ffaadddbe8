DROP INDEX seats_token_sha256_idx;
