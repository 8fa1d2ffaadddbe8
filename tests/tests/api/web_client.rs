//! The web client as the server serves it (pages, assets, cache headers, the 404/405
//! fallback), and its source checked against the committed OpenAPI document: the generated
//! types are current and `tsc` accepts every module. The browser tests are in `browser/`.
//!
//! The type checks run Node tools from `web/node_modules` (`npm ci --prefix web`; `.ci/run`
//! does it). Running the server needs none of this: the client has no build step.

use std::path::{Path, PathBuf};
use std::process::Command;

use reqwest::{Method, StatusCode};

use crate::helpers::{assert_problem, spawn_app};

fn web_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../web")
}

/// A tool from `web/node_modules/.bin`, or a panic that says how to install it.
fn node_tool(name: &str) -> Command {
    let bin = web_dir().join("node_modules/.bin").join(name);
    assert!(
        bin.exists(),
        "{} is missing: run `npm ci --prefix web` (needs Node.js and npm; .ci/run does this)",
        bin.display()
    );
    let mut cmd = Command::new(bin);
    cmd.current_dir(web_dir());
    cmd
}

#[test]
fn the_committed_client_types_are_generated_from_the_committed_openapi_json() {
    let out = node_tool("openapi-typescript")
        .arg("../openapi/openapi.json")
        .output()
        .expect("run openapi-typescript");
    assert!(
        out.status.success(),
        "openapi-typescript failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let generated = String::from_utf8(out.stdout).unwrap();
    let committed = std::fs::read_to_string(web_dir().join("types/api.d.ts")).unwrap();
    assert!(
        generated == committed,
        "web/types/api.d.ts is stale: run `npm run --prefix web types` and type-check the client"
    );
}

#[test]
fn the_client_type_checks_against_the_api_types() {
    let out = node_tool("tsc")
        .args(["--project", "tsconfig.json"])
        .output()
        .expect("run tsc");
    assert!(
        out.status.success(),
        "tsc found errors in the web client:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_and_assets_are_served_with_cache_headers() {
    let app = spawn_app().await;
    let res = app.req(Method::GET, "/", None).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let headers = res.headers().clone();
    assert_eq!(headers["cache-control"], "no-cache");
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert!(headers["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("script-src 'self'"));
    let etag = headers["etag"].to_str().unwrap().to_string();
    let html = res.text().await.unwrap();
    let script = html
        .split('"')
        .find(|s| s.starts_with("/assets/") && s.ends_with("/src/lobby.js"))
        .expect("the lobby loads its script from a versioned path")
        .to_string();

    let again = app
        .req(Method::GET, "/", None)
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);

    let game = app
        .req(Method::GET, "/games/anything", None)
        .send()
        .await
        .unwrap();
    assert_eq!(game.status(), StatusCode::OK);
    assert!(game.text().await.unwrap().contains("/src/game.js"));

    // The players' pages: one page that picks its view from the address.
    for path in [
        "/me",
        "/players/anyone",
        "/leaderboards",
        "/leaderboards/tycoon",
    ] {
        let page = app.req(Method::GET, path, None).send().await.unwrap();
        assert_eq!(page.status(), StatusCode::OK, "{path}");
        assert_eq!(page.headers()["cache-control"], "no-cache", "{path}");
        assert!(
            page.text().await.unwrap().contains("/src/players/page.js"),
            "{path}"
        );
    }

    let js = app.req(Method::GET, &script, None).send().await.unwrap();
    assert_eq!(js.status(), StatusCode::OK);
    assert_eq!(
        js.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(js.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));

    // A page of an older build still gets the files, but not for a year.
    let old = app
        .req(Method::GET, "/assets/0000000000000000/src/lobby.js", None)
        .send()
        .await
        .unwrap();
    assert_eq!(old.status(), StatusCode::OK);
    assert_eq!(old.headers()["cache-control"], "no-cache");

    // Every hosted game's board data is served: a board module draws from it.
    let version = script.split('/').nth(2).unwrap();
    let (_, types) = app.get_json("/v1/game-types", None).await;
    let games: Vec<&str> = types["game_types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["type"].as_str().unwrap())
        .collect();
    assert!(games.len() >= 4, "{types}");
    for game in games {
        let (status, data) = app
            .get_json(&format!("/assets/{version}/data/{game}.json"), None)
            .await;
        assert_eq!(status, StatusCode::OK, "no data file for {game}");
        assert_eq!(data["game"], game);
    }
    // The boards drawn on a map have their layout file beside it (issue 38); the others none.
    for game in ["tycoon", "tyros"] {
        let (status, layout) = app
            .get_json(&format!("/assets/{version}/data/{game}-layout.json"), None)
            .await;
        assert_eq!(status, StatusCode::OK, "no layout file for {game}");
        assert_eq!(layout["game"], game);
        assert!(layout["map"]["west"].is_number(), "{layout}");
    }
    let none = app
        .req(
            Method::GET,
            &format!("/assets/{version}/data/acquire-layout.json"),
            None,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(none.status(), StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_assets_are_404_and_other_methods_on_pages_are_405() {
    let app = spawn_app().await;
    let missing = app
        .req(Method::GET, "/assets/0/src/nothing.js", None)
        .send()
        .await
        .unwrap();
    assert_problem(missing, StatusCode::NOT_FOUND, "not_found").await;
    let data = app
        .req(Method::GET, "/assets/0/data/chess.json", None)
        .send()
        .await
        .unwrap();
    assert_problem(data, StatusCode::NOT_FOUND, "not_found").await;
    for path in ["/", "/games/x", "/me", "/assets/0/style.css"] {
        let res = app.req(Method::POST, path, None).send().await.unwrap();
        assert_eq!(res.headers()["allow"], "GET, HEAD", "{path}");
        assert_problem(res, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed").await;
    }
    let head = app.req(Method::HEAD, "/", None).send().await.unwrap();
    assert_eq!(head.status(), StatusCode::OK);
}

/// Pages, assets and API answers are compressed when the browser asks (gzip, Brotli), and sent
/// as they are when it does not; the answer says it varies by `Accept-Encoding`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn responses_are_compressed_when_the_client_asks_for_it() {
    let app = spawn_app().await;
    let html = app.req(Method::GET, "/", None).send().await.unwrap();
    let script = html
        .text()
        .await
        .unwrap()
        .split('"')
        .find(|s| s.starts_with("/assets/") && s.ends_with("/src/lobby.js"))
        .expect("the lobby loads its script")
        .to_string();
    // gzip starts with its magic bytes; Brotli has none, the header must do.
    for (path, encoding, magic) in [
        (script.as_str(), "gzip", &[0x1f_u8, 0x8b][..]),
        ("/v1/game-types", "gzip", &[0x1f, 0x8b][..]),
        ("/", "br", &[][..]),
    ] {
        let res = app
            .req(Method::GET, path, None)
            .header("Accept-Encoding", encoding)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_eq!(res.headers()["content-encoding"], encoding, "{path}");
        // Several `Vary` lines make one list (RFC 9110 §5.3): caching adds `Authorization`,
        // CORS `Origin`, compression `Accept-Encoding`.
        let vary: Vec<String> = res
            .headers()
            .get_all("vary")
            .iter()
            .map(|v| v.to_str().unwrap().to_ascii_lowercase())
            .collect();
        assert!(
            vary.iter().any(|v| v.contains("accept-encoding")),
            "{path}: {vary:?}"
        );
        let body = res.bytes().await.unwrap();
        assert!(body.starts_with(magic), "{path}: not {encoding}");
    }
    let plain = app.req(Method::GET, &script, None).send().await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    assert!(plain.text().await.unwrap().contains("import"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_favicon_is_served_where_browsers_look_for_it() {
    let app = spawn_app().await;
    let res = app
        .req(Method::GET, "/favicon.ico", None)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "image/x-icon");
    let icon = res.bytes().await.unwrap();
    assert!(icon.starts_with(&[0, 0, 1, 0]), "not an ICO file");
    let post = app
        .req(Method::POST, "/favicon.ico", None)
        .send()
        .await
        .unwrap();
    assert_problem(post, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed").await;
}

/// The catalogue's config schemas are worded for players: a label and help per option, named
/// choices, and the developer's notes (rule IDs) kept apart in `$comment`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_catalogue_words_every_option_for_players() {
    let app = spawn_app().await;
    let (_, types) = app.get_json("/v1/game-types", None).await;
    let monopoly = types["game_types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["type"] == "monopoly")
        .unwrap();
    let round_limit = &monopoly["config_schema"]["properties"]["round_limit"];
    assert_eq!(round_limit["title"], "Round limit");
    assert!(!round_limit["description"]
        .as_str()
        .unwrap()
        .contains("MO-END"));
    assert!(round_limit["$comment"]
        .as_str()
        .unwrap()
        .contains("MO-END-2"));
    assert_eq!(
        monopoly["config_schema"]["properties"]["players"]["x-lobby"],
        "hidden"
    );
    let tycoon = &types["game_types"][0];
    assert_eq!(tycoon["type"], "tycoon");
    let modes = &tycoon["config_schema"]["$defs"]["TycoonStepMode"]["oneOf"];
    assert_eq!(modes[0]["const"], "exact");
    assert_eq!(modes[0]["title"], "Exactly the printed steps");
    for t in types["game_types"].as_array().unwrap() {
        assert!(
            !t["title"].as_str().unwrap().contains("hall9000"),
            "{}",
            t["title"]
        );
    }
}

/// The client's words: one catalogue per language (`web/static/src/i18n/{en,de,fr}.js`), each
/// with exactly the keys of the English one (no missing word falls back to English unnoticed,
/// no stale key lingers), the same `{placeholders}` in every language for a key, and no empty
/// text. Run with Node (the catalogues are plain ES modules; `tsc` also checks the keys).
#[test]
fn every_language_catalogue_has_exactly_the_english_keys_and_placeholders() {
    let script = r#"
        const langs = ['en', 'de', 'fr'];
        const all = {};
        for (const l of langs) all[l] = (await import(`./static/src/i18n/${l}.js`)).default;
        const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
        const problems = [];
        const keys = Object.keys(all.en);
        for (const l of langs) {
          const own = Object.keys(all[l]);
          for (const k of keys) if (!(k in all[l])) problems.push(`${l}: missing ${k}`);
          for (const k of own) if (!(k in all.en)) problems.push(`${l}: extra ${k}`);
          for (const k of own) {
            if (typeof all[l][k] !== 'string' || all[l][k].trim() === '') problems.push(`${l}: ${k} is empty`);
            else if (k in all.en && holes(all[l][k]) !== holes(all.en[k])) problems.push(`${l}: ${k} has {${holes(all[l][k])}}, English {${holes(all.en[k])}}`);
          }
        }
        for (const k of keys) {
          const stem = k.replace(/\.(one|other)$/, '');
          if (stem !== k && !(`${stem}.one` in all.en && `${stem}.other` in all.en)) problems.push(`en: ${stem} lacks .one or .other`);
        }
        console.log(JSON.stringify({ keys: keys.length, problems }));
    "#;
    let out = Command::new("node")
        .args(["--input-type=module", "-e", script])
        .current_dir(web_dir())
        .output()
        .expect("run node (needed for the web client's checks)");
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("node's report");
    assert!(
        report["keys"].as_u64().unwrap() > 100,
        "the English catalogue is nearly empty: {report}"
    );
    assert_eq!(
        report["problems"],
        serde_json::json!([]),
        "the language catalogues disagree"
    );
}

/// The layout files agree with the board data they draw (issue 38): every Tycoon city has a
/// place on the world inside the map's frame (and no place names a city the board lacks), and
/// every Tyros landmark names a cell of the grid and lies in that cell's rectangle of the
/// frame, so that a better reconstruction of either board cannot leave the map behind unseen.
#[test]
fn the_layout_files_place_every_city_and_cell_of_the_board_data() {
    let read = |name: &str| -> serde_json::Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../engine/rules/{name}"));
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let frame = |layout: &serde_json::Value| {
        let f = |k: &str| layout["map"][k].as_f64().unwrap();
        (f("west"), f("east"), f("north"), f("south"))
    };

    let board = read("tycoon-board.json");
    let layout = read("tycoon-layout.json");
    let (west, east, north, south) = frame(&layout);
    let cities = board["cities"].as_array().unwrap();
    for city in cities {
        let id = city["id"].as_str().unwrap();
        let at = &layout["cities"][id];
        let (lon, lat) = (at["lon"].as_f64(), at["lat"].as_f64());
        let (Some(lon), Some(lat)) = (lon, lat) else {
            panic!("tycoon-layout.json has no place for {id}");
        };
        assert!(
            (west..=east).contains(&lon) && (south..=north).contains(&lat),
            "{id} ({lon}, {lat}) lies outside the map's frame"
        );
    }
    assert_eq!(
        layout["cities"].as_object().unwrap().len(),
        cities.len(),
        "tycoon-layout.json places a city the board does not have"
    );

    let map = read("tyros-map.json");
    let layout = read("tyros-layout.json");
    let (west, east, north, south) = frame(&layout);
    let rows = map["grid"]["cells"].as_array().unwrap();
    for (id, place) in layout["landmarks"].as_object().unwrap() {
        let (lon, lat) = (
            place["lon"].as_f64().unwrap(),
            place["lat"].as_f64().unwrap(),
        );
        let (r, c) = rows
            .iter()
            .enumerate()
            .find_map(|(r, row)| {
                let c = row.as_array()?.iter().position(|cell| cell == id)?;
                Some((r as f64, c as f64))
            })
            .unwrap_or_else(|| panic!("landmark {id} names no cell of the grid"));
        let (n_rows, n_cols) = (rows.len() as f64, rows[0].as_array().unwrap().len() as f64);
        let col_of = (lon - west) / (east - west) * n_cols;
        let row_of = (north - lat) / (north - south) * n_rows;
        assert!(
            (c..c + 1.0).contains(&col_of) && (r..r + 1.0).contains(&row_of),
            "{id} ({lon}, {lat}) falls in row {row_of:.2}, column {col_of:.2}, not in its cell"
        );
    }
}
