DROP TABLE table_chance;
