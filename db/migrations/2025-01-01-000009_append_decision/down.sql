DROP FUNCTION append_decision(uuid, bigint, integer[], jsonb[], jsonb[], json, text, integer[], boolean, integer, integer, boolean);
ALTER TABLE games DROP COLUMN active_seats;
