//! Hidden information: the draw piles' order and the seed reach no seat or spectator before
//! the game ends (checked against the full state read with SQL).

use std::collections::BTreeSet;

use diesel::prelude::*;
use diesel::sql_types::{Bytea, Uuid as SqlUuid};
use rand_chacha::ChaCha8Rng;
use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::stored_snapshot;
use crate::helpers::{spawn_app, Game, TestApp};

#[derive(QueryableByName)]
struct Seed {
    #[diesel(sql_type = Bytea)]
    rng_seed: Vec<u8>,
}

fn face_down_tickets(snapshot: &Value) -> BTreeSet<String> {
    snapshot["decks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["draw"].as_array().unwrap().iter())
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

/// Every string anywhere in `v`.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out);
        }),
        _ => {}
    }
}

/// Everything each viewer can read now.
async fn everything_visible(app: &TestApp, game: &Game) -> Vec<(String, Value)> {
    let mut viewers: Vec<Option<&str>> = vec![None];
    viewers.extend(game.tokens.iter().map(|t| Some(t.as_str())));
    let version = app.version(game).await;
    let mut out = Vec::new();
    for (i, token) in viewers.into_iter().enumerate() {
        for path in [
            format!("/v1/games/{}", game.id),
            format!("/v1/games/{}/legal-actions", game.id),
            format!("/v1/games/{}/events?limit=1000", game.id),
            format!("/v1/games/{}/states/{version}", game.id),
            format!("/v1/games/{}/states/1", game.id),
            "/v1/games".to_string(),
        ] {
            let (_, body) = app.get_json(&path, token).await;
            out.push((format!("viewer {i} {path}"), body));
        }
        let stream = app
            .req(Method::GET, &format!("/v1/games/{}/events", game.id), token)
            .header("accept", "application/x-ndjson")
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        out.push((format!("viewer {i} ndjson"), Value::String(stream)));
    }
    // Errors too: a rule violation by a seat that is not active.
    let (_, err) = app
        .act(game, 1, &json!({ "action": { "type": "end_turn" } }))
        .await;
    out.push(("error".into(), err));
    out
}

fn assert_nothing_hidden_leaks(app: &TestApp, game: &Game, seen: &[(String, Value)]) {
    let snapshot = stored_snapshot(app, game);
    let secret = face_down_tickets(&snapshot);
    assert!(!secret.is_empty(), "the test needs face-down cards");
    let mut conn = app.db.conn();
    let id: uuid::Uuid = game.id.parse().unwrap();
    let seed = diesel::sql_query("SELECT rng_seed FROM games WHERE id = $1")
        .bind::<SqlUuid, _>(id)
        .get_result::<Seed>(&mut conn)
        .unwrap()
        .rng_seed;
    let seed_hex: String = seed.iter().map(|b| format!("{b:02x}")).collect();
    for (what, body) in seen {
        let mut all = Vec::new();
        strings(body, &mut all);
        let text = body.to_string();
        for s in &all {
            assert!(!secret.contains(s), "{what} shows face-down ticket {s}");
            assert_ne!(s, "order", "{what} carries a deck order");
        }
        if let Value::String(ndjson) = body {
            for t in &secret {
                assert!(
                    !ndjson.contains(&format!("\"{t}\"")),
                    "{what} shows face-down ticket {t}"
                );
            }
            assert!(!ndjson.contains("\"order\""), "{what} carries a deck order");
        }
        assert!(!text.contains(&seed_hex), "{what} shows the seed");
        assert!(!text.contains("rng_seed"), "{what} names the seed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_viewer_sees_the_deck_order_or_the_seed_before_the_game_ends() {
    let app = spawn_app().await;
    let game = app.create_game(3, 99).await;
    let seen = everything_visible(&app, &game).await;
    assert_nothing_hidden_leaks(&app, &game, &seen);

    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(99);
    for _ in 0..40 {
        assert!(
            app.play_one(&game, &mut rng).await,
            "the game ended too early for the test"
        );
    }
    let seen = everything_visible(&app, &game).await;
    assert_nothing_hidden_leaks(&app, &game, &seen);
}
