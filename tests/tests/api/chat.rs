//! Table chat (issue 37): two channels that never see each other, delivered through the
//! game's stream (in every process) and in pages, limits that refuse clearly and write
//! nothing, mutes, and nothing of it in the game's log or record.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, json_of, spawn_app, Player, TestApp};
use crate::sse::{self, Reader};

/// A game of Ann and Bob (by their player tokens) from an accepted challenge.
async fn table(app: &TestApp) -> (Player, Player, String) {
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let (_, challenge) = json_of(
        app.req(Method::POST, "/v1/challenges", Some(&ann.token))
            .json(&json!({"type": "tycoon", "players": ["Bob"]}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    let id = challenge["challenge_id"].as_str().unwrap();
    let (_, accepted) = json_of(
        app.req(
            Method::POST,
            &format!("/v1/challenges/{id}/accept"),
            Some(&bob.token),
        )
        .send()
        .await
        .unwrap(),
    )
    .await;
    (ann, bob, accepted["game_id"].as_str().unwrap().to_string())
}

async fn say(app: &TestApp, game: &str, token: Option<&str>, text: &str) -> reqwest::Response {
    app.req(Method::POST, &format!("/v1/games/{game}/chat"), token)
        .json(&json!({ "text": text }))
        .send()
        .await
        .unwrap()
}

async fn said(app: &TestApp, game: &str, token: &str, text: &str) -> Value {
    let (status, body) = json_of(say(app, game, Some(token), text).await).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

/// The texts of the caller's chat page.
async fn page(app: &TestApp, game: &str, token: Option<&str>) -> (String, Vec<String>) {
    let (status, body) = app.get_json(&format!("/v1/games/{game}/chat"), token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let texts = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_string())
        .collect();
    (body["channel"].as_str().unwrap().to_string(), texts)
}

/// The next chat message on `stream`, skipping the game's events.
async fn next_chat(stream: &mut Reader) -> Value {
    loop {
        let m = stream.next().await;
        if m.event == "chat" {
            assert_eq!(
                m.id, -1,
                "a chat message has no id: resuming stays on the game's events"
            );
            return m.data;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_spectators_chat_in_channels_that_never_meet() {
    let app = spawn_app().await;
    let (ann, bob, game) = table(&app).await;
    let eve = app.create_player("Eve").await;
    let stream = format!("/v1/games/{game}/stream");
    let mut bobs = sse::open(&app, &stream, Some(&bob.token), None).await;
    let mut eves = sse::open(&app, &stream, Some(&eve.token), None).await;
    let mut anonymous = sse::open(&app, &stream, None, None).await;

    let first = said(&app, &game, &ann.token, "Good luck <b>Bob</b>").await;
    assert_eq!(first["channel"], "players");
    assert_eq!(
        (first["seat"].clone(), first["name"].clone()),
        (json!(0), json!("Ann"))
    );
    assert_eq!(
        first["text"], "Good luck <b>Bob</b>",
        "plain text, kept as written"
    );
    let watching = said(&app, &game, &eve.token, "Ann will win").await;
    assert_eq!(watching["channel"], "spectators");
    assert_eq!(watching["seat"], Value::Null);

    let heard = next_chat(&mut bobs).await;
    assert_eq!(heard, first, "Bob hears Ann, and not Eve");
    assert_eq!(
        next_chat(&mut eves).await,
        watching,
        "Eve hears the spectators only"
    );
    assert_eq!(next_chat(&mut anonymous).await, watching);
    said(&app, &game, &bob.token, "thanks").await;
    assert_eq!(next_chat(&mut bobs).await["text"], "thanks");

    assert_eq!(
        page(&app, &game, Some(&ann.token)).await,
        (
            "players".into(),
            vec!["Good luck <b>Bob</b>".into(), "thanks".into()]
        )
    );
    assert_eq!(
        page(&app, &game, None).await,
        ("spectators".into(), vec!["Ann will win".into()])
    );
    assert_eq!(
        page(&app, &game, Some(&eve.token)).await,
        page(&app, &game, None).await
    );

    // Chat is not the game's: in no event, and in no record.
    let events = app
        .get_json(&format!("/v1/games/{game}/events"), Some(&ann.token))
        .await
        .1;
    let (_, record) = app
        .get_json(&format!("/v1/games/{game}/record"), Some(&ann.token))
        .await;
    for text in [events.to_string(), record.to_string()] {
        assert!(!text.contains("Good luck") && !text.contains("Ann will win"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_and_floods_are_refused_and_write_nothing() {
    let app = spawn_app().await;
    let (ann, bob, game) = table(&app).await;
    for text in ["", "   ", "two\nlines", "a\u{7}bell", &"x".repeat(501)] {
        assert_problem(
            say(&app, &game, Some(&ann.token), text).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_chat_message",
        )
        .await;
    }
    assert_problem(
        say(&app, &game, None, "hello").await,
        StatusCode::UNAUTHORIZED,
        "missing_token",
    )
    .await;
    let other = app.create_game(2, 3).await;
    assert_problem(
        say(&app, &game, Some(&other.tokens[0]), "hello").await,
        StatusCode::FORBIDDEN,
        "token_for_other_game",
    )
    .await;
    said(&app, &game, &ann.token, &"é".repeat(500)).await;
    for i in 1..5 {
        said(&app, &game, &ann.token, &format!("message {i}")).await;
    }
    let res = say(&app, &game, Some(&ann.token), "one too many").await;
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=10).contains(&retry), "Retry-After {retry}");
    assert_problem(res, StatusCode::TOO_MANY_REQUESTS, "chat_rate_limited").await;
    let (_, texts) = page(&app, &game, Some(&ann.token)).await;
    assert_eq!(texts.len(), 5, "only the messages accepted were written");
    // The limit is the sender's: Bob may still talk.
    said(&app, &game, &bob.token, "my turn to talk").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_muted_player_is_left_out_of_pages_and_streams() {
    let app = spawn_app().await;
    let (ann, bob, game) = table(&app).await;
    let res = app
        .req(Method::POST, "/v1/players/me/mutes", Some(&bob.token))
        .json(&json!({"player": "Ann"}))
        .send()
        .await
        .unwrap();
    let (status, mutes) = json_of(res).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        mutes["players"],
        json!([{"player_id": ann.id, "name": "Ann"}])
    );
    let mut bobs = sse::open(
        &app,
        &format!("/v1/games/{game}/stream"),
        Some(&bob.token),
        None,
    )
    .await;
    said(&app, &game, &ann.token, "can you hear me").await;
    said(&app, &game, &bob.token, "quiet here").await;
    assert_eq!(next_chat(&mut bobs).await["text"], "quiet here");
    assert_eq!(
        page(&app, &game, Some(&bob.token)).await.1,
        vec!["quiet here".to_string()]
    );
    assert_eq!(
        page(&app, &game, Some(&ann.token)).await.1.len(),
        2,
        "Ann's own view is whole"
    );

    let unmute = app
        .req(
            Method::DELETE,
            &format!("/v1/players/me/mutes/{}", ann.id),
            Some(&bob.token),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(unmute.status(), StatusCode::NO_CONTENT);
    assert_eq!(page(&app, &game, Some(&bob.token)).await.1.len(), 2);
    assert_problem(
        app.req(Method::POST, "/v1/players/me/mutes", Some(&bob.token))
            .json(&json!({"player": "Bob"}))
            .send()
            .await
            .unwrap(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "mute_yourself",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_posted_on_one_process_reaches_a_stream_on_another() {
    let app = spawn_app().await;
    let second = api::Application::build(api::Settings::for_tests(app.db.url()))
        .await
        .expect("a second process on the same database");
    let other = format!("http://{}", second.address());
    tokio::spawn(second.run());
    let (ann, bob, game) = table(&app).await;
    let mut bobs = sse::open(
        &app,
        &format!("/v1/games/{game}/stream"),
        Some(&bob.token),
        None,
    )
    .await;
    let res = app
        .client
        .post(format!("{other}/v1/games/{game}/chat"))
        .bearer_auth(&ann.token)
        .json(&json!({"text": "from elsewhere"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(next_chat(&mut bobs).await["text"], "from elsewhere");
}
