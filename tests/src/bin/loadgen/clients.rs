//! The clients: each plays its own Tycoon games over HTTP, a new one whenever a game ends,
//! until the run's action budget is spent, under one of three client protocols.

use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{bail, Context};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::{json, Value};
use tests::pick;
use tokio::sync::watch;

use crate::measure::{cpu_now, Measured, Tally};

/// How a client learns what to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Protocol {
    /// Before every move, `GET /v1/games/{id}` as the seat to act, then `POST …/actions`:
    /// two requests per move.
    Poll,
    /// One request per move, the documented protocol: act again straight from the action's
    /// answer (it carries the caller's document and legal actions) while the seat stays
    /// active; `GET` the document only when the turn passed to another seat.
    Act,
    /// One client per seat, each following its game's push stream: it acts from the action's
    /// answer while active, and when its seat is not, waits for a `version` message on its
    /// stream that names its seat among the active ones, and then `GET`s its document.
    Stream,
    /// Spectators only, no moves: each client reads its own game's document (a game a few
    /// dozen moves in, played first and not counted) again and again, naming the version it
    /// has (`after_version`), as a follower re-reading after a change would. A "action" of
    /// this row is one read: what a read replica (`--read-database-url`) carries.
    Read,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Poll => "poll + act",
            Protocol::Act => "act",
            Protocol::Stream => "stream + act",
            Protocol::Read => "read",
        }
    }
}

/// Where the service under test runs its database work (`--db-on-blocking-pool`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Placement {
    /// The default: on the HTTP workers whenever nothing can make them wait.
    Workers,
    /// Always handed to the blocking thread pool and back.
    Blocking,
}

impl Placement {
    pub fn name(self) -> &'static str {
        match self {
            Placement::Workers => "workers",
            Placement::Blocking => "blocking pool",
        }
    }
}

/// A row of the table: a protocol against a service with a placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Variant {
    pub protocol: Protocol,
    pub placement: Placement,
}

/// What the clients of one run share: the target, the action budget and the tally.
pub struct Load {
    base: String,
    players: usize,
    /// Action POSTs left to send in this run.
    budget: AtomicIsize,
    /// Turns `true` when the budget is spent, so that seats waiting on a stream stop.
    spent: watch::Sender<bool>,
    tally: Mutex<Tally>,
}

impl Load {
    fn claim(&self) -> bool {
        let left = self.budget.fetch_sub(1, Ordering::Relaxed);
        if left <= 1 {
            self.spent.send_replace(true);
        }
        left > 0
    }

    fn has_budget(&self) -> bool {
        self.budget.load(Ordering::Relaxed) > 0
    }

    fn count_request(&self) {
        self.tally.lock().unwrap().requests += 1;
    }

    /// `GET /v1/games/{id}` as `seat`, naming the version the client has (`after_version`),
    /// so that a read replica never answers with an older one.
    async fn poll(
        &self,
        http: &reqwest::Client,
        game: &Game,
        seat: usize,
        known: i64,
    ) -> anyhow::Result<Doc> {
        self.count_request();
        let res = http
            .get(format!(
                "{}/v1/games/{}?after_version={known}",
                self.base, game.id
            ))
            .bearer_auth(&game.tokens[seat])
            .send()
            .await?;
        if !res.status().is_success() {
            bail!("poll: {} {}", res.status(), res.text().await?);
        }
        Ok(res.json().await?)
    }

    /// Posts a random legal action of `doc` for `seat`, and records the answer. The seat's
    /// document after the action when it was applied; `None` when it was refused.
    async fn act(
        &self,
        http: &reqwest::Client,
        game: &Game,
        seat: usize,
        doc: &Doc,
        rng: &mut ChaCha8Rng,
    ) -> anyhow::Result<Option<Doc>> {
        if doc.legal_actions.is_empty() {
            bail!("seat {seat} is active but has no legal action");
        }
        let action = pick(rng, &doc.legal_actions);
        self.count_request();
        let started = Instant::now();
        let res = http
            .post(format!("{}/v1/games/{}/actions", self.base, game.id))
            .bearer_auth(&game.tokens[seat])
            .json(&json!({ "action": action, "expected_version": doc.version }))
            .send()
            .await;
        let outcome = match res {
            Ok(res) => {
                let status = res.status();
                let bytes = res.bytes().await.unwrap_or_default();
                if status.is_success() {
                    let applied: Applied =
                        serde_json::from_slice(&bytes).context("an action response")?;
                    Ok(applied.game)
                } else {
                    let code = serde_json::from_slice::<Problem>(&bytes)
                        .map_or_else(|_| "-".to_string(), |p| p.code);
                    Err(format!("{} {code}", status.as_u16()))
                }
            }
            Err(e) => Err(format!("transport error ({})", short(&e))),
        };
        let elapsed = started.elapsed();
        let mut t = self.tally.lock().unwrap();
        Ok(match outcome {
            Ok(doc) => {
                t.latencies.push(elapsed);
                Some(doc)
            }
            Err(what) => {
                *t.failures.entry(what).or_default() += 1;
                None
            }
        })
    }

