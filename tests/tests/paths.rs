//! Every file path that the docs, the specs and the source doc comments mention leads to a file
//! of this repository, so a newcomer who follows a pointer finds what it names.
//!
//! What counts as a path (and is checked):
//! - in Markdown files (`README.md`, `docs/**/*.md`, `engine/rules/*.md`): every link target that
//!   is not a URL or an anchor, resolved from the file's folder as a Markdown viewer does;
//! - in those files and in the doc comments (`//!`, `///`) of every Rust source file: every code
//!   span made only of the characters of a relative path (letters, digits, `_ . / -`, no leading
//!   `/`, no `{` or `<`) that either ends in a file extension of this repository (`.rs`, `.md`,
//!   `.json`…) or has a `/` and starts with a folder or file that exists.
//!
//! A path with a folder must resolve from the file's folder, from its crate's folder or from the
//! repository root. A bare file name (`errors.rs`, said of every game) must be the name of some
//! file of the repository, except in the specs: they say their data file is "next to this file",
//! so there a bare name must lie in `engine/rules/`.
//!
//! Not checked: absolute paths (`/games/{id}` are the API's URL paths, not files) and paths into
//! `target/` (build output). The one folder outside the repository that the specs cite is
//! `seeds/` (the original rule books, not redistributed here): a `seeds/…` path must name a rule
//! book listed in `engine/rules/README.md`.

use pulldown_cmark::{Event, Parser, Tag};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// File extensions that mark a code span as a file name even without a folder in front.
const EXTENSIONS: &[&str] = &[
    "rs", "md", "json", "toml", "sql", "js", "mjs", "ts", "html", "css", "txt", "sh", "py", "yml",
    "yaml", "lock", "svg", "png",
];

/// Folders never searched for sources: build output, installed packages, version control.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules", ".git"];

/// Build output: generated, so never checked.
const BUILD_OUTPUT: &str = "target/";

/// The folder of the specs, where a bare file name means a file next to the spec.
const SPECS: &str = "engine/rules";

/// The external folder the specs cite, and the file that lists what it holds.
const SEEDS: &str = "seeds/";
const SEEDS_INDEX: &str = "engine/rules/README.md";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate lies inside the repository")
        .to_path_buf()
}

/// One mention of a path: where it was found and what it says.
struct Mention {
    file: PathBuf,
    text: String,
    /// A Markdown link, resolved only from the file's folder.
    link: bool,
}

/// The Markdown files whose links and code spans are checked.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    files.extend(walk(&root.join("docs"), "md"));
    files.extend(walk(&root.join("engine/rules"), "md"));
    files
}

/// Every file below `dir` with the extension `ext`, build output and packages left out.
fn walk(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if !SKIPPED_DIRS.contains(&name.to_string_lossy().as_ref()) {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|e| e == ext) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The doc comment text of a Rust source file, one doc line per line, prefixes removed.
fn doc_text(source: &str) -> String {
    source
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            line.strip_prefix("//!")
                .or_else(|| line.strip_prefix("///"))
        })
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The links and code spans of a Markdown text.
fn mentions(file: &Path, markdown: &str) -> Vec<Mention> {
    let mut found = Vec::new();
    for event in Parser::new(markdown) {
        let (text, link) = match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                (dest_url.to_string(), true)
            }
            Event::Code(code) => (code.to_string(), false),
            _ => continue,
        };
        found.push(Mention {
            file: file.to_path_buf(),
            text,
            link,
        });
    }
    found
}

/// Whether a link target is a URL, an anchor or a rustdoc intra-doc link rather than a file.
fn is_url_or_anchor(target: &str) -> bool {
    target.is_empty()
        || target.starts_with('#')
        || target.contains("::")
        || target.split_once(':').is_some_and(|(scheme, _)| {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '+')
        })
}

/// The folders a code span's path may be read from: the file's folder, its crate's folder (the
/// nearest folder above it with a `Cargo.toml` or `package.json`) and the repository root.
fn bases(file: &Path, root: &Path) -> Vec<PathBuf> {
    let dir = file.parent().expect("a file has a folder").to_path_buf();
    let mut bases = vec![dir.clone(), root.to_path_buf()];
    let mut up = Some(dir.as_path());
    while let Some(d) = up.filter(|d| d.starts_with(root)) {
        if d.join("Cargo.toml").is_file() || d.join("package.json").is_file() {
            bases.push(d.to_path_buf());
            break;
        }
        up = d.parent();
    }
    bases
}

