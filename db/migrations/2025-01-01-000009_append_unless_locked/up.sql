-- Applying an action on an HTTP worker thread (see api::state::AppState::db_here): such a
-- thread serves other requests in between, so it must never wait for another transaction's
-- lock on the game's row (an outside transaction holding it would stall every request queued
-- on that worker, and overload would hang instead of being answered 503). This append takes
-- the row lock only if it is free, with the lock an UPDATE takes (FOR NO KEY UPDATE, so the
-- events' foreign-key checks are not in its way), and otherwise returns NULL having written
-- nothing; the caller then hands the action to a thread that may wait. Otherwise it is
-- append_events (migration 6), or append_events_and_bot_turn (migration 8) when p_bot_turn.
CREATE FUNCTION append_events_unless_locked(
    p_game     uuid,
    p_version  bigint,
    p_seats    integer[],
    p_actions  jsonb[],
    p_events   jsonb[],
    p_snapshot json,
    p_status   text,
    p_bot_turn boolean,
    p_bot_seat integer,
    p_delay_ms integer
) RETURNS timestamptz
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM games WHERE id = p_game FOR NO KEY UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    IF p_bot_turn THEN
        RETURN append_events_and_bot_turn(p_game, p_version, p_seats, p_actions, p_events,
                                          p_snapshot, p_status, p_bot_seat, p_delay_ms);
    END IF;
    RETURN append_events(p_game, p_version, p_seats, p_actions, p_events, p_snapshot, p_status);
END;
$$;
