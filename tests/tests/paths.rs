//! Every file path that the docs, the specs and the source doc comments mention leads to a file
//! of this repository, so a newcomer who follows a pointer finds what it names.
//!
//! What counts as a path (and is checked):
//! - in Markdown files (`README.md`, `docs/**/*.md`, `engine/rules/*.md`): every link target that
//!   is not a URL or an anchor, resolved from the file's folder as a Markdown viewer does;
//! - in those files and in the doc comments (`//!`, `///`) of every Rust source file: every code
//!   span made only of the characters of a relative path (letters, digits, `_ . / -`, no leading
//!   `/`, no `{` or `<`) that either ends in a file extension of this repository (`.rs`, `.md`,
//!   `.json`…) or has a `/` and starts with a folder or file that exists;
//! - the same for every word of their prose, outside code blocks, once the punctuation around
//!   it is taken off: a file named without backticks (README.md, db/src/lib.rs) is a pointer
//!   too.
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

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd, TextMergeStream};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// File extensions that mark a code span as a file name even without a folder in front.
const EXTENSIONS: &[&str] = &[
    "rs", "md", "json", "toml", "sql", "js", "mjs", "ts", "html", "css", "txt", "sh", "py", "yml",
    "yaml", "lock", "svg", "png",
];

/// Folders never searched for sources: build output, installed packages, version control.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules", ".git"];

/// Names in prose that look like file names and are not: projects named after their language.
const PROSE_NAMES: &[&str] = &["Node.js"];

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
    kind: Kind,
}

/// How a path is mentioned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A Markdown link's target, resolved only from the file's folder.
    Link,
    /// A code span.
    Code,
    /// A word of prose, outside backticks.
    Prose,
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

/// The links, code spans and bare words of a Markdown text (see the module doc). The words of
/// code blocks are commands, code and sample outputs, except in a Markdown file's blocks with
/// no language (a folder tree, a diagram), where they are prose. (In a doc comment, a block with
/// no language is Rust.)
fn mentions(file: &Path, markdown: &str) -> Vec<Mention> {
    let plain_blocks_are_prose = file.extension().is_some_and(|e| e == "md");
    let mut found = Vec::new();
    let mut push = |text: String, kind: Kind| {
        found.push(Mention {
            file: file.to_path_buf(),
            text,
            kind,
        })
    };
    let mut in_prose = true;
    for event in TextMergeStream::new(Parser::new(markdown)) {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                push(dest_url.to_string(), Kind::Link)
            }
            Event::Start(Tag::CodeBlock(block)) => {
                in_prose = plain_blocks_are_prose
                    && match block {
                        CodeBlockKind::Fenced(info) => info.trim().is_empty(),
                        CodeBlockKind::Indented => true,
                    }
            }
            Event::End(TagEnd::CodeBlock) => in_prose = true,
            Event::Code(code) => push(code.to_string(), Kind::Code),
            Event::Text(text) if in_prose => {
                bare_words(&text).for_each(|w| push(w.to_string(), Kind::Prose))
            }
            _ => {}
        }
    }
    found
}

