//! `spawn_app`: the real application on a random port with a database of its own, and a thin
//! client for the endpoints.

use std::collections::BTreeMap;

use api::{Application, Settings};
use db::testing::TestDb;
use rand_chacha::ChaCha8Rng;
use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde_json::{json, Value};

/// A running application and its database.
pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub db: TestDb,
}

/// A created game with its seat tokens.
#[derive(Debug, Clone)]
pub struct Game {
    pub id: String,
    pub tokens: Vec<String>,
}

/// A player created through the API: its id and its token.
#[derive(Debug, Clone)]
pub struct Player {
    pub id: String,
    pub token: String,
}

/// Starts the application in-process on port 0 with a fresh database.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// [`spawn_app`] with changed settings (pool size, workers).
pub async fn spawn_app_with(change: impl FnOnce(&mut Settings)) -> TestApp {
    if std::env::var_os("TEST_LOG").is_some() {
        api::telemetry::init(api::config::LogFormat::Text);
    }
    let db = tokio::task::spawn_blocking(TestDb::new).await.unwrap();
    let mut settings = Settings::for_tests(db.url());
    change(&mut settings);
    let app = Application::build(settings)
        .await
        .expect("build the application");
    let base = format!("http://{}", app.address());
    tokio::spawn(app.run());
    TestApp {
        base,
        // Idle connections are dropped well before the server's keep-alive (5 s) ends them:
        // reusing one the server is closing at that moment fails with `IncompleteMessage`.
        client: reqwest::Client::builder()
            .pool_idle_timeout(std::time::Duration::from_secs(2))
            .build()
            .unwrap(),
        db,
    }
}

