//! Tournaments (issue 37): Swiss and knockout played to the end through the server's
//! workers, each round paired once (also with two processes taking steps), bad requests
//! refused with their code and nothing written.

use std::collections::BTreeSet;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, json_of, spawn_app, wait_for, Player, TestApp};

async fn call(
    app: &TestApp,
    base: &str,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = app.client.request(method, format!("{base}{path}"));
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    if let Some(body) = body {
        req = req.json(&body);
    }
    json_of(req.send().await.unwrap()).await
}

async fn players(app: &TestApp, n: usize) -> Vec<Player> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(app.create_player(&format!("Player {i}")).await);
    }
    out
}

/// A tournament organised by `by`, with `players` joined.
async fn tournament(app: &TestApp, by: &Player, players: &[Player], body: Value) -> String {
    let (status, created) = call(
        app,
        &app.base,
        Method::POST,
        "/v1/tournaments",
        Some(&by.token),
        Some(body),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["status"], "waiting");
    let id = created["tournament_id"].as_str().unwrap().to_string();
    for p in players {
        let (status, body) = call(
            app,
            &app.base,
            Method::POST,
            &format!("/v1/tournaments/{id}/players"),
            Some(&p.token),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    id
}

fn in_a_minute() -> String {
    (chrono::Utc::now() + chrono::Duration::minutes(1)).to_rfc3339()
}

async fn rounds(app: &TestApp, id: &str) -> Vec<Value> {
    let (status, body) = app
        .get_json(&format!("/v1/tournaments/{id}/rounds"), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    body["rounds"].as_array().unwrap().clone()
}

/// Ends every game of `round` still running: its players resign one after another (the
/// last one left, or the bots, win).
async fn finish_round(app: &TestApp, id: &str, round: usize, players: &[Player]) {
    let all = rounds(app, id).await;
    for table in all[round - 1]["tables"].as_array().unwrap() {
        let Some(game) = table["game_id"].as_str() else {
            continue;
        };
        for seat in table["seats"].as_array().unwrap() {
            let Some(player) = seat["player_id"].as_str() else {
                continue;
            };
            let token = &players.iter().find(|p| p.id == player).unwrap().token;
            let path = format!("/v1/games/{game}/seats/{}/resign", seat["seat"]);
            let (status, body) = call(app, &app.base, Method::POST, &path, Some(token), None).await;
            assert!(
                status == StatusCode::OK || body["code"] == "game_over",
                "{path}: {status} {body}"
            );
        }
    }
}

/// Waits until the tournament has reached `round` (or finished) and returns it.
async fn reached(app: &TestApp, id: &str, round: i64) -> Value {
    wait_for(&format!("tournament round {round}"), || async {
        let (_, t) = app.get_json(&format!("/v1/tournaments/{id}"), None).await;
        (t["round"].as_i64() >= Some(round) || t["status"] == "finished").then_some(t)
    })
    .await
}

/// Every player of a round sits exactly once: at one table, or with a bye.
fn seated_once(round: &Value, expected: usize) {
    let mut seen = BTreeSet::new();
    for table in round["tables"].as_array().unwrap() {
        for seat in table["seats"].as_array().unwrap() {
            if let Some(p) = seat["player_id"].as_str() {
                assert!(seen.insert(p.to_string()), "{p} sits twice in {round}");
            }
        }
    }
    assert_eq!(seen.len(), expected, "{round}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_six_player_swiss_with_bots_runs_two_rounds_to_its_standings() {
    let app = spawn_app().await;
    let six = players(&app, 6).await;
    let id = tournament(
        &app,
        &six[0],
        &six,
        json!({"name": "Tuesday Tycoon", "type": "tycoon", "clock": {"kind": "per_move", "seconds": 600},
               "format": "swiss", "rounds": 2, "table_size": 4, "fill_with_bots": true, "bot": "random",
               "starts_at": in_a_minute()}),
    )
    .await;
    let (status, started) = call(
        &app,
        &app.base,
        Method::POST,
        &format!("/v1/tournaments/{id}/start"),
        Some(&six[0].token),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{started}");
    assert_eq!(
        (started["status"].clone(), started["round"].clone()),
        (json!("running"), json!(1))
    );
    let first = &rounds(&app, &id).await[0];
    seated_once(first, 6);
    // Six players at tables of four: two tables of three, each with a bot.
    let tables = first["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    for table in tables {
        let seats = table["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 4);
        assert_eq!(
            seats.iter().filter(|s| s["player_id"].is_null()).count(),
            1,
            "one bot"
        );
    }
    // Joining now is too late.
    let late = app.create_player("Late").await;
    let res = app
        .req(
            Method::POST,
            &format!("/v1/tournaments/{id}/players"),
            Some(&late.token),
        )
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "tournament_started").await;

    finish_round(&app, &id, 1, &six).await;
    reached(&app, &id, 2).await;
    let both = rounds(&app, &id).await;
    assert!(both[0]["over"].as_bool().unwrap());
    seated_once(&both[1], 6);
    finish_round(&app, &id, 2, &six).await;
    let done = wait_for("the tournament's end", || async {
        let (_, t) = app.get_json(&format!("/v1/tournaments/{id}"), None).await;
        (t["status"] == "finished").then_some(t)
    })
    .await;
    let standings = done["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 6);
    assert!(standings.iter().all(|s| s["games"] == 2 && s["byes"] == 0));
    let points: Vec<i64> = standings
        .iter()
        .map(|s| s["points"].as_i64().unwrap())
        .collect();
    assert!(
        points.windows(2).all(|w| w[0] >= w[1]),
        "ranked by points: {points:?}"
    );
    assert_eq!(standings[0]["rank"], 1);
    // The players were told of each round and of the end.
    let notices = app
        .get_json("/v1/players/me/games", Some(&six[1].token))
        .await
        .1;
    assert_eq!(
        notices["games"].as_array().unwrap().len(),
        2,
        "two games for each player"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_knockout_sends_each_tables_better_half_on_until_one_table_is_left() {
    let app = spawn_app().await;
    let four = players(&app, 4).await;
    let id = tournament(
        &app,
        &four[0],
        &four,
        json!({"name": "Cup", "type": "tycoon", "clock": {"kind": "per_move", "seconds": 600},
               "format": "knockout", "table_size": 2, "starts_at": in_a_minute()}),
    )
    .await;
    let (status, _) = call(
        &app,
        &app.base,
        Method::POST,
        &format!("/v1/tournaments/{id}/start"),
        Some(&four[1].token),
        None,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "only the organiser starts it early"
    );
    call(
        &app,
        &app.base,
        Method::POST,
        &format!("/v1/tournaments/{id}/start"),
        Some(&four[0].token),
        None,
    )
    .await;
    let first = &rounds(&app, &id).await[0];
    assert_eq!(first["tables"].as_array().unwrap().len(), 2);
    finish_round(&app, &id, 1, &four).await;
    reached(&app, &id, 2).await;
    let both = rounds(&app, &id).await;
    let finalists: BTreeSet<String> = both[1]["tables"][0]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        both[1]["tables"].as_array().unwrap().len(),
        1,
        "one table left"
    );
    // The winners of round 1 (each table's second seat: its first resigned first) play on.
    for table in both[0]["tables"].as_array().unwrap() {
        let winner = table["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["place"] == 1)
            .unwrap();
        assert!(finalists.contains(winner["player_id"].as_str().unwrap()));
    }
    finish_round(&app, &id, 2, &four).await;
    let done = wait_for("the knockout's end", || async {
        let (_, t) = app.get_json(&format!("/v1/tournaments/{id}"), None).await;
        (t["status"] == "finished").then_some(t)
    })
    .await;
    let standings = done["standings"].as_array().unwrap();
    assert_eq!(
        standings[0]["out_in_round"],
        Value::Null,
        "the winner never went out"
    );
    assert!(finalists.contains(standings[0]["player_id"].as_str().unwrap()));
    assert!(finalists.contains(standings[1]["player_id"].as_str().unwrap()));
    assert_eq!(standings[2]["out_in_round"], 1);
    assert_eq!(standings[3]["out_in_round"], 1);
    // Read as games are: tagged, 304 for a client that has it, immutable once over.
    for path in [
        format!("/v1/tournaments/{id}"),
        format!("/v1/tournaments/{id}/rounds"),
    ] {
        let res = app.req(Method::GET, &path, None).send().await.unwrap();
        let etag = res.headers()["etag"].to_str().unwrap().to_string();
        let control = res.headers()["cache-control"].to_str().unwrap().to_string();
        assert!(control.contains("immutable"), "{path}: {control}");
        let again = app
            .req(Method::GET, &path, None)
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_tournaments_are_refused_with_their_code_and_write_nothing() {
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let base = json!({"name": "T", "type": "tycoon", "clock": {"kind": "per_move", "seconds": 60},
                      "format": "swiss", "rounds": 2, "table_size": 4, "starts_at": in_a_minute()});
    let with = |change: Value| {
        let mut body = base.clone();
        for (k, v) in change.as_object().unwrap() {
            if v.is_null() {
                body.as_object_mut().unwrap().remove(k);
            } else {
                body[k] = v.clone();
            }
        }
        body
    };
    for (body, status, code) in [
        (
            with(json!({"table_size": 5})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_table_size",
        ),
        (
            with(json!({"type": "monopoly", "table_size": 1})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_table_size",
        ),
        (
            with(json!({"rounds": null})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_tournament",
        ),
        (
            with(json!({"rounds": 21})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_tournament",
        ),
        (
            with(json!({"format": "knockout"})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_tournament",
        ),
        (
            with(json!({"rated": true, "fill_with_bots": true})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "rated_game_with_bots",
        ),
        (
            with(json!({"clock": null})),
            StatusCode::BAD_REQUEST,
            "invalid_body",
        ),
        (
            with(json!({"type": "chess"})),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_game_type",
        ),
    ] {
        let res = app
            .req(Method::POST, "/v1/tournaments", Some(&ann.token))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_problem(res, status, code).await;
    }
    let (_, list) = app.get_json("/v1/tournaments", None).await;
    assert_eq!(list["tournaments"], json!([]), "nothing was written");

    let (status, created) = call(
        &app,
        &app.base,
        Method::POST,
        "/v1/tournaments",
        Some(&ann.token),
        Some(base.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = created["tournament_id"].as_str().unwrap();
    let bob = app.create_player("Bob").await;
    let res = app
        .req(
            Method::DELETE,
            &format!("/v1/tournaments/{id}/players/me"),
            Some(&bob.token),
        )
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "not_in_tournament").await;
    // Alone at its start, a tournament is cancelled.
    call(
        &app,
        &app.base,
        Method::POST,
        &format!("/v1/tournaments/{id}/players"),
        Some(&bob.token),
        None,
    )
    .await;
    let (_, left) = call(
        &app,
        &app.base,
        Method::DELETE,
        &format!("/v1/tournaments/{id}/players/me"),
        Some(&bob.token),
        None,
    )
    .await;
    assert_eq!(left["standings"], json!([]));
    let (_, started) = call(
        &app,
        &app.base,
        Method::POST,
        &format!("/v1/tournaments/{id}/start"),
        Some(&ann.token),
        None,
    )
    .await;
    assert_eq!(started["status"], "cancelled");
    let res = app
        .req(
            Method::GET,
            &format!("/v1/tournaments/{}", uuid::Uuid::new_v4()),
            None,
        )
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::NOT_FOUND, "tournament_not_found").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_take_each_step_of_a_tournament_once() {
    let app = spawn_app().await;
    let second = api::Application::build(api::Settings::for_tests(app.db.url()))
        .await
        .expect("a second process on the same database");
    let other = format!("http://{}", second.address());
    tokio::spawn(second.run());
    let eight = players(&app, 8).await;
    // It starts by its time, which both processes' workers watch.
    let soon = (chrono::Utc::now() + chrono::Duration::milliseconds(500)).to_rfc3339();
    let id = tournament(
        &app,
        &eight[0],
        &eight,
        json!({"name": "Race", "type": "tycoon", "clock": {"kind": "per_move", "seconds": 600},
               "format": "swiss", "rounds": 3, "table_size": 3, "starts_at": soon}),
    )
    .await;
    for round in 1..=3 {
        reached(&app, &id, round).await;
        let all = rounds(&app, &id).await;
        assert_eq!(all.len(), round as usize, "round {round} paired once");
        // Eight players at tables of three: tables of 3, 3 and 2 (Tycoon seats two).
        seated_once(&all[round as usize - 1], 8);
        let (_, seen_elsewhere) = call(
            &app,
            &other,
            Method::GET,
            &format!("/v1/tournaments/{id}/rounds"),
            None,
            None,
        )
        .await;
        assert_eq!(
            seen_elsewhere["rounds"].as_array().unwrap().len(),
            round as usize
        );
        finish_round(&app, &id, round as usize, &eight).await;
    }
    let done = wait_for("the tournament's end", || async {
        let (_, t) = app.get_json(&format!("/v1/tournaments/{id}"), None).await;
        (t["status"] == "finished").then_some(t)
    })
    .await;
    for s in done["standings"].as_array().unwrap() {
        assert_eq!(
            s["games"].as_i64().unwrap() + s["byes"].as_i64().unwrap(),
            3,
            "{s}"
        );
    }
    // Each player's games: exactly one per round it played.
    for p in &eight {
        let (_, games) = app.get_json("/v1/players/me/games", Some(&p.token)).await;
        assert_eq!(games["games"].as_array().unwrap().len(), 3);
    }
}
