//! Seat tokens: stored only as their SHA-256, and a seat's token shows that seat nothing the
//! spectator does not see (Tycoon has no per-seat secrets), so no seat can read another
//! seat's hidden information.

use diesel::prelude::*;
use diesel::sql_types::{Bytea, Text, Uuid as SqlUuid};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::helpers::{spawn_app, Game, TestApp};

#[derive(QueryableByName)]
struct SeatRowText {
    #[diesel(sql_type = Text)]
    text: String,
    #[diesel(sql_type = Bytea)]
    hash: Vec<u8>,
}

/// `doc` without what is the caller's own: its `seat` and its `legal_actions`.
fn without_seat(mut doc: Value) -> Value {
    let fields = doc.as_object_mut().unwrap();
    fields.remove("seat");
    fields.remove("legal_actions");
    doc
}

async fn assert_seats_see_what_the_spectator_sees(app: &TestApp, game: &Game) {
    let version = app.version(game).await;
    let spectator = without_seat(app.document(game, None).await);
    let spectator_log = app.all_events(game, None).await;
    let (_, spectator_state) = app
        .get_json(&format!("/v1/games/{}/states/{version}", game.id), None)
        .await;
    for (seat, token) in game.tokens.iter().enumerate() {
        let doc = app.document(game, Some(token)).await;
        assert_eq!(doc["seat"], seat, "the document names the caller's seat");
        let legal = app.legal(game, seat).await;
        assert_eq!(
            doc["legal_actions"], legal["actions"],
            "the document lists the seat's own legal actions"
        );
        assert_eq!(without_seat(doc), spectator, "seat {seat}'s document");
        assert_eq!(
            app.all_events(game, Some(token)).await,
            spectator_log,
            "seat {seat}'s log"
        );
        let (_, state) = app
            .get_json(
                &format!("/v1/games/{}/states/{version}", game.id),
                Some(token),
            )
            .await;
        assert_eq!(
            without_seat(state),
            without_seat(spectator_state.clone()),
            "seat {seat}'s state"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_seat_sees_exactly_the_spectators_document_apart_from_its_seat_and_legal_actions() {
    let app = spawn_app().await;
    let game = app.create_game(4, 21).await;
    assert_seats_see_what_the_spectator_sees(&app, &game).await;
    let mut rng: ChaCha8Rng = rand::SeedableRng::seed_from_u64(21);
    for round in 0..3 {
        for _ in 0..15 {
            if !app.play_one(&game, &mut rng).await {
                break;
            }
        }
        assert_seats_see_what_the_spectator_sees(&app, &game).await;
        let _ = round;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_tokens_are_stored_only_as_their_sha256() {
    let app = spawn_app().await;
    let game = app.create_game(3, 5).await;
    let id: uuid::Uuid = game.id.parse().unwrap();
    let rows: Vec<SeatRowText> = diesel::sql_query(
        "SELECT s::text AS text, token_sha256 AS hash FROM seats s WHERE game_id = $1 ORDER BY seat",
    )
    .bind::<SqlUuid, _>(id)
    .load(&mut app.db.conn())
    .unwrap();
    assert_eq!(rows.len(), game.tokens.len());
    for (row, token) in rows.iter().zip(&game.tokens) {
        assert!(
            !row.text.contains(token.as_str()),
            "a token in plain text: {}",
            row.text
        );
        assert_eq!(row.hash, db::token::hash_token(token).to_vec());
    }
    // Nothing else in the database holds a token either.
    let everything: Vec<SeatRowText> = diesel::sql_query(
        "SELECT concat(g::text, (SELECT string_agg(e::text, '') FROM game_events e WHERE e.game_id = g.id)) AS text, \
                ''::bytea AS hash FROM games g",
    )
    .load(&mut app.db.conn())
    .unwrap();
    for row in &everything {
        for token in &game.tokens {
            assert!(!row.text.contains(token.as_str()));
        }
    }
}
