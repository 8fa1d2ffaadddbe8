-- Seats played by the server's bots, and the queue of bot turns that server processes claim.

-- A bot seat is taken (joined_at set) without a token: nobody outside the server acts for it.
ALTER TABLE seats ADD COLUMN bot_level text CHECK (bot_level IN ('random', 'greedy', 'mcts'));
-- The bot's time budget per move, already clamped to the server's maximum at creation.
ALTER TABLE seats ADD COLUMN bot_budget_ms integer CHECK (bot_budget_ms > 0);
ALTER TABLE seats DROP CONSTRAINT seats_joined_iff_token;
ALTER TABLE seats ADD CONSTRAINT seats_taken_by_token_or_bot
    CHECK ((joined_at IS NULL) = (token_sha256 IS NULL AND bot_level IS NULL));
ALTER TABLE seats ADD CONSTRAINT seats_bot_has_no_token
    CHECK (bot_level IS NULL OR token_sha256 IS NULL);
ALTER TABLE seats ADD CONSTRAINT seats_budget_only_for_bots
    CHECK (bot_budget_ms IS NULL OR bot_level IS NOT NULL);

-- One row per game whose next move is a bot's: at most one bot move per game is ever
-- pending, so at most one process thinks for a game at a time (the lease), and the version
-- guard of the action path drops a move computed for a version that has passed.
CREATE TABLE bot_turns (
    game_id      uuid        PRIMARY KEY REFERENCES games (id),
    -- The game version the move is for (its expected_version).
    version      bigint      NOT NULL,
    -- The bot's seat.
    seat         integer     NOT NULL,
    -- Not before: the spectator delay between bot moves.
    due_at       timestamptz NOT NULL DEFAULT now(),
    -- Which process thinks about it (for logs); NULL while nobody does.
    leased_by    text,
    -- A process that has not moved by then is presumed dead; any process may claim again.
    leased_until timestamptz
);

CREATE INDEX bot_turns_due_idx ON bot_turns (due_at);

-- append_events (migration 6) and, in the same statement, the game's bot turn: armed for
-- p_bot_seat at the new version (NULL: no bot moves next, the row goes), and a
-- NOTIFY bot_turns so an idle bot worker of any process claims it. Only games with bot seats
-- call this; the NOTIFY (which serialises commits) stays off every other game's path.
CREATE FUNCTION append_events_and_bot_turn(
    p_game     uuid,
    p_version  bigint,
    p_seats    integer[],
    p_actions  jsonb[],
    p_events   jsonb[],
    p_snapshot json,
    p_status   text,
    p_bot_seat integer,
    p_delay_ms integer
) RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE
    committed_at timestamptz;
BEGIN
    committed_at := append_events(p_game, p_version, p_seats, p_actions, p_events, p_snapshot,
                                  p_status);
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
    RETURN committed_at;
END;
$$;
