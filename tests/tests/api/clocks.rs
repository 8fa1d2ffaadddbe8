//! Clocks (issue 21): a seat whose clock runs out is taken over by the server's bot (or
//! resigned), its player can reclaim it, Fischer banks add up exactly as the log's commit
//! times say, and `states/{seq}` gives every version's remaining times again.
//!
//! Clocks are 1 to 2 seconds, and the bots that take over are `random`, so that games end in
//! seconds; nothing here asserts on wall-clock time: the log's own timestamps are the truth.

use std::collections::BTreeMap;

use chrono::{DateTime, TimeDelta, Utc};
use rand_chacha::ChaCha8Rng;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{assert_problem, json_of, spawn_app, spawn_app_with, wait_for, Game, TestApp};
use tests::choose;

/// Creates a game of `type_` for `players` people with `config` and `clock`.
pub async fn create(
    app: &TestApp,
    type_: &str,
    players: usize,
    config: Value,
    clock: Value,
) -> (Game, Value) {
    let seats: Vec<Value> = (0..players)
        .map(|i| json!({ "name": format!("Player {i}") }))
        .collect();
    let (status, body) = json_of(
        app.req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": type_, "seats": seats, "config": config, "clock": clock, "seed": 21 }))
            .send()
            .await
            .unwrap(),
    )
    .await;
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

/// Waits until the game's status is `status`; its document then.
pub async fn wait_status(app: &TestApp, game: &Game, status: &str) -> Value {
    wait_for(&format!("the game to be {status}"), || async {
        let doc = app.document(game, None).await;
        (doc["status"] == status).then_some(doc)
    })
    .await
}

/// The lifecycle events of a log, as `(seq, created_at, event)`.
pub fn lifecycle(log: &[Value]) -> Vec<(i64, String, Value)> {
    const TYPES: [&str; 5] = [
        "seat_timed_out",
        "seat_resigned",
        "bot_took_over",
        "seat_reclaimed",
        "game_aborted",
    ];
    log.iter()
        .filter(|e| TYPES.contains(&e["event"]["type"].as_str().unwrap_or_default()))
        .map(|e| {
            (
                e["seq"].as_i64().unwrap(),
                e["created_at"].as_str().unwrap().to_string(),
                e["event"].clone(),
            )
        })
        .collect()
}

/// The first `version` message of the game's push stream after `after`.
async fn first_version_message(app: &TestApp, game: &Game, after: i64) -> Value {
    let mut res = app
        .req(
            Method::GET,
            &format!("/v1/games/{}/stream?after={after}", game.id),
            None,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let mut text = String::new();
    loop {
        if let Some(at) = text.find("event: version\n") {
            if let Some(line) = text[at..].lines().find_map(|l| l.strip_prefix("data: ")) {
                if text[at..].contains("\n\n") {
                    return serde_json::from_str(line).unwrap();
                }
            }
        }
        let chunk = res.chunk().await.unwrap().expect("the stream ended");
        text.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

fn time(v: &Value) -> DateTime<Utc> {
    v.as_str().unwrap().parse().unwrap()
}

/// Every seat is a person who never acts, with a 1-second clock per move: each times out in
/// turn, the server's random bot takes it over and the bots play the game to its end.
async fn every_absent_seat_times_out_and_the_bots_finish(
    type_: &str,
    players: usize,
    config: Value,
) {
    let app = spawn_app().await;
    let clock = json!({ "kind": "per_move", "seconds": 1, "bot": "random" });
    let (game, _) = create(&app, type_, players, config, clock).await;
    let doc = app.document(&game, Some(&game.tokens[0])).await;
    assert_eq!(
        doc["clock"],
        json!({ "kind": "per_move", "seconds": 1, "on_timeout": "bot", "bot": "random" })
    );
    let doc = wait_status(&app, &game, "finished").await;
    let log = app.all_events(&game, None).await;
    let seqs: Vec<i64> = log.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    assert_eq!(
        seqs,
        (1..=doc["version"].as_i64().unwrap()).collect::<Vec<_>>()
    );

    // Each seat timed out exactly once (its stand-in has no clock), and the takeover is in
    // the same commit, right after.
    let events = lifecycle(&log);
    assert_eq!(events.len(), 2 * players, "{events:?}");
    for pair in events.chunks(2) {
        let (seq, at, timed_out) = &pair[0];
        let seat = &timed_out["seat"];
        assert_eq!(
            timed_out,
            &json!({ "type": "seat_timed_out", "seat": seat })
        );
        assert_eq!(
            (&pair[1].0, &pair[1].1, &pair[1].2),
            (
                &(seq + 1),
                at,
                &json!({ "type": "bot_took_over", "seat": seat, "level": "random" })
            )
        );
    }
    let mut timed_out: Vec<u64> = events
        .iter()
        .filter(|(_, _, e)| e["type"] == "seat_timed_out")
        .map(|(_, _, e)| e["seat"].as_u64().unwrap())
        .collect();
    timed_out.sort();
    assert_eq!(timed_out, (0..players as u64).collect::<Vec<_>>());
    for seat in doc["seats"].as_array().unwrap() {
        assert_eq!(seat["status"], "taken_over", "{seat}");
        assert_eq!(seat["bot"]["level"], "random", "{seat}");
        assert_eq!(
            seat["clock"],
            json!({ "remaining_ms": 0, "running": false, "deadline": null })
        );
    }
    // Nobody played to the end: every seat is ranked as one that left.
    let outcome = &doc["outcome"];
    assert_eq!(outcome["ended_by"], "rules", "{outcome}");
    assert_eq!(outcome["winners"], json!([]), "{outcome}");
    assert_eq!(outcome["left"].as_array().unwrap().len(), players);
    assert!(outcome["left"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["reason"] == "timed_out"));
    assert_eq!(outcome["places"].as_array().unwrap().len(), players);
    // A person's action on a seat the bot held is refused: the game is over.
    let (status, body) = app
        .act(&game, 0, &json!({ "action": { "type": "end_turn" } }))
        .await;
    assert_problem_code(status, &body, "game_over");
}

#[tokio::test]
async fn tycoon_seats_that_time_out_are_taken_over_and_the_game_ends() {
    every_absent_seat_times_out_and_the_bots_finish("tycoon", 2, json!({})).await;
}

#[tokio::test]
async fn acquire_seats_that_time_out_are_taken_over_and_the_game_ends() {
    every_absent_seat_times_out_and_the_bots_finish("acquire", 2, json!({})).await;
}

#[tokio::test]
async fn monopoly_seats_that_time_out_are_taken_over_and_the_game_ends() {
    every_absent_seat_times_out_and_the_bots_finish("monopoly", 2, json!({ "round_limit": 3 }))
        .await;
}

#[tokio::test]
async fn tyros_seats_that_time_out_are_taken_over_and_the_game_ends() {
    every_absent_seat_times_out_and_the_bots_finish("tyros", 3, json!({})).await;
}

#[tokio::test]
async fn a_seat_taken_over_is_reclaimed_with_its_token_and_its_clock_starts_afresh() {
    // The bot waits 1.5 s before each move: the reclaim lands while the taken-over seat is
    // still the one the game waits for (the assertions hold either way).
    let app = spawn_app_with(|s| s.bot_move_delay_ms = 1500).await;
    let clock = json!({ "kind": "per_move", "seconds": 1 });
    let (game, _) = create(&app, "tycoon", 2, json!({}), clock).await;
    let taken = wait_for("seat 0 to be taken over", || async {
        let doc = app.document(&game, Some(&game.tokens[0])).await;
        (doc["seats"][0]["status"] == "taken_over").then_some(doc)
    })
    .await;
    assert_eq!(
        taken["seats"][0]["bot"]["level"], "greedy",
        "the default stand-in"
    );
    assert_eq!(taken["legal_actions"], json!([]), "the bot plays the seat");
    let path = format!("/v1/games/{}/seats/0/reclaim", game.id);

    // Only the seat's own token reclaims it.
    let res = app
        .req(Method::POST, &path, Some(&game.tokens[1]))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::FORBIDDEN, "not_your_seat").await;
    let res = app
        .req(
            Method::POST,
            &format!("/v1/games/{}/seats/1/reclaim", game.id),
            Some(&game.tokens[1]),
        )
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "seat_not_taken_over").await;

    let (status, body) = json_of(
        app.req(Method::POST, &path, Some(&game.tokens[0]))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let events = body["events"].as_array().unwrap();
    assert_eq!(events.len(), 1, "{body}");
    assert_eq!(
        events[0]["event"],
        json!({ "type": "seat_reclaimed", "seat": 0 })
    );
    assert_eq!(events[0]["seat"], 0, "asked for by seat 0");
    let reclaimed_at = time(&events[0]["created_at"]);
    let doc = &body["game"];
    let seat = &doc["seats"][0];
    assert_eq!(
        (&seat["status"], &seat["bot"]),
        (&json!("playing"), &Value::Null)
    );
    if doc["active_seats"] == json!([0]) {
        // The game waits for seat 0: a fresh move's time from the reclaim on.
        assert_eq!(
            seat["clock"],
            json!({ "remaining_ms": 1000, "running": true,
                    "deadline": (reclaimed_at + TimeDelta::seconds(1)).to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true) })
        );
        assert!(!doc["legal_actions"].as_array().unwrap().is_empty());
    } else {
        assert_eq!(
            seat["clock"],
            json!({ "remaining_ms": 1000, "running": false, "deadline": null })
        );
    }
    let res = app
        .req(Method::POST, &path, Some(&game.tokens[0]))
        .send()
        .await
        .unwrap();
    assert_problem(res, StatusCode::CONFLICT, "seat_not_taken_over").await;

    // The clock rules apply again: left alone, the seat times out a second time.
    wait_for("seat 0 to time out again", || async {
        let log = app.all_events(&game, None).await;
        let again = lifecycle(&log)
            .iter()
            .filter(|(_, _, e)| *e == json!({ "type": "seat_timed_out", "seat": 0 }))
            .count();
        (again == 2).then_some(())
    })
    .await;
}

/// Each seat's clock after the last of `commits`, computed here from the log alone: each
/// commit's time (its events' `created_at`) and the seats the game waited for after it.
/// Returns `(microseconds left as of the last commit, deadline while it runs)`.
fn fischer_clocks(
    commits: &BTreeMap<i64, (DateTime<Utc>, Vec<u64>)>,
    seats: usize,
    initial_us: i64,
    increment_us: i64,
) -> Vec<(i64, Option<DateTime<Utc>>)> {
    let mut bank = vec![initial_us; seats];
    let mut since: Vec<Option<DateTime<Utc>>> = vec![None; seats];
    for (at, awaited) in commits.values() {
        for seat in 0..seats {
            let waits = awaited.contains(&(seat as u64));
            match (since[seat], waits) {
                (Some(start), false) => {
                    let used = (*at - start).num_microseconds().unwrap();
                    bank[seat] = (bank[seat] - used).max(0) + increment_us;
                    since[seat] = None;
                }
                (None, true) => since[seat] = Some(*at),
                _ => {}
            }
        }
    }
    let (last, _) = commits.values().last().unwrap();
    (0..seats)
        .map(|s| match since[s] {
            Some(start) => (
                bank[s] - (*last - start).num_microseconds().unwrap(),
                Some(start + TimeDelta::microseconds(bank[s])),
            ),
            None => (bank[s], None),
        })
        .collect()
}

#[tokio::test]
async fn fischer_increments_add_up_exactly_as_the_log_says_and_every_state_replays_them() {
    let app = spawn_app().await;
    let clock = json!({ "kind": "fischer", "initial": 600, "increment": 7 });
    let (game, _) = create(&app, "tycoon", 2, json!({}), clock).await;
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(21);
    // Each version's document as its commit answered it.
    let mut answered: BTreeMap<i64, Value> = BTreeMap::new();
    let first = app.document(&game, None).await;
    // The stream's version message names the awaited seat's deadline, as the document does.
    let version = first["version"].as_i64().unwrap();
    let message = first_version_message(&app, &game, version - 1).await;
    let awaited = first["active_seats"][0].as_u64().unwrap() as usize;
    assert_eq!(
        message["deadlines"],
        json!([{ "seat": awaited, "deadline": first["seats"][awaited]["clock"]["deadline"] }])
    );
    answered.insert(version, first);
    for moves in 0..40 {
        let doc = app.document(&game, None).await;
        let seat = doc["active_seats"][0].as_u64().unwrap() as usize;
        let legal = app.legal(&game, seat).await;
        let action = choose(
            &mut rng,
            legal["actions"].as_array().unwrap(),
            legal["templates"].as_array().unwrap(),
        );
        // A little thinking now and then, so that stretches differ.
        if moves % 5 == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(30)).await;
        }
        let (status, body) = app
            .act(
                &game,
                seat,
                &json!({ "action": action, "expected_version": legal["version"] }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let doc = body["game"].clone();
        answered.insert(doc["version"].as_i64().unwrap(), doc);
    }

    // The log: each commit's time and the seats awaited after it (from its answer).
    let log = app.all_events(&game, None).await;
    let mut commits = BTreeMap::new();
    for (version, doc) in &answered {
        let at = log
            .iter()
            .find(|e| e["seq"] == *version)
            .map(|e| time(&e["created_at"]))
            .unwrap();
        let awaited = doc["active_seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        commits.insert(*version, (at, awaited));
    }
    // Commits are told apart by their times: strictly increasing, one per version.
    let times: Vec<_> = commits.values().map(|(t, _)| *t).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");

    let expected = fischer_clocks(&commits, 2, 600_000_000, 7_000_000);
    let last = answered.values().last().unwrap();
    for (seat, (left_us, deadline)) in expected.iter().enumerate() {
        let clock = &last["seats"][seat]["clock"];
        assert_eq!(
            clock["remaining_ms"],
            left_us.div_euclid(1000),
            "seat {seat}: {clock}"
        );
        assert_eq!(clock["running"], deadline.is_some(), "seat {seat}: {clock}");
        assert_eq!(
            clock["deadline"]
                .as_str()
                .map(|d| d.parse::<DateTime<Utc>>().unwrap()),
            *deadline,
            "seat {seat}: {clock}"
        );
    }
    // Both seats moved, and the increments were earned.
    assert!(
        expected.iter().any(|(left, _)| *left > 600_000_000),
        "{expected:?}"
    );

    // Every version's state, rebuilt from the log, shows the clocks its commit answered.
    for (version, doc) in &answered {
        let (status, state) = app
            .get_json(&format!("/v1/games/{}/states/{version}", game.id), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{state}");
        assert_eq!(state["seats"], doc["seats"], "version {version}");
        assert_eq!(
            state["active_seats"], doc["active_seats"],
            "version {version}"
        );
        assert_eq!(state["status"], "active");
    }
    // And a document read now is the last answer's (times are as of the commit).
    let now = app.document(&game, None).await;
    assert_eq!(now["seats"], last["seats"]);
}

#[tokio::test]
async fn a_clock_outside_its_bounds_or_of_an_unknown_kind_is_refused_and_nothing_is_created() {
    let app = spawn_app().await;
    for (clock, status, code) in [
        (
            json!({ "kind": "per_move", "seconds": 0 }),
            400,
            "invalid_clock",
        ),
        (
            json!({ "kind": "per_move", "seconds": 2_592_001 }),
            400,
            "invalid_clock",
        ),
        (
            json!({ "kind": "fischer", "initial": 0, "increment": 5 }),
            400,
            "invalid_clock",
        ),
        (
            json!({ "kind": "fischer", "initial": 60, "increment": 2_592_001 }),
            400,
            "invalid_clock",
        ),
        (
            json!({ "kind": "hourglass", "seconds": 60 }),
            400,
            "invalid_body",
        ),
        (json!({ "kind": "per_move" }), 400, "invalid_body"),
        (
            json!({ "kind": "per_move", "seconds": -1 }),
            400,
            "invalid_body",
        ),
        (
            json!({ "kind": "per_move", "seconds": 60, "on_timeout": "sulk" }),
            400,
            "invalid_body",
        ),
        (
            json!({ "kind": "none", "seconds": 60 }),
            400,
            "invalid_body",
        ),
    ] {
        let res = app
            .req(Method::POST, "/v1/games", None)
            .json(&json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "name": "B" }], "clock": clock }))
            .send()
            .await
            .unwrap();
        let body = assert_problem(res, StatusCode::from_u16(status).unwrap(), code).await;
        if code == "invalid_clock" {
            let detail = body["detail"].as_str().unwrap();
            assert!(detail.contains("2592000"), "the bounds are named: {detail}");
        }
    }
    let (_, list) = app.get_json("/v1/games", None).await;
    assert_eq!(list["games"], json!([]), "nothing was created");

    // The bounds themselves are fine, and the clock is shown in the list.
    for clock in [
        json!({ "kind": "per_move", "seconds": 1 }),
        json!({ "kind": "fischer", "initial": 2_592_000, "increment": 0, "on_timeout": "resign", "bot": "mcts" }),
        json!({ "kind": "none" }),
    ] {
        create(&app, "tycoon", 2, json!({}), clock).await;
    }
    let (_, list) = app.get_json("/v1/games", None).await;
    let clocks: Vec<&Value> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["clock"])
        .collect();
    assert_eq!(
        clocks,
        [
            &json!({ "kind": "none" }),
            &json!({ "kind": "fischer", "initial": 2_592_000, "increment": 0, "on_timeout": "resign", "bot": "mcts" }),
            &json!({ "kind": "per_move", "seconds": 1, "on_timeout": "bot", "bot": "greedy" }),
        ]
    );
}

