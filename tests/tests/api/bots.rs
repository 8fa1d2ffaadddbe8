//! Seats played by the server's bots (issue 14): created or joined over HTTP, moving through
//! the ordinary action path by themselves, a person playing against them by polling.

use rand_chacha::ChaCha8Rng;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, json_of, spawn_app, spawn_app_with, wait_for, Game, TestApp};
use tests::choose;

/// Creates a game of `type_` with `seats` and returns it with its seat tokens (bot seats get
/// none: an empty string stands in).
async fn create(app: &TestApp, type_: &str, seats: Value) -> (Game, Value) {
    create_with(app, type_, json!({}), seats).await
}

/// As [`create`], with the game's `config`.
async fn create_with(app: &TestApp, type_: &str, config: Value, seats: Value) -> (Game, Value) {
    let res = app
        .req(Method::POST, "/v1/games", None)
        .json(&json!({ "type": type_, "config": config, "seats": seats }))
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let game = Game {
        id: body["game_id"].as_str().unwrap().to_string(),
        tokens: body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap_or_default().to_string())
            .collect(),
    };
    (game, body)
}

/// Every stored action event's seat, from the finished game's full log.
async fn acting_seats(app: &TestApp, game: &Game) -> Vec<i64> {
    app.all_events(game, None)
        .await
        .iter()
        .filter_map(|e| e["seat"].as_i64())
        .collect()
}

