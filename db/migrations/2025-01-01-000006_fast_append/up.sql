-- Making an action cheaper for PostgreSQL (profiled under load: JSON conversion, compression,
-- and parsing and planning statements diesel does not prepare were a fifth of its CPU).

-- The snapshot is opaque to the database (nothing queries inside it): `json` stores the text
-- as sent, so writing it only validates it and reading it is a copy, where `jsonb` parsed it
-- into its binary form on every action and printed it back on every read.
ALTER TABLE games ALTER COLUMN snapshot TYPE json USING snapshot::json;
-- Stored idempotent responses are as opaque: they are sent back byte for byte.
ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE json USING response_body::json;

-- Snapshots are a few kB and compressed in place; LZ4 costs a fraction of the default pglz.
-- Only where the server was built with LZ4 (Debian's is); elsewhere pglz stays.
DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_settings
               WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        ALTER TABLE games ALTER COLUMN snapshot SET COMPRESSION lz4;
    END IF;
END;
$$;

-- Appends an action's events and the state after them to a game at version p_version, in one
-- round trip, or refuses with serialization_failure (writing nothing) when the game is no
-- longer at that version. The guarded UPDATE comes first: it takes the row lock, and a
-- concurrent append to the same game waits for it and then finds the version moved. So the
-- caller may read the game without a lock and call this alone, in autocommit, as its whole
-- write transaction. diesel never prepares INSERTs of a variable number of rows or UPDATEs,
-- so PostgreSQL parsed and planned both on every action; PL/pgSQL keeps its plans. Returns
-- now(), the transaction's timestamp, which is also every new event's created_at and the
-- game's updated_at (and finished_at when p_status = 'finished').
CREATE FUNCTION append_events(
    p_game     uuid,
    p_version  bigint,
    p_seats    integer[],
    p_actions  jsonb[],
    p_events   jsonb[],
    p_snapshot json,
    p_status   text
) RETURNS timestamptz
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games
    SET snapshot    = p_snapshot,
        version     = p_version + cardinality(p_events),
        status      = p_status,
        updated_at  = now(),
        finished_at = CASE WHEN p_status = 'finished' THEN coalesce(finished_at, now()) END
    WHERE id = p_game AND version = p_version;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'game % is not at version %', p_game, p_version
            USING ERRCODE = 'serialization_failure';
    END IF;
    INSERT INTO game_events (game_id, seq, seat, action, event)
    SELECT p_game, p_version + e.ord, e.seat, e.action, e.event
    FROM unnest(p_seats, p_actions, p_events) WITH ORDINALITY AS e (seat, action, event, ord);
    RETURN now();
END;
$$;

-- Announces committed versions to long polls (see db::notify::announce), a batch at a time.
-- Runs in a transaction of its own, after the changes committed, with synchronous_commit off
-- for that transaction: PostgreSQL serialises notifying commits, so this one must not wait
-- for a WAL flush. A function so that the statement is prepared once per connection.
CREATE FUNCTION announce_game_versions(p_games uuid[], p_versions bigint[]) RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    PERFORM pg_notify('game_events', c.game::text || ':' || c.version::text)
       FROM unnest(p_games, p_versions) AS c (game, version);
    RETURN cardinality(p_games);
END;
$$;
