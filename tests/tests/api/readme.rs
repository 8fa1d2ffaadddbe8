//! The curl sessions of the README, docs/players.md, docs/people.md and docs/clocks.md are
//! test inputs: each
//! shell block runs, as written, against a fresh server, and every output it shows must be what
//! the server answers, so the docs cannot drift from the server.
//!
//! How a block is read: a command (one or more lines) is followed by the comment lines that
//! show its output; comment lines after a blank line are prose. An output is compared with
//! all whitespace removed (the docs wrap long JSON lines), and `…` stands for any text (ids,
//! tokens, dates and what a doc leaves out). The only change to a block is the server's
//! address in `B=`. Needs `bash`, `curl` and `jq`, as the README says.

use std::process::Command;

use crate::helpers::{spawn_app, spawn_app_with, TestApp};

/// The address the sessions use.
const SESSION_ADDRESS: &str = "http://127.0.0.1:8080";

/// One command of the session and the output the README shows for it (empty: none shown).
#[derive(Debug, Default)]
struct Step {
    command: Vec<String>,
    shown: Vec<String>,
}

/// The shell block under the heading `heading` of `markdown`.
fn shell_block<'a>(markdown: &'a str, heading: &str) -> &'a str {
    let section = &markdown[markdown.find(heading).expect("the heading")..];
    let start = section.find("```sh\n").expect("a shell block") + "```sh\n".len();
    let end = section[start..].find("```").expect("the block's end");
    &section[start..start + end]
}

/// The block's commands with the outputs shown after them.
fn steps(block: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut step = Step::default();
    for line in block.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            steps.push(std::mem::take(&mut step));
        } else if let Some(comment) = trimmed.strip_prefix('#') {
            // Before the first command of a paragraph: prose.
            if !step.command.is_empty() {
                step.shown.push(comment.to_string());
            }
        } else {
            if !step.shown.is_empty() {
                steps.push(std::mem::take(&mut step));
            }
            step.command.push(line.to_string());
        }
    }
    steps.push(step);
    steps.retain(|s| !s.command.is_empty());
    steps
}

/// Whether `actual` is what `shown` shows: equal with whitespace removed, `…` matching any
/// text.
fn matches(shown: &str, actual: &str) -> bool {
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let (shown, actual) = (squeeze(shown), squeeze(actual));
    let pieces: Vec<&str> = shown.split('…').collect();
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return shown == actual;
    }
    if !actual.starts_with(first) || !actual.ends_with(last) {
        return false;
    }
    let mut at = first.len();
    for piece in &pieces[1..pieces.len() - 1] {
        match actual[at..].find(piece) {
            Some(i) => at += i + piece.len(),
            None => return false,
        }
    }
    actual.len() - last.len() >= at
}

#[test]
fn the_glob_of_the_readme_outputs() {
    assert!(matches("{\"a\": 1,\n  \"b\":…}", "{\"a\":1,\"b\":[2, 3]}"));
    assert!(matches("… \"x\" …", "{\"x\":1}"));
    assert!(!matches("{\"a\":1}", "{\"a\":2}"));
    assert!(!matches("{\"a\":…,\"c\":3}", "{\"a\":1,\"b\":2}"));
    assert!(!matches("…\"x\"…\"y\"…", "\"y\"\"x\""));
    // Pieces may not overlap: "ab…ba" is not "aba".
    assert!(!matches("ab…ba", "aba"));
}