impl TestApp {
    /// Creates the player `name` (`POST /v1/players`), which must be answered 201 with it.
    pub async fn create_player(&self, name: &str) -> Player {
        let (status, body) = json_of(
            self.req(Method::POST, "/v1/players", None)
                .json(&json!({ "name": name }))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        assert_eq!(body["name"], name);
        Player {
            id: body["player_id"].as_str().unwrap().to_string(),
            token: body["token"].as_str().unwrap().to_string(),
        }
    }

    pub fn req(&self, method: Method, path: &str, token: Option<&str>) -> RequestBuilder {
        let mut r = self
            .client
            .request(method, format!("{}{}", self.base, path));
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        r
    }

    pub async fn create_game(&self, players: usize, seed: u64) -> Game {
        let seats: Vec<Value> = (0..players)
            .map(|i| json!({ "name": format!("Player {i}") }))
            .collect();
        let res = self
            .req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": "tycoon", "seats": seats, "seed": seed }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        let body: Value = res.json().await.unwrap();
        Game {
            id: body["game_id"].as_str().unwrap().to_string(),
            tokens: body["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["token"].as_str().unwrap().to_string())
                .collect(),
        }
    }

    /// Creates a started game of `game_type` with `players` named seats, `seed` and `config`.
    pub async fn create_game_of(
        &self,
        game_type: &str,
        players: usize,
        seed: u64,
        config: Value,
    ) -> Game {
        let seats: Vec<Value> = (0..players)
            .map(|i| json!({ "name": format!("Player {i}") }))
            .collect();
        let (status, body) = json_of(
            self.req(Method::POST, "/v1/games", None)
                .json(&json!({ "type": game_type, "seats": seats, "seed": seed, "config": config }))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        Game {
            id: body["game_id"].as_str().unwrap().to_string(),
            tokens: body["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["token"].as_str().unwrap().to_string())
                .collect(),
        }
    }

    pub async fn get_json(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        let res = self.req(Method::GET, path, token).send().await.unwrap();
        json_of(res).await
    }

    pub async fn document(&self, game: &Game, token: Option<&str>) -> Value {
        let (status, body) = self
            .get_json(&format!("/v1/games/{}", game.id), token)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    pub async fn version(&self, game: &Game) -> i64 {
        self.document(game, None).await["version"].as_i64().unwrap()
    }

    pub async fn legal(&self, game: &Game, seat: usize) -> Value {
        let (status, body) = self
            .get_json(
                &format!("/v1/games/{}/legal-actions", game.id),
                Some(&game.tokens[seat]),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    pub async fn act(&self, game: &Game, seat: usize, body: &Value) -> (StatusCode, Value) {
        let res = self
            .req(
                Method::POST,
                &format!("/v1/games/{}/actions", game.id),
                Some(&game.tokens[seat]),
            )
            .json(body)
            .send()
            .await
            .unwrap();
        json_of(res).await
    }

    /// The whole log as `token` sees it, following `next_after`.
    pub async fn all_events(&self, game: &Game, token: Option<&str>) -> Vec<Value> {
        let mut out = Vec::new();
        let mut after = 0;
        loop {
            let (status, page) = self
                .get_json(
                    &format!("/v1/games/{}/events?after={after}&limit=1000", game.id),
                    token,
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{page}");
            out.extend(page["events"].as_array().unwrap().iter().cloned());
            match page["next_after"].as_i64() {
                Some(next) => after = next,
                None => return out,
            }
        }
    }

    /// Plays one random move (seeded `rng`) from the legal actions of the active seat.
    /// Returns `false` once the game is over.
    pub async fn play_one(&self, game: &Game, rng: &mut ChaCha8Rng) -> bool {
        let doc = self.document(game, None).await;
        if doc["status"] == "finished" {
            return false;
        }
        let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
        let legal = self.legal(game, seat).await;
        let actions = legal["actions"].as_array().unwrap();
        let templates = legal["templates"].as_array().unwrap();
        assert!(
            !actions.is_empty() || !templates.is_empty(),
            "the active seat has no legal action"
        );
        let action = choose(rng, actions, templates);
        let (status, body) = self
            .act(
                game,
                seat,
                &json!({ "action": action, "expected_version": legal["version"] }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{action} refused: {body}");
        true
    }

    /// Plays random moves until the game ends, recording the spectator's view at every version
    /// seen between moves. Panics after `max_moves`.
    pub async fn play_to_end(
        &self,
        game: &Game,
        seed: u64,
        max_moves: usize,
    ) -> BTreeMap<i64, Value> {
        let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(seed);
        let mut seen = BTreeMap::new();
        for _ in 0..max_moves {
            let doc = self.document(game, None).await;
            seen.insert(doc["version"].as_i64().unwrap(), doc["view"].clone());
            if !self.play_one(game, &mut rng).await {
                return seen;
            }
        }
        panic!("the game did not end within {max_moves} moves");
    }
}

use tests::choose;

pub use testkit::{metric, wait_for};

impl TestApp {
    /// The value of gauge `name` on `/metrics`.
    pub async fn gauge(&self, name: &str) -> i64 {
        testkit::gauge(&self.client, &self.base, name).await
    }
}

pub async fn json_of(res: Response) -> (StatusCode, Value) {
    let status = res.status();
    let text = res.text().await.unwrap();
    let body = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    (status, body)
}

/// Asserts a problem+json response with `status` and `code`; returns the body.
pub async fn assert_problem(res: Response, status: StatusCode, code: &str) -> Value {
    let got = res.status();
    let ct = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let (_, body) = json_of(res).await;
    assert_eq!(got, status, "{body}");
    assert_eq!(ct, "application/problem+json", "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["status"], status.as_u16(), "{body}");
    for field in ["type", "title", "detail"] {
        assert!(body[field].is_string(), "{field} missing: {body}");
    }
    body
}

/// Checks a finished game against the engine and returns the events of its log: the document
/// says finished; the log (shown unredacted once the game is over) numbers its events 1, 2, …
/// up to the game's version; the engine's fold of it is exactly the stored snapshot and has the
/// outcome (winners and scores) that the document reports.
pub async fn assert_replay_matches_the_store(
    app: &TestApp,
    game: &Game,
    game_type: &str,
) -> Vec<Value> {
    let doc = app.document(game, None).await;
    assert_eq!(doc["status"], "finished", "{doc}");
    let events = app.all_events(game, None).await;
    let seqs: Vec<i64> = events.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    let expected: Vec<i64> = (1..=doc["version"].as_i64().unwrap()).collect();
    assert_eq!(
        seqs, expected,
        "the log's seq numbers run from 1 to the version"
    );
    let raw: Vec<Value> = events.iter().map(|e| e["event"].clone()).collect();
    let replayed = engine::registry::find(game_type)
        .unwrap()
        .replay(&raw)
        .unwrap();
    assert_eq!(
        replayed.to_json(),
        stored_snapshot(app, game),
        "the log folds to the stored snapshot"
    );
    let outcome = replayed.outcome().expect("the replayed game is over");
    let winners: Vec<u64> = outcome.winners.iter().map(|s| u64::from(s.0)).collect();
    assert_eq!(doc["outcome"]["winners"], json!(winners), "{doc}");
    assert_eq!(doc["outcome"]["scores"], json!(outcome.scores), "{doc}");
    raw
}

/// Time travel: `states/{seq}` gives back the spectator's view seen during play at each
/// version of `seen`, every `step`-th one and the last.
pub async fn assert_states_as_seen(
    app: &TestApp,
    game: &Game,
    seen: &BTreeMap<i64, Value>,
    step: usize,
) {
    for (i, (version, view)) in seen.iter().enumerate() {
        if i % step != 0 && i + 1 != seen.len() {
            continue;
        }
        let (status, state) = app
            .get_json(&format!("/v1/games/{}/states/{version}", game.id), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{state}");
        assert_eq!(
            &state["view"], view,
            "state at seq {version} differs from play"
        );
    }
}

/// The stored full state (secrets included) of a game.
pub fn stored_snapshot(app: &TestApp, game: &Game) -> Value {
    use db::schema::games;
    use diesel::prelude::*;
    let id: uuid::Uuid = game.id.parse().unwrap();
    games::table
        .find(id)
        .select(games::snapshot)
        .first::<Option<Value>>(&mut app.db.conn())
        .unwrap()
        .expect("a started game has a snapshot")
}

/// Number of stored events of a game, by SQL.
pub fn stored_event_count(app: &TestApp, game: &Game) -> i64 {
    use diesel::prelude::*;
    use diesel::sql_types::{BigInt, Uuid as SqlUuid};
    #[derive(QueryableByName)]
    struct Count {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let mut conn = app.db.conn();
    let id: uuid::Uuid = game.id.parse().unwrap();
    diesel::sql_query("SELECT count(*) AS n FROM game_events WHERE game_id = $1")
        .bind::<SqlUuid, _>(id)
        .get_result::<Count>(&mut conn)
        .unwrap()
        .n
}
