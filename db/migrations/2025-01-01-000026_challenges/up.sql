-- Challenges (issue 37): a player invites named players, and the server's bots for the other
-- seats, to a game; the game is created when every invited player has accepted.
CREATE TABLE challenges (
    id             uuid PRIMARY KEY,
    challenger_id  uuid NOT NULL REFERENCES players (id),
    game_type      text NOT NULL,
    config         jsonb NOT NULL,
    clock          jsonb,
    rated          boolean NOT NULL,
    -- The table in seat order, the challenger's seat included: each element is
    -- {"player": "<uuid>"} or {"bot": "<level>"}.
    seats          jsonb NOT NULL,
    -- pending, accepted (the game exists), declined, cancelled or expired (as stored: a
    -- pending challenge past expires_at is expired whatever the column says).
    status         text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    declined_by    uuid REFERENCES players (id),
    decline_reason text,
    game_id        uuid REFERENCES games (id),
    -- A rematch: the game it is a rematch of (one rematch challenge per game).
    rematch_of     uuid UNIQUE REFERENCES games (id),
    created_at     timestamptz NOT NULL DEFAULT now(),
    expires_at     timestamptz NOT NULL,
    ended_at       timestamptz,
    CONSTRAINT challenges_game_iff_accepted CHECK ((status = 'accepted') = (game_id IS NOT NULL))
);
CREATE INDEX challenges_by_challenger ON challenges (challenger_id, created_at DESC);

-- Each invited player's answer: accepted (with the entropy it adds to the game's chance) or
-- not yet. A decline ends the challenge (challenges.declined_by).
CREATE TABLE challenge_answers (
    challenge_id uuid NOT NULL REFERENCES challenges (id),
    player_id    uuid NOT NULL REFERENCES players (id),
    accepted_at  timestamptz,
    entropy      text CHECK (octet_length(entropy) <= 128),
    PRIMARY KEY (challenge_id, player_id)
);
CREATE INDEX challenge_answers_by_player ON challenge_answers (player_id);

-- Whom a player takes no challenges from.
CREATE TABLE player_blocks (
    player_id  uuid NOT NULL REFERENCES players (id),
    blocked_id uuid NOT NULL REFERENCES players (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, blocked_id),
    CHECK (player_id <> blocked_id)
);

-- Whether a player takes challenges at all: 'everyone' (but the players it blocked) or
-- 'nobody'.
ALTER TABLE players ADD COLUMN challenges_from text NOT NULL DEFAULT 'everyone'
    CHECK (challenges_from IN ('everyone', 'nobody'));