/// Runs the shell block under `heading` of the Markdown file `doc` (relative to the workspace)
/// against `app` and checks every output it shows; at least `min_checked` must be shown.
async fn run_session(app: &TestApp, doc: &str, heading: &str, min_checked: usize) {
    let markdown =
        std::fs::read_to_string(format!("{}/../{doc}", env!("CARGO_MANIFEST_DIR"))).expect(doc);
    let steps = steps(shell_block(&markdown, heading));
    let mut script = String::from("set -u\n");
    for (i, step) in steps.iter().enumerate() {
        script.push_str(&format!("printf '\\n@@step {i}@@\\n'\n"));
        for line in &step.command {
            script.push_str(&line.replace(SESSION_ADDRESS, &app.base));
            script.push('\n');
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(dir.path())
            .output()
            .expect("bash runs")
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.trim().is_empty(),
        "the session of {doc} wrote errors:\n{stderr}"
    );
    let mut checked = 0;
    for (i, step) in steps.iter().enumerate() {
        let start = format!("@@step {i}@@\n");
        let from = stdout.find(&start).expect("the step ran") + start.len();
        let to = stdout[from..]
            .find(&format!("@@step {}@@", i + 1))
            .map_or(stdout.len(), |e| from + e);
        let actual = &stdout[from..to];
        if step.shown.is_empty() {
            continue;
        }
        let shown = step.shown.join("\n");
        assert!(
            matches(&shown, actual),
            "{doc} step:\n{}\nshows:\n{shown}\nbut the server answered:\n{actual}",
            step.command.join("\n")
        );
        checked += 1;
    }
    assert!(
        checked >= min_checked,
        "only {checked} outputs of {doc} checked: {steps:?}"
    );
}

/// The README's two commands are the two scripts that install what a fresh machine lacks and
/// then start the server (`scripts/serve`) or run the suite (`scripts/test`), in that order.
/// What `scripts/serve` does is tested in `api/tests/serve_script.rs`.
#[test]
fn the_readme_s_two_commands_are_scripts_that_install_what_is_missing_first() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let from = readme.find("## The two commands").expect("the heading");
    let section = &readme[from..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let blocks: Vec<&str> = section
        .split("```sh\n")
        .skip(1)
        .map(|b| b[..b.find("```").expect("the block's end")].trim())
        .collect();
    assert_eq!(blocks, ["scripts/serve", "scripts/test"]);
    for script in blocks {
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(root.join(script)).unwrap().permissions(),
        );
        assert!(mode & 0o111 != 0, "{script} is not executable");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readme_curl_session_runs_and_shows_what_the_server_answers() {
    let app = spawn_app().await;
    run_session(&app, "README.md", "## A short game with curl", 12).await;
}

/// docs/players.md: players, a rated game, the player's stream, ratings, a seek, tokens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_doc_curl_session_runs_and_shows_what_the_server_answers() {
    let app = spawn_app().await;
    run_session(&app, "docs/players.md", "## A session", 16).await;
}

/// docs/people.md: a challenge accepted and played, answers after the end, a rematch, a
/// block.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_people_doc_curl_session_runs_and_shows_what_the_server_answers() {
    let app = spawn_app().await;
    run_session(&app, "docs/people.md", "## A session", 14).await;
}

/// docs/people.md: a two-round Swiss of six players with bots, played to its standings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tournament_doc_curl_session_runs_and_shows_what_the_server_answers() {
    let app = spawn_app().await;
    run_session(&app, "docs/people.md", "## A tournament", 4).await;
}

/// docs/clocks.md: a clock runs out, the bot takes over, the seat is reclaimed, a resignation.
/// The server runs as the doc says, with `--bot-move-delay-ms 6000`: the bot that took Ann's
/// seat over must not move before she reclaims it (about 3 s after the takeover).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clocks_doc_curl_session_runs_and_shows_what_the_server_answers() {
    let app = spawn_app_with(|s| s.bot_move_delay_ms = 6000).await;
    run_session(&app, "docs/clocks.md", "## A session", 12).await;
}

/// docs/fairness.md: the commitment, nothing secret while the game runs, the reveal and the
/// record once it is over, the commitment checked by hand.
#[tokio::test]
async fn the_fairness_session_runs_as_written() {
    let app = spawn_app().await;
    run_session(&app, "docs/fairness.md", "## A session", 7).await;
}
