//! The raw mode: the service's transaction shape straight against PostgreSQL, with the same
//! concurrency, as the yardstick the service is compared with.

use std::time::{Duration, Instant};

use anyhow::Context;
use diesel::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use tests::pick;
use uuid::Uuid;

use crate::measure::{cpu_now, Measured, Tally};

/// A realistic row: a Tycoon game 60 random moves in (its snapshot, one of its action events).
fn realistic_payload(players: usize) -> anyhow::Result<(db::JsonText, Value, Value)> {
    let kind = engine::registry::find("tycoon").context("tycoon is hosted")?;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut state, _) = kind.setup(&kind.info().default_config, players, &mut rng)?;
    let mut last = (json!({}), json!({}));
    for _ in 0..60 {
        if state.outcome().is_some() {
            break;
        }
        let seat = state.active_seats()[0];
        let legal = state.legal_actions(seat);
        let action = pick(&mut rng, &legal).clone();
        let events = state.apply(seat, &action, &mut rng)?;
        if let Some(e) = events.into_iter().last() {
            last = (action, e);
        }
    }
    Ok((db::JsonText::new(state.snapshot()), last.0, last.1))
}

/// The service's transaction shape without the service: lock the game row (reading it, as the
/// service must), insert one event, write the snapshot and version, commit.
pub async fn run_raw(url: &str, clients: usize, actions: usize) -> anyhow::Result<Measured> {
    use db::schema::{game_events, games};
    let (snapshot, action, event) = realistic_payload(2)?;
    let per_client = actions.div_ceil(clients);
    let url = url.to_string();
    tokio::task::spawn_blocking(move || -> anyhow::Result<Measured> {
        // One game row per client, created through the store like the service's.
        let mut conns = Vec::new();
        let mut ids = Vec::new();
        for _ in 0..clients {
            let mut conn = PgConnection::establish(&url)?;
            let id = Uuid::new_v4();
            db::store::create_game(
                &mut conn,
                db::store::NewGame {
                    id,
                    game_type: "tycoon".into(),
                    rules_version: 1,
                    config: json!({}),
                    rng_seed: db::RngSeed([0; 32]),
                    seats: vec![
                        db::store::NewSeat::Taken {
                            name: "raw0".into(),
                            token: db::token::new_token(),
                        },
                        db::store::NewSeat::Taken {
                            name: "raw1".into(),
                            token: db::token::new_token(),
                        },
                    ],
                    initial: Some(db::store::Decision {
                        events: vec![db::NewEvent::system(event.clone())],
                        snapshot: snapshot.clone(),
                        status: db::GameStatus::Active,
                        active_seats: vec![0],
                        bot_turn: None,
                        lifecycle: None,
                        deadline: Default::default(),
                        notices: Vec::new(),
                        finish: None,
                    }),
                    bot_game_limit: None,
                    clock: None,
                    open_ttl: std::time::Duration::from_secs(86_400),
                    rated: false,
                    chance_version: 1,
                    chance_seeded: false,
                    entropies: Vec::new(),
                    imported_from: None,
                },
            )
            .map_err(|e| anyhow::anyhow!("{e}"))?;
            conns.push(conn);
            ids.push(id);
        }
        let cpu_before = cpu_now();
        let started = Instant::now();
        let results: Vec<anyhow::Result<Vec<Duration>>> = std::thread::scope(|s| {
            let handles: Vec<_> = conns
                .iter_mut()
                .zip(&ids)
                .map(|(conn, &id)| {
                    let (snapshot, action, event) = (&snapshot, &action, &event);
                    s.spawn(move || -> anyhow::Result<Vec<Duration>> {
                        let mut lat = Vec::with_capacity(per_client);
                        for _ in 0..per_client {
                            let t = Instant::now();
                            conn.transaction(|c| {
                                let (version, _state): (i64, Option<db::JsonText>) = games::table
                                    .find(id)
                                    .select((games::version, games::snapshot))
                                    .for_update()
                                    .first(c)?;
                                diesel::insert_into(game_events::table)
                                    .values((
                                        game_events::game_id.eq(id),
                                        game_events::seq.eq(version + 1),
                                        game_events::seat.eq(Some(0)),
                                        game_events::action.eq(Some(action)),
                                        game_events::event.eq(event),
                                    ))
                                    .execute(c)?;
                                diesel::update(games::table.find(id))
                                    .set((
                                        games::snapshot.eq(Some(snapshot)),
                                        games::version.eq(version + 1),
                                        games::updated_at.eq(diesel::dsl::now),
                                    ))
                                    .execute(c)?;
                                Ok::<_, diesel::result::Error>(())
                            })?;
                            lat.push(t.elapsed());
                        }
                        Ok(lat)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let elapsed = started.elapsed();
        let mut tally = Tally::default();
        for r in results {
            tally.latencies.extend(r?);
        }
        Ok(Measured::new(tally, elapsed, cpu_before))
    })
    .await?
}
