//! The client contract, proven with the real generators. From the committed
//! `openapi/openapi.json`:
//! - TypeScript types from openapi-typescript, used through openapi-fetch by
//!   `tests/clients/client.ts` and its stream reader `stream.ts`, type-checked by tsc with
//!   `strict`, `exactOptionalPropertyTypes` and `noUncheckedIndexedAccess`;
//! - a Python package from openapi-python-client, used by `tests/clients/client.py` and its
//!   stream reader `sse.py`, checked by `mypy --strict`.
//!
//! Each client then plays a complete game of every hosted type against a running server
//! (several seats, off-turn actions, every kind of template domain filled into the game's
//! typed action), reads a refused action as a typed problem, and follows one game through the
//! event stream with a reconnect while it is played. A generator warning fails the test (a
//! schema was dropped or mistyped), and so does a cast, an `any`, a `type: ignore` or a raw
//! dictionary in the clients. Redocly's lint must find no error.
//!
//! Generator options and exceptions, each for a reason:
//! - openapi-typescript runs with `--default-non-nullable false`: by default it makes every
//!   property with a `default` required, also in request bodies, so a config would have to
//!   spell out every option although the server fills in the defaults of those left out.
//! - openapi-python-client reads `tests/clients/python-client.yaml`: it cannot read NDJSON, so
//!   the event log export (`application/x-ndjson`) is read as bytes.
//! - mypy ignores errors in the generated module `bgs_client.client` (`tests/clients/mypy.ini`):
//!   the generator's `__exit__` forwards `*args` in a way mypy 2's strict mode rejects.
//!
//! `.ci/run` installs the tools when they are missing: `npm ci` in `tests/clients` (Node
//! packages pinned by its package-lock.json) and `pip install openapi-python-client mypy`.

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

/// What every client must have done: finished a game of each type, acted off turn, filled
/// every kind of domain, read a typed problem, followed a game through a reconnect.
fn check_report(report: &Value, language: &str) {
    assert_eq!(report["language"], language, "{report}");
    let games = report["games"].as_array().unwrap();
    let types: Vec<&str> = games.iter().map(|g| g["type"].as_str().unwrap()).collect();
    let hosted: Vec<&str> = engine::registry::all().iter().map(|g| g.name()).collect();
    assert_eq!(types, hosted, "a game of every hosted type: {report}");
    for game in games {
        assert!(game["moves"].as_i64().unwrap() > 0, "{game}");
        assert!(!game["winners"].as_array().unwrap().is_empty(), "{game}");
    }
    let off_turn: i64 = games.iter().map(|g| g["offTurn"].as_i64().unwrap()).sum();
    assert!(off_turn > 0, "no seat acted off turn: {report}");
    assert_eq!(
        report["template_kinds"],
        serde_json::json!(["counts", "integer", "one_of", "subset"]),
        "every kind of template domain filled: {report}"
    );
    assert_eq!(report["refused"], "version_conflict", "{report}");
    // The streamed game is the first: every event once, in order, through the reconnect,
    // ending with the finished game's version.
    let stream = &report["stream"];
    let version = games[0]["version"].as_i64().unwrap();
    let seqs: Vec<i64> = stream["seqs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .collect();
    assert_eq!(seqs, (1..=version).collect::<Vec<_>>(), "{stream}");
    assert_eq!(stream["last_version"], version, "{stream}");
    assert_eq!(stream["last_status"], "finished", "{stream}");
    assert_eq!(stream["game_type"], games[0]["type"], "{stream}");
    assert!(stream["reconnects"].as_i64().unwrap() >= 1, "{stream}");
}

/// Fails on what would bypass the types: casts, `any`, `type: ignore`, raw dictionaries.
fn assert_no_escape_hatches(file: &str, forbidden: &[&str]) {
    let text = std::fs::read_to_string(clients().join(file)).unwrap();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if ["//", "/*", "*"].iter().any(|c| trimmed.starts_with(c)) {
            continue;
        }
        let comment = if file.ends_with(".py") { "#" } else { "//" };
        let code = line.split(comment).next().unwrap_or_default();
        for bad in forbidden {
            assert!(
                !code.contains(bad),
                "{file}:{}: {bad:?} bypasses the generated types: {line}",
                n + 1
            );
        }
    }
}

fn typescript(base: &str) {
    for file in ["client.ts", "stream.ts"] {
        assert_no_escape_hatches(
            file,
            &[" as ", "<any>", ": any", "any[]", "@ts-", "eslint-disable"],
        );
    }
    let generated = clients().join("generated");
    std::fs::create_dir_all(&generated).unwrap();
    let out = run(
        node_tool("openapi-typescript")
            .arg(spec())
            .args(["--default-non-nullable", "false", "-o"])
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
    for file in ["client.py", "sse.py"] {
        assert_no_escape_hatches(
            file,
            &[
                "cast(",
                "type: ignore",
                "Any",
                "additional_properties",
                "to_dict(",
            ],
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("bgs_client");
    let out = run(
        Command::new("openapi-python-client")
            .args(["generate", "--meta", "none", "--path"])
            .arg(spec())
            .arg("--config")
            .arg(clients().join("python-client.yaml"))
            .arg("--output-path")
            .arg(&package),
        "openapi-python-client (pip install openapi-python-client; .ci/run does this)",
    );
    for bad in ["Warning", "WARNING", "Unable", "removal", "Could not"] {
        assert!(
            !out.contains(bad),
            "openapi-python-client dropped or refused a schema:\n{out}"
        );
    }
    for file in ["client.py", "sse.py", "mypy.ini"] {
        std::fs::copy(clients().join(file), dir.path().join(file)).unwrap();
    }
    run(
        Command::new("mypy")
            .current_dir(dir.path())
            .args(["--config-file", "mypy.ini", "--cache-dir"])
            .arg(dir.path().join(".mypy_cache"))
            .args(["client.py", "sse.py"]),
        "mypy --strict (pip install mypy; .ci/run does this)",
    );
    let out = run(
        Command::new("python3")
            .current_dir(dir.path())
            .arg("client.py")
            .arg(base),
        "the Python client",
    );
    check_report(&report(&out), "python");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generated_typescript_and_python_clients_play_every_game_to_the_end() {
    let app = spawn_app().await;
    let base = app.base.clone();
    // The two clients share nothing but the server: each runs its own generator, type checker
    // and games, at the same time (most of it is waiting on tools and on the server).
    tokio::task::spawn_blocking(move || {
        std::thread::scope(|s| {
            s.spawn(|| typescript(&base));
            s.spawn(|| python(&base));
        });
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
