DROP TABLE chat_mutes;
DROP TABLE chat_messages;
