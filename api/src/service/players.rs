//! Players' accounts: creating them (with a name unique after Unicode case folding) and
//! rotating their tokens. What the service shows of them (profiles, their games, the
//! leaderboards) is [`super::profiles`].

use caseless::Caseless;
use db::store;
use db::{PgConnection, PooledConn};
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

use super::caller::require_player;
use super::lobby_keys::{self, Answer, LobbyKey};
use crate::dto::{CreatedPlayer, RotatedToken};
use crate::error::ApiError;
use crate::extract::{SeatToken, PLAYER_TOKEN_PREFIX};
use crate::state::Context;

/// A valid player name: as shown (NFC) and as compared (its Unicode compatibility caseless
/// key, D146: `NFKD(casefold(NFKD(casefold(NFD(name)))))`, so `Anna`, `ANNA` and `ａｎｎａ`
/// are one name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerName {
    pub display: String,
    pub key: String,
}

/// The shortest and longest name, in characters.
pub const NAME_CHARS: (usize, usize) = (2, 24);

/// Reads a player name.
///
/// # Errors
/// 400 `invalid_player_name` saying what is wrong.
pub fn parse_name(raw: &str) -> Result<PlayerName, ApiError> {
    let display: String = raw.nfc().collect();
    let bad = |why: &str| {
        Err(ApiError::bad_request(
            "invalid_player_name",
            format!(
                "a player name has {} to {} characters: letters, digits and marks of any \
                 script, spaces, _, - and .; it starts and ends with a letter or digit and has \
                 no two spaces in a row ({why})",
                NAME_CHARS.0, NAME_CHARS.1
            ),
        ))
    };
    let count = display.chars().count();
    if !(NAME_CHARS.0..=NAME_CHARS.1).contains(&count) {
        return bad(&format!("this one has {count}"));
    }
    let allowed =
        |c: char| c.is_alphanumeric() || is_combining_mark(c) || matches!(c, ' ' | '_' | '-' | '.');
    if let Some(c) = display.chars().find(|&c| !allowed(c)) {
        return bad(&format!("{:?} is not allowed", c));
    }
    let first = display.chars().next().unwrap_or(' ');
    let last = display.chars().last().unwrap_or(' ');
    if !first.is_alphanumeric() || !(last.is_alphanumeric() || is_combining_mark(last)) {
        return bad("it starts or ends with another character");
    }
    if display.contains("  ") {
        return bad("it has two spaces in a row");
    }
    let key: String = display
        .nfd()
        .default_case_fold()
        .nfkd()
        .default_case_fold()
        .nfkd()
        .collect();
    Ok(PlayerName { display, key })
}

/// A fresh player token: the prefix and 244 bits from the OS CSPRNG.
pub fn new_player_token() -> String {
    format!("{PLAYER_TOKEN_PREFIX}{}", db::token::new_token())
}

/// The token of the player created under `key` (see [`lobby_keys`]), or a fresh one.
fn creation_token(key: Option<&LobbyKey>) -> String {
    match key {
        Some(key) => format!("{PLAYER_TOKEN_PREFIX}{}", key.token(&[CREATE.as_bytes()])),
        None => new_player_token(),
    }
}

/// The operation a key of a player's creation is for.
const CREATE: &str = "POST /v1/players";

/// `POST /v1/players`, once per `key`: a retry with it gets the same player and token (the
/// token derived from the key again, never stored).
///
/// # Errors
/// 409 `name_taken`; 422 `idempotency_key_reused`; store errors.
pub fn create(
    conn: &mut PooledConn,
    cx: &Context,
    name: PlayerName,
    key: Option<LobbyKey>,
) -> Result<Answer<CreatedPlayer>, ApiError> {
    let work = |conn: &mut PgConnection| {
        let token = creation_token(key.as_ref());
        let player =
            store::create_player(conn, &name.display, &name.key, &token)?.ok_or_else(|| {
                ApiError::conflict(
                    "name_taken",
                    format!(
                        "the name {:?} is taken: names that differ only in capital letters, or in full-width letters, are the same name",
                        name.display
                    ),
                )
            })?;
        tracing::info!(player_id = %player.id, "player created");
        cx.known_tokens.learn(&token);
        Ok(CreatedPlayer {
            player_id: player.id,
            name: player.name,
            token,
            created_at: player.created_at,
        })
    };
    lobby_keys::once_if_keyed(
        conn,
        key.as_ref(),
        201,
        work,
        |created| created.token.clear(),
        |created| {
            created.token = creation_token(key.as_ref());
            cx.known_tokens.learn(&created.token);
        },
    )
}

