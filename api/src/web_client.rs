//! The web client: its pages and assets, compiled into the binary (no CDN, no network, no Node
//! toolchain at run time).
//!
//! The client itself lives in `web/static/` (plain ES modules, see `docs/web-client.md`) and talks
//! to the server only through the public HTTP API, like any third-party client. This module
//! only serves files:
//!
//! - `GET /` (the lobby) and `GET /games/{id}` (play, spectate, replay): one HTML file each,
//!   with `Cache-Control: no-cache` and an `ETag`, so a browser revalidates them and picks up a
//!   new build at once; the players' pages (`/me`, `/players/{id}`, `/leaderboards` and
//!   `/leaderboards/{type}`, see `docs/players.md`) share one more, which picks its view, and
//!   the tournament pages (`/tournaments`, `/tournaments/{id}`) one more;
//! - `GET /assets/{version}/{path}`: scripts, styles, and each game's data file under
//!   `data/{type}.json`. `version` is a hash over all of them, so a new build changes every
//!   asset URL and the current ones can be cached for a year (`immutable`); a board drawn on
//!   a map also has its layout file (where its cities or grid lie) under
//!   `data/{type}-layout.json`. A page of an older
//!   build asking with an old version still gets the files, uncached;
//! - `GET /favicon.ico`, for browsers that ask there (the pages name `favicon.svg`).
//!
//! Responses are compressed as the browser asks (`Compress` in [`crate::Application`]).
//!
//! ```no_run
//! # async fn demo(base: &str) -> reqwest::Result<()> {
//! let lobby = reqwest::get(format!("{base}/")).await?.text().await?;
//! assert!(lobby.contains("/assets/"));
//! # Ok(()) }
//! ```

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{guard, web, HttpRequest, HttpResponse, ResponseError, Route};

use crate::error::ApiError;

/// The client's files, from `web/static/`.
#[derive(rust_embed::Embed)]
#[folder = "../web/static/"]
struct Static;

/// Each hosted game's data file as the engine reads it: the printed board (city positions,
/// tickets, track payouts, grid size, chain names) that a client draws but a game's view does
/// not repeat. Served as `data/{type}.json`; a new game adds one line.
const GAME_DATA: &[(&str, &str)] = &[
    (
        "tycoon",
        include_str!("../../engine/rules/tycoon-board.json"),
    ),
    (
        "acquire",
        include_str!("../../engine/rules/acquire-data.json"),
    ),
    (
        "monopoly",
        include_str!("../../engine/rules/monopoly-board.json"),
    ),
    ("tyros", include_str!("../../engine/rules/tyros-map.json")),
];

/// The layout of each board drawn on a map: where Tycoon's cities and Tyros's grid lie on the
/// world, for the client's drawing only (the engine never reads these). Served as
/// `data/{type}-layout.json`, beside the game's data file.
const BOARD_LAYOUTS: &[(&str, &str)] = &[
    (
        "tycoon",
        include_str!("../../engine/rules/tycoon-layout.json"),
    ),
    (
        "tyros",
        include_str!("../../engine/rules/tyros-layout.json"),
    ),
];

/// The paths served here, for the 404/405 fallback (`routes::not_found`).
pub const PATHS: &[&str] = &[
    "/",
    "/games/{id}",
    "/assets/{version}/{path:.*}",
    "/favicon.ico",
    "/me",
    "/players/{id}",
    "/leaderboards",
    "/leaderboards/{type}",
    "/import",
    "/tournaments",
    "/tournaments/{id}",
];

/// Registers the pages and assets.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(PATHS[0], get_or_head().to(lobby))
        .route(PATHS[1], get_or_head().to(game))
        .route(PATHS[2], get_or_head().to(asset))
        .route(PATHS[3], get_or_head().to(favicon));
    for path in &PATHS[4..] {
        if path.starts_with("/tournaments") {
            cfg.route(path, get_or_head().to(tournaments));
        } else {
            cfg.route(path, get_or_head().to(players));
        }
    }
}

fn get_or_head() -> Route {
    web::route().guard(guard::Any(guard::Get()).or(guard::Head()))
}

async fn lobby(req: HttpRequest) -> HttpResponse {
    static PAGE: OnceLock<String> = OnceLock::new();
    page(&req, PAGE.get_or_init(|| render_page("index.html")))
}

