//! The import page (issue 36): a downloaded record is verified and imported and its replay
//! opens; a changed record is refused with the move that fails, and nothing is imported.

use fantoccini::Locator;
use reqwest::Method;
use serde_json::{json, Value};

use super::{Browser, Chromedriver, BROWSER_SLOTS};
use crate::helpers::spawn_app;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_is_verified_imported_and_replayed_from_the_import_page() {
    let _one = BROWSER_SLOTS.acquire().await.unwrap();
    let app = spawn_app().await;
    let game = app.create_game(2, 5).await;
    let mut rng: rand_chacha::ChaCha8Rng = rand::SeedableRng::seed_from_u64(5);
    for _ in 0..8 {
        app.play_one(&game, &mut rng).await;
    }
    let res = app
        .req(
            Method::POST,
            &format!("/v1/games/{}/seats/0/resign", game.id),
            Some(&game.tokens[0]),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let (_, record) = app
        .get_json(&format!("/v1/games/{}/record", game.id), None)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("record.json");
    std::fs::write(&good, serde_json::to_vec(&record).unwrap()).unwrap();
    let mut changed: Value = record.clone();
    changed["moves"][1]["events"] = json!([]);
    let bad = dir.path().join("changed.json");
    std::fs::write(&bad, serde_json::to_vec(&changed).unwrap()).unwrap();

    let driver = Chromedriver::start().await;
    let page = Browser::open(&driver, &app, "import", (1280, 900)).await;
    let open_import = || async {
        page.goto("/import").await;
        page.wait_until(
            "the import page shows",
            "return !!document.getElementById('import-file');",
            vec![],
        )
        .await;
    };
    let choose = |path: std::path::PathBuf| {
        let client = page.client.clone();
        async move {
            let input = client
                .find(Locator::Css("#import-file"))
                .await
                .expect("the file input");
            input
                .send_keys(path.to_str().unwrap())
                .await
                .expect("choose the file");
        }
    };

    open_import().await;
    choose(bad).await;
    page.wait_until(
        "the changed record is refused",
        "return !!document.getElementById('import-refused');",
        vec![],
    )
    .await;
    let refused = page
        .js(
            "return document.getElementById('import-refused').textContent;",
            vec![],
        )
        .await;
    assert!(refused.as_str().unwrap().contains("move 1"), "{refused}");
    let (_, list) = app.get_json("/v1/games", None).await;
    assert_eq!(
        list["games"].as_array().unwrap().len(),
        1,
        "nothing imported"
    );

    open_import().await;
    choose(good).await;
    page.wait_until(
        "the record is verified",
        "return !!document.getElementById('import-replay');",
        vec![],
    )
    .await;
    page.click("#import-replay").await;
    page.wait_ready().await;
    page.wait_until(
        "the imported game's replay shows its first event",
        "return location.search === '?seq=1' && document.body.dataset.replay === '1';",
        vec![],
    )
    .await;
    let (_, list) = app.get_json("/v1/games", None).await;
    let imported = &list["games"][0];
    assert_eq!(imported["imported_from"], game.id.as_str());
    page.screenshot("import-verified").await;
    page.close().await;
}
