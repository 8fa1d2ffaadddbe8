DROP FUNCTION append_events_unless_locked(uuid, bigint, integer[], jsonb[], jsonb[], json, text, boolean, integer, integer);
