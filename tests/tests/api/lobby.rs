//! Creating, listing, joining and starting games; seat tokens and who may do what.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, spawn_app, stored_event_count, Game};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_catalogue_lists_tycoon_with_its_seat_range_and_default_config() {
    let app = spawn_app().await;
    let (status, body) = app.get_json("/v1/game-types", None).await;
    assert_eq!(status, StatusCode::OK);
    let tycoon = &body["game_types"][0];
    assert_eq!(tycoon["type"], "tycoon");
    assert_eq!(
        (tycoon["min_seats"].as_u64(), tycoon["max_seats"].as_u64()),
        (Some(2), Some(4))
    );
    assert!(tycoon["default_config"].is_object());
    assert!(tycoon["rules_version"].is_u64());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_begins_with_the_taken_seats_and_closes_the_open_ones() {
    let app = spawn_app().await;
    let res = app
        .req(Method::POST, "/v1/games", None)
        .json(&json!({ "type": "tycoon", "seats": [{ "name": "Ann" }, { "open": true }, { "open": true }, { "open": true }] }))
        .send()
        .await
        .unwrap();
    let created: Value = res.json().await.unwrap();
    let id = created["game_id"].as_str().unwrap().to_string();
    let ann = created["seats"][0]["token"].as_str().unwrap().to_string();
    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/seats"), None)
        .json(&json!({ "name": "Bob", "seat": 2 }))
        .send()
        .await
        .unwrap();
    let bob: Value = res.json().await.unwrap();
    let bob = bob["token"].as_str().unwrap().to_string();

    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/start"), Some(&ann))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let doc: Value = res.json().await.unwrap();
    assert_eq!(doc["status"], "active");
    assert_eq!(doc["seat"], 0);
    assert_eq!(
        doc["seats"],
        json!([
            { "seat": 0, "name": "Ann", "open": false, "kind": "human", "bot": null,
              "status": "playing", "clock": null, "player_id": null },
            { "seat": 1, "name": "Bob", "open": false, "kind": "human", "bot": null,
              "status": "playing", "clock": null, "player_id": null }
        ]),
        "open seats closed; Bob, who joined seat 2, plays second as seat 1"
    );
    assert_eq!(doc["view"]["players"].as_array().map(Vec::len), Some(2));
    let (status, bobs) = app.get_json(&format!("/v1/games/{id}"), Some(&bob)).await;
    assert_eq!((status, bobs["seat"].as_i64()), (StatusCode::OK, Some(1)));
    // A started game cannot start again.
    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/start"), Some(&ann))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "game_already_started").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_open_seats_starts_when_the_last_seat_is_joined() {
    let app = spawn_app().await;
    let res = app
        .req(Method::POST, "/v1/games", None)
        .json(&json!({ "type": "tycoon", "seats": [{ "name": "Ann" }, { "open": true }, { "open": true }] }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let created: Value = res.json().await.unwrap();
    assert_eq!(created["status"], "open");
    assert_eq!(created["version"], 0);
    assert!(created["seats"][1]["token"].is_null());
    let id = created["game_id"].as_str().unwrap().to_string();
    let ann = created["seats"][0]["token"].as_str().unwrap().to_string();

    // Starting with one seat taken is refused: Tycoon needs two.
    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/start"), Some(&ann))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "too_few_seats").await;
    // Acting before the start is refused.
    let game = Game {
        id: id.clone(),
        tokens: vec![ann.clone()],
    };
    let (status, body) = app
        .act(&game, 0, &json!({ "action": { "type": "end_turn" } }))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_not_started"))
    );

    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/seats"), None)
        .json(&json!({ "name": "Bob", "seat": 2 }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let bob: Value = res.json().await.unwrap();
    assert_eq!(
        (bob["seat"].as_i64(), bob["status"].as_str()),
        (Some(2), Some("open"))
    );
    assert_eq!(bob["token"].as_str().unwrap().len(), 64);

    // The seat is taken now.
    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/seats"), None)
        .json(&json!({ "name": "Eve", "seat": 2 }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "seat_taken").await;

    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/seats"), None)
        .json(&json!({ "name": "Cy" }))
        .send()
        .await
        .unwrap();
    let cy: Value = res.json().await.unwrap();
    assert_eq!(
        (cy["seat"].as_i64(), cy["status"].as_str()),
        (Some(1), Some("active"))
    );
    assert!(cy["version"].as_i64().unwrap() > 0);

    let res = app
        .req(Method::POST, &format!("/v1/games/{id}/seats"), None)
        .json(&json!({ "name": "Late" }))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "game_already_started").await;

    let (_, doc) = app
        .get_json(
            &format!("/v1/games/{id}"),
            Some(cy["token"].as_str().unwrap()),
        )
        .await;
    assert_eq!(doc["seat"], 1);
    assert_eq!(doc["status"], "active");
    assert_eq!(doc["seats"][1]["name"], "Cy");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listing_filters_by_status_and_pages_with_a_cursor_without_showing_tokens() {
    let app = spawn_app().await;
    for seed in 0..3 {
        app.create_game(2, seed).await;
    }
    app.req(Method::POST, "/v1/games", None)
        .json(&json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "open": true }] }))
        .send()
        .await
        .unwrap();
    let res = app
        .req(
            Method::GET,
            "/v1/games?status=active&type=tycoon&limit=2",
            None,
        )
        .send()
        .await
        .unwrap();
    let link = res.headers()["link"].to_str().unwrap().to_string();
    let page1: Value = res.json().await.unwrap();
    assert_eq!(page1["games"].as_array().unwrap().len(), 2);
    assert!(!page1.to_string().contains("token"));
    // The Link header is the next page, filters included.
    let next = link
        .strip_prefix('<')
        .and_then(|l| l.strip_suffix(">; rel=\"next\""))
        .unwrap_or_else(|| panic!("a next link: {link}"));
    let cursor = page1["next_cursor"].as_str().unwrap();
    assert!(next.contains(&format!("cursor={cursor}")), "{next}");
    assert!(
        next.contains("status=active") && next.contains("type=tycoon"),
        "{next}"
    );
    let (_, page2) = app.get_json(next, None).await;
    assert_eq!(page2["games"].as_array().unwrap().len(), 1);
    assert!(page2["next_cursor"].is_null());
    let (_, open) = app
        .get_json("/v1/games?status=open&type=tycoon", None)
        .await;
    assert_eq!(open["games"].as_array().unwrap().len(), 1);
    // Each listed game names who sits at its table, in seat order: the open seat has no name.
    assert_eq!(
        open["games"][0]["seats"],
        json!([
            {"seat": 0, "name": "A", "player_id": null, "bot": false},
            {"seat": 1, "name": null, "player_id": null, "bot": false},
        ])
    );
    for game in page1["games"].as_array().unwrap() {
        let seats: Vec<i64> = game["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["seat"].as_i64().unwrap())
            .collect();
        assert_eq!(seats, [0, 1], "{game}");
    }
}

/// `rated` and `clock` filter the list on the server, so a filtered page is a full page, and
/// the next page's link keeps them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listing_filters_by_rated_and_clock_and_the_next_link_keeps_them() {
    let app = spawn_app().await;
    let ann = app.create_player("Ann").await;
    let create = |body: Value, token: Option<&str>| {
        app.req(Method::POST, "/v1/games", token).json(&body).send()
    };
    let mut made = Vec::new();
    for body in [
        json!({"type": "tycoon", "seats": [{"name": "A"}, {"name": "B"}]}),
        json!({"type": "tycoon", "seats": [{"name": "A"}, {"name": "B"}],
               "clock": {"kind": "per_move", "seconds": 3600}}),
        json!({"type": "tycoon", "seats": [{"name": "A"}, {"name": "B"}],
               "clock": {"kind": "per_move", "seconds": 600}}),
        json!({"type": "tycoon", "seats": [{"name": "A"}, {"name": "B"}],
               "clock": {"kind": "fischer", "initial": 600, "increment": 5}}),
    ] {
        let res = create(body, None).await.unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        made.push(res.json::<Value>().await.unwrap()["game_id"].clone());
    }
    let res = create(
        json!({"type": "tycoon", "rated": true, "seats": [{"me": true}, {"open": true}]}),
        Some(&ann.token),
    )
    .await
    .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let rated = res.json::<Value>().await.unwrap()["game_id"].clone();

    let listed = |query: &'static str| {
        let app = &app;
        async move {
            let (status, body) = app.get_json(&format!("/v1/games?{query}"), None).await;
            assert_eq!(status, StatusCode::OK, "{query}: {body}");
            body["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["game_id"].clone())
                .collect::<Vec<_>>()
        }
    };
    // Newest first.
    assert_eq!(listed("rated=true").await, std::slice::from_ref(&rated));
    assert_eq!(
        listed("rated=false").await,
        [&made[3], &made[2], &made[1], &made[0]].map(Clone::clone)
    );
    assert_eq!(listed("clock=none").await, [rated, made[0].clone()]);
    assert_eq!(
        listed("clock=per_move").await,
        [made[2].clone(), made[1].clone()]
    );
    assert_eq!(listed("clock=fischer&rated=false").await, [made[3].clone()]);
    assert!(listed("clock=fischer&rated=true").await.is_empty());

    // A page of one per-move game links to the next with the filter kept.
    let res = app
        .req(
            Method::GET,
            "/v1/games?clock=per_move&rated=false&limit=1",
            None,
        )
        .send()
        .await
        .unwrap();
    let link = res.headers()["link"].to_str().unwrap().to_string();
    assert!(
        link.contains("clock=per_move") && link.contains("rated=false"),
        "{link}"
    );
    let next = &link[1..link.find('>').unwrap()];
    let (_, page2) = app.get_json(next, None).await;
    assert_eq!(page2["games"][0]["game_id"], made[1]);
    assert!(page2["next_cursor"].is_null(), "{page2}");

    for bad in ["rated=yes", "clock=hourglass"] {
        let res = app
            .req(Method::GET, &format!("/v1/games?{bad}"), None)
            .send()
            .await
            .unwrap();
        assert_problem(res, StatusCode::BAD_REQUEST, "invalid_query").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_unknown_and_foreign_tokens_are_refused_and_change_nothing() {
    let app = spawn_app().await;
    let game = app.create_game(2, 1).await;
    let other = app.create_game(2, 2).await;
    let version = app.version(&game).await;
    let events = stored_event_count(&app, &game);
    let legal = app.legal(&game, 0).await;
    let body = json!({ "action": legal["actions"][0] });
    let url = format!("/v1/games/{}/actions", game.id);

    let res = app
        .req(Method::POST, &url, None)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::UNAUTHORIZED, "missing_token").await;
    let res = app
        .req(Method::POST, &url, Some("not-a-token"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::UNAUTHORIZED, "invalid_token").await;
    let res = app
        .req(Method::POST, &url, None)
        .header("authorization", "Basic abc")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::UNAUTHORIZED, "invalid_token").await;
    let res = app
        .req(Method::POST, &url, Some(&other.tokens[0]))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::FORBIDDEN, "token_for_other_game").await;
    // Seat 1 acting on seat 0's turn.
    let (status, problem) = app.act(&game, 1, &body).await;
    assert_eq!(
        (status, problem["code"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("not_your_turn"))
    );
    // Reads with a bad token are refused too, not downgraded to spectator.
    let res = app
        .req(Method::GET, &format!("/v1/games/{}", game.id), Some("nope"))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::UNAUTHORIZED, "invalid_token").await;
    let res = app
        .req(
            Method::GET,
            &format!("/v1/games/{}/legal-actions", game.id),
            Some(&other.tokens[1]),
        )
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::FORBIDDEN, "token_for_other_game").await;
    let res = app
        .req(Method::POST, &format!("/v1/games/{}/start", game.id), None)
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::UNAUTHORIZED, "missing_token").await;

    // Spectators may look but have no actions.
    let (status, legal) = app
        .get_json(&format!("/v1/games/{}/legal-actions", game.id), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(legal["seat"].is_null());
    assert_eq!(legal["actions"], json!([]));

    assert_eq!(app.version(&game).await, version);
    assert_eq!(stored_event_count(&app, &game), events);
}