/// `POST /v1/players/me/token`: a new token; the old one stops working at once, and the
/// player's open streams end (in every process). Once per `key`: a retry with the old token
/// and the key gets the same new token (derived from the key again, never stored), so an
/// answer lost on the way does not lose the player.
///
/// # Errors
/// 401; 409 `token_rotated_concurrently` when another rotation of the same token committed
/// first; 422 `idempotency_key_reused`; store errors.
pub fn rotate(
    conn: &mut PooledConn,
    cx: &Context,
    token: &SeatToken,
    key: Option<LobbyKey>,
) -> Result<Answer<RotatedToken>, ApiError> {
    let new_token = |key: Option<&LobbyKey>| match key {
        Some(key) => format!("{PLAYER_TOKEN_PREFIX}{}", key.token(&[ROTATE.as_bytes()])),
        None => new_player_token(),
    };
    let mut rotated = None;
    let work = |conn: &mut PgConnection| {
        let player = require_player(conn, cx, token)?;
        let new = new_token(key.as_ref());
        if !store::rotate_player_token(conn, player.id, token.as_str(), &new)? {
            return Err(ApiError::conflict(
                "token_rotated_concurrently",
                "another request rotated this token at the same moment; the token it \
                 answered is the player's now, and this one no longer works",
            ));
        }
        cx.known_tokens.learn(&new);
        rotated = Some(player.id);
        Ok(RotatedToken {
            player_id: player.id,
            token: new,
        })
    };
    let answer = lobby_keys::once_if_keyed(
        conn,
        key.as_ref(),
        200,
        work,
        |r| r.token.clear(),
        |r| {
            r.token = new_token(key.as_ref());
            cx.known_tokens.learn(&r.token);
        },
    )?;
    // Committed now: the old token's streams end.
    if let Some(player_id) = rotated {
        cx.changes.token_rotated(player_id);
        tracing::info!(%player_id, "player token rotated");
    }
    Ok(answer)
}

/// The operation a key of a token's rotation is for.
const ROTATE: &str = "POST /v1/players/me/token";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_compared_after_unicode_case_folding() {
        let key = |n: &str| parse_name(n).unwrap().key;
        assert_eq!(key("Anna"), key("ANNA"));
        assert_eq!(key("Straße"), key("STRASSE"));
        assert_eq!(key("ＡＮＮＡ"), key("anna"), "full-width letters fold too");
        assert_eq!(key("Ǆemal"), key("džemal"));
        assert_ne!(key("Anna"), key("Anne"));
        assert_eq!(parse_name("Zoë").unwrap().display, "Zoë");
        assert!(parse_name("José María").is_ok());
        assert!(parse_name("नमस्ते").is_ok(), "marks of any script");
    }

    #[test]
    fn bad_names_are_refused_with_the_reason() {
        for bad in [
            "A",
            "",
            "a name far longer than twenty-four",
            " Ann",
            "Ann ",
            "An  n",
            "Ann!",
            "An\u{200B}n",
            "An\nn",
            "-Ann",
        ] {
            let e = parse_name(bad).unwrap_err();
            assert_eq!(e.code, "invalid_player_name", "{bad:?}");
        }
    }

    #[test]
    fn player_tokens_are_told_apart_from_seat_tokens_by_form() {
        let t = new_player_token();
        assert!(t.starts_with(PLAYER_TOKEN_PREFIX));
        assert!(!db::token::new_token().starts_with(PLAYER_TOKEN_PREFIX));
    }
}
