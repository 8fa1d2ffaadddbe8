//! Two `server` processes on one database: a change made through one wakes a long poll on the
//! other (LISTEN/NOTIFY), and the launcher reports the port it bound.

use serde_json::Value;

mod common;
use common::{create_tycoon, move_active_seat, spawn_two_servers, test_db};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_through_one_process_wakes_a_long_poll_on_another() {
    let db = test_db().await;
    let (a, b) = spawn_two_servers(db.url(), &[]).await;
    let client = reqwest::Client::new();
    let game = create_tycoon(&client, &a.base, 1).await;
    let (id, version) = (&game.id, game.version);

    // The poll on B knows the current version; it can only come back with a newer one or,
    // after 30 s, with the same.
    let poll = {
        let (client, url) = (
            client.clone(),
            format!("{}/v1/games/{id}?wait=30&after_version={version}", b.base),
        );
        tokio::spawn(async move { client.get(url).send().await.unwrap() })
    };
    // Act only once the poll waits on B (it subscribes to changes before it counts as
    // waiting), so its answer can only come from A's change reaching B.
    common::wait_for("the long poll on B to wait", || async {
        (common::gauge(&client, &b.base, "long_polls_waiting").await == 1).then_some(())
    })
    .await;

    let moved = move_active_seat(&client, &a.base, &game, None, |legal| legal[0].clone())
        .await
        .expect("a move through A");
    assert_eq!(moved.expected, version);
    let new_version = moved.version();
    assert!(new_version > version);

    let res = poll.await.unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    let doc: Value = res.json().await.unwrap();
    assert_eq!(doc["version"], new_version, "B's poll saw A's change");
    drop((a, b));
}
