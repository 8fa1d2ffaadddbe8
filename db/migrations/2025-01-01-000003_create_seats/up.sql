-- Seats of a game. A seat is open while token_sha256 is NULL. Only the SHA-256 of a seat
-- token is stored: the token is shown once, at join, and a database leak reveals no token.
CREATE TABLE seats (
    game_id      uuid        NOT NULL REFERENCES games (id),
    seat         integer     NOT NULL CHECK (seat >= 0),
    name         text,
    token_sha256 bytea       CHECK (octet_length(token_sha256) = 32),
    joined_at    timestamptz,
    PRIMARY KEY (game_id, seat),
    CONSTRAINT seats_joined_iff_token CHECK ((token_sha256 IS NULL) = (joined_at IS NULL))
);