    /// A new game with `players` named seats and a seeded deck.
    async fn create_game(
        &self,
        http: &reqwest::Client,
        rng: &mut ChaCha8Rng,
    ) -> anyhow::Result<Arc<Game>> {
        let seats: Vec<Value> = (0..self.players)
            .map(|i| json!({ "name": format!("P{i}") }))
            .collect();
        let res = http
            .post(format!("{}/v1/games", self.base))
            .json(&json!({ "type": "tycoon", "seats": seats, "seed": rng.random::<u32>() }))
            .send()
            .await?;
        if !res.status().is_success() {
            bail!("create: {} {}", res.status(), res.text().await?);
        }
        let created: Created = res.json().await?;
        Ok(Arc::new(Game {
            id: created.game_id,
            tokens: created.seats.into_iter().filter_map(|s| s.token).collect(),
        }))
    }
}

/// A game being played: its id and every seat's token.
struct Game {
    id: String,
    tokens: Vec<String>,
}

/// What a client reads of a game document: the rest (the view above all) is skipped
/// unparsed, as a lean bot would, so that the client's CPU stays off the service's two cores.
#[derive(Deserialize)]
struct Doc {
    status: String,
    version: i64,
    active_seats: Vec<usize>,
    legal_actions: Vec<Value>,
}

impl Doc {
    fn finished(&self) -> bool {
        self.status == "finished"
    }

    /// Whether `seat` may act in this document.
    fn lets(&self, seat: usize) -> bool {
        self.status == "active" && self.active_seats.contains(&seat)
    }
}

/// What a client reads of an action's answer: the caller's document after the action.
#[derive(Deserialize)]
struct Applied {
    game: Doc,
}

#[derive(Deserialize)]
struct Created {
    game_id: String,
    seats: Vec<CreatedSeat>,
}

#[derive(Deserialize)]
struct CreatedSeat {
    token: Option<String>,
}

/// The stable code of a problem answer.
#[derive(Deserialize)]
struct Problem {
    code: String,
}

fn short(e: &reqwest::Error) -> &'static str {
    if e.is_timeout() {
        "timeout"
    } else if e.is_connect() {
        "connect"
    } else {
        "other"
    }
}

/// Runs `clients` clients under `protocol` until `actions` action POSTs are sent.
pub async fn run(
    base: &str,
    protocol: Protocol,
    clients: usize,
    actions: usize,
    players: usize,
    seed: u64,
) -> anyhow::Result<Measured> {
    let load = Arc::new(Load {
        base: base.to_string(),
        players,
        budget: AtomicIsize::new(actions as isize),
        spent: watch::channel(false).0,
        tally: Mutex::new(Tally::default()),
    });
    let cpu_before = cpu_now();
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|i| {
            let seed = seed.wrapping_mul(1000).wrapping_add(i as u64);
            let load = load.clone();
            match protocol {
                Protocol::Poll => tokio::spawn(by_requests(load, false, seed)),
                Protocol::Act => tokio::spawn(by_requests(load, true, seed)),
                Protocol::Stream => tokio::spawn(by_streams(load, seed)),
                Protocol::Read => tokio::spawn(by_reads(load, seed)),
            }
        })
        .collect();
    for t in tasks {
        t.await??;
    }
    let elapsed = started.elapsed();
    let tally = std::mem::take(&mut *load.tally.lock().unwrap());
    Ok(Measured::new(tally, elapsed, cpu_before))
}

