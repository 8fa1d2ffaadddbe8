//! `scripts/serve`, the README's command that starts the server: it installs what the machine
//! lacks (`scripts/install-server-tools`, which installs nothing where everything is present)
//! and then runs `cargo run --release -p api --bin server` with its own arguments. A stand-in
//! `cargo`, first on PATH, records what it is asked and runs the server binary these tests were
//! built with, so that no release build is needed here. (That the README names this script is
//! checked with its other sessions, in `tests/tests/api/readme.rs`.)

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the api crate lies inside the repository")
        .to_path_buf()
}

/// A `cargo` that writes its arguments to `$CARGO_ARGS_FILE`, one a line, and runs
/// `$SERVER_BIN` with what follows `--`.
const STAND_IN_CARGO: &str = r#"#!/usr/bin/env bash
printf '%s\n' "$@" > "$CARGO_ARGS_FILE"
while (($#)) && [ "$1" != -- ]; do shift; done
shift
exec "$SERVER_BIN" "$@"
"#;

#[test]
fn scripts_serve_installs_what_is_missing_then_runs_the_server_with_its_arguments() {
    // Its install step is then a no-op: a test installs nothing (scripts/test installs first).
    let missing = Command::new("bash")
        .arg("-c")
        .arg("source scripts/install-server-tools && server_packages_missing")
        .current_dir(repo_root())
        .output()
        .expect("run bash");
    assert!(missing.status.success(), "{missing:?}");
    assert_eq!(
        String::from_utf8_lossy(&missing.stdout),
        "",
        "missing packages: run scripts/install-server-tools (scripts/test does)"
    );
    let dir = tempfile::Builder::new().prefix("serve-").tempdir().unwrap();
    let cargo = dir.path().join("cargo");
    std::fs::write(&cargo, STAND_IN_CARGO).unwrap();
    std::fs::set_permissions(&cargo, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let args_file = dir.path().join("args");
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(repo_root().join("scripts/serve"))
        .arg("--help")
        // From anywhere: the script finds the repository itself.
        .current_dir(dir.path())
        .env("PATH", path)
        .env("CARGO_ARGS_FILE", &args_file)
        .env("SERVER_BIN", env!("CARGO_BIN_EXE_server"))
        .stdin(Stdio::null())
        .output()
        .expect("run scripts/serve");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{}\n{stdout}\n{stderr}", out.status);
    let asked = std::fs::read_to_string(&args_file).expect("scripts/serve ran cargo");
    assert_eq!(
        asked.lines().collect::<Vec<_>>(),
        [
            "run",
            "--release",
            "-p",
            "api",
            "--bin",
            "server",
            "--",
            "--help"
        ]
    );
    // The server's own help: its flags, as the README's configuration table lists them.
    assert!(stdout.contains("Usage: server"), "{stdout}");
    for flag in ["--port", "--database-url", "--data-dir", "--pool-size"] {
        assert!(stdout.contains(flag), "{flag} missing from:\n{stdout}");
    }
}
