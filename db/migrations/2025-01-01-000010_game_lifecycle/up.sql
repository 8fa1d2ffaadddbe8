-- Games that end: clocks, resignation, bots standing in for absent players, abort and expiry
-- (issue 21). None of it is a game rule: the service keeps it beside the game's own state.

-- Two more ways for a game to be over: aborted before anyone moved, and expired while its
-- seats were still open. Both are over like a finished game (finished_at set).
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('open', 'active', 'finished', 'aborted', 'expired'));
ALTER TABLE games DROP CONSTRAINT games_finished_at_iff_finished;
ALTER TABLE games ADD CONSTRAINT games_finished_at_iff_over
    CHECK ((status IN ('finished', 'aborted', 'expired')) = (finished_at IS NOT NULL));

-- The time control chosen at creation (the api's JSON; NULL: no clock, as every game had
-- before this migration). Fixed for the game's life.
ALTER TABLE games ADD COLUMN clock jsonb;
-- The fold of the log's lifecycle events and clocks (who stands in for whom, who left, each
-- seat's time), kept beside the game's snapshot for fast reads like it: opaque to the
-- database, rebuilt from the log by any replay. NULL: nothing has happened to the seats and
-- the game has no clock.
ALTER TABLE games ADD COLUMN lifecycle json;

-- The deadline queue: one row per game with something due at a time, claimed by any server
-- process like a bot turn (FOR UPDATE SKIP LOCKED, a lease), never owned in memory. A clock
-- deadline is for the game's version (the version guard of the append decides between it and
-- an action that races it); an expiry is for an open game whose seats are not all taken.
CREATE TABLE game_deadlines (
    game_id      uuid        PRIMARY KEY REFERENCES games (id),
    kind         text        NOT NULL CHECK (kind IN ('clock', 'expiry')),
    -- The game version the deadline is for (0 for an expiry: open games have no events).
    version      bigint      NOT NULL,
    due_at       timestamptz NOT NULL,
    -- Which process is firing it (for logs); NULL while nobody is.
    leased_by    text,
    -- A process that has not fired it by then is presumed dead; any process may claim again.
    leased_until timestamptz
);

CREATE INDEX game_deadlines_due_idx ON game_deadlines (due_at);

-- Open games waited for players forever before; they now expire like new ones (after the
-- default time to live of 24 hours).
INSERT INTO game_deadlines (game_id, kind, version, due_at)
SELECT id, 'expiry', 0, created_at + interval '24 hours' FROM games WHERE status = 'open';

-- append_decision (migration 9) plus the game's lifecycle and deadline, and one change to the
-- events' timestamps: they are the time the row lock was held (clock_timestamp(), after the
-- guarded UPDATE), never earlier than the previous commit's, instead of the transaction's
-- start. Clocks are derived from these timestamps, so they must be in commit order: a
-- transaction that waited for the row lock started before the one it waited for committed.
-- Each commit's events share one timestamp, strictly later than the previous commit's, so the
-- log itself tells where one commit ends and the next begins.
--
-- p_lifecycle: the new lifecycle snapshot, NULL to keep the stored one.
-- p_deadline: whether the game's deadline row follows the decision: armed (kind 'clock', at
-- the new version) for the earlier of p_due_at and the commit's time plus p_due_in_us
-- microseconds (a seat whose clock starts with this commit), or deleted when both are NULL.
-- Returns the commit's timestamp (every new event's created_at, the game's updated_at).
CREATE FUNCTION append_commit(
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
    p_may_wait     boolean,
    p_lifecycle    json,
    p_deadline     boolean,
    p_due_at       timestamptz,
    p_due_in_us    bigint
) RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE
    committed_at timestamptz;
    due          timestamptz;
BEGIN
    -- The row lock first, then the time, in a statement of its own: a locking SELECT
    -- computes its columns before it waits for the lock.
    IF p_may_wait THEN
        PERFORM 1 FROM games WHERE id = p_game FOR NO KEY UPDATE;
    ELSE
        PERFORM 1 FROM games WHERE id = p_game FOR NO KEY UPDATE SKIP LOCKED;
        IF NOT FOUND THEN
            RETURN NULL;
        END IF;
    END IF;
    SELECT greatest(clock_timestamp(), updated_at + interval '1 microsecond')
      INTO committed_at FROM games WHERE id = p_game;
    UPDATE games
    SET snapshot     = p_snapshot,
        version      = p_version + cardinality(p_events),
        status       = p_status,
        active_seats = p_active_seats,
        lifecycle    = coalesce(p_lifecycle, lifecycle),
        updated_at   = committed_at,
        finished_at  = CASE WHEN p_status IN ('finished', 'aborted', 'expired')
                            THEN coalesce(finished_at, committed_at) END
    WHERE id = p_game AND version = p_version;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'game % is not at version %', p_game, p_version
            USING ERRCODE = 'serialization_failure';
    END IF;
    INSERT INTO game_events (game_id, seq, seat, action, event, created_at)
    SELECT p_game, p_version + e.ord, e.seat, e.action, e.event, committed_at
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
    IF p_deadline THEN
        due := least(p_due_at, committed_at + p_due_in_us * interval '1 microsecond');
        IF due IS NULL THEN
            DELETE FROM game_deadlines WHERE game_id = p_game;
        ELSE
            INSERT INTO game_deadlines (game_id, kind, version, due_at)
            VALUES (p_game, 'clock', p_version + cardinality(p_events), due)
            ON CONFLICT (game_id) DO UPDATE
                SET kind = EXCLUDED.kind, version = EXCLUDED.version, due_at = EXCLUDED.due_at,
                    leased_by = NULL, leased_until = NULL;
        END IF;
    END IF;
    RETURN committed_at;
END;
$$;

-- Announces committed versions (announce_game_versions, migration 6) and, when p_deadlines,
-- that deadlines were armed, so that an idle deadline worker of every process looks at the
-- queue again (its next wake-up may now be too late).
CREATE FUNCTION announce_changes(p_games uuid[], p_versions bigint[], p_deadlines boolean)
RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    PERFORM pg_notify('game_events', c.game::text || ':' || c.version::text)
       FROM unnest(p_games, p_versions) AS c (game, version);
    IF p_deadlines THEN
        PERFORM pg_notify('game_deadlines', '');
    END IF;
    RETURN cardinality(p_games);
END;
$$;
