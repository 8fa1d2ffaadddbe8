//! What the process tests (`api/tests/`) and the failover test (`tests/tests/failover`) do as
//! clients of a running server, each with the plain HTTP a third-party client would use:
//! create a game, read a JSON answer, make one move for whoever is to move, read a counter.
//! Every helper names its server by its base URL (`http://127.0.0.1:<port>`), so it serves a
//! child process and a service started in the test's own process alike.

use reqwest::StatusCode;
use serde_json::Value;

/// A game just created: its id, version and the seats' tokens, in seat order.
#[derive(Debug, Clone)]
pub struct Created {
    pub id: String,
    pub version: i64,
    /// `None` for a seat without a token (a bot's, an open one).
    pub tokens: Vec<Option<String>>,
}

impl Created {
    /// The token of `seat`.
    ///
    /// # Panics
    /// When the seat has none.
    pub fn token(&self, seat: usize) -> &str {
        self.tokens[seat]
            .as_deref()
            .unwrap_or_else(|| panic!("seat {seat} of game {} has no token", self.id))
    }
}

/// Creates a game with `body` (`POST {base}/v1/games`), which must succeed.
///
/// # Panics
/// When the request fails or is not answered 201.
pub async fn create_game(client: &reqwest::Client, base: &str, body: &Value) -> Created {
    let res = client
        .post(format!("{base}/v1/games"))
        .json(body)
        .send()
        .await
        .expect("POST /v1/games");
    let status = res.status();
    let created: Value = res.json().await.expect("the created game");
    assert_eq!(status, StatusCode::CREATED, "{created}");
    Created {
        id: created["game_id"].as_str().expect("game_id").to_string(),
        version: created["version"].as_i64().expect("version"),
        tokens: created["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| s["token"].as_str().map(str::to_string))
            .collect(),
    }
}

/// [`create_game`]: a Tycoon game of two people, "A" and "B", dealt by `seed`.
pub async fn create_tycoon(client: &reqwest::Client, base: &str, seed: u64) -> Created {
    let body = serde_json::json!({
        "type": "tycoon",
        "seats": [{ "name": "A" }, { "name": "B" }],
        "seed": seed,
    });
    create_game(client, base, &body).await
}

/// `GET url` with the seat `token` (if any) and `headers`: the status and the body as JSON
/// (`null` when it is none, as for a 304).
///
/// # Panics
/// When the request fails in transport.
pub async fn get(
    client: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    headers: &[(&str, String)],
) -> (StatusCode, Value) {
    let mut req = client.get(url);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    for (name, value) in headers {
        req = req.header(*name, value);
    }
    let res = req
        .send()
        .await
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let status = res.status();
    let text = res.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A move [`move_active_seat`] sent, and its answer.
#[derive(Debug, Clone)]
pub struct Move {
    /// The seat that moved.
    pub seat: usize,
    pub action: Value,
    /// The version the action was sent for (`expected_version`).
    pub expected: i64,
    pub status: StatusCode,
    pub answer: Value,
}

impl Move {
    /// The game's version after the move.
    ///
    /// # Panics
    /// Unless the move was answered 200 with the game.
    pub fn version(&self) -> i64 {
        assert_eq!(self.status, StatusCode::OK, "{}", self.answer);
        self.answer["game"]["version"]
            .as_i64()
            .expect("the game's version")
    }
}

/// One move by the first active seat of game `game` on `base`: reads the document and that
/// seat's legal actions (both as of `after_version`, when given: a replica may be behind),
/// and posts the action `pick` chooses from the legal ones with the version they are legal at.
///
/// `None` when the game is not active, or a request fails in transport or its answer is not
/// JSON (the server is gone): a client playing until the server stops stops there.
///
/// # Panics
/// When a read is answered without the fields it must have.
pub async fn move_active_seat(
    client: &reqwest::Client,
    base: &str,
    game: &Created,
    after_version: Option<i64>,
    pick: impl FnOnce(&[Value]) -> Value,
) -> Option<Move> {
    let id = &game.id;
    let after = after_version.map_or(String::new(), |v| format!("?after_version={v}"));
    let doc: Value = client
        .get(format!("{base}/v1/games/{id}{after}"))
        .send()
        .await
        .ok()?
        .json()
        .await
        .ok()?;
    if doc["status"] != "active" {
        return None;
    }
    let seat = doc["active_seats"][0].as_u64().expect("an active seat") as usize;
    let token = game.token(seat);
    let legal: Value = client
        .get(format!("{base}/v1/games/{id}/legal-actions{after}"))
        .bearer_auth(token)
        .send()
        .await
        .ok()?
        .json()
        .await
        .ok()?;
    let action = pick(legal["actions"].as_array().expect("legal actions"));
    let expected = legal["version"]
        .as_i64()
        .expect("the legal actions' version");
    let res = client
        .post(format!("{base}/v1/games/{id}/actions"))
        .bearer_auth(token)
        .json(&serde_json::json!({ "action": action, "expected_version": expected }))
        .send()
        .await
        .ok()?;
    let status = res.status();
    let answer = res.json().await.ok()?;
    Some(Move {
        seat,
        action,
        expected,
        status,
        answer,
    })
}

/// The sum of counter `name` over its series labelled `label` (`("result", "fired")`) on
/// `{base}/metrics`; 0 while there is none (a labelled series appears at its first count).
///
/// # Panics
/// When the request fails.
pub async fn counter(
    client: &reqwest::Client,
    base: &str,
    name: &str,
    (label, value): (&str, &str),
) -> u64 {
    let text = crate::metrics_text(client, base).await;
    let (series, label) = (format!("{name}{{"), format!("{label}=\"{value}\""));
    text.lines()
        .filter(|l| l.starts_with(&series) && l.contains(&label))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum()
}

/// The whole event log of game `id`, page by page.
pub async fn events(client: &reqwest::Client, base: &str, id: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut after = 0;
    loop {
        let page: Value = client
            .get(format!(
                "{base}/v1/games/{id}/events?after={after}&limit=1000"
            ))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        out.extend(page["events"].as_array().unwrap().iter().cloned());
        match page["next_after"].as_i64() {
            Some(next) => after = next,
            None => return out,
        }
    }
}
