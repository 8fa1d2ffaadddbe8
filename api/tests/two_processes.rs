//! Two `server` processes on one database: a change made through one wakes a long poll on the
//! other (LISTEN/NOTIFY), and the launcher reports the port it bound.

use serde_json::{json, Value};

mod common;
use common::start_server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_through_one_process_wakes_a_long_poll_on_another() {
    let db = tokio::task::spawn_blocking(db::testing::TestDb::new)
        .await
        .unwrap();
    let url = db.url().to_string();
    let (a, b) = tokio::task::spawn_blocking(move || {
        (
            start_server(&url, "warn", None),
            start_server(&url, "warn", None),
        )
    })
    .await
    .unwrap();
    let client = reqwest::Client::new();

    let created: Value = client
        .post(format!("{}/v1/games", a.base))
        .json(&json!({ "type": "tycoon", "seats": [{ "name": "A" }, { "name": "B" }], "seed": 1 }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["game_id"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();
    let version = created["version"].as_i64().unwrap();

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

    let legal = common::legal_actions(&client, &a.base, &id, &token).await;
    let res = client
        .post(format!("{}/v1/games/{id}/actions", a.base))
        .bearer_auth(&token)
        .json(&json!({ "action": legal["actions"][0], "expected_version": version }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    let acted: Value = res.json().await.unwrap();
    let new_version = acted["game"]["version"].as_i64().unwrap();
    assert!(new_version > version);

    let res = poll.await.unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    let doc: Value = res.json().await.unwrap();
    assert_eq!(doc["version"], new_version, "B's poll saw A's change");
    drop((a, b));
}
