DROP FUNCTION announce_changes(uuid[], bigint[], boolean, text[]);
DROP TABLE seeks;
DROP TABLE player_results;
DROP TABLE ratings;
DROP FUNCTION record_notices(uuid, uuid[], text[], jsonb[], timestamptz[], bigint[], timestamptz, boolean);
DROP TABLE player_notices;
ALTER TABLE games DROP COLUMN rated;
ALTER TABLE seats DROP CONSTRAINT seats_player_has_no_token_or_bot;
ALTER TABLE seats DROP CONSTRAINT seats_taken_by_token_bot_or_player;
-- The previous release has no players: their seats cannot stay taken.
DELETE FROM idempotency_keys k USING seats s
 WHERE s.game_id = k.game_id AND s.seat = k.seat AND s.player_id IS NOT NULL;
UPDATE seats SET joined_at = NULL, name = NULL WHERE player_id IS NOT NULL;
ALTER TABLE seats ADD CONSTRAINT seats_taken_by_token_or_bot
    CHECK ((joined_at IS NULL) = (token_sha256 IS NULL AND bot_level IS NULL));
DROP INDEX seats_player_game_idx;
ALTER TABLE seats DROP COLUMN player_id;
DROP TABLE players;