/// One client holding every seat of its game, learning the next move from requests: a poll
/// before every move, or (`chain`) only when the action's answer says the turn passed.
async fn by_requests(load: Arc<Load>, chain: bool, seed: u64) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game: Option<Arc<Game>> = None;
    // The seat the last answer said acts next (a game starts with seat 0).
    let mut expected_seat = 0;
    // The document to act on next, when an action's answer left the same seat active.
    let mut next: Option<Doc> = None;
    // The newest version of the game the client has seen.
    let mut known = 0;
    while load.has_budget() {
        let g = match &game {
            Some(g) => g.clone(),
            None => {
                let g = load.create_game(&http, &mut rng).await?;
                game = Some(g.clone());
                expected_seat = 0;
                known = 0;
                g
            }
        };
        let doc = match next.take() {
            Some(doc) => doc,
            None => {
                let mut doc = load.poll(&http, &g, expected_seat, known).await?;
                known = known.max(doc.version);
                if doc.finished() {
                    game = None;
                    continue;
                }
                let seat = *doc.active_seats.first().context("an active seat")?;
                if seat != expected_seat {
                    expected_seat = seat;
                    doc = load.poll(&http, &g, seat, known).await?;
                }
                doc
            }
        };
        if !load.claim() {
            break;
        }
        let Some(after) = load.act(&http, &g, expected_seat, &doc, &mut rng).await? else {
            continue; // refused: poll again
        };
        known = known.max(after.version);
        if after.finished() {
            game = None;
        } else if chain && after.lets(expected_seat) {
            next = Some(after);
        } else if let Some(&seat) = after.active_seats.first() {
            expected_seat = seat;
        }
    }
    Ok(())
}

/// Moves played on a spectator's game before the reads are counted.
const MOVES_BEFORE_READS: usize = 40;

/// A spectator: plays a game [`MOVES_BEFORE_READS`] moves in (uncounted), then reads its
/// document, naming its version, until the budget is spent.
async fn by_reads(load: Arc<Load>, seed: u64) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let game = load.create_game(&http, &mut rng).await?;
    let mut seat = 0;
    let mut version = 0;
    for _ in 0..MOVES_BEFORE_READS {
        let doc = load.poll(&http, &game, seat, version).await?;
        let Some(&active) = doc.active_seats.first() else {
            break;
        };
        seat = active;
        let doc = load.poll(&http, &game, seat, version).await?;
        let action = pick(&mut rng, &doc.legal_actions);
        let res = http
            .post(format!("{}/v1/games/{}/actions", load.base, game.id))
            .bearer_auth(&game.tokens[seat])
            .json(&json!({ "action": action, "expected_version": doc.version }))
            .send()
            .await?;
        if let Ok(applied) = res.json::<Applied>().await {
            version = applied.game.version;
        }
    }
    let url = format!("{}/v1/games/{}?after_version={version}", load.base, game.id);
    while load.claim() {
        load.count_request();
        let started = Instant::now();
        let res = http.get(&url).send().await;
        let outcome = match res {
            Ok(res) if res.status().is_success() => res
                .bytes()
                .await
                .map(|_| ())
                .map_err(|e| format!("transport error ({})", short(&e))),
            Ok(res) => Err(res.status().as_u16().to_string()),
            Err(e) => Err(format!("transport error ({})", short(&e))),
        };
        let elapsed = started.elapsed();
        let mut t = load.tally.lock().unwrap();
        match outcome {
            Ok(()) => t.latencies.push(elapsed),
            Err(what) => *t.failures.entry(what).or_default() += 1,
        }
    }
    Ok(())
}

/// One game after another, each seat played by its own stream-following client.
async fn by_streams(load: Arc<Load>, seed: u64) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while load.has_budget() {
        let game = load.create_game(&http, &mut rng).await?;
        let seats: Vec<_> = (0..load.players)
            .map(|seat| {
                let seed = seed.wrapping_mul(10).wrapping_add(seat as u64);
                tokio::spawn(seat_by_stream(load.clone(), game.clone(), seat, seed))
            })
            .collect();
        for s in seats {
            s.await??;
        }
    }
    Ok(())
}

