//! The push stream (`GET /v1/games/{id}/stream`, Server-Sent Events): the caller's events and
//! versions as they commit, resumable with `Last-Event-ID`, redacted like the log.

use diesel::RunQueryDsl;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::spawn_app;
use crate::sse::{self, Message};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_sends_the_log_then_each_new_event_and_version_as_it_commits() {
    let app = spawn_app().await;
    let game = app.create_game(2, 11).await;
    let path = format!("/v1/games/{}/stream", game.id);
    let mut seat = sse::open(&app, &path, Some(&game.tokens[0]), None).await;
    let mut spectator = sse::open(&app, &path, None, None).await;

    let doc = app.document(&game, None).await;
    let version = doc["version"].as_i64().unwrap();
    let first = seat.batch().await;
    let seqs: Vec<i64> = first
        .iter()
        .filter(|m| m.event == "game_event")
        .map(|m| m.id)
        .collect();
    assert_eq!(seqs, (1..=version).collect::<Vec<_>>());
    // Each event message names its game, so a typed client picks the game's event schema.
    assert!(first
        .iter()
        .filter(|m| m.event == "game_event")
        .all(|m| m.data["type"] == "tycoon" && m.data["seq"] == m.id));
    let last = first.last().unwrap();
    assert_eq!(
        (last.id, &last.data),
        (
            version,
            &json!({"type": "tycoon", "version": version, "status": "active", "active_seats": doc["active_seats"], "deadlines": []})
        )
    );
    // The spectator's stream is redacted like the spectator's log.
    let spectator_first = spectator.batch().await;
    let logged = app.all_events(&game, None).await;
    // The log's entries with the game type each stream message adds.
    let streamed: Vec<Value> = spectator_first
        .iter()
        .filter(|m| m.event == "game_event")
        .map(log_entry)
        .collect();
    assert_eq!(streamed, logged);

    // An action is pushed to both, with the new version.
    let mut rng = rand::SeedableRng::seed_from_u64(3);
    assert!(app.play_one(&game, &mut rng).await);
    let doc = app.document(&game, None).await;
    let now = doc["version"].as_i64().unwrap();
    let next = seat.batch().await;
    assert_eq!(next.first().unwrap().id, version + 1);
    assert_eq!(next.last().unwrap().data["version"], now);
    assert_eq!(
        next.last().unwrap().data["active_seats"],
        doc["active_seats"]
    );
    assert_eq!(spectator.batch().await.last().unwrap().id, now);
    let seat_events: Vec<Value> = next
        .iter()
        .filter(|m| m.event == "game_event")
        .map(log_entry)
        .collect();
    let seat_log = app.all_events(&game, Some(&game.tokens[0])).await;
    assert_eq!(seat_events, seat_log[version as usize..].to_vec());

    // Reconnecting with Last-Event-ID resumes after it.
    let mut resumed = sse::open(&app, &path, Some(&game.tokens[0]), Some(version)).await;
    let again = resumed.batch().await;
    assert_eq!(again.first().unwrap().id, version + 1);
    assert_eq!(again.last().unwrap().id, now);
    let mut from_query = sse::open(
        &app,
        &format!("{path}?after={now}"),
        Some(&game.tokens[0]),
        None,
    )
    .await;
    assert!(app.play_one(&game, &mut rng).await);
    let after = from_query.batch().await;
    assert_eq!(after.first().unwrap().id, now + 1);
}

/// A `game_event` message's data as the log's page lists it: without the game type, which
/// the page gives once for all its events.
fn log_entry(m: &Message) -> Value {
    let mut data = m.data.clone();
    data.as_object_mut().unwrap().remove("type");
    data
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_of_a_finished_game_with_nothing_left_answers_204() {
    let app = spawn_app().await;
    let game = app.create_game(2, 12).await;
    app.play_to_end(&game, 12, 2_000).await;
    let version = app.version(&game).await;
    let res = app
        .req(
            Method::GET,
            &format!("/v1/games/{}/stream?after={version}", game.id),
            None,
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    // From the start, the whole (now unredacted) log comes, then the stream ends.
    let res = app
        .req(Method::GET, &format!("/v1/games/{}/stream", game.id), None)
        .send()
        .await
        .unwrap();
    let text = res.text().await.unwrap();
    // The last message is the final version, with the reveal of the game's chance.
    let reveal = app.document(&game, None).await["chance"]["reveal"].clone();
    assert!(reveal.is_object());
    let last = json!({"type": "tycoon", "version": version, "status": "finished",
                      "active_seats": [], "deadlines": [], "chance_reveal": reveal});
    let block = text
        .trim_end()
        .rsplit("\n\n")
        .next()
        .expect("a last message");
    let data = block
        .strip_prefix(&format!("event: version\nid: {version}\ndata: "))
        .unwrap_or_else(|| panic!("the last message is the version: {block}"));
    assert_eq!(serde_json::from_str::<Value>(data).unwrap(), last);
}

/// A game last written before the active seats were stored beside the snapshot (migration 9)
/// has none stored: the stream reads them from the snapshot instead of announcing nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_written_before_active_seats_were_stored_still_announces_them() {
    let app = spawn_app().await;
    let game = app.create_game(2, 12).await;
    let doc = app.document(&game, None).await;
    assert_ne!(doc["active_seats"], json!([]));
    let id: uuid::Uuid = game.id.parse().unwrap();
    let mut conn = app.db.conn();
    diesel::sql_query("UPDATE games SET active_seats = '{}' WHERE id = $1")
        .bind::<diesel::sql_types::Uuid, _>(id)
        .execute(&mut conn)
        .unwrap();
    let path = format!("/v1/games/{}/stream", game.id);
    let mut seat = sse::open(&app, &path, Some(&game.tokens[1]), None).await;
    let version = seat.batch().await.pop().unwrap();
    assert_eq!(version.data["active_seats"], doc["active_seats"]);
}

/// A stream resumed past the game's version (`Last-Event-ID` or `?after=` larger than any id
/// it sent) would wait for ids that cannot come: it is refused instead of staying silent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_resumed_past_the_games_version_is_refused() {
    let app = spawn_app().await;
    let game = app.create_game(2, 13).await;
    let version = app.version(&game).await;
    let path = format!("/v1/games/{}/stream", game.id);
    let res = app
        .req(Method::GET, &path, None)
        .header("last-event-id", (version + 1).to_string())
        .send()
        .await
        .unwrap();
    crate::helpers::assert_problem(res, StatusCode::BAD_REQUEST, "invalid_seq").await;
    let res = app
        .req(
            Method::GET,
            &format!("{path}?after={}", version + 50),
            Some(&game.tokens[0]),
        )
        .send()
        .await
        .unwrap();
    crate::helpers::assert_problem(res, StatusCode::BAD_REQUEST, "invalid_seq").await;
    // At the version itself: a live stream that waits for the next event.
    let mut live = sse::open(&app, &format!("{path}?after={version}"), None, None).await;
    let mut rng = rand::SeedableRng::seed_from_u64(1);
    assert!(app.play_one(&game, &mut rng).await);
    assert_eq!(live.next().await.id, version + 1);
}
