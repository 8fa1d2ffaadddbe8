//! The load generator in its `--smoke` mode (a few hundred actions per row, every client
//! protocol and the raw database side by side): it runs, every action is answered without a
//! 5xx or a dropped connection, and it prints its table. Figures are reported, never asserted.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_smoke_run_sees_no_server_error() {
    let db = tokio::task::spawn_blocking(db::testing::TestDb::new)
        .await
        .unwrap();
    let url = db.url().to_string();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_loadgen"))
            .args(["--smoke", "--database-url", &url])
            .env("RUST_LOG", "warn")
            .output()
            .expect("run loadgen")
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "loadgen --smoke failed:\n{stdout}\n{stderr}"
    );
    // One table row and one verdict per client count of the smoke run (1 and 4 clients) and
    // client protocol, and every verdict all-2xx.
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Clients"))
        .collect();
    let verdicts: Vec<&str> = stdout.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(
        rows.len(),
        6,
        "a table row per client count and protocol:\n{stdout}"
    );
    let expected: Vec<String> = [1, 4]
        .iter()
        .flat_map(|clients| {
            ["poll + act", "act", "stream + act"]
                .map(|p| format!("- {clients} clients, {p}: every action POST answered 2xx"))
        })
        .collect();
    assert_eq!(verdicts, expected, "\n{stdout}\n{stderr}");
    drop(db);
}
