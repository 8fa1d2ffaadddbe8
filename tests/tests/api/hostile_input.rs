//! Hostile input: oversized and deeply nested JSON, invalid UTF-8, out-of-range numbers, unknown
//! fields, SQL metacharacters in every string field, ids that are no UUIDs, wrong methods.
//! Every one gets a 4xx problem+json (never a 500), and no game changes.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use reqwest::header::{HeaderValue, AUTHORIZATION};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, json_of, spawn_app, Game, TestApp};

#[derive(QueryableByName, Debug, PartialEq, Eq)]
struct GameState {
    #[diesel(sql_type = Text)]
    id: String,
    #[diesel(sql_type = BigInt)]
    version: i64,
    #[diesel(sql_type = BigInt)]
    events: i64,
    #[diesel(sql_type = Text)]
    snapshot: String,
}

/// Every game's id, version, event count and snapshot, by SQL.
fn all_games(app: &TestApp) -> Vec<GameState> {
    diesel::sql_query(
        "SELECT g.id::text AS id, g.version, \
                (SELECT count(*) FROM game_events e WHERE e.game_id = g.id) AS events, \
                coalesce(g.snapshot::text, '') AS snapshot \
         FROM games g ORDER BY g.id",
    )
    .load(&mut app.db.conn())
    .unwrap()
}

const SQL: [&str; 5] = [
    "'; DROP TABLE games; --",
    "\" OR \"1\"=\"1",
    "' OR '1'='1",
    "1; DELETE FROM game_events",
    "$$; TRUNCATE seats; $$",
];

struct Case {
    method: Method,
    path: String,
    token: Option<String>,
    content_type: &'static str,
    body: Vec<u8>,
    status: StatusCode,
    code: &'static str,
}

fn case(
    method: Method,
    path: String,
    body: impl Into<Vec<u8>>,
    status: u16,
    code: &'static str,
) -> Case {
    Case {
        method,
        path,
        token: None,
        content_type: "application/json",
        body: body.into(),
        status: StatusCode::from_u16(status).unwrap(),
        code,
    }
}

fn with_token(mut c: Case, token: &str) -> Case {
    c.token = Some(token.to_string());
    c
}

async fn run(app: &TestApp, cases: Vec<Case>) {
    for c in cases {
        let mut r = app
            .req(c.method.clone(), &c.path, c.token.as_deref())
            .header("content-type", c.content_type);
        if !c.body.is_empty() {
            r = r.body(c.body.clone());
        }
        let res = r.send().await.unwrap();
        let what = format!(
            "{} {} {}",
            c.method,
            c.path,
            String::from_utf8_lossy(&c.body[..c.body.len().min(120)])
        );
        assert!(
            res.status().is_client_error(),
            "{what}: {} is no 4xx",
            res.status()
        );
        let (status, ct) = (
            res.status(),
            res.headers()
                .get("content-type")
                .map(|v| v.to_str().unwrap().to_string()),
        );
        if status != c.status || ct.as_deref() != Some("application/problem+json") {
            let (_, body) = json_of(res).await;
            panic!(
                "{what}: got {status} {ct:?} {body}, wanted {} {}",
                c.status, c.code
            );
        }
        assert_problem(res, c.status, c.code).await;
    }
}

