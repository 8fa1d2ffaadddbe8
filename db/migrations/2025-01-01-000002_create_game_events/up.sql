-- The append-only event log: state = fold(evolve, events ordered by seq).
CREATE TABLE game_events (
    game_id    uuid        NOT NULL REFERENCES games (id),
    seq        bigint      NOT NULL CHECK (seq > 0),
    -- The seat whose action caused the event; NULL for setup and automatic events.
    seat       integer,
    -- The action as submitted, kept for audit and replay debugging; NULL for setup events.
    action     jsonb,
    event      jsonb       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);

-- History is never rewritten: the database itself refuses UPDATE, DELETE and TRUNCATE,
-- so a bug or a hand-typed statement cannot corrupt a game's log.
CREATE FUNCTION game_events_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'game_events is append-only: % refused', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

-- Statement level, so even an UPDATE that matches no row is refused.
CREATE TRIGGER game_events_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON game_events
    FOR EACH STATEMENT EXECUTE FUNCTION game_events_append_only();
