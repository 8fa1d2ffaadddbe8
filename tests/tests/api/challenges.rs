//! Challenges, rematches and blocks (issue 37): playing with the people you choose, each
//! outcome exactly once, bad requests refused with their code and nothing written.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, json_of, spawn_app, Player, TestApp};
use crate::sse::{self, Reader};

async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> reqwest::Response {
    let mut req = app.req(method, path, Some(token));
    if let Some(body) = body {
        req = req.json(&body);
    }
    req.send().await.unwrap()
}

async fn ok(app: &TestApp, method: Method, path: &str, token: &str, body: Option<Value>) -> Value {
    let (status, body) = json_of(send(app, method, path, token, body).await).await;
    assert!(status.is_success(), "{path}: {status} {body}");
    body
}

async fn challenge(app: &TestApp, from: &Player, body: Value) -> Value {
    let (status, body) =
        json_of(send(app, Method::POST, "/v1/challenges", &from.token, Some(body)).await).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

fn path(challenge: &Value, action: &str) -> String {
    let id = challenge["challenge_id"].as_str().unwrap();
    format!("/v1/challenges/{id}{action}")
}

/// The next notice of kind `kind` on a player's stream.
async fn notice(stream: &mut Reader, kind: &str) -> Value {
    loop {
        let m = stream.next().await;
        if m.event == kind {
            return m.data;
        }
    }
}

async fn list(app: &TestApp, player: &Player) -> Vec<Value> {
    ok(app, Method::GET, "/v1/challenges", &player.token, None).await["challenges"]
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_by_name_is_accepted_and_starts_the_game_with_everyone_told() {
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let mut bobs = sse::open(&app, "/v1/players/me/stream", Some(&bob.token), None).await;
    let mut anns = sse::open(&app, "/v1/players/me/stream", Some(&ann.token), None).await;

    let sent = challenge(
        &app,
        &ann,
        json!({"type": "tycoon", "players": ["bob"], "bots": ["random"], "entropy": "ann's"}),
    )
    .await;
    assert_eq!(sent["status"], "pending");
    let seats: Vec<(Value, Value, Value)> = sent["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["player_id"].clone(),
                s["bot"].clone(),
                s["accepted"].clone(),
            )
        })
        .collect();
    assert_eq!(
        seats,
        vec![
            (json!(ann.id), Value::Null, json!(true)),
            (json!(bob.id), Value::Null, json!(false)),
            (Value::Null, json!("random"), Value::Null),
        ]
    );
    let told = notice(&mut bobs, "challenge").await;
    assert_eq!(told["challenge_id"], sent["challenge_id"]);
    assert_eq!(told["challenger_name"], "Ann");

    // Both see it, each from its side.
    let received = ok(
        &app,
        Method::GET,
        "/v1/challenges?role=received&status=pending",
        &bob.token,
        None,
    )
    .await;
    assert_eq!(
        received["challenges"][0]["challenge_id"],
        sent["challenge_id"]
    );
    let sent_list = ok(
        &app,
        Method::GET,
        "/v1/challenges?role=sent",
        &ann.token,
        None,
    )
    .await;
    assert_eq!(sent_list["challenges"].as_array().unwrap().len(), 1);
    let none = ok(
        &app,
        Method::GET,
        "/v1/challenges?role=received",
        &ann.token,
        None,
    )
    .await;
    assert_eq!(none["challenges"], json!([]));

    // Accepting without a body starts the game; accepting again answers the same.
    let accepted = ok(
        &app,
        Method::POST,
        &path(&sent, "/accept"),
        &bob.token,
        None,
    )
    .await;
    assert_eq!(accepted["status"], "accepted");
    let game_id = accepted["game_id"].as_str().unwrap().to_string();
    let again = ok(
        &app,
        Method::POST,
        &path(&sent, "/accept"),
        &bob.token,
        Some(json!({})),
    )
    .await;
    assert_eq!(again["game_id"], accepted["game_id"]);
    for stream in [&mut anns, &mut bobs] {
        assert_eq!(
            notice(stream, "game_started").await["game_id"],
            game_id.as_str()
        );
    }
    let doc = ok(
        &app,
        Method::GET,
        &format!("/v1/games/{game_id}"),
        &ann.token,
        None,
    )
    .await;
    let players: Vec<Value> = doc["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player_id"].clone())
        .collect();
    assert_eq!(players, vec![json!(ann.id), json!(bob.id), Value::Null]);
    assert_eq!(doc["seats"][2]["bot"]["level"], "random");
    assert_eq!(doc["seat"], 0, "Ann's player token plays her seat");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declining_and_cancelling_end_a_challenge_once_and_tell_the_others() {
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let cid = app.create_player("Cid").await;
    let mut anns = sse::open(&app, "/v1/players/me/stream", Some(&ann.token), None).await;

    let first = challenge(
        &app,
        &ann,
        json!({"type": "acquire", "players": [bob.id, cid.id]}),
    )
    .await;
    // Only a challenged player declines; only the challenger cancels.
    assert_problem(
        send(
            &app,
            Method::POST,
            &path(&first, "/decline"),
            &ann.token,
            None,
        )
        .await,
        StatusCode::FORBIDDEN,
        "not_challenged",
    )
    .await;
    assert_problem(
        send(&app, Method::DELETE, &path(&first, ""), &bob.token, None).await,
        StatusCode::FORBIDDEN,
        "not_your_challenge",
    )
    .await;
    ok(
        &app,
        Method::POST,
        &path(&first, "/accept"),
        &cid.token,
        None,
    )
    .await;
    let declined = ok(
        &app,
        Method::POST,
        &path(&first, "/decline"),
        &bob.token,
        Some(json!({"reason": "too_slow"})),
    )
    .await;
    assert_eq!(declined["status"], "declined");
    assert_eq!(declined["decline_reason"], "too_slow");
    assert_eq!(declined["declined_by"], bob.id.as_str());
    let ended = notice(&mut anns, "challenge_ended").await;
    assert_eq!(
        (ended["status"].clone(), ended["reason"].clone()),
        (json!("declined"), json!("too_slow"))
    );
    for (token, method, action) in [
        (&cid.token, Method::POST, "/accept"),
        (&bob.token, Method::POST, "/decline"),
        (&ann.token, Method::DELETE, ""),
    ] {
        assert_problem(
            send(&app, method, &path(&first, action), token, None).await,
            StatusCode::CONFLICT,
            "challenge_not_pending",
        )
        .await;
    }

    let second = challenge(&app, &ann, json!({"type": "tycoon", "players": ["Bob"]})).await;
    let cancelled = ok(&app, Method::DELETE, &path(&second, ""), &ann.token, None).await;
    assert_eq!(cancelled["status"], "cancelled");
    assert_problem(
        send(
            &app,
            Method::POST,
            &path(&second, "/accept"),
            &bob.token,
            None,
        )
        .await,
        StatusCode::CONFLICT,
        "challenge_not_pending",
    )
    .await;
    // A stranger sees none of it.
    let eve = app.create_player("Eve").await;
    assert_problem(
        send(&app, Method::GET, &path(&second, ""), &eve.token, None).await,
        StatusCode::NOT_FOUND,
        "challenge_not_found",
    )
    .await;
    assert_eq!(list(&app, &eve).await, Vec::<Value>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_challenges_are_refused_with_their_code_and_write_nothing() {
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let cid = app.create_player("Cid").await;
    let dan = app.create_player("Dan").await;
    let eve = app.create_player("Eve").await;
    let cases = [
        (
            json!({"type": "tycoon", "players": ["Ann"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "challenge_yourself",
        ),
        (
            json!({"type": "tycoon", "players": ["Nobody Here"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_player",
        ),
        (
            json!({"type": "tycoon", "players": [uuid::Uuid::new_v4()]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_player",
        ),
        (
            json!({"type": "tycoon", "players": ["Bob", "bob"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_challenge",
        ),
        (
            json!({"type": "tycoon", "players": ["Bob", "Cid", "Dan", "Eve"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_seat_count",
        ),
        (
            json!({"type": "monopoly", "players": ["Bob"], "bots": ["greedy", "greedy", "greedy", "greedy", "greedy", "greedy", "greedy", "greedy", "greedy", "greedy"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_seat_count",
        ),
        (
            json!({"type": "tycoon", "players": ["Bob"], "bots": ["greedy"], "rated": true}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "rated_game_with_bots",
        ),
        (
            json!({"type": "chess", "players": ["Bob"]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_game_type",
        ),
        (
            json!({"type": "tycoon", "players": ["Bob"], "config": {"no_such_option": 1}}),
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            json!({"type": "tycoon", "players": []}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_seat_count",
        ),
        (
            json!({"type": "tycoon", "players": ["Bob"], "extra": 1}),
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
    ];
    for (body, status, code) in cases {
        let res = send(
            &app,
            Method::POST,
            "/v1/challenges",
            &ann.token,
            Some(body.clone()),
        )
        .await;
        let problem = assert_problem(res, status, code).await;
        assert!(problem["detail"].is_string(), "{body}: {problem}");
    }
    // A seat token is no player's.
    let game = app.create_game(2, 1).await;
    let res = send(
        &app,
        Method::POST,
        "/v1/challenges",
        &game.tokens[0],
        Some(json!({"type": "tycoon", "players": ["Bob"]})),
    )
    .await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);

    // Blocked, or taking none: one answer, which does not say which.
    ok(
        &app,
        Method::POST,
        "/v1/players/me/blocks",
        &bob.token,
        Some(json!({"player": "Ann"})),
    )
    .await;
    ok(
        &app,
        Method::PUT,
        "/v1/players/me/settings",
        &cid.token,
        Some(json!({"challenges_from": "nobody"})),
    )
    .await;
    for who in ["Bob", "Cid"] {
        let res = send(
            &app,
            Method::POST,
            "/v1/challenges",
            &ann.token,
            Some(json!({"type": "tycoon", "players": [who]})),
        )
        .await;
        let problem =
            assert_problem(res, StatusCode::UNPROCESSABLE_ENTITY, "challenges_refused").await;
        assert_eq!(
            problem["detail"],
            format!("{who} takes no challenges from you")
        );
    }
    // Others may still challenge Bob; Cid takes none from anyone.
    challenge(&app, &dan, json!({"type": "tycoon", "players": ["Bob"]})).await;
    for (who, status) in [
        ("Bob", StatusCode::CREATED),
        ("Cid", StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let res = send(
            &app,
            Method::POST,
            "/v1/challenges",
            &eve.token,
            Some(json!({"type": "tycoon", "players": [who]})),
        )
        .await;
        assert_eq!(res.status(), status, "Eve challenges {who}");
    }
    let blocks = ok(&app, Method::GET, "/v1/players/me/blocks", &bob.token, None).await;
    assert_eq!(
        blocks["players"],
        json!([{"player_id": ann.id, "name": "Ann"}])
    );
    assert_problem(
        send(
            &app,
            Method::POST,
            "/v1/players/me/blocks",
            &bob.token,
            Some(json!({"player": "Bob"})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "block_yourself",
    )
    .await;
    let res = send(
        &app,
        Method::DELETE,
        &format!("/v1/players/me/blocks/{}", ann.id),
        &bob.token,
        None,
    )
    .await;
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    assert_problem(
        send(
            &app,
            Method::DELETE,
            &format!("/v1/players/me/blocks/{}", ann.id),
            &bob.token,
            None,
        )
        .await,
        StatusCode::NOT_FOUND,
        "not_blocked",
    )
    .await;
    let settings = ok(
        &app,
        Method::GET,
        "/v1/players/me/settings",
        &cid.token,
        None,
    )
    .await;
    assert_eq!(settings, json!({"challenges_from": "nobody"}));

    // Nothing was written by the refusals: Ann sent no challenge at all.
    assert_eq!(list(&app, &ann).await, Vec::<Value>::new());
    challenge(&app, &ann, json!({"type": "tycoon", "players": ["Bob"]})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_rotates_the_seats_and_is_linked_from_the_old_game() {
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let first = challenge(&app, &ann, json!({"type": "tycoon", "players": ["Bob"], "clock": {"kind": "per_move", "seconds": 600}})).await;
    let accepted = ok(
        &app,
        Method::POST,
        &path(&first, "/accept"),
        &bob.token,
        None,
    )
    .await;
    let game_id = accepted["game_id"].as_str().unwrap().to_string();
    let rematch_path = format!("/v1/games/{game_id}/rematch");

    assert_problem(
        send(&app, Method::POST, &rematch_path, &bob.token, None).await,
        StatusCode::CONFLICT,
        "game_not_over",
    )
    .await;
    // Ann resigns: the game is over, Bob wins.
    ok(
        &app,
        Method::POST,
        &format!("/v1/games/{game_id}/seats/0/resign"),
        &ann.token,
        None,
    )
    .await;
    let eve = app.create_player("Eve").await;
    assert_problem(
        send(&app, Method::POST, &rematch_path, &eve.token, None).await,
        StatusCode::FORBIDDEN,
        "not_seated",
    )
    .await;
    let (status, rematch) =
        json_of(send(&app, Method::POST, &rematch_path, &bob.token, None).await).await;
    assert_eq!(status, StatusCode::CREATED, "{rematch}");
    assert_eq!(rematch["rematch_of"], game_id.as_str());
    assert_eq!(
        rematch["seats"][0]["player_id"],
        bob.id.as_str(),
        "every seat moved one on"
    );
    assert_eq!(rematch["seats"][1]["player_id"], ann.id.as_str());
    assert_eq!(rematch["clock"], accepted["clock"]);
    assert_problem(
        send(&app, Method::POST, &rematch_path, &ann.token, None).await,
        StatusCode::CONFLICT,
        "rematch_exists",
    )
    .await;
    let linked = ok(&app, Method::GET, &rematch_path, &eve.token, None).await;
    assert_eq!(linked["challenge_id"], rematch["challenge_id"]);
    let started = ok(
        &app,
        Method::POST,
        &path(&rematch, "/accept"),
        &ann.token,
        None,
    )
    .await;
    let second = started["game_id"].as_str().unwrap();
    let linked = ok(&app, Method::GET, &rematch_path, &eve.token, None).await;
    assert_eq!(linked["game_id"], second);
    let doc = ok(
        &app,
        Method::GET,
        &format!("/v1/games/{second}"),
        &bob.token,
        None,
    )
    .await;
    assert_eq!(doc["seat"], 0, "Bob has the first seat now");
    assert_eq!(
        (
            doc["clock"]["kind"].clone(),
            doc["clock"]["seconds"].clone()
        ),
        (json!("per_move"), json!(600))
    );
}

/// Games with a seat of `player`.
async fn games_of(app: &TestApp, player: &Player) -> usize {
    ok(
        app,
        Method::GET,
        "/v1/players/me/games",
        &player.token,
        None,
    )
    .await["games"]
        .as_array()
        .unwrap()
        .len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_answers_on_two_processes_have_one_outcome_and_never_two_games() {
    let app = spawn_app().await;
    let second = api::Application::build(api::Settings::for_tests(app.db.url()))
        .await
        .expect("a second process on the same database");
    let other = format!("http://{}", second.address());
    tokio::spawn(second.run());
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let cid = app.create_player("Cid").await;
    let mut started = 0;
    for round in 0..12 {
        let sent = challenge(
            &app,
            &ann,
            json!({"type": "tycoon", "players": ["Bob", "Cid"]}),
        )
        .await;
        let on = |base: &str, method: Method, action: &str, token: &str| {
            app.client
                .request(method, format!("{base}{}", path(&sent, action)))
                .bearer_auth(token)
                .send()
        };
        // Bob accepts on both processes at once, Cid accepts, and Ann cancels (on odd rounds).
        let (a, b, c, d) = tokio::join!(
            on(&app.base, Method::POST, "/accept", &bob.token),
            on(&other, Method::POST, "/accept", &bob.token),
            on(&other, Method::POST, "/accept", &cid.token),
            async {
                if round % 2 == 1 {
                    Some(on(&app.base, Method::DELETE, "", &ann.token).await)
                } else {
                    None
                }
            },
        );
        let mut games = std::collections::BTreeSet::new();
        for res in [a, b, c] {
            let (status, body) = json_of(res.unwrap()).await;
            match status {
                StatusCode::OK => {
                    if let Some(g) = body["game_id"].as_str() {
                        games.insert(g.to_string());
                    }
                }
                StatusCode::CONFLICT => assert_eq!(body["code"], "challenge_not_pending"),
                other => panic!("{other}: {body}"),
            }
        }
        let now = ok(&app, Method::GET, &path(&sent, ""), &ann.token, None).await;
        match now["status"].as_str().unwrap() {
            "accepted" => {
                started += 1;
                assert!(games.len() <= 1, "one game at most: {games:?}");
                if let Some(g) = games.iter().next() {
                    assert_eq!(now["game_id"], g.as_str());
                }
                if let Some(cancel) = d {
                    assert_eq!(cancel.unwrap().status(), StatusCode::CONFLICT);
                }
            }
            "cancelled" => {
                assert!(games.is_empty(), "a cancelled challenge made {games:?}");
                assert_eq!(d.unwrap().unwrap().status(), StatusCode::OK);
            }
            other => panic!("status {other}"),
        }
    }
    assert!(started >= 6, "every round without a cancel starts its game");
    assert_eq!(games_of(&app, &bob).await, started);
    assert_eq!(games_of(&app, &cid).await, started);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_not_answered_in_time_expires_and_takes_no_answer() {
    let app = crate::helpers::spawn_app_with(|s| {
        s.challenge_ttl = std::time::Duration::from_millis(300).into();
    })
    .await;
    let ann = app.create_player("Ann").await;
    let bob = app.create_player("Bob").await;
    let sent = challenge(&app, &ann, json!({"type": "tycoon", "players": ["Bob"]})).await;
    crate::helpers::wait_for("the challenge's expiry", || async {
        let now = ok(&app, Method::GET, &path(&sent, ""), &bob.token, None).await;
        (now["status"] == "expired").then_some(())
    })
    .await;
    assert_problem(
        send(
            &app,
            Method::POST,
            &path(&sent, "/accept"),
            &bob.token,
            None,
        )
        .await,
        StatusCode::CONFLICT,
        "challenge_not_pending",
    )
    .await;
    let expired = ok(
        &app,
        Method::GET,
        "/v1/challenges?status=expired",
        &ann.token,
        None,
    )
    .await;
    assert_eq!(
        expired["challenges"][0]["challenge_id"],
        sent["challenge_id"]
    );
    assert_eq!(expired["challenges"][0]["game_id"], Value::Null);
}
