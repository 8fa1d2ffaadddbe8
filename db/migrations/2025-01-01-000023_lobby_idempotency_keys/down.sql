DROP TABLE lobby_idempotency_keys;
