//! Every stable problem code, with when it is answered: the list the OpenAPI document gives
//! in `Problem.code`, and that debug builds hold every [`crate::error::ApiError`] to.

/// Every code the API itself answers with, and when. Debug builds refuse to build an
/// [`crate::error::ApiError`] with a code missing here (rule codes of the games, which contain
/// a dot, and [`ENGINE_CODES`] aside).
pub const API_CODES: &[(&str, &str)] = &[
    ("malformed_json", "400, the body is not JSON"),
    ("invalid_body", "400, the body is not the documented shape: unknown field, duplicate key, array for an object, wrong type"),
    ("invalid_action", "400, the action is not a well-formed action of the game (unknown type or field, wrong shape)"),
    ("bad_body", "400, the body could not be read"),
    ("invalid_query", "400, a query parameter is unknown to the operation, malformed, or out of its documented range"),
    ("invalid_cursor", "400, `cursor` is not a `next_cursor` of this API"),
    ("invalid_id", "400, the game id in the path is not a UUID"),
    ("invalid_seq", "400, the seq in the path is not a whole number, or a stream is resumed past the game's version"),
    ("invalid_header", "400, a header value is not valid (control characters, not ASCII)"),
    ("invalid_idempotency_key", "400, `Idempotency-Key` is not 1 to 255 visible ASCII characters"),
    ("conflicting_versions", "400, `expected_version` and `If-Match` name different versions"),
    ("invalid_clock", "400, a clock time is outside its bounds (1 s to 30 days; an increment may be 0)"),
    ("invalid_seat_number", "400, the seat in the path is not a seat number"),
    ("bad_request", "400, the request could not be read"),
    ("token_in_query", "400, a credential was sent in the query string; send `Authorization: Bearer` (and rotate a player token sent this way)"),
    ("invalid_player_name", "400, a player name is not 2 to 24 letters, digits, marks, spaces, `_`, `-` or `.`, starting and ending with a letter or digit"),
    ("invalid_seek", "400, a seek's seat count or bot-fill delay is out of range"),
    ("missing_token", "401, the operation needs a seat or player token"),
    ("invalid_token", "401, the token is malformed, or no seat's or player's (a player token stops working when it is rotated)"),
    ("not_a_player_token", "401, the operation needs a player token and got a seat token"),
    ("token_for_other_game", "403, the token is a seat of another game"),
    ("not_seated", "403, the player holds no seat of this game"),
    ("not_your_seek", "403, the seek is another player's"),
    ("player_not_found", "404, no player with this id"),
    ("seek_not_found", "404, no seek with this id"),
    ("name_taken", "409, another player has this name (names are compared after Unicode case folding)"),
    ("seek_not_waiting", "409, the seek is matched, cancelled or expired already"),
    ("token_rotated_concurrently", "409, another request rotated the same player token at the same moment and won; the caller's token no longer works"),
    ("rated_game_with_bots", "422, a rated game cannot have a seat of the server's bot (nor be filled with bots)"),
    ("rated_game_needs_players", "422, every seat of a rated game belongs to a player: take it with a player token"),
    ("not_your_seat", "403, the token is another seat's of this game (resign and reclaim take the seat's own token)"),
    ("not_found", "404, no such route"),
    ("game_not_found", "404, no game with this id"),
    ("no_such_state", "404, `seq` is outside the game's log"),
    ("method_not_allowed", "405, the route exists with other methods (see `Allow`)"),
    ("version_conflict", "409, the game is not at the expected version (`current_version`)"),
    ("idempotency_key_in_flight", "409, a request with this key is still being processed"),
    ("game_already_started", "409, the game is no longer open"),
    ("game_not_started", "409, the game has not started"),
    ("game_over", "409 (or 422 from a game's rules), the game is over: finished, aborted or expired"),
    ("wrong_status", "409, the game is not in the status the operation needs"),
    ("seat_taken", "409, the seat asked for is taken"),
    ("no_open_seat", "409, no seat is open"),
    ("too_few_seats", "409, starting now would leave fewer seats than the game needs"),
    ("bot_game_limit", "409, the server already runs its most games with a bot in every seat; try later"),
    ("seat_resigned", "409, the seat has resigned: it takes no more actions and cannot resign again or be reclaimed"),
    ("seat_taken_over", "409, the server's bot plays the seat since its clock ran out; reclaim it to play"),
    ("seat_not_taken_over", "409, no bot plays the seat: there is nothing to reclaim"),
    ("already_seated", "409, the player already holds a seat of this game (one seat per player and game)"),
    ("too_late_to_abort", "409, a seat has moved already: resign instead"),
    ("precondition_failed", "412, `If-Match` does not match (`current_version`)"),
    ("body_too_large", "413, the body is over 64 KiB"),
    ("unsupported_media_type", "415, the body is not `application/json`"),
    ("unknown_game_type", "422, no such game type (404 for the type in the path of `GET /v1/leaderboards/{type}`)"),
    ("invalid_seat_count", "422, the seat list is outside the game's seat range"),
    ("invalid_seat", "422, a seat is none or several of `{\"name\": ...}`, `{\"me\": true}`, `{\"open\": true}` and `{\"bot\": ...}`, or a player takes two seats"),
    ("invalid_name", "422, a name is empty, over 64 characters or has control characters"),
    ("invalid_entropy", "422, a seat's entropy is over 128 bytes or has control characters"),
    ("seeded_rated_game", "422, a rated game was given a `seed` (its chance would be known in advance)"),
    ("record_not_public", "403, a spectator asked for the record of a game that is not over"),
    ("invalid_record", "422, an imported record does not verify (`record` says the move, the rule and the reason)"),
    ("invalid_config", "422, the game refuses the configuration"),
    ("no_such_seat", "422, the game has no such seat"),
    ("idempotency_key_reused", "422, the key was used for a different request"),
    ("rate_limited", "429, over the rate limit; retry after `Retry-After` seconds"),
    ("internal", "500, a server fault (logged)"),
    ("unavailable", "503, the database is unreachable; retry after `Retry-After` seconds"),
    ("error", "any other status the framework answers with"),
];

/// Codes that every game's rules may answer with (422).
pub const ENGINE_CODES: &[&str] = engine::SHARED_CODES;

/// Whether `code` is documented: the API's own, the engine's shared ones, or a game's
/// (`<game>.<reason>`).
pub fn is_listed(code: &str) -> bool {
    code.contains('.')
        || ENGINE_CODES.contains(&code)
        || API_CODES.iter().any(|(listed, _)| *listed == code)
}
