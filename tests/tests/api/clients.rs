//! The client contract, proven with the real generators: TypeScript types from
//! openapi-typescript (type-checked in strict mode with tsc, used through openapi-fetch) and a
//! Python package from openapi-python-client are generated from the committed
//! `openapi/openapi.json`, and a short client in each (`tests/clients/client.ts`,
//! `tests/clients/client.py`) creates a game, reads the document, narrows it by the game type
//! and posts a legal action against a running server. A generator warning fails the test (it
//! means a schema was dropped or mistyped). Redocly's lint must find no error.
//!
//! `.ci/run` installs the tools when they are missing: `npm ci` in `tests/clients` (Node
//! packages pinned by its package-lock.json) and `pip install openapi-python-client`.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

use crate::helpers::spawn_app;

fn clients() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/clients"))
}

fn spec() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../openapi/openapi.json"
    ))
}

/// A tool installed by `npm ci` in `tests/clients`.
fn node_tool(name: &str) -> Command {
    let path = clients().join("node_modules/.bin").join(name);
    assert!(
        path.exists(),
        "{} is missing: run `npm ci` in tests/clients (.ci/run does this)",
        path.display()
    );
    let mut cmd = Command::new(path);
    cmd.current_dir(clients())
        .env("REDOCLY_TELEMETRY", "off")
        .env("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true");
    cmd
}

/// Runs `cmd`, panicking with its output unless it succeeds; returns stdout and stderr.
fn run(cmd: &mut Command, what: &str) -> String {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {cmd:?}: {e}"));
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr)
    );
    assert!(status.success(), "{what} failed ({status}):\n{text}");
    text
}

/// The one JSON line a client program prints.
fn report(output: &str) -> Value {
    let line = output
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no report in:\n{output}"));
    serde_json::from_str(line).unwrap()
}

fn check_report(report: &Value, language: &str) {
    assert_eq!(report["language"], language, "{report}");
    assert!(report["version"].as_i64().unwrap() > 0, "{report}");
    assert!(report["cash"].is_i64(), "{report}");
    assert!(!report["events"].as_array().unwrap().is_empty(), "{report}");
    assert_eq!(report["refused"], "version_conflict", "{report}");
}

fn typescript(base: &str) {
    let generated = clients().join("generated");
    std::fs::create_dir_all(&generated).unwrap();
    let out = run(
        node_tool("openapi-typescript")
            .arg(spec())
            .arg("-o")
            .arg(generated.join("api.d.ts")),
        "openapi-typescript",
    );
    assert!(
        !out.to_lowercase().contains("warn") && !out.contains('⚠'),
        "openapi-typescript warned:\n{out}"
    );
    run(
        node_tool("tsc").args(["-p", "tsconfig.json"]),
        "tsc (strict)",
    );
    let out = run(
        Command::new("node")
            .current_dir(clients())
            .arg("out/client.js")
            .arg(base),
        "the TypeScript client",
    );
    check_report(&report(&out), "typescript");
}

fn python(base: &str) {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("bgs_client");
    let out = run(
        Command::new("openapi-python-client")
            .args(["generate", "--meta", "none", "--path"])
            .arg(spec())
            .arg("--output-path")
            .arg(&package),
        "openapi-python-client (pip install openapi-python-client; .ci/run does this)",
    );
    for bad in ["Warning", "Unable", "removal", "Could not"] {
        assert!(
            !out.contains(bad),
            "openapi-python-client dropped or refused a schema:\n{out}"
        );
    }
    run(
        Command::new("python3")
            .args(["-m", "compileall", "-q"])
            .arg(&package),
        "compiling the Python client",
    );
    let out = run(
        Command::new("python3")
            .env("PYTHONPATH", dir.path())
            .arg(clients().join("client.py"))
            .arg(base),
        "the Python client",
    );
    check_report(&report(&out), "python");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_typescript_and_python_clients_play_against_the_server() {
    let app = spawn_app().await;
    let base = app.base.clone();
    tokio::task::spawn_blocking(move || {
        typescript(&base);
        python(&base);
    })
    .await
    .unwrap();
}

#[test]
fn redocly_finds_no_error_in_the_document() {
    let out = run(
        node_tool("redocly")
            .args(["lint", "--format=summary"])
            .arg(spec()),
        "redocly lint",
    );
    assert!(!out.contains("error "), "redocly reported errors:\n{out}");
}
