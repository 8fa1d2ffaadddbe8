DROP FUNCTION announce_game_versions(uuid[], bigint[]);
DROP FUNCTION append_events(uuid, bigint, integer[], jsonb[], jsonb[], json, text);
ALTER TABLE games ALTER COLUMN snapshot SET COMPRESSION default;
ALTER TABLE games ALTER COLUMN snapshot TYPE jsonb USING snapshot::jsonb;
ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE jsonb USING response_body::jsonb;
