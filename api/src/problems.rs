//! The pages the problem `type` URIs point to: `/problems/<code>` says what a code means,
//! which rule it stands for and what a client should do, and `/problems/` lists them all.
//! They are made from the same lists as the OpenAPI document's `Problem.code`
//! ([`crate::codes`] and every game's rejection codes), so no code goes without a page.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{guard, web, HttpRequest, HttpResponse, ResponseError, Route};

use crate::caching::{self, Audience, Lifetime};
use crate::codes::{API_CODES, ENGINE_CODES};
use crate::error::ApiError;

/// The paths served here, for the 404/405 fallback: the index at `/problems/` and at
/// `/problems` (a client may write either), and a page per code.
pub const PATHS: &[&str] = &["/problems/", "/problems", "/problems/{code}"];

/// Registers the pages.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(PATHS[0], get_or_head().to(index))
        .route(PATHS[1], get_or_head().to(index))
        .route(PATHS[2], get_or_head().to(page));
}

fn get_or_head() -> Route {
    web::route().guard(guard::Any(guard::Get()).or(guard::Head()))
}

/// What a client does about a code, where more can be said than its status says.
const ADVICE: &[(&str, &str)] = &[
    ("malformed_json", "Send a JSON document; the detail names where parsing stopped."),
    ("invalid_body", "Send the body the OpenAPI document describes: no unknown field, no duplicate key, objects where objects belong."),
    ("invalid_action", "Send one of the game's actions as `legal-actions` lists them, or a template filled from its domains."),
    ("invalid_query", "Send only the query parameters the operation documents, within their ranges; the detail names the parameter."),
    ("invalid_cursor", "Pass back a `next_cursor` exactly as a listing gave it."),
    ("invalid_id", "Use a game id from `POST /v1/games` or a listing."),
    ("invalid_seq", "Use a seq from the game's log; resume a stream after an id it sent."),
    ("invalid_idempotency_key", "Send 1 to 255 visible ASCII characters; a key that creates a game, a seat, a player or a seek needs at least 16 (use a UUID)."),
    ("conflicting_versions", "Send `expected_version` or `If-Match`, or both naming the same version."),
    ("invalid_clock", "Give every clock time in whole seconds from 1 to 2,592,000 (30 days); only an increment may be 0. See docs/clocks.md."),
    ("invalid_seat_number", "Put a seat number of the game (from 0) in the path."),
    ("token_in_query", "Send the token as `Authorization: Bearer <token>` only, and rotate a player token that went into a URL (`POST /v1/players/me/token`)."),
    ("not_a_player_token", "Use the token from `POST /v1/players` (it starts with `pl_`); a seat token acts for its seat only."),
    ("not_seated", "Take a seat of the game with the player token first (`POST /v1/games/{id}/seats` with `{}`), or use the seat's own token."),
    ("already_seated", "A player holds one seat per game: act for the seat it holds (`GET /v1/players/me/games`)."),
    ("name_taken", "Choose another name; names are compared after Unicode case folding. A retry of your own creation gets its answer again with the same `Idempotency-Key`."),
    ("rated_game_with_bots", "Leave the seats open for players, or make the game unrated (`rated: false`)."),
    ("rated_game_needs_players", "Take your seat with `{\"me\": true}` and a player token, and leave the others open for players to join."),
    ("seek_not_waiting", "Read the seek (`GET /v1/seeks/{id}`): a matched seek names its game."),
    ("token_rotated_concurrently", "Two rotations of one token raced and the other won: use the token it answered. Send an `Idempotency-Key` with a rotation so that a retry gets the same new token."),
    ("missing_token", "Send the seat's token as `Authorization: Bearer <token>`."),
    ("invalid_token", "Send the token a seat was given, as `Authorization: Bearer <token>` (the scheme in any case, one or more spaces, the token)."),
    ("token_for_other_game", "Use the token of a seat of this game; each seat's token works for its own game only."),
    ("not_your_seat", "Resign or reclaim a seat with that seat's own token; another seat's token of the same game does not do."),
    ("game_not_found", "Check the id; games are never deleted, so an unknown id was never created here."),
    ("no_such_state", "Ask for a seq from 1 to the game's version."),
    ("version_conflict", "Read the game again (`current_version` is its version now), decide again, and retry with that version."),
    ("idempotency_key_in_flight", "Wait a moment and retry with the same key: the first request is still running."),
    ("game_already_started", "The game no longer takes seats: create or join another."),
    ("game_not_started", "Wait until every seat is taken, or start the game with `POST …/start`."),
    ("game_over", "The game has ended; read its outcome and log."),
    ("seat_taken", "Ask for another seat, or leave `seat` out to take the lowest open one."),
    ("no_open_seat", "The table is full: create or join another game."),
    ("too_few_seats", "Wait for more players to join before starting."),
    ("seat_resigned", "The seat has left the game for good; nothing more can be done with its token but reading."),
    ("seat_taken_over", "The server's bot plays the seat since its clock ran out: `POST …/seats/{seat}/reclaim` with its token, then act."),
    ("seat_not_taken_over", "Nothing to reclaim: the seat is its player's already. A retried reclaim that answers this has succeeded before."),
    ("too_late_to_abort", "A seat has moved already, so the game can no longer be aborted; resign the seat instead."),
    ("bot_game_limit", "Try again when one of the server's games of bots has finished, or take a seat yourself."),
    ("precondition_failed", "Read the game again (`current_version` is its version now) and retry with its ETag."),
    ("body_too_large", "Send a body under 64 KiB."),
    ("unsupported_media_type", "Send `Content-Type: application/json`."),
    ("unknown_game_type", "Use a type from `GET /v1/game-types`."),
    ("invalid_seat_count", "Give as many seats as the type's `min_seats` to `max_seats` (see `GET /v1/game-types`)."),
    ("invalid_seat", "Describe each seat as `{\"name\": ...}`, `{\"open\": true}` or `{\"bot\": ...}`."),
    ("invalid_entropy", "Send at most 128 bytes of entropy without control characters, e.g. 32 random hex digits."),
    ("seeded_rated_game", "Leave out `seed` for a rated game, or make the game unrated."),
    ("invalid_record", "Fix the record at `record.move_index` (see `record.reason` and `record.rule`), or check it offline first with `verify-record`."),
    ("record_not_public", "Ask with the token of one of the game's seats, or wait until the game is over."),
    ("invalid_name", "Use 1 to 64 characters without control characters."),
    ("invalid_config", "Send a config the type's `config_schema` accepts; the detail says which option."),
    ("no_such_seat", "Ask for a seat number of the game (from 0)."),
    ("idempotency_key_reused", "Use a new key for a new request; a key stands for one request."),
    ("rate_limited", "Wait `Retry-After` seconds; the `RateLimit-*` headers of every response show the budget."),
    ("internal", "Retry later; the fault is the server's and has been logged."),
    ("unavailable", "Retry after `Retry-After` seconds."),
    ("not_your_turn", "Wait until the game lists your seat in `active_seats` (or lists a standing action for it)."),
];