#[tokio::test]
async fn a_person_plays_a_game_against_bots_to_the_end_by_polling() {
    let app = spawn_app().await;
    let (game, created) = create(
        &app,
        "tycoon",
        json!([{ "bot": "random" }, { "name": "Ann" }, { "bot": "greedy" }]),
    )
    .await;
    assert_eq!(created["status"], "active");
    assert_eq!(created["seats"][0]["bot"]["level"], "random");
    assert!(created["seats"][0].get("token").is_none(), "{created}");
    let ann = game.tokens[1].clone();

    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(14);
    let mut my_moves = 0;
    let (_, mut doc) = app
        .get_json(&format!("/v1/games/{}", game.id), Some(&ann))
        .await;
    let doc = loop {
        let version = doc["version"].as_i64().unwrap();
        if doc["status"] == "finished" {
            break doc;
        }
        let mine = doc["active_seats"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s == 1);
        if !mine {
            // The bots' turn: wait for their move, as a client would.
            let (status, polled) = app
                .get_json(
                    &format!("/v1/games/{}?wait=10&after_version={version}", game.id),
                    Some(&ann),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{polled}");
            doc = polled;
            continue;
        }
        let action = choose(
            &mut rng,
            doc["legal_actions"].as_array().unwrap(),
            doc["action_templates"].as_array().unwrap(),
        );
        let (status, body) = app
            .act(
                &game,
                1,
                &json!({ "action": action, "expected_version": version }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{action} refused: {body}");
        doc = body["game"].clone();
        my_moves += 1;
        assert!(my_moves < 5_000, "the game did not end");
    };

    assert!(doc["outcome"]["winners"].as_array().is_some(), "{doc}");
    let kinds: Vec<&Value> = doc["seats"].as_array().unwrap().iter().collect();
    assert_eq!(kinds[0]["kind"], "bot");
    assert_eq!(
        kinds[0]["bot"],
        json!({ "level": "random", "budget_ms": null })
    );
    assert_eq!(kinds[1]["kind"], "human");
    assert_eq!(kinds[1]["bot"], Value::Null);
    assert_eq!(kinds[2]["bot"]["level"], "greedy");
    // Both bots moved, through the event log, as their own seats.
    let seats = acting_seats(&app, &game).await;
    assert!(seats.contains(&0) && seats.contains(&2), "{seats:?}");
    assert!(my_moves > 0);
}

/// Plays seat `me` of `game` as a person who polls and picks random moves (mostly listed
/// ones, now and then a filled-in template: a bid, an offer) until the game is over; a move
/// that lost a race with a bot's standing action (409) or a template the rules refuse is
/// chosen again. Returns the final document.
async fn play_as_a_person(app: &TestApp, game: &Game, me: usize, seed: u64) -> Value {
    let token = game.tokens[me].clone();
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(seed);
    let (_, mut doc) = app
        .get_json(&format!("/v1/games/{}", game.id), Some(&token))
        .await;
    for _ in 0..5_000 {
        let version = doc["version"].as_i64().unwrap();
        if doc["status"] == "finished" {
            return doc;
        }
        let mine = doc["active_seats"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s == me);
        if !mine {
            let (status, polled) = app
                .get_json(
                    &format!("/v1/games/{}?wait=10&after_version={version}", game.id),
                    Some(&token),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{polled}");
            doc = polled;
            continue;
        }
        let listed = doc["legal_actions"].as_array().unwrap();
        let templates = doc["action_templates"].as_array().unwrap();
        let action = if !listed.is_empty() && rand::Rng::random_bool(&mut rng, 0.9) {
            choose(&mut rng, listed, &[])
        } else {
            choose(&mut rng, listed, templates)
        };
        let from_template = !listed.contains(&action);
        let (status, body) = app
            .act(
                game,
                me,
                &json!({ "action": action, "expected_version": version }),
            )
            .await;
        match status {
            StatusCode::OK => doc = body["game"].clone(),
            StatusCode::CONFLICT => doc = app.document(game, Some(&token)).await,
            // A template filled in at random may ask what the rules refuse (an offer of
            // nothing, more than the person has): a person's slip, tried again.
            StatusCode::UNPROCESSABLE_ENTITY if from_template => {}
            _ => panic!("{action} refused: {body}"),
        }
    }
    panic!("the game did not end: {doc}");
}

#[tokio::test]
async fn a_person_plays_monopoly_and_tyros_against_greedy_and_mcts_bots_to_the_end() {
    let app = spawn_app().await;
    // Monopoly with a round limit, so that a person playing at random ends it too; ten rounds,
    // so that someone nearly always lands on a bot's square.
    let (monopoly, _) = create_with(
        &app,
        "monopoly",
        json!({ "round_limit": 10 }),
        json!([{ "bot": "greedy" }, { "name": "Ann" }, { "bot": "mcts", "budget_ms": 20 }]),
    )
    .await;
    let doc = play_as_a_person(&app, &monopoly, 1, 27).await;
    assert!(doc["outcome"]["winners"].as_array().is_some(), "{doc}");
    let events = app.all_events(&monopoly, None).await;
    let seats: Vec<i64> = events.iter().filter_map(|e| e["seat"].as_i64()).collect();
    assert!(seats.contains(&0) && seats.contains(&2), "both bots moved");
    // Bots claim their rents, also while the person is on turn: none of theirs lapses.
    let owner_of = |rent: &Value| {
        events
            .iter()
            .find(|e| e["event"]["type"] == "rent_owed" && e["event"]["rent"] == *rent)
            .map(|e| e["event"]["owner"].as_i64().unwrap())
    };
    for lapsed in events
        .iter()
        .filter(|e| e["event"]["type"] == "rent_lapsed")
    {
        assert_eq!(
            owner_of(&lapsed["event"]["rent"]),
            Some(1),
            "a bot's rent lapsed"
        );
    }
    let bot_claims = events
        .iter()
        .filter(|e| e["event"]["type"] == "rent_claimed")
        .filter(|e| owner_of(&e["event"]["rent"]) != Some(1))
        .count();
    // Whether anyone lands on a bot's square is chance (in six rounds one game in about
    // fifteen had no rent owed to a bot): the claims are reported, the lapses checked above.
    println!("monopoly: the bots claimed {bot_claims} rents in ten rounds");

    let (tyros, _) = create(
        &app,
        "tyros",
        json!([{ "name": "Bob" }, { "bot": "greedy" }, { "bot": "mcts", "budget_ms": 20 }]),
    )
    .await;
    let doc = play_as_a_person(&app, &tyros, 0, 28).await;
    assert!(doc["outcome"]["winners"].as_array().is_some(), "{doc}");
    let seats = acting_seats(&app, &tyros).await;
    assert!(seats.contains(&1) && seats.contains(&2), "both bots moved");
    assert_eq!(pending_bot_turns(&app), 0);
}

#[tokio::test]
async fn a_game_of_bots_only_plays_itself_to_the_end() {
    let app = spawn_app().await;
    let (game, created) = create(
        &app,
        "acquire",
        json!([{ "bot": "random" }, { "bot": "greedy" }, { "bot": "mcts", "budget_ms": 5 }]),
    )
    .await;
    assert_eq!(created["seats"][2]["bot"]["budget_ms"], 5);
    let doc = wait_for("the bots to finish their game", || async {
        let doc = app.document(&game, None).await;
        (doc["status"] == "finished").then_some(doc)
    })
    .await;
    assert!(doc["outcome"]["scores"].as_array().is_some(), "{doc}");
    let seats = acting_seats(&app, &game).await;
    for seat in 0..3 {
        assert!(seats.contains(&seat), "seat {seat} never moved: {seats:?}");
    }
    // Nothing is left in the queue of a finished game.
    assert_eq!(pending_bot_turns(&app), 0);
}

#[tokio::test]
async fn a_bot_takes_an_open_seat_and_its_budget_is_clamped_to_the_server_maximum() {
    let app = spawn_app().await;
    let (game, _) = create(&app, "tycoon", json!([{ "name": "Ann" }, { "open": true }])).await;
    let res = app
        .req(Method::POST, &format!("/v1/games/{}/seats", game.id), None)
        .json(&json!({ "bot": "mcts", "budget_ms": 3_600_000 }))
        .send()
        .await
        .unwrap();
    let (status, joined) = json_of(res).await;
    assert_eq!(status, StatusCode::CREATED, "{joined}");
    assert_eq!(joined["seat"], 1);
    assert_eq!(
        joined["status"], "active",
        "the last seat filled starts the game"
    );
    assert!(joined.get("token").is_none(), "{joined}");
    let max = api::Settings::for_tests("").bot_max_budget_ms;
    assert_eq!(joined["bot"], json!({ "level": "mcts", "budget_ms": max }));
    let doc = app.document(&game, None).await;
    assert_eq!(doc["seats"][1]["kind"], "bot");
    assert_eq!(doc["seats"][1]["name"], "mcts bot");

    // Neither a name and a bot, nor a budget without a bot.
    for body in [
        json!({ "name": "Bo", "bot": "random" }),
        json!({ "name": "Bo", "budget_ms": 10 }),
    ] {
        let res = app
            .req(Method::POST, &format!("/v1/games/{}/seats", game.id), None)
            .json(&body)
            .send()
            .await
            .unwrap();
        crate::helpers::assert_problem(res, StatusCode::UNPROCESSABLE_ENTITY, "invalid_seat").await;
    }
}

/// `--bot-max-games` caps games with a bot in every seat, created whole or filled by a bot
/// join; games with a person in them are never refused. This process moves no bots, so the
/// capped game stays running while the cap is tested.
#[tokio::test]
async fn games_of_bots_only_are_capped_and_games_with_people_are_not() {
    let app = spawn_app_with(|s| {
        s.bot_threads = 0;
        s.bot_max_games = 1;
    })
    .await;
    let bots_only = json!([{ "bot": "random" }, { "bot": "random" }]);
    create(&app, "tycoon", bots_only.clone()).await;
    let refused = app
        .req(Method::POST, "/v1/games", None)
        .json(&json!({ "type": "tycoon", "seats": bots_only }))
        .send()
        .await
        .unwrap();
    assert_problem(refused, StatusCode::CONFLICT, "bot_game_limit").await;

    // A bot may still play against a person, also by joining.
    create(
        &app,
        "acquire",
        json!([{ "name": "Ann" }, { "bot": "greedy" }]),
    )
    .await;
    let (with_person, _) =
        create(&app, "tycoon", json!([{ "name": "Ann" }, { "open": true }])).await;
    let join = |game: String| {
        app.req(Method::POST, &format!("/v1/games/{game}/seats"), None)
            .json(&json!({ "bot": "random" }))
            .send()
    };
    assert_eq!(
        join(with_person.id.clone()).await.unwrap().status(),
        StatusCode::CREATED
    );

    // A bot filling the last seat of a table of bots is the same as creating one.
    let (open, _) = create(
        &app,
        "tycoon",
        json!([{ "bot": "random" }, { "open": true }]),
    )
    .await;
    assert_problem(
        join(open.id.clone()).await.unwrap(),
        StatusCode::CONFLICT,
        "bot_game_limit",
    )
    .await;
    let doc = app.document(&open, None).await;
    assert_eq!(doc["status"], "open", "the refused join changed nothing");
}

/// Rows in the bot queue, by SQL.
fn pending_bot_turns(app: &TestApp) -> i64 {
    use diesel::prelude::*;
    db::schema::bot_turns::table
        .count()
        .get_result(&mut app.db.conn())
        .unwrap()
}