async fn setup(app: &TestApp) -> (Game, Game) {
    let game = app.create_game(2, 31).await;
    // Move the game on a little so that it has a real history.
    let mut rng: rand_chacha::ChaCha8Rng = rand::SeedableRng::seed_from_u64(4);
    for _ in 0..5 {
        app.play_one(&game, &mut rng).await;
    }
    let other = app.create_game(3, 32).await;
    (game, other)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_bodies_get_4xx_problem_json_and_change_no_game() {
    let app = spawn_app().await;
    let (game, other) = setup(&app).await;
    let before = all_games(&app);
    let id = &game.id;
    let token = game.tokens[0].clone();
    let actions = format!("/v1/games/{id}/actions");
    let seats = format!("/v1/games/{id}/seats");

    let big = format!(
        "{{\"action\": {{\"type\": \"{}\"}}}}",
        "x".repeat(200 * 1024)
    );
    let deep = format!("{}{}", "[".repeat(30_000), "]".repeat(30_000));
    let deep_action = format!(
        "{{\"action\": {}{}}}",
        "{\"a\":".repeat(5_000),
        "1}".repeat(5_000)
    );
    let mut cases = vec![
        // Oversized: every body-taking route.
        case(Method::POST, "/v1/games".into(), big.clone(), 413, "body_too_large"),
        case(Method::POST, seats.clone(), big.clone(), 413, "body_too_large"),
        with_token(case(Method::POST, actions.clone(), big, 413, "body_too_large"), &token),
        // Deeply nested: serde_json's recursion limit refuses it before any handler runs.
        case(Method::POST, "/v1/games".into(), deep.clone(), 400, "malformed_json"),
        with_token(case(Method::POST, actions.clone(), deep, 400, "malformed_json"), &token),
        with_token(case(Method::POST, actions.clone(), deep_action, 400, "malformed_json"), &token),
        // Invalid UTF-8, inside a string and as bare bytes.
        case(Method::POST, "/v1/games".into(), b"{\"type\": \"tyc\xff\xfeoon\", \"seats\": []}".to_vec(), 400, "malformed_json"),
        with_token(case(Method::POST, actions.clone(), b"{\"action\": {\"type\": \"\xc3\x28\"}}".to_vec(), 400, "malformed_json"), &token),
        case(Method::POST, seats.clone(), b"\xff\xff\xff".to_vec(), 400, "malformed_json"),
        // Out-of-range numbers.
        with_token(case(Method::POST, actions.clone(), "{\"action\": {\"type\": \"end_turn\"}, \"expected_version\": 99999999999999999999999}", 400, "invalid_body"), &token),
        with_token(case(Method::POST, actions.clone(), "{\"action\": {\"type\": \"end_turn\"}, \"expected_version\": 1e400}", 400, "malformed_json"), &token),
        case(Method::POST, "/v1/games".into(), "{\"type\": \"tycoon\", \"seats\": [{\"name\": \"A\"}, {\"name\": \"B\"}], \"seed\": 18446744073709551616}", 400, "invalid_body"),
        case(Method::POST, seats.clone(), "{\"name\": \"X\", \"seat\": 4294967296}", 400, "invalid_body"),
        // Unknown fields are refused, not ignored.
        with_token(case(Method::POST, actions.clone(), "{\"action\": {\"type\": \"end_turn\"}, \"force\": true}", 400, "invalid_body"), &token),
        case(Method::POST, "/v1/games".into(), "{\"type\": \"tycoon\", \"seats\": [{\"name\": \"A\"}, {\"name\": \"B\"}], \"admin\": true}", 400, "invalid_body"),
        case(Method::POST, "/v1/games".into(), "{\"type\": \"tycoon\", \"seats\": [{\"name\": \"A\", \"token\": \"mine\"}, {\"name\": \"B\"}]}", 400, "invalid_body"),
        case(Method::POST, seats.clone(), "{\"name\": \"X\", \"token\": \"mine\"}", 400, "invalid_body"),
        // Wrong JSON types.
        with_token(case(Method::POST, actions.clone(), "[]", 400, "invalid_body"), &token),
        with_token(case(Method::POST, actions.clone(), "null", 400, "invalid_body"), &token),
        with_token(case(Method::POST, actions.clone(), "{\"action\": {\"type\": \"end_turn\"}, \"expected_version\": -1}", 409, "version_conflict"), &token),
    ];
    // SQL metacharacters in every string field of every body. Where the string is an
    // identifier (game type, action type, config value, token) it names nothing: 4xx.
    for s in SQL {
        let q = serde_json::to_string(s).unwrap();
        cases.push(case(
            Method::POST,
            "/v1/games".into(),
            format!("{{\"type\": {q}, \"seats\": [{{\"name\": \"A\"}}, {{\"name\": \"B\"}}]}}"),
            422,
            "unknown_game_type",
        ));
        cases.push(case(Method::POST, "/v1/games".into(), format!("{{\"type\": \"tycoon\", \"seats\": [{{\"name\": \"A\"}}, {{\"name\": \"B\"}}], \"config\": {{\"step_mode\": {q}}}}}"), 422, "invalid_config"));
        cases.push(with_token(
            case(
                Method::POST,
                actions.clone(),
                format!("{{\"action\": {{\"type\": {q}}}}}"),
                400,
                "invalid_action",
            ),
            &token,
        ));
        cases.push(with_token(
            case(
                Method::POST,
                actions.clone(),
                format!("{{\"action\": {{\"type\": \"buy_ticket\", \"ticket\": {q}}}}}"),
                400,
                "invalid_action",
            ),
            &token,
        ));
        cases.push(with_token(
            case(
                Method::POST,
                actions.clone(),
                "{\"action\": {\"type\": \"end_turn\"}}",
                401,
                "invalid_token",
            ),
            s,
        ));
        cases.push(with_token(
            case(
                Method::GET,
                format!("/v1/games/{id}"),
                "",
                401,
                "invalid_token",
            ),
            s,
        ));
        // The game is started: a join is refused whatever the name.
        cases.push(case(
            Method::POST,
            seats.clone(),
            format!("{{\"name\": {q}}}"),
            409,
            "game_already_started",
        ));
    }
    run(&app, cases).await;

    // A non-UTF-8 Authorization header is a 401, not a spectator and not a 500.
    let res = app
        .req(Method::GET, &format!("/v1/games/{id}"), None)
        .header(
            AUTHORIZATION,
            HeaderValue::from_bytes(b"Bearer \xff\xfe").unwrap(),
        )
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::UNAUTHORIZED, "invalid_token").await;
    // An Idempotency-Key with SQL in it is only a key: an illegal action under it is refused.
    for s in SQL {
        let res = app
            .req(Method::POST, &actions, Some(&token))
            .header("idempotency-key", s)
            .json(&json!({ "action": { "type": "take_loan", "loan": "'; DROP TABLE games; --" } }))
            .send()
            .await
            .unwrap();
        assert!(res.status().is_client_error(), "{}", res.status());
    }

    assert_eq!(all_games(&app), before, "no game changed");
    let _ = other;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_queries_paths_and_methods_get_4xx_problem_json_and_change_no_game() {
    let app = spawn_app().await;
    let (game, _) = setup(&app).await;
    let before = all_games(&app);
    let id = &game.id;
    let get =
        |path: String, status: u16, code: &'static str| case(Method::GET, path, "", status, code);
    let cases = vec![
        // Numbers out of range for their type.
        get(
            format!("/v1/games/{id}/events?limit=4294967296"),
            400,
            "invalid_query",
        ),
        get(
            format!("/v1/games/{id}/events?limit=-1"),
            400,
            "invalid_query",
        ),
        get(
            format!("/v1/games/{id}/events?after=99999999999999999999"),
            400,
            "invalid_query",
        ),
        get(
            format!("/v1/games/{id}/events?after=1e9"),
            400,
            "invalid_query",
        ),
        get(
            "/v1/games?limit=99999999999999999999".into(),
            400,
            "invalid_query",
        ),
        get(format!("/v1/games/{id}?wait=-1"), 400, "invalid_query"),
        get(
            format!("/v1/games/{id}?wait=99999999999999999999999"),
            400,
            "invalid_query",
        ),
        get(format!("/v1/games/{id}?wait=1.5"), 400, "invalid_query"),
        get(
            format!("/v1/games/{id}?after_version=-99999999999999999999"),
            400,
            "invalid_query",
        ),
        get(
            format!("/v1/games/{id}/states/99999999999999999999"),
            400,
            "invalid_seq",
        ),
        get(format!("/v1/games/{id}/states/-1"), 404, "no_such_state"),
        get(
            format!("/v1/games/{id}/states/9223372036854775807"),
            404,
            "no_such_state",
        ),
        // SQL in query strings that must parse.
        get("/v1/games?status=active'--".into(), 400, "invalid_query"),
        get("/v1/games?type=tycoon%00".into(), 400, "invalid_query"),
        get(
            "/v1/games?cursor=%27%3B%20DROP%20TABLE%20games%3B%20--".into(),
            400,
            "invalid_cursor",
        ),
        // Path ids that are not UUIDs, on every route.
        get(
            "/v1/games/%27%3B%20DROP%20TABLE%20games%3B%20--".into(),
            400,
            "invalid_id",
        ),
        get("/v1/games/1%20OR%201=1/events".into(), 400, "invalid_id"),
        get("/v1/games/123/legal-actions".into(), 400, "invalid_id"),
        get(
            "/v1/games/00000000-0000-0000-0000-00000000000g/states/1".into(),
            400,
            "invalid_id",
        ),
        get("/v1/games/xyz/stream".into(), 400, "invalid_id"),
        case(
            Method::POST,
            "/v1/games/xyz/actions".into(),
            "{\"action\": {\"type\": \"end_turn\"}}",
            400,
            "invalid_id",
        ),
        case(
            Method::POST,
            "/v1/games/xyz/seats".into(),
            "{\"name\": \"A\"}",
            400,
            "invalid_id",
        ),
        case(
            Method::POST,
            "/v1/games/xyz/start".into(),
            "",
            400,
            "invalid_id",
        ),
        // Out of the documented ranges: refused, never clamped.
        get(
            format!("/v1/games/{id}/events?limit=0"),
            400,
            "invalid_query",
        ),
        get(
            format!("/v1/games/{id}/events?limit=1001"),
            400,
            "invalid_query",
        ),
        get(
            format!("/v1/games/{id}/events?after=-1"),
            400,
            "invalid_query",
        ),
        get(
            format!("/v1/games/{id}?after_version=-1"),
            400,
            "invalid_query",
        ),
        get(format!("/v1/games/{id}?wait=31"), 400, "invalid_query"),
        get("/v1/games?limit=101".into(), 400, "invalid_query"),
        get("/v1/games?limit=0".into(), 400, "invalid_query"),
        // Wrong methods on known routes: 405 with Allow.
        case(
            Method::DELETE,
            format!("/v1/games/{id}"),
            "",
            405,
            "method_not_allowed",
        ),
        case(
            Method::PUT,
            format!("/v1/games/{id}"),
            "{}",
            405,
            "method_not_allowed",
        ),
        case(
            Method::POST,
            format!("/v1/games/{id}"),
            "{}",
            405,
            "method_not_allowed",
        ),
        case(
            Method::GET,
            format!("/v1/games/{id}/actions"),
            "",
            405,
            "method_not_allowed",
        ),
        case(
            Method::PATCH,
            format!("/v1/games/{id}/actions"),
            "{}",
            405,
            "method_not_allowed",
        ),
        case(
            Method::DELETE,
            "/v1/games".into(),
            "",
            405,
            "method_not_allowed",
        ),
        case(
            Method::POST,
            "/v1/game-types".into(),
            "{}",
            405,
            "method_not_allowed",
        ),
        case(
            Method::DELETE,
            format!("/v1/games/{id}/events"),
            "",
            405,
            "method_not_allowed",
        ),
        case(
            Method::PUT,
            "/healthz".into(),
            "",
            405,
            "method_not_allowed",
        ),
        case(
            Method::DELETE,
            "/v1/games/not-a-uuid".into(),
            "",
            405,
            "method_not_allowed",
        ),
    ];
    // The extremes of the documented ranges are answered, not refused, and never a 500.
    for path in [
        format!("/v1/games/{id}/events?limit=1000&after=9223372036854775807"),
        format!("/v1/games/{id}/events?limit=1&after=0"),
        "/v1/games?limit=100".to_string(),
        format!("/v1/games/{id}?wait=0"),
        format!("/v1/games/{id}?wait=0&after_version=9223372036854775807"),
    ] {
        let (status, body) = app.get_json(&path, None).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
    }
    // A quoted filter is no game type: refused, never run as SQL.
    let (status, page) = app
        .get_json("/v1/games?type=%27%20OR%20%271%27%3D%271", None)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{page}");
    assert_eq!(page["code"], "invalid_query");
    run(&app, cases).await;

    let res = app
        .req(Method::DELETE, &format!("/v1/games/{id}/actions"), None)
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.headers().get("allow").map(|v| v.to_str().unwrap()),
        Some("POST")
    );
    let res = app
        .req(Method::DELETE, "/v1/games", None)
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.headers().get("allow").map(|v| v.to_str().unwrap()),
        Some("GET, HEAD, POST")
    );
    assert_eq!(all_games(&app), before, "no game changed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sql_metacharacters_in_names_are_stored_verbatim_and_change_no_other_game() {
    let app = spawn_app().await;
    let (game, _) = setup(&app).await;
    let before = all_games(&app);
    for s in SQL {
        let res = app
            .req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": "tycoon", "seats": [{ "name": s }, { "open": true }] }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        let created: Value = res.json().await.unwrap();
        let new_id = created["game_id"].as_str().unwrap();
        let res = app
            .req(Method::POST, &format!("/v1/games/{new_id}/seats"), None)
            .json(&json!({ "name": s }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        let (_, doc) = app.get_json(&format!("/v1/games/{new_id}"), None).await;
        assert_eq!(doc["seats"][0]["name"], s);
        assert_eq!(doc["seats"][1]["name"], s);
    }
    let after = all_games(&app);
    for g in &before {
        assert!(after.contains(g), "game {} changed", g.id);
    }
    assert_eq!(after.len(), before.len() + SQL.len());
    assert_eq!(
        app.version(&game).await,
        before.iter().find(|g| g.id == game.id).unwrap().version
    );
}

/// Issue 39: a NUL or a bare CR inside a header value is refused by actix-http's HTTP/1 parser
/// (httparse) before any service, middleware or error handler runs: the answer is a bare 400
/// without a body, and the connection is closed; the stack has no hook to give it a problem
/// document (docs/api.md says so). What this pins: it stays a 400 (never a 500 or a hang),
/// and the server goes on serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_control_character_the_http_parser_refuses_is_a_bare_400_and_harms_nothing() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = spawn_app().await;
    let address = app.base.trim_start_matches("http://").to_string();
    for bad in ["x-probe: a\0b", "x-probe: a\rb"] {
        let mut socket = tokio::net::TcpStream::connect(&address).await.unwrap();
        let request = format!("GET /v1/game-types HTTP/1.1\r\nhost: t\r\n{bad}\r\n\r\n");
        socket.write_all(request.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        tokio::time::timeout(testkit::PATIENCE, socket.read_to_end(&mut answer))
            .await
            .expect("the server closes the connection")
            .unwrap();
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 400"), "{bad:?}: {answer}");
        assert!(
            answer.to_ascii_lowercase().contains("content-length: 0"),
            "{answer}"
        );
    }
    let res = app
        .req(Method::GET, "/v1/game-types", None)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::OK);
}
