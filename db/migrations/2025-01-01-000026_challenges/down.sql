ALTER TABLE players DROP COLUMN challenges_from;
DROP TABLE player_blocks;
DROP TABLE challenge_answers;
DROP TABLE challenges;
