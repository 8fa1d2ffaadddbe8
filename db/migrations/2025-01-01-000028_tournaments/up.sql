-- Tournaments (issue 37): Swiss and knockout, tables of the game's seat counts, rounds that
-- the server's workers pair and start exactly once (each step one transaction under the
-- tournament's row lock).
CREATE TABLE tournaments (
    id             uuid PRIMARY KEY,
    organiser_id   uuid NOT NULL REFERENCES players (id),
    name           text NOT NULL,
    game_type      text NOT NULL,
    config         jsonb NOT NULL,
    clock          jsonb NOT NULL,
    rated          boolean NOT NULL,
    format         text NOT NULL CHECK (format IN ('swiss', 'knockout')),
    -- Swiss: the number of rounds; knockout: NULL (until one table is left).
    rounds         int4 CHECK (rounds IS NULL OR rounds BETWEEN 1 AND 20),
    table_size     int4 NOT NULL CHECK (table_size >= 2),
    -- Whether the server's bots fill incomplete tables (else the players left over sit out
    -- the round with a bye), and at which level.
    fill_with_bots boolean NOT NULL,
    bot_level      text NOT NULL,
    max_players    int4 NOT NULL CHECK (max_players >= 2),
    starts_at      timestamptz NOT NULL,
    status         text NOT NULL DEFAULT 'waiting'
        CHECK (status IN ('waiting', 'running', 'finished', 'cancelled')),
    -- The round being played (0 before the start).
    round          int4 NOT NULL DEFAULT 0,
    -- When a worker next looks at it (its start, then whether the round is over).
    check_at       timestamptz NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz
);
CREATE INDEX tournaments_due ON tournaments (check_at) WHERE status IN ('waiting', 'running');

CREATE TABLE tournament_players (
    tournament_id uuid NOT NULL REFERENCES tournaments (id),
    player_id     uuid NOT NULL REFERENCES players (id),
    joined_at     timestamptz NOT NULL DEFAULT now(),
    -- Left after the start: paired no more (its seats in running games go by the clock).
    withdrawn_at  timestamptz,
    -- Knockout: the round it went out in (NULL while in).
    out_in_round  int4,
    PRIMARY KEY (tournament_id, player_id)
);

-- A table of a round: its game and players in seat order (bots are NULL), or a bye.
CREATE TABLE tournament_tables (
    tournament_id uuid NOT NULL REFERENCES tournaments (id),
    round         int4 NOT NULL,
    table_no      int4 NOT NULL,
    game_id       uuid REFERENCES games (id),
    players       uuid[] NOT NULL,
    PRIMARY KEY (tournament_id, round, table_no)
);

-- What each player made of a round: its place at its table (NULL: a bye, or an aborted
-- game), the points for it, and its game score.
CREATE TABLE tournament_results (
    tournament_id uuid NOT NULL REFERENCES tournaments (id),
    round         int4 NOT NULL,
    player_id     uuid NOT NULL REFERENCES players (id),
    place         int4,
    points        int4 NOT NULL,
    score         int8 NOT NULL DEFAULT 0,
    bye           boolean NOT NULL DEFAULT false,
    PRIMARY KEY (tournament_id, round, player_id)
);
