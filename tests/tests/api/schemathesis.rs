//! Schemathesis (property-based testing from the OpenAPI document) against the served
//! `/openapi.json`: no server errors, every response in the documented schema, content type
//! and status codes, and 405 for undocumented methods. `.ci/run` installs it (`pip install
//! schemathesis`); without it this test fails and says so.

use std::process::Command;

use crate::helpers::spawn_app;

/// The schemathesis CLI on PATH (`st` or `schemathesis`).
fn schemathesis() -> String {
    for name in ["st", "schemathesis"] {
        let found = Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if found {
            return name.to_string();
        }
    }
    panic!(
        "schemathesis is not installed (neither `st` nor `schemathesis` is on PATH): \
         run `pip install schemathesis` (.ci/run does this when it is missing)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemathesis_finds_no_server_error_and_no_response_outside_the_spec() {
    let cli = schemathesis();
    let app = spawn_app().await;
    // Real ids and a real seat token, so that the generated requests reach the handlers
    // instead of stopping at 404 and 401.
    let game = app.create_game(2, 77).await;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("schemathesis.toml");
    // `wait` is fixed to 1 s: a long poll is allowed to take `wait` seconds (capped at 30),
    // which would only slow the run down.
    std::fs::write(
        &config,
        format!(
            "[parameters]\n\"path.id\" = \"{}\"\n\"query.wait\" = 1\n",
            game.id
        ),
    )
    .unwrap();
    let spec = format!("{}/openapi.json", app.base);
    let token = game.tokens[0].clone();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(cli)
            .arg("--config-file")
            .arg(&config)
            .args(["run", &spec])
            .args([
                "--checks",
                "not_a_server_error,status_code_conformance,response_schema_conformance,\
                 content_type_conformance,unsupported_method",
                "--max-examples",
                "15",
                "--seed",
                "1",
                "--workers",
                "2",
                "--request-timeout",
                "20",
                "--no-color",
                "-H",
            ])
            .arg(format!("Authorization: Bearer {token}"))
            .current_dir(dir.path())
            .output()
            .expect("run schemathesis")
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report = format!("{stdout}\n{stderr}");
    assert!(
        report.contains("Test cases:"),
        "schemathesis did not run:\n{report}"
    );
    assert!(
        !report.contains("Failures:"),
        "schemathesis found failures:\n{report}"
    );
    // Errors are the tool's own (e.g. a flaky generator) unless they are about the network:
    // a timeout or a dropped connection is the server's fault.
    for bad in ["Network Error", "Timeout", "Connection"] {
        assert!(
            !report.lines().any(|l| l.contains('🚫') && l.contains(bad)),
            "schemathesis saw {bad}:\n{report}"
        );
    }
}