async fn game(req: HttpRequest) -> HttpResponse {
    static PAGE: OnceLock<String> = OnceLock::new();
    page(&req, PAGE.get_or_init(|| render_page("game.html")))
}

/// The players' pages: sign up, your games and play (`/me`), profiles, leaderboards, import.
async fn players(req: HttpRequest) -> HttpResponse {
    static PAGE: OnceLock<String> = OnceLock::new();
    page(&req, PAGE.get_or_init(|| render_page("players.html")))
}

/// The tournament pages: the list and the form that organises one, and one tournament.
async fn tournaments(req: HttpRequest) -> HttpResponse {
    static PAGE: OnceLock<String> = OnceLock::new();
    page(&req, PAGE.get_or_init(|| render_page("tournaments.html")))
}

/// An HTML page with `{{assets}}` replaced by the versioned asset path.
fn render_page(name: &str) -> String {
    let file = Static::get(name).unwrap_or_else(|| panic!("web/static/{name} is embedded"));
    String::from_utf8_lossy(&file.data).replace("{{assets}}", &format!("/assets/{}", version()))
}

/// The pages' policy: scripts, styles and requests from this origin only; the seat token in a
/// shared link's fragment never leaves the browser, not even in a `Referer`.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; \
     frame-ancestors 'none'; form-action 'self'";

fn page(req: &HttpRequest, html: &'static str) -> HttpResponse {
    let etag = format!("\"page-{}\"", version());
    if if_none_match(req, &etag) {
        return HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .finish();
    }
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::ETAG, etag))
        .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(html)
}

async fn asset(req: HttpRequest, path: web::Path<(String, String)>) -> HttpResponse {
    let (asked_version, path) = path.into_inner();
    let Some(body) = lookup(&path) else {
        return ApiError::not_found("not_found", "no such asset").error_response();
    };
    let current = asked_version == version();
    let etag = format!("\"{}-{}\"", version(), short_hash(&[&body]));
    if if_none_match(&req, &etag) {
        return HttpResponse::NotModified()
            .insert_header((header::ETAG, etag))
            .finish();
    }
    let cache = if current {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    HttpResponse::Ok()
        .content_type(content_type(&path))
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header((header::ETAG, etag))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(body)
}

/// The icon at the address browsers try by default; cached for a day (it has no versioned
/// path of its own).
async fn favicon() -> HttpResponse {
    let icon = Static::get("favicon.ico").expect("web/static/favicon.ico is embedded");
    HttpResponse::Ok()
        .content_type("image/x-icon")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(icon.data.into_owned())
}

/// The bytes served at `path` below the asset root.
fn lookup(path: &str) -> Option<Vec<u8>> {
    if let Some(name) = path
        .strip_prefix("data/")
        .and_then(|p| p.strip_suffix(".json"))
    {
        let (table, game) = match name.strip_suffix("-layout") {
            Some(game) => (BOARD_LAYOUTS, game),
            None => (GAME_DATA, name),
        };
        return table
            .iter()
            .find(|(name, _)| *name == game)
            .map(|(_, json)| json.as_bytes().to_vec());
    }
    Static::get(path).map(|f| f.data.into_owned())
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "html" => "text/html; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

fn if_none_match(req: &HttpRequest, etag: &str) -> bool {
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v: &HeaderValue| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
}

/// A hash over every served file: changes whenever any of them does.
pub fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let mut names: Vec<_> = Static::iter().collect();
        names.sort();
        let files: Vec<Vec<u8>> = names
            .iter()
            .filter_map(|n| Static::get(n).map(|f| [n.as_bytes(), &f.data].concat()))
            .chain(
                GAME_DATA
                    .iter()
                    .chain(BOARD_LAYOUTS)
                    .map(|(n, d)| [n.as_bytes(), d.as_bytes()].concat()),
            )
            .collect();
        let parts: Vec<&[u8]> = files.iter().map(Vec::as_slice).collect();
        short_hash(&parts)
    })
}

/// 64 bits of SipHash as hex: enough to tell builds and files apart (not a security property).
fn short_hash(parts: &[&[u8]]) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for p in parts {
        p.hash(&mut h);
    }
    format!("{:016x}", h.finish())
}
