-- Chance version 0 (issue 36): a game imported from the record of a game played at a real
-- table draws nothing; its record names every chance outcome (docs/fairness.md). They are kept
-- here, so that the imported game's own record names them too and verifies again.
CREATE TABLE table_chance (
    game_id uuid PRIMARY KEY REFERENCES games (id),
    -- The setup's outcomes: a JSON array, one value per draw.
    setup   jsonb NOT NULL CHECK (jsonb_typeof(setup) = 'array'),
    -- Each move's outcomes, by the move's index in the record: an array of arrays.
    moves   jsonb NOT NULL CHECK (jsonb_typeof(moves) = 'array')
);