/// One code's page content.
struct Entry {
    code: String,
    /// The status and what the code means.
    meaning: String,
    /// Where the rule is written, for a game's code.
    rule: String,
    advice: String,
}

fn entries() -> &'static BTreeMap<String, Entry> {
    static ENTRIES: OnceLock<BTreeMap<String, Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        let advice = |code: &str| {
            ADVICE
                .iter()
                .find(|(c, _)| *c == code)
                .map(|(_, a)| a.to_string())
        };
        let mut out = BTreeMap::new();
        for (code, meaning) in API_CODES {
            out.insert(
                code.to_string(),
                Entry {
                    code: code.to_string(),
                    meaning: meaning.to_string(),
                    rule: "A rule of the API (see the OpenAPI document, `/docs/`).".into(),
                    advice: advice(code).unwrap_or_else(|| by_status(meaning)),
                },
            );
        }
        for code in ENGINE_CODES {
            out.entry(code.to_string()).or_insert_with(|| Entry {
                code: code.to_string(),
                meaning: "422, every game's rules refuse the action".into(),
                rule: "Each game's spec; the problem's `detail` names the rule ID.".into(),
                advice: advice(code).unwrap_or_else(|| by_status("422")),
            });
        }
        for game in engine::registry::all() {
            let info = game.info();
            for code in info.error_codes {
                let reason = code.split_once('.').map_or(*code, |(_, r)| r);
                out.insert(
                    code.to_string(),
                    Entry {
                        code: code.to_string(),
                        meaning: format!(
                            "422, a rule of {} refuses the action: {}",
                            info.title,
                            reason.replace('_', " ")
                        ),
                        rule: format!(
                            "The rules of {} (`engine/rules/{}.md`); the problem's `detail` \
                             names the rule ID (such as `TY-FLY-1`).",
                            info.title, info.name
                        ),
                        advice: "Choose another action: the game's legal actions at the \
                                 current version are all accepted."
                            .into(),
                    },
                );
            }
        }
        out
    })
}