/// The words of prose that may be file paths (README.md, `db/src/lib.rs`), without the
/// punctuation around them (quotes, brackets, a sentence's full stop, a possessive `'s`).
/// Whether one claims to be a path is decided as for a code span ([`claims_a_path`]).
fn bare_words(text: &str) -> impl Iterator<Item = &str> {
    const OPENING: &[char] = &['(', '[', '{', '"', '\'', '\u{201c}', '\u{2018}', '<'];
    const CLOSING: &[char] = &[
        ')', ']', '}', '"', '\'', '\u{201d}', '\u{2019}', '>', '.', ',', ';', ':', '!', '?',
    ];
    text.split(|c: char| c.is_whitespace() || c == '\u{2014}' || c == '\u{2026}')
        .map(|word| {
            let word = word.trim_start_matches(OPENING);
            let word = word
                .strip_suffix("'s")
                .or_else(|| word.strip_suffix("\u{2019}s"))
                .unwrap_or(word);
            word.trim_end_matches(CLOSING)
        })
        .filter(|word| word.contains(['.', '/']))
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
    // Paths into build output or installed packages name what a build or an install makes.
    if span.is_empty()
        || span.starts_with('/')
        || !span.chars().all(path_chars)
        || span.split('/').any(|part| SKIPPED_DIRS.contains(&part))
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
    let link = mention.kind == Kind::Link;
    if link && is_url_or_anchor(&mention.text) {
        return None;
    }
    let bases = if link {
        vec![mention
            .file
            .parent()
            .expect("a file has a folder")
            .to_path_buf()]
    } else {
        let bases = bases(&mention.file, root);
        // A word of prose claims a folder only from the root or its crate: next to a file,
        // `games/s` is a rate, not the folder `docs/games/`.
        let claimed_from = match mention.kind {
            Kind::Prose if PROSE_NAMES.contains(&target) => return None,
            Kind::Prose => &bases[1..],
            _ => &bases[..],
        };
        if !claims_a_path(target, claimed_from) {
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
    if !link && !target.contains('/') && !in_specs && file_names.contains(target) {
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
                m.kind == Kind::Link || claims_a_path(&m.text, &bases)
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
    assert!(checked("docs/architecture.md", "api/src/workers.rs"));
    // A pointer that leads nowhere is reported, in each of its forms; a bare name in a spec
    // must be next to it even when a file of that name exists elsewhere.
    for (file, text, kind) in [
        ("README.md", "docs/no-such-file.md", Kind::Link),
        ("README.md", "docs/no-such-file.md", Kind::Code),
        ("README.md", "docs/no-such-file.md", Kind::Prose),
        ("README.md", "no-such-file.json", Kind::Code),
        ("README.md", "NO-SUCH-FILE.md", Kind::Prose),
        ("README.md", "seeds/999_0000000000000000.txt", Kind::Code),
        ("engine/rules/tycoon.md", "lib.rs", Kind::Code),
        ("engine/rules/tycoon.md", "lib.rs", Kind::Prose),
    ] {
        let mention = Mention {
            file: root.join(file),
            text: text.to_string(),
            kind,
        };
        assert!(
            dangling(&mention, &root, &seeds, &names).is_some(),
            "{text}"
        );
    }
}

/// A file named in prose, outside backticks, is a pointer too: in a Markdown file's prose and
/// its blocks with no language (a folder tree), and in doc comments; not in a block of
/// commands, and not the words of prose that only look like paths.
#[test]
fn bare_file_names_in_prose_are_pointers_too() {
    let root = repo_root();
    let seeds = listed_seeds(&root);
    let names = file_names(&root);
    let reported = |file: &str, markdown: &str| -> Vec<String> {
        mentions(&root.join(file), markdown)
            .iter()
            .filter_map(|m| dangling(m, &root, &seeds, &names))
            .collect()
    };
    let markdown =
        "See NO-SUCH-DESIGN.md, \"Storage\"; (db/src/no_such.rs) and README.md's map.\n\n\
                    ```\ntests/no-such-folder/  a tree's line\n```\n\n\
                    ```sh\ncurl -s $B > record.json\n```\n";
    assert_eq!(
        reported("docs/some.md", markdown),
        [
            "`NO-SUCH-DESIGN.md` resolves nowhere",
            "`db/src/no_such.rs` resolves nowhere",
            "`tests/no-such-folder/` resolves nowhere",
        ]
    );
    // The same in a doc comment, whose blocks with no language are Rust.
    let doc =
        doc_text("//! See NO-SUCH-DESIGN.md.\n//!\n//! ```\n//! let f = \"x.rs\";\n//! ```\n");
    assert_eq!(
        reported("db/src/lib.rs", &doc),
        ["`NO-SUCH-DESIGN.md` resolves nowhere"]
    );
    // Rates, pairs, abbreviations, versions, URLs, a project named after its language and
    // what an install makes are not pointers; files that exist are found.
    let prose = "40 games/s, read/write and/or e.g. i.e. 0.29.1 on Node.js; \
                 https://example.com/a.md, web/node_modules/.bin, docs/api.md. (lib.rs)";
    assert_eq!(reported("docs/performance.md", prose), Vec::<String>::new());
}

/// `docs/architecture.md` names every file at the engine's root (by its path) and every file of
/// a game's folder (by its name, the same in every folder or a family file of one game), so a
/// new file comes with its line there.
#[test]
fn the_architecture_doc_names_every_file_of_the_engine() {
    let root = repo_root();
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let spans: BTreeSet<String> = Parser::new(&doc)
        .filter_map(|e| match e {
            Event::Code(code) => Some(code.to_string()),
            _ => None,
        })
        .collect();
    let src = root.join("engine/src");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_file() && name.ends_with(".rs") {
            let named = format!("engine/src/{name}");
            if !spans.contains(&named) {
                missing.push(named);
            }
        } else if path.join("mod.rs").is_file() {
            for file in std::fs::read_dir(&path).unwrap().flatten() {
                let file_name = file.file_name().to_string_lossy().into_owned();
                if file.path().is_file() && !spans.contains(&file_name) {
                    missing.push(format!("engine/src/{name}/{file_name}"));
                }
            }
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name: {missing:?}"
    );
}
