//! Followers of a game share one copy of it per process (issue 35): the database work a move
//! costs a process does not grow with the number of its followers, and each follower still
//! gets exactly its own view.
//!
//! The moves are made through a second process on the same database, so that the followers'
//! process learns of each move as any other process does (a LISTEN announcement) and must read
//! it; in the committing process itself the commit feeds the copy without a read. Costs are
//! counted with the server's `db_request_calls_total` (every database call made for a request,
//! the shared reads included), never timed.

use rand_chacha::ChaCha8Rng;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{json_of, spawn_app, Game, TestApp};
use crate::sse::{self, Reader};

/// Moves measured per phase.
const MOVES: usize = 12;

/// Another server process on `app`'s database, for the moves.
struct Mover {
    base: String,
    client: reqwest::Client,
}

impl Mover {
    async fn start(app: &TestApp) -> Mover {
        let second = api::Application::build(api::Settings::for_tests(app.db.url()))
            .await
            .expect("a second process on the same database");
        let base = format!("http://{}", second.address());
        tokio::spawn(second.run());
        Mover {
            base,
            client: app.client.clone(),
        }
    }

    async fn get(&self, path: &str, token: Option<&str>) -> Value {
        let mut req = self.client.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        let (status, body) = json_of(req.send().await.unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    /// One random move of the active seat; its new version.
    async fn play_one(&self, game: &Game, rng: &mut ChaCha8Rng) -> i64 {
        let doc = self.get(&format!("/v1/games/{}", game.id), None).await;
        assert_eq!(
            doc["status"], "active",
            "the game ended too soon for the test"
        );
        let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
        let token = &game.tokens[seat];
        let path = format!("/v1/games/{}/legal-actions", game.id);
        let legal = self.get(&path, Some(token)).await;
        let action = tests::choose(
            rng,
            legal["actions"].as_array().unwrap(),
            legal["templates"].as_array().unwrap(),
        );
        let res = self
            .client
            .request(
                Method::POST,
                format!("{}/v1/games/{}/actions", self.base, game.id),
            )
            .bearer_auth(token)
            .json(&json!({ "action": action, "expected_version": legal["version"] }))
            .send()
            .await
            .unwrap();
        let (status, body) = json_of(res).await;
        assert_eq!(status, StatusCode::OK, "{action} refused: {body}");
        body["game"]["version"].as_i64().unwrap()
    }
}

/// The database calls `app` has made for requests so far.
async fn db_calls(app: &TestApp) -> i64 {
    let text = testkit::metrics_text(&app.client, &app.base).await;
    testkit::metric(&text, "db_request_calls_total")
}

/// Reads `follower` up to the `version` message of `version`.
async fn catch_up(follower: &mut Reader, version: i64) {
    loop {
        let m = follower.next().await;
        if m.event == "version" && m.id >= version {
            return;
        }
    }
}

/// The database calls `app` makes for its followers over [`MOVES`] moves made elsewhere, each
/// counted once every follower has received it.
async fn cost_of_moves(
    app: &TestApp,
    mover: &Mover,
    game: &Game,
    followers: &mut [Reader],
    rng: &mut ChaCha8Rng,
) -> i64 {
    let before = db_calls(app).await;
    for _ in 0..MOVES {
        let version = mover.play_one(game, rng).await;
        for follower in followers.iter_mut() {
            catch_up(follower, version).await;
        }
    }
    db_calls(app).await - before
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_followers_cost_no_more_database_reads_per_move_than_one() {
    let app = spawn_app().await;
    let mover = Mover::start(&app).await;
    let game = app.create_game(2, 7).await;
    let path = format!("/v1/games/{}/stream", game.id);
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(5);
    let version = app.version(&game).await;

    let mut followers = vec![sse::open(&app, &path, None, None).await];
    catch_up(&mut followers[0], version).await;
    let one = cost_of_moves(&app, &mover, &game, &mut followers, &mut rng).await;
    assert!(
        one >= 1,
        "the followers' process reads the moves made elsewhere"
    );

    // Spectators and both seats, each with its own redaction.
    let version = app.version(&game).await;
    for i in 1..50 {
        let token = match i % 3 {
            0 => None,
            seat => Some(game.tokens[seat - 1].as_str()),
        };
        let mut follower = sse::open(&app, &path, token, None).await;
        catch_up(&mut follower, version).await;
        followers.push(follower);
    }
    let fifty = cost_of_moves(&app, &mover, &game, &mut followers, &mut rng).await;
    assert!(
        fifty <= one,
        "{MOVES} moves cost the followers' process {fifty} database calls with 50 followers, \
         {one} with one"
    );
}

/// Opens `n` long polls of `game` on `app` for a version newer than `version` and waits until
/// all of them wait (their first reads done).
async fn long_polls(
    app: &TestApp,
    game: &Game,
    version: i64,
    n: usize,
) -> Vec<tokio::task::JoinHandle<Value>> {
    let waiting_before = app.gauge("long_polls_waiting").await;
    let polls = (0..n)
        .map(|i| {
            let token = (i % 2 == 1).then(|| game.tokens[i % 4 / 2].clone());
            let req = app.req(
                Method::GET,
                &format!("/v1/games/{}?after_version={version}&wait=30", game.id),
                token.as_deref(),
            );
            tokio::spawn(async move { json_of(req.send().await.unwrap()).await.1 })
        })
        .collect();
    let want = waiting_before + n as i64;
    crate::helpers::wait_for("every long poll waiting", || async {
        (app.gauge("long_polls_waiting").await >= want).then_some(())
    })
    .await;
    polls
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_wakes_forty_long_polls_on_no_more_reads_than_one() {
    let app = spawn_app().await;
    let mover = Mover::start(&app).await;
    let game = app.create_game(2, 8).await;
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(6);
    let mut costs = Vec::new();
    for n in [1, 40] {
        let version = app.version(&game).await;
        let polls = long_polls(&app, &game, version, n).await;
        let before = db_calls(&app).await;
        let moved = mover.play_one(&game, &mut rng).await;
        for poll in polls {
            let doc = poll.await.unwrap();
            assert_eq!(doc["version"], moved, "woken with the new version: {doc}");
        }
        costs.push(db_calls(&app).await - before);
    }
    assert!(
        costs[1] <= costs[0],
        "waking 40 long polls cost {} database calls, waking one {}",
        costs[1],
        costs[0]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn followers_served_from_the_shared_copy_see_exactly_their_own_log() {
    let app = spawn_app().await;
    let mover = Mover::start(&app).await;
    let game = app.create_game_of("acquire", 3, 12, json!({})).await;
    let path = format!("/v1/games/{}/stream", game.id);
    let tokens: Vec<Option<&str>> = std::iter::once(None)
        .chain(game.tokens.iter().map(|t| Some(t.as_str())))
        .collect();
    let mut followers = Vec::new();
    for token in &tokens {
        followers.push(sse::open(&app, &path, *token, None).await);
    }
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(9);
    // Moves made elsewhere (read once by the followers' process) and here (fed by the commit).
    for i in 0..30 {
        if i % 2 == 0 {
            mover.play_one(&game, &mut rng).await;
        } else {
            app.play_one(&game, &mut rng).await;
        }
    }
    let version = app.version(&game).await;
    for (follower, token) in followers.iter_mut().zip(&tokens) {
        let mut streamed = Vec::new();
        loop {
            let m = follower.next().await;
            if m.event == "game_event" {
                let mut entry = m.data.clone();
                entry.as_object_mut().unwrap().remove("type");
                streamed.push(entry);
            }
            if m.event == "version" && m.id >= version {
                break;
            }
        }
        assert_eq!(
            streamed,
            app.all_events(&game, *token).await,
            "the stream of {token:?} is its log"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_that_name_a_version_come_from_the_shared_copy_of_a_followed_game() {
    let app = spawn_app().await;
    let game = app.create_game(2, 10).await;
    let path = format!("/v1/games/{}/stream", game.id);
    let mut follower = sse::open(&app, &path, None, None).await;
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(4);
    assert!(app.play_one(&game, &mut rng).await);
    let version = app.version(&game).await;
    catch_up(&mut follower, version).await;

    let tokens = [
        Some(game.tokens[0].as_str()),
        Some(game.tokens[1].as_str()),
        None,
    ];
    let mut shared = Vec::new();
    let before = db_calls(&app).await;
    for token in tokens {
        for read in [
            format!(
                "/v1/games/{}/legal-actions?after_version={version}",
                game.id
            ),
            format!("/v1/games/{}?after_version={version}", game.id),
        ] {
            let (status, body) = app.get_json(&read, token).await;
            assert_eq!(status, StatusCode::OK);
            shared.push(body);
        }
    }
    assert_eq!(
        db_calls(&app).await - before,
        0,
        "a followed game's copy answers reads that name a version it holds"
    );
    // What the database answers, for each viewer: the same.
    let mut read = Vec::new();
    for token in tokens {
        for path in [
            format!("/v1/games/{}/legal-actions", game.id),
            format!("/v1/games/{}", game.id),
        ] {
            read.push(app.get_json(&path, token).await.1);
        }
    }
    assert_eq!(shared, read);
}