/// Advice by the status a meaning starts with.
fn by_status(meaning: &str) -> String {
    let advice = match meaning.get(..1) {
        Some("4") if meaning.starts_with("429") => "Wait and retry.",
        Some("4") => "Change the request as the detail says; the same request fails again.",
        Some("5") => "Retry later.",
        _ => "See the detail.",
    };
    advice.to_string()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `code`-spans for backticked text, the rest escaped.
fn inline(text: &str) -> String {
    escape(text)
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{part}</code>")
            } else {
                part.to_string()
            }
        })
        .collect()
}

fn html(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{}</title></head><body>\n{body}\n</body></html>\n",
        escape(title)
    )
}

fn respond(req: &HttpRequest, body: String) -> HttpResponse {
    let etag = caching::content_tag("problems", body.as_bytes());
    let fresh = caching::not_modified(req.headers(), &etag);
    let mut res = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    caching::mark(&mut res, &etag, Audience::Public, Lifetime::Release);
    if fresh {
        return res.finish();
    }
    res.insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .body(body)
}

async fn index(req: HttpRequest) -> HttpResponse {
    let items: String = entries()
        .values()
        .map(|e| {
            format!(
                "<li><a href=\"/problems/{0}\"><code>{0}</code></a>: {1}</li>\n",
                escape(&e.code),
                inline(&e.meaning)
            )
        })
        .collect();
    let body = format!(
        "<h1>Problem codes</h1>\n<p>Every error is <code>application/problem+json</code> \
         (RFC 9457) with a stable <code>code</code>; its <code>type</code> is the page of \
         that code.</p>\n<ul>\n{items}</ul>"
    );
    respond(&req, html("Problem codes", &body))
}

async fn page(req: HttpRequest, code: web::Path<String>) -> HttpResponse {
    let Some(entry) = entries().get(code.as_str()) else {
        return ApiError::not_found("not_found", "no problem code of that name; see /problems/")
            .error_response();
    };
    let body = format!(
        "<h1><code>{code}</code></h1>\n<dl>\n<dt>What it means</dt><dd>{meaning}</dd>\n\
         <dt>Which rule</dt><dd>{rule}</dd>\n<dt>What to do</dt><dd>{advice}</dd>\n</dl>\n\
         <p><a href=\"/problems/\">All problem codes</a></p>",
        code = escape(&entry.code),
        meaning = inline(&entry.meaning),
        rule = inline(&entry.rule),
        advice = inline(&entry.advice),
    );
    respond(&req, html(&format!("Problem {}", entry.code), &body))
}

/// Every code with a page (for tests and the document's list).
pub fn codes() -> Vec<String> {
    entries().keys().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_code_has_a_page_and_all_advice_is_for_a_listed_code() {
        let codes = codes();
        for (code, _) in API_CODES {
            assert!(codes.iter().any(|c| c == code), "{code}");
        }
        assert!(codes.iter().any(|c| c == "tycoon.ticket_not_in_hand"));
        for (code, _) in ADVICE {
            assert!(
                codes.iter().any(|c| c == code),
                "advice for unlisted {code}"
            );
        }
        assert_eq!(inline("a `b` <c>"), "a <code>b</code> &lt;c&gt;");
    }
}
