//! The failover test's load: clients playing all four games (people, and people against the
//! server's bots) through two service processes, a stream follower and a long-polling
//! spectator per client, a client whose games end by their clocks, and what each of them
//! saw. Every request that meets a 503 is sent again (the same body and `Idempotency-Key`)
//! after a short pause, as a client honouring `Retry-After` would; every other 5xx, a 503
//! without `Retry-After` or problem+json, and any transport error (a timeout: a hang) is a
//! failure of the service.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use reqwest::{RequestBuilder, StatusCode};
use serde_json::{json, Value};
use tokio::sync::watch;
use uuid::Uuid;

/// The games played: type and seat count (Tyros needs three).
pub const GAMES: [(&str, usize); 4] =
    [("tycoon", 2), ("acquire", 2), ("monopoly", 2), ("tyros", 3)];

/// Clients: two per game, one with people only and one against bots.
pub const CLIENTS: usize = 8;

/// How long a client waits before sending again a request answered 503 (the service says
/// `Retry-After: 1`; a shorter pause measures the service's recovery more finely).
pub const RETRY_PAUSE: Duration = Duration::from_millis(100);

/// A request that takes longer than this is a hang.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(40);

/// A game a client plays.
#[derive(Debug, Clone)]
pub struct GameInfo {
    pub id: Uuid,
    /// Seat tokens of the client's seats (`None`: a bot's seat).
    pub tokens: Vec<Option<String>>,
}

/// An action answered 2xx.
#[derive(Debug, Clone)]
pub struct Acked {
    /// Which client (0 to 7).
    pub client: usize,
    pub game: Uuid,
    pub seat: i32,
    pub action: Value,
    /// The version it was sent for; its first event is `expected + 1`.
    pub expected: i64,
    /// The version after it.
    pub version: i64,
    pub key: String,
    /// When the attempt that got the answer was sent, and when the answer came.
    pub sent: Instant,
    pub answered: Instant,
}

/// What everybody shares and records.
pub struct Shared {
    pub http: reqwest::Client,
    /// The service processes (as behind a load balancer: clients spread over them).
    pub bases: Vec<String>,
    pub stop: AtomicBool,
    /// When the primary's postmaster was killed.
    pub killed: OnceLock<(Instant, SystemTime)>,
    pub acked: Mutex<Vec<Acked>>,
    /// Every game created, with whether the server's bots play in it.
    pub games: Mutex<Vec<(Uuid, bool)>>,
    /// Per client: bot moves it saw land after the kill (a version it did not make).
    pub bot_moves_after_kill: Vec<AtomicUsize>,
    /// The games [`leave_to_the_clock`] created (also in `games`).
    pub clock_games: Mutex<Vec<Uuid>>,
    /// Games created after the kill that ended by their clock: deadlines the new primary
    /// armed and a deadline worker fired.
    pub clock_endings_after_kill: AtomicUsize,
    /// 503 answers, and requests that needed at least one retry because of them.
    pub unavailable: AtomicUsize,
    pub delayed_requests: AtomicUsize,
    /// Other answers worth knowing (a 409 after a race with a bot, a 422), by status and code.
    pub other: Mutex<BTreeMap<String, usize>>,
    pub failures: Mutex<Vec<String>>,
}

