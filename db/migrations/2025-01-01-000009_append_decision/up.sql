-- Who the game waits for, kept beside the snapshot (which is opaque to the database): the
-- push stream tells every follower with each new version, so that a seat's client knows it
-- is its turn without reading the game. Empty for a game that is not active, and for one
-- written before this column existed until its next change (readers then take the seats
-- from the snapshot).
ALTER TABLE games ADD COLUMN active_seats integer[] NOT NULL DEFAULT '{}';

-- One write for every decision, replacing append_events (migration 6) and
-- append_events_and_bot_turn (migration 8), which stay for servers of the previous release
-- during a rolling deploy (a later migration drops them). Besides the active seats:
--
-- p_may_wait false is for a caller on an HTTP worker thread (api::state::AppState::db_here).
-- Such a thread serves other requests in between, so it must never wait for another
-- transaction's lock on the game's row: an outside transaction holding it would stall every
-- request queued on that worker, and overload would hang instead of being answered 503.
-- The row lock is then taken only if it is free (FOR NO KEY UPDATE, the lock the UPDATE takes,
-- which the events' foreign-key checks do not conflict with), and otherwise the function
-- returns NULL having written nothing; the caller hands the decision to a thread that may
-- wait.
--
-- p_bot_turn: the game has bot seats, so its bot_turns row follows the decision (see
-- migration 8): armed for p_bot_seat at the new version with a NOTIFY bot_turns, or deleted
-- when p_bot_seat is NULL. Games without bot seats never touch bot_turns or NOTIFY.
CREATE FUNCTION append_decision(
    p_game         uuid,
    p_version      bigint,
    p_seats        integer[],
    p_actions      jsonb[],
    p_events       jsonb[],
    p_snapshot     json,
    p_status       text,
    p_active_seats integer[],
    p_bot_turn     boolean,
    p_bot_seat     integer,
    p_delay_ms     integer,
    p_may_wait     boolean
) RETURNS timestamptz
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT p_may_wait THEN
        PERFORM 1 FROM games WHERE id = p_game FOR NO KEY UPDATE SKIP LOCKED;
        IF NOT FOUND THEN
            RETURN NULL;
        END IF;
    END IF;
    UPDATE games
    SET snapshot     = p_snapshot,
        version      = p_version + cardinality(p_events),
        status       = p_status,
        active_seats = p_active_seats,
        updated_at   = now(),
        finished_at  = CASE WHEN p_status = 'finished' THEN coalesce(finished_at, now()) END
    WHERE id = p_game AND version = p_version;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'game % is not at version %', p_game, p_version
            USING ERRCODE = 'serialization_failure';
    END IF;
    INSERT INTO game_events (game_id, seq, seat, action, event)
    SELECT p_game, p_version + e.ord, e.seat, e.action, e.event
    FROM unnest(p_seats, p_actions, p_events) WITH ORDINALITY AS e (seat, action, event, ord);
    IF p_bot_turn THEN
        IF p_bot_seat IS NULL THEN
            DELETE FROM bot_turns WHERE game_id = p_game;
        ELSE
            INSERT INTO bot_turns (game_id, version, seat, due_at)
            VALUES (p_game, p_version + cardinality(p_events), p_bot_seat,
                    now() + make_interval(secs => p_delay_ms / 1000.0))
            ON CONFLICT (game_id) DO UPDATE
                SET version = EXCLUDED.version, seat = EXCLUDED.seat, due_at = EXCLUDED.due_at,
                    leased_by = NULL, leased_until = NULL;
            PERFORM pg_notify('bot_turns', p_game::text);
        END IF;
    END IF;
    RETURN now();
END;
$$;
