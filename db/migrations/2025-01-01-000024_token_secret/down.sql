DROP TABLE token_secret;
