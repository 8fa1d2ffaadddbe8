DROP FUNCTION append_events_and_bot_turn(uuid, bigint, integer[], jsonb[], jsonb[], json, text, integer, integer);
DROP TABLE bot_turns;
ALTER TABLE seats DROP CONSTRAINT seats_budget_only_for_bots;
ALTER TABLE seats DROP CONSTRAINT seats_bot_has_no_token;
ALTER TABLE seats DROP CONSTRAINT seats_taken_by_token_or_bot;
DELETE FROM seats WHERE bot_level IS NOT NULL;
ALTER TABLE seats ADD CONSTRAINT seats_joined_iff_token CHECK ((token_sha256 IS NULL) = (joined_at IS NULL));
ALTER TABLE seats DROP COLUMN bot_budget_ms;
ALTER TABLE seats DROP COLUMN bot_level;
