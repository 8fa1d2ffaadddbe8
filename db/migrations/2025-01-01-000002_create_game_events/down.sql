DROP TABLE game_events;
DROP FUNCTION game_events_append_only();
