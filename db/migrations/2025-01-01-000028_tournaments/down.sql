DROP TABLE tournament_results;
DROP TABLE tournament_tables;
DROP TABLE tournament_players;
DROP TABLE tournaments;
