//! Schemathesis (property-based testing from the OpenAPI document) against the served
//! `/openapi.json`: no server errors, every response in the documented schema, content type
//! and status codes, and 405 for undocumented methods; judged by the tool's exit status and its
//! JUnit report, never by its screen output. `.ci/run` installs it (`pip install
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

/// The operations run apart from the others: generating records (the largest request schema,
/// one per game type) takes about as long as every other operation together.
const RECORDS: &str = "/v1/records";

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
    let run = Run {
        cli,
        config,
        spec: format!("{}/openapi.json", app.base),
        token: game.tokens[0].clone(),
        dir: dir.path().to_path_buf(),
    };
    // Two processes at once, each with one worker (see `Run::tool`): the records, and every
    // other operation.
    tokio::task::spawn_blocking(move || {
        std::thread::scope(|s| {
            s.spawn(|| run.tool("records", &["--include-path", RECORDS]));
            run.tool("others", &["--exclude-path", RECORDS]);
        });
    })
    .await
    .unwrap();
}

/// One schemathesis run's settings against the test's server.
struct Run {
    cli: String,
    config: std::path::PathBuf,
    spec: String,
    token: String,
    dir: std::path::PathBuf,
}

impl Run {
    /// Runs the tool on the operations `selection` picks and asserts its verdict: exit status 0
    /// (every check passed on every operation, with no error: a timeout or a dropped
    /// connection is an error) and a JUnit report that agrees: operations were tested, none
    /// failed or errored.
    fn tool(&self, name: &str, selection: &[&str]) {
        let junit = self.dir.join(format!("junit-{name}.xml"));
        let out = Command::new(&self.cli)
            .arg("--config-file")
            .arg(&self.config)
            .args(["run", &self.spec])
            .args(selection)
            .args([
                "--checks",
                "not_a_server_error,status_code_conformance,response_schema_conformance,\
                 content_type_conformance,unsupported_method",
                "--max-examples",
                "15",
                "--seed",
                "1",
                // One worker: with more, schemathesis parses lambdas' source (`ast.parse`) from
                // several threads at once, which CPython 3.11 (Debian 12's Python) can fail with
                // "SystemError: AST constructor recursion depth mismatch" (CPython gh-106905).
                "--workers",
                "1",
                "--request-timeout",
                "20",
                "--no-color",
                "--report",
                "junit",
                "--report-junit-path",
            ])
            .arg(&junit)
            .arg("-H")
            .arg(format!("Authorization: Bearer {}", self.token))
            .current_dir(&self.dir)
            .output()
            .expect("run schemathesis");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "schemathesis ({name}) failed ({}):\n{stdout}\n{stderr}",
            out.status
        );
        let xml = std::fs::read_to_string(&junit).expect("schemathesis writes its JUnit report");
        let suites = xml
            .find("<testsuites")
            .map(|i| &xml[i..])
            .and_then(|t| t.split_once('>'))
            .map(|(tag, _)| tag)
            .unwrap_or_else(|| panic!("no <testsuites> in the report:\n{xml}"));
        let count = |attribute: &str| -> u64 {
            let start = suites
                .find(&format!(" {attribute}=\""))
                .unwrap_or_else(|| panic!("no {attribute} in {suites}"))
                + attribute.len()
                + 3;
            suites[start..].split('"').next().unwrap().parse().unwrap()
        };
        assert!(
            count("tests") > 0,
            "{name}: no operation was tested:\n{xml}"
        );
        assert_eq!(
            (count("failures"), count("errors")),
            (0, 0),
            "{name}:\n{xml}"
        );
    }
}
