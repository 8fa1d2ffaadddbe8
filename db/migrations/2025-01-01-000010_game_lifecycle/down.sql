DROP FUNCTION announce_changes(uuid[], bigint[], boolean);
DROP FUNCTION append_commit(uuid, bigint, integer[], jsonb[], jsonb[], json, text, integer[], boolean, integer, integer, boolean, json, boolean, timestamptz, bigint);
DROP TABLE game_deadlines;
ALTER TABLE games DROP COLUMN lifecycle;
ALTER TABLE games DROP COLUMN clock;
ALTER TABLE games DROP CONSTRAINT games_finished_at_iff_over;
ALTER TABLE games DROP CONSTRAINT games_status_check;
-- The previous release knows only three statuses: an aborted or expired game is over.
UPDATE games SET status = 'finished' WHERE status IN ('aborted', 'expired');
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('open', 'active', 'finished'));
ALTER TABLE games ADD CONSTRAINT games_finished_at_iff_finished
    CHECK ((status = 'finished') = (finished_at IS NOT NULL));
