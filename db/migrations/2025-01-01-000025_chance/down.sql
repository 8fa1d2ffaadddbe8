ALTER TABLE seeks DROP COLUMN entropy;
ALTER TABLE seats DROP COLUMN entropy;
ALTER TABLE games DROP COLUMN imported_from;
ALTER TABLE games DROP COLUMN chance_seeded;
ALTER TABLE games DROP COLUMN chance_version;
