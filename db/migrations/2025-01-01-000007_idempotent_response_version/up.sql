-- The version an idempotent action answered with, stored beside the response, so that a replay
-- can send the same ETag without parsing the stored body. NULL while the request is in flight,
-- and for responses stored before this column existed (their replays carry no ETag; keys
-- expire within a day anyway).
ALTER TABLE idempotency_keys ADD COLUMN response_version bigint;