#[tokio::test]
async fn a_timeout_with_on_timeout_resign_in_a_two_seat_game_hands_the_other_seat_the_win() {
    let app = spawn_app().await;
    let clock = json!({ "kind": "per_move", "seconds": 1, "on_timeout": "resign" });
    let (game, _) = create(&app, "acquire", 2, json!({}), clock).await;
    let doc = wait_status(&app, &game, "finished").await;
    let outcome = &doc["outcome"];
    let gone = outcome["left"][0]["seat"].as_u64().unwrap();
    assert_eq!(outcome["winners"], json!([1 - gone]), "{outcome}");
    assert_eq!(outcome["ended_by"], "resignation");
    assert_eq!(outcome["left"][0]["reason"], "resigned");
    assert_eq!(outcome["scores"], json!([]));
    let events = lifecycle(&app.all_events(&game, None).await);
    let kinds: Vec<&Value> = events.iter().map(|(_, _, e)| &e["type"]).collect();
    assert_eq!(kinds, [&json!("seat_timed_out"), &json!("seat_resigned")]);
    assert_eq!(doc["seats"][gone as usize]["status"], "resigned");
}

#[tokio::test]
async fn an_action_and_a_timeout_that_race_never_both_count() {
    let app = spawn_app().await;
    // Ann sends her last action of the move around her deadline, a little before or after:
    // exactly one of the two is written at that version, and her answer says which. An offset
    // is skipped when the machine was too slow to reach the deadline with the move unfinished,
    // and tried again, up to three times; at least one must have run.
    let mut ran = Vec::new();
    for offset_ms in [-40, -10, 0, 10, 40].into_iter().flat_map(|o| [o; 3]) {
        if ran.contains(&offset_ms) {
            continue;
        }
        let clock = json!({ "kind": "per_move", "seconds": 2, "bot": "random" });
        let (game, _) = create(&app, "tycoon", 2, json!({}), clock).await;
        // Ann's move up to its last action: a ticket, a flight, a hotel (a main action).
        let mut body = Value::Null;
        for _ in 0..6 {
            let legal = app.legal(&game, 0).await;
            let actions = legal["actions"].as_array().unwrap();
            let of = |t: &str| actions.iter().find(|a| a["type"] == t).cloned();
            if of("end_turn").is_some() {
                break;
            }
            let action = of("build_hotel")
                .or_else(|| of("fly"))
                .or_else(|| of("buy_ticket"))
                .expect("a ticket, a flight or a hotel");
            let (status, answer) = app
                .act(
                    &game,
                    0,
                    &json!({ "action": action, "expected_version": legal["version"] }),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            body = answer;
        }
        if body["game"]["seats"][0]["clock"]["running"] != true {
            // The machine was slow enough for the move's time to pass already.
            continue;
        }
        let version = body["game"]["version"].as_i64().unwrap();
        let deadline = time(&body["game"]["seats"][0]["clock"]["deadline"]);
        let at = deadline + TimeDelta::milliseconds(offset_ms);
        if let Ok(wait) = (at - Utc::now()).to_std() {
            tokio::time::sleep(wait).await;
        }
        let (status, answer) = app
            .act(
                &game,
                0,
                &json!({ "action": { "type": "end_turn" }, "expected_version": version }),
            )
            .await;
        let log = app.all_events(&game, None).await;
        let next = log
            .iter()
            .find(|e| e["seq"] == version + 1)
            .expect("something happened after the loan");
        if status == StatusCode::OK {
            assert_eq!(
                (&next["event"]["type"], &next["seat"]),
                (&json!("turn_ended"), &json!(0)),
                "offset {offset_ms}"
            );
        } else {
            assert_problem_code(status, &answer, "version_conflict");
            assert_eq!(
                next["event"],
                json!({ "type": "seat_timed_out", "seat": 0 }),
                "offset {offset_ms}"
            );
        }
        ran.push(offset_ms);
    }
    assert!(
        !ran.is_empty(),
        "every offset was skipped three times: the move's time always passed before its last \
         action could be timed"
    );
    eprintln!("offsets raced (ms): {ran:?}");
}

fn assert_problem_code(status: StatusCode, body: &Value, code: &str) {
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], code, "{body}");
}