/// Whether a code span claims to be a relative file path (see the module doc).
fn claims_a_path(span: &str, bases: &[PathBuf]) -> bool {
    let path_chars = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    if span.is_empty()
        || span.starts_with('/')
        || span.starts_with(BUILD_OUTPUT)
        || !span.chars().all(path_chars)
    {
        return false;
    }
    let has_extension = span
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && EXTENSIONS.contains(&ext));
    let first = span.split('/').next().unwrap_or_default();
    let rooted = span.contains('/')
        && !first.is_empty()
        && first != "."
        && bases.iter().any(|b| b.join(first).exists());
    has_extension || rooted || span.starts_with(SEEDS)
}

/// The names of the rule books listed in the seeds index.
fn listed_seeds(root: &Path) -> String {
    std::fs::read_to_string(root.join(SEEDS_INDEX)).expect("engine/rules/README.md exists")
}

/// Why a mention does not resolve, if it does not.
fn dangling(
    mention: &Mention,
    root: &Path,
    seeds: &str,
    file_names: &BTreeSet<String>,
) -> Option<String> {
    let target = mention.text.split(['#', '?']).next().unwrap_or_default();
    if mention.link && is_url_or_anchor(&mention.text) {
        return None;
    }
    let bases = if mention.link {
        vec![mention
            .file
            .parent()
            .expect("a file has a folder")
            .to_path_buf()]
    } else {
        let bases = bases(&mention.file, root);
        if !claims_a_path(target, &bases) {
            return None;
        }
        bases
    };
    if let Some(seed) = target.strip_prefix(SEEDS) {
        return (!seed.is_empty() && !seeds.contains(seed))
            .then(|| format!("{SEEDS}{seed} is not listed in {SEEDS_INDEX}"));
    }
    if bases.iter().any(|b| b.join(target).exists()) {
        return None;
    }
    let in_specs = mention.file.parent() == Some(root.join(SPECS).as_path());
    if !mention.link && !target.contains('/') && !in_specs && file_names.contains(target) {
        return None;
    }
    Some(format!("`{}` resolves nowhere", mention.text))
}

/// The names of all files of the repository, for bare file names.
fn file_names(root: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir() {
                if !SKIPPED_DIRS.contains(&name.as_str()) {
                    pending.push(entry.path());
                }
            } else {
                names.insert(name);
            }
        }
    }
    names
}

/// Every mention in the docs, the specs and the Rust doc comments.
fn all_mentions(root: &Path) -> Vec<Mention> {
    let mut all = Vec::new();
    for file in markdown_files(root) {
        let text = std::fs::read_to_string(&file).expect("readable Markdown");
        all.extend(mentions(&file, &text));
    }
    for file in walk(root, "rs") {
        let text = std::fs::read_to_string(&file).expect("readable Rust source");
        all.extend(mentions(&file, &doc_text(&text)));
    }
    all
}

#[test]
fn every_path_in_docs_specs_and_doc_comments_resolves() {
    let root = repo_root();
    let seeds = listed_seeds(&root);
    let names = file_names(&root);
    let mentions = all_mentions(&root);
    let broken: Vec<String> = mentions
        .iter()
        .filter_map(|m| {
            let why = dangling(m, &root, &seeds, &names)?;
            let file = m.file.strip_prefix(&root).unwrap_or(&m.file);
            Some(format!("{}: {why}", file.display()))
        })
        .collect();
    assert!(broken.is_empty(), "dangling paths:\n{}", broken.join("\n"));
}

/// The check finds paths at all: the specs' data files and the README's map into `docs/` are
/// among the mentions it resolves, so an extraction that silently finds nothing fails here.
#[test]
fn the_check_sees_the_pointers_it_is_meant_for() {
    let root = repo_root();
    let seeds = listed_seeds(&root);
    let names = file_names(&root);
    let mentions = all_mentions(&root);
    let checked = |file: &str, text: &str| {
        mentions.iter().any(|m| {
            m.file == root.join(file) && m.text == text && {
                let bases = bases(&m.file, &root);
                m.link || claims_a_path(&m.text, &bases)
            }
        })
    };
    assert!(checked("engine/rules/tycoon.md", "tycoon-board.json"));
    assert!(checked("engine/rules/monopoly.md", "monopoly-board.json"));
    assert!(checked(
        "engine/src/acquire/data.rs",
        "engine/rules/acquire-data.json"
    ));
    assert!(checked("README.md", "docs/api.md"));
    // A pointer that leads nowhere is reported, in each of its forms; a bare name in a spec
    // must be next to it even when a file of that name exists elsewhere.
    for (file, text, link) in [
        ("README.md", "docs/no-such-file.md", true),
        ("README.md", "docs/no-such-file.md", false),
        ("README.md", "no-such-file.json", false),
        ("README.md", "seeds/999_0000000000000000.txt", false),
        ("engine/rules/tycoon.md", "lib.rs", false),
    ] {
        let mention = Mention {
            file: root.join(file),
            text: text.to_string(),
            link,
        };
        assert!(
            dangling(&mention, &root, &seeds, &names).is_some(),
            "{text}"
        );
    }
}