impl Shared {
    pub fn new(bases: Vec<String>) -> Shared {
        Shared {
            http: reqwest::Client::builder()
                .timeout(REQUEST_TIMEOUT)
                .pool_idle_timeout(Duration::from_secs(2))
                .build()
                .unwrap(),
            bases,
            stop: AtomicBool::new(false),
            killed: OnceLock::new(),
            acked: Mutex::new(Vec::new()),
            games: Mutex::new(Vec::new()),
            bot_moves_after_kill: (0..CLIENTS).map(|_| AtomicUsize::new(0)).collect(),
            clock_games: Mutex::new(Vec::new()),
            clock_endings_after_kill: AtomicUsize::new(0),
            unavailable: AtomicUsize::new(0),
            delayed_requests: AtomicUsize::new(0),
            other: Mutex::new(BTreeMap::new()),
            failures: Mutex::new(Vec::new()),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    fn fail(&self, what: String) {
        self.failures.lock().unwrap().push(what);
    }

    /// Whether `instant` is after the kill.
    pub fn after_kill(&self, instant: Instant) -> bool {
        self.killed.get().is_some_and(|(k, _)| instant > *k)
    }

    /// Sends the request `build` makes until the answer is not a 503; the answer (unread)
    /// and when its request was sent, or `None` after a failure or once stopped.
    async fn send_raw(
        &self,
        build: impl Fn() -> RequestBuilder,
    ) -> Option<(reqwest::Response, Instant)> {
        let mut retried = false;
        loop {
            let sent = Instant::now();
            let res = match build().send().await {
                Ok(res) => res,
                Err(e) => {
                    self.fail(format!("transport error: {e}"));
                    return None;
                }
            };
            let status = res.status();
            if !status.is_server_error() {
                return Some((res, sent));
            }
            let problem = res
                .headers()
                .get("content-type")
                .is_some_and(|v| v.as_bytes() == b"application/problem+json");
            let retry_after = res.headers().contains_key("retry-after");
            let text = res.text().await.unwrap_or_default();
            if status != StatusCode::SERVICE_UNAVAILABLE {
                self.fail(format!("{status}: {text}"));
                return None;
            }
            let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            if !(problem && retry_after && body["code"] == "unavailable") {
                self.fail(format!(
                    "a 503 without problem+json, Retry-After or code unavailable: {text}"
                ));
            }
            self.unavailable.fetch_add(1, Ordering::SeqCst);
            if !retried {
                self.delayed_requests.fetch_add(1, Ordering::SeqCst);
                retried = true;
            }
            if self.stopped() {
                return None;
            }
            tokio::time::sleep(RETRY_PAUSE).await;
        }
    }

    /// [`Shared::send_raw`] with the body read as JSON.
    async fn send(
        &self,
        build: impl Fn() -> RequestBuilder,
    ) -> Option<(StatusCode, Value, Instant)> {
        let (res, sent) = self.send_raw(build).await?;
        let status = res.status();
        let text = match res.text().await {
            Ok(text) => text,
            Err(e) => {
                self.fail(format!("reading an answer: {e}"));
                return None;
            }
        };
        Some((
            status,
            serde_json::from_str(&text).unwrap_or(Value::Null),
            sent,
        ))
    }

    fn count_other(&self, status: StatusCode, answer: &Value) {
        let code = answer["code"].as_str().unwrap_or("-");
        *self
            .other
            .lock()
            .unwrap()
            .entry(format!("{} {code}", status.as_u16()))
            .or_default() += 1;
    }
}

/// One client: plays game after game of `GAMES[i % 4]`, its seats all people (clients 0 to 3)
/// or one person against the server's bots (4 to 7), through service `i % 2`. Publishes the
/// game it plays on `current`.
pub async fn play(shared: Arc<Shared>, i: usize, current: watch::Sender<Option<GameInfo>>) {
    let base = shared.bases[i % shared.bases.len()].clone();
    let (kind, seat_count) = GAMES[i % GAMES.len()];
    let with_bots = i >= GAMES.len();
    let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
    while !shared.stopped() {
        let seats: Vec<Value> = (0..seat_count)
            .map(|s| match (with_bots, s) {
                (true, 1..) => json!({ "bot": "random" }),
                _ => json!({ "name": format!("P{s}") }),
            })
            .collect();
        let body = json!({ "type": kind, "seats": seats });
        let Some((status, created, _)) = shared
            .send(|| shared.http.post(format!("{base}/v1/games")).json(&body))
            .await
        else {
            return;
        };
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let game = GameInfo {
            id: created["game_id"].as_str().unwrap().parse().unwrap(),
            tokens: created["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["token"].as_str().map(str::to_string))
                .collect(),
        };
        shared.games.lock().unwrap().push((game.id, with_bots));
        current.send_replace(Some(game.clone()));
        let mut version = created["version"].as_i64().unwrap();
        while !shared.stopped() {
            match turn(&shared, i, &base, &game, version, &mut rng).await {
                Some(Turn::Moved(v)) => version = v,
                Some(Turn::Waited(v)) => {
                    if with_bots && v > version && shared.after_kill(Instant::now()) {
                        shared.bot_moves_after_kill[i].fetch_add(1, Ordering::SeqCst);
                    }
                    version = v;
                }
                Some(Turn::Finished) => break,
                None => return,
            }
        }
    }
}

/// The clock of [`leave_to_the_clock`]'s games: a second per move, then the seat resigns,
/// which ends a two-seat game. One deadline per game, fired by a deadline worker.
fn one_second_clock() -> Value {
    json!({ "kind": "per_move", "seconds": 1, "on_timeout": "resign" })
}

/// A client that lets the clock decide: creates two-seat Tycoon games with
/// [`one_second_clock`] through `base`, never moves, and follows each game by long polls
/// until its first seat's clock runs out and ends it. Exercises the deadline workers (the
/// queue, the announcer's wake-up across processes, the claim and the firing) through the
/// failover.
pub async fn leave_to_the_clock(shared: Arc<Shared>, base: String) {
    let body = json!({
        "type": "tycoon",
        "seats": [{ "name": "Idle 0" }, { "name": "Idle 1" }],
        "clock": one_second_clock(),
    });
    while !shared.stopped() {
        let Some((status, created, sent)) = shared
            .send(|| shared.http.post(format!("{base}/v1/games")).json(&body))
            .await
        else {
            return;
        };
        if status != StatusCode::CREATED {
            shared.fail(format!("creating a game with a clock: {status} {created}"));
            return;
        }
        let id: Uuid = created["game_id"].as_str().unwrap().parse().unwrap();
        shared.games.lock().unwrap().push((id, false));
        shared.clock_games.lock().unwrap().push(id);
        let mut version = created["version"].as_i64().unwrap();
        loop {
            if shared.stopped() {
                return;
            }
            let url = format!("{base}/v1/games/{id}?after_version={version}&wait=5");
            let Some((_, doc, _)) = shared.send(|| shared.http.get(&url)).await else {
                return;
            };
            if check_not_older(&shared, "a clock game's long poll", version, &doc).is_none() {
                return;
            }
            if doc["status"] == "finished" {
                if shared.after_kill(sent) {
                    shared
                        .clock_endings_after_kill
                        .fetch_add(1, Ordering::SeqCst);
                }
                break;
            }
            version = doc["version"].as_i64().unwrap();
        }
    }
}

enum Turn {
    /// Acted; the game is at this version.
    Moved(i64),
    /// None of the client's seats was active; waited for the game to reach this version.
    Waited(i64),
    Finished,
}

/// One step of a client: act for one of its active seats, or long-poll until the game moves.
async fn turn(
    shared: &Shared,
    client: usize,
    base: &str,
    game: &GameInfo,
    version: i64,
    rng: &mut ChaCha8Rng,
) -> Option<Turn> {
    let id = game.id;
    let (_, doc, _) = shared
        .send(|| {
            shared
                .http
                .get(format!("{base}/v1/games/{id}?after_version={version}"))
        })
        .await?;
    check_not_older(shared, "a player's document", version, &doc)?;
    if doc["status"] == "finished" {
        return Some(Turn::Finished);
    }
    let now = doc["version"].as_i64().unwrap();
    let mine = doc["active_seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s.as_u64())
        .find_map(|s| Some((s, game.tokens[s as usize].clone()?)));
    let Some((seat, token)) = mine else {
        let (_, doc, _) = shared
            .send(|| {
                shared
                    .http
                    .get(format!("{base}/v1/games/{id}?after_version={now}&wait=5"))
            })
            .await?;
        check_not_older(shared, "a player's long poll", now, &doc)?;
        return Some(Turn::Waited(doc["version"].as_i64().unwrap()));
    };
    let (status, legal, _) = shared
        .send(|| {
            shared
                .http
                .get(format!(
                    "{base}/v1/games/{id}/legal-actions?after_version={now}"
                ))
                .bearer_auth(&token)
        })
        .await?;
    assert_eq!(status, StatusCode::OK, "{legal}");
    check_not_older(shared, "legal actions", now, &legal)?;
    let actions = legal["actions"].as_array().unwrap();
    let templates = legal["templates"].as_array().unwrap();
    if actions.is_empty() && templates.is_empty() {
        return Some(Turn::Waited(now));
    }
    let action = tests::choose(rng, actions, templates);
    let expected = legal["version"].as_i64().unwrap();
    let key = Uuid::new_v4().to_string();
    let body = json!({ "action": action, "expected_version": expected });
    let (status, answer, sent) = shared
        .send(|| {
            shared
                .http
                .post(format!("{base}/v1/games/{id}/actions"))
                .bearer_auth(&token)
                .header("idempotency-key", &key)
                .json(&body)
        })
        .await?;
    if status != StatusCode::OK {
        shared.count_other(status, &answer);
        return Some(Turn::Waited(now));
    }
    let version = answer["game"]["version"].as_i64().unwrap();
    shared.acked.lock().unwrap().push(Acked {
        client,
        game: id,
        seat: seat as i32,
        action,
        expected,
        version,
        key,
        sent,
        answered: Instant::now(),
    });
    Some(Turn::Moved(version))
}

/// A read that names `version` must not answer with an older one.
fn check_not_older(shared: &Shared, what: &str, version: i64, answer: &Value) -> Option<()> {
    let got = answer["version"].as_i64().unwrap_or(-1);
    if got < version {
        shared.fail(format!(
            "{what} went back from version {version} to {got}: {answer}"
        ));
        return None;
    }
    Some(())
}

/// What a follower (stream or long poll) saw.
#[derive(Debug, Default)]
pub struct Followed {
    /// Per game: the event seqs received (streams only).
    pub seqs: BTreeMap<Uuid, Vec<i64>>,
    /// Per game: the versions received, in order, with when.
    pub versions: BTreeMap<Uuid, Vec<(i64, Instant)>>,
    /// Times the stream was opened again.
    pub reconnects: usize,
}

impl Followed {
    /// Whether a version newer than every version received before the kill came after it.
    pub fn moved_after(&self, shared: &Shared) -> bool {
        let Some((kill, _)) = shared.killed.get() else {
            return false;
        };
        self.versions.values().any(|vs| {
            let before = vs.iter().filter(|(_, t)| t < kill).map(|(v, _)| *v).max();
            vs.iter().any(|(v, t)| {
                t > kill
                    && match before {
                        Some(b) => *v > b,
                        None => true,
                    }
            })
        })
    }
}

/// Follows the client's current game as a spectator through its event stream, resuming
/// with `Last-Event-ID` whenever the stream ends, and moving on to the client's next game
/// when one finishes.
pub async fn follow_stream(
    shared: Arc<Shared>,
    base: String,
    mut current: watch::Receiver<Option<GameInfo>>,
    seen: Arc<Mutex<Followed>>,
) {
    while !shared.stopped() {
        let Some(game) = current.borrow_and_update().clone() else {
            if current.changed().await.is_err() {
                return;
            }
            continue;
        };
        let mut last_id = 0i64;
        let mut last_seq = 0i64;
        let mut last_version = 0i64;
        'game: while !shared.stopped() {
            let url = format!("{base}/v1/games/{}/stream", game.id);
            let Some((mut res, _)) = shared
                .send_raw(|| {
                    let r = shared.http.get(&url).timeout(Duration::from_secs(3600));
                    if last_id > 0 {
                        r.header("last-event-id", last_id.to_string())
                    } else {
                        r
                    }
                })
                .await
            else {
                return;
            };
            match res.status() {
                StatusCode::OK => {}
                StatusCode::NO_CONTENT => break 'game, // finished and all sent
                status => {
                    shared.fail(format!("the stream answered {status}"));
                    return;
                }
            }
            let mut buffer = String::new();
            let mut last_bytes = Instant::now();
            loop {
                let chunk = tokio::select! {
                    chunk = res.chunk() => chunk,
                    _ = tokio::time::sleep(Duration::from_millis(200)) => {
                        if shared.stopped() { return; }
                        if last_bytes.elapsed() > REQUEST_TIMEOUT {
                            // Heartbeats come every 15 s, through outages too.
                            shared.fail(format!("the stream of {} went silent", game.id));
                            return;
                        }
                        continue;
                    }
                };
                last_bytes = Instant::now();
                let Ok(Some(bytes)) = chunk else {
                    // Ended (the game is over, or the server closed it): resume.
                    seen.lock().unwrap().reconnects += 1;
                    continue 'game;
                };
                buffer.push_str(&String::from_utf8_lossy(&bytes));
                while let Some(end) = buffer.find("\n\n") {
                    let message: String = buffer.drain(..end + 2).collect();
                    let field = |name: &str| {
                        message
                            .lines()
                            .find_map(|l| l.strip_prefix(name))
                            .map(str::trim)
                    };
                    let (Some(kind), Some(id)) = (field("event:"), field("id:")) else {
                        continue; // a heartbeat
                    };
                    let id: i64 = id.parse().unwrap();
                    let mut seen = seen.lock().unwrap();
                    match kind {
                        "game_event" => {
                            if id <= last_seq {
                                shared.fail(format!("stream sent seq {id} after {last_seq}"));
                            }
                            last_seq = id;
                            seen.seqs.entry(game.id).or_default().push(id);
                        }
                        "version" => {
                            if id <= last_version {
                                shared
                                    .fail(format!("stream sent version {id} after {last_version}"));
                            }
                            last_version = id;
                            let at = Instant::now();
                            seen.versions.entry(game.id).or_default().push((id, at));
                        }
                        other => shared.fail(format!("unknown stream message {other}")),
                    }
                    last_id = id;
                }
            }
        }
        // Wait for the client's next game.
        while !shared.stopped() && current.borrow().as_ref().map(|g| g.id) == Some(game.id) {
            if current.changed().await.is_err() {
                return;
            }
        }
    }
}

/// Follows the client's current game as a spectator by long polls naming the last version
/// seen; an answer older than that version is a failure.
pub async fn follow_polls(
    shared: Arc<Shared>,
    base: String,
    current: watch::Receiver<Option<GameInfo>>,
    seen: Arc<Mutex<Followed>>,
) {
    let mut known: Option<(Uuid, i64)> = None;
    while !shared.stopped() {
        let Some(game) = current.borrow().clone() else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let after = match known {
            Some((id, v)) if id == game.id => v,
            _ => 0,
        };
        let url = format!("{base}/v1/games/{}?wait=5&after_version={after}", game.id);
        let Some((_, doc, _)) = shared.send(|| shared.http.get(&url)).await else {
            return;
        };
        if check_not_older(&shared, "a spectator's long poll", after, &doc).is_none() {
            return;
        }
        let version = doc["version"].as_i64().unwrap();
        seen.lock()
            .unwrap()
            .versions
            .entry(game.id)
            .or_default()
            .push((version, Instant::now()));
        known = Some((game.id, version));
        if doc["status"] == "finished" {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
