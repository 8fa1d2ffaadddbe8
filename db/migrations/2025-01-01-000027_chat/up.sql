-- Table chat (issue 37): short plain-text messages at a game, in two channels that never see
-- each other: `players` (the seated players) and `spectators` (players watching). Chat is not
-- part of the game's log or record. Each channel numbers its messages from 1.
CREATE TABLE chat_messages (
    game_id    uuid NOT NULL REFERENCES games (id),
    channel    text NOT NULL CHECK (channel IN ('players', 'spectators')),
    seq        int8 NOT NULL,
    -- The sender: its seat (players) and its player, when it is one.
    seat       int4,
    player_id  uuid REFERENCES players (id),
    name       text NOT NULL,
    text       text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 500),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, channel, seq),
    CHECK ((channel = 'players') = (seat IS NOT NULL)),
    CHECK (channel = 'players' OR player_id IS NOT NULL)
);

-- Whose chat a player does not want to see.
CREATE TABLE chat_mutes (
    player_id  uuid NOT NULL REFERENCES players (id),
    muted_id   uuid NOT NULL REFERENCES players (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, muted_id),
    CHECK (player_id <> muted_id)
);