/// A seat's client: acts from the action's answers while active, otherwise waits on its
/// stream for a newer version and reads its document again.
async fn seat_by_stream(
    load: Arc<Load>,
    game: Arc<Game>,
    seat: usize,
    seed: u64,
) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut spent = load.spent.subscribe();
    load.count_request();
    let res = http
        .get(format!("{}/v1/games/{}/stream", load.base, game.id))
        .bearer_auth(&game.tokens[seat])
        .send()
        .await?
        .error_for_status()?;
    let mut stream = Versions::new(res);
    let mut doc = load.poll(&http, &game, seat, 0).await?;
    loop {
        if doc.finished() {
            return Ok(());
        }
        if doc.lets(seat) {
            if !load.claim() {
                return Ok(());
            }
            doc = match load.act(&http, &game, seat, &doc, &mut rng).await? {
                Some(after) => after,
                None => load.poll(&http, &game, seat, doc.version).await?,
            };
            continue;
        }
        let announced = loop {
            tokio::select! {
                version = stream.next() => match version? {
                    Some(v) if v.version > doc.version && v.wakes(seat) => break v.version,
                    Some(_) => {}
                    None => bail!("the stream of game {} ended before the game", game.id),
                },
                _ = spent.wait_for(|spent| *spent) => return Ok(()),
            }
        };
        doc = load.poll(&http, &game, seat, announced).await?;
    }
}

/// A `version` message of the stream.
#[derive(Deserialize)]
struct StreamVersion {
    version: i64,
    status: String,
    active_seats: Vec<usize>,
}

impl StreamVersion {
    /// Whether `seat`'s client should read the game now: its turn, or the end.
    fn wakes(&self, seat: usize) -> bool {
        self.status != "active" || self.active_seats.contains(&seat)
    }
}

/// The `version` messages of a Server-Sent Events stream.
struct Versions {
    res: reqwest::Response,
    buf: Vec<u8>,
}

impl Versions {
    fn new(res: reqwest::Response) -> Versions {
        Versions {
            res,
            buf: Vec::new(),
        }
    }

    /// The next version announced; `None` when the stream ends.
    async fn next(&mut self) -> anyhow::Result<Option<StreamVersion>> {
        loop {
            if let Some(end) = self.buf.windows(2).position(|w| w == b"\n\n") {
                let message: Vec<u8> = self.buf.drain(..end + 2).collect();
                let text = std::str::from_utf8(&message)?;
                if text.lines().any(|l| l == "event: version") {
                    let data = text
                        .lines()
                        .find_map(|l| l.strip_prefix("data: "))
                        .context("a version message has data")?;
                    return Ok(Some(serde_json::from_str(data)?));
                }
                continue;
            }
            match self.res.chunk().await? {
                Some(bytes) => self.buf.extend_from_slice(&bytes),
                None => return Ok(None),
            }
        }
    }
}

/// One client holding both seats of one new game and playing up to `moves` moves of it by
/// the act protocol (acting from each action's answer while its seat stays active), after
/// `watch(game_id)` has attached the game's followers (what it returns comes back beside the
/// measurement). Ends early if the game does.
pub async fn play_watched<F, Fut, T>(
    base: &str,
    moves: usize,
    seed: u64,
    watch: F,
) -> anyhow::Result<(Measured, T)>
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<T>>,
{
    let load = Load {
        base: base.to_string(),
        players: 2,
        budget: AtomicIsize::new(moves as isize),
        spent: watch::channel(false).0,
        tally: Mutex::new(Tally::default()),
    };
    let http = reqwest::Client::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let game = load.create_game(&http, &mut rng).await?;
    let watching = watch(game.id.clone()).await?;
    let cpu_before = cpu_now();
    let started = Instant::now();
    let mut doc = load.poll(&http, &game, 0, 0).await?;
    while !doc.finished() && load.claim() {
        let seat = *doc.active_seats.first().context("an active seat")?;
        if !doc.lets(seat) || doc.legal_actions.is_empty() {
            doc = load.poll(&http, &game, seat, doc.version).await?;
        }
        doc = match load.act(&http, &game, seat, &doc, &mut rng).await? {
            Some(after) if after.lets(seat) => after,
            Some(after) => match after.active_seats.first() {
                Some(&next) => load.poll(&http, &game, next, after.version).await?,
                None => after,
            },
            None => load.poll(&http, &game, seat, doc.version).await?,
        };
    }
    let elapsed = started.elapsed();
    let tally = std::mem::take(&mut *load.tally.lock().unwrap());
    Ok((Measured::new(tally, elapsed, cpu_before), watching))
}
