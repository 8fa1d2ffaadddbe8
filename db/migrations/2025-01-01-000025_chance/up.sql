-- Checkable chance (docs/fairness.md). `chance_version` says how a game draws its chance:
-- 1 for every game created before this migration (the `rand` crate's sampling, kept so those
-- games draw what they always drew), 2 for games created after (the documented derivation).
-- `chance_seeded`: the game was created with a client's `seed`, so its chance is public and
-- derived from that seed alone. A seat's `entropy` is what its taker added to the chance;
-- it is shown only once the game is over.
ALTER TABLE games ADD COLUMN chance_version int4 NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN chance_seeded boolean NOT NULL DEFAULT false;
-- `imported_from`: the game (on the server that played it) whose record this game was
-- imported from (POST /v1/records); its chance key is derived with that id.
ALTER TABLE games ADD COLUMN imported_from uuid;
ALTER TABLE seats ADD COLUMN entropy text CHECK (octet_length(entropy) <= 128);
-- A seek's entropy goes to the seat the seek takes when it is matched.
ALTER TABLE seeks ADD COLUMN entropy text CHECK (octet_length(entropy) <= 128);
