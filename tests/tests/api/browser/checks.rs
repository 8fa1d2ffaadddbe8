//! What every game page must be, checked the same way in every game's test: on a phone, its
//! targets are big enough and its moves within reach; its log reads as sentences; axe-core
//! finds no serious accessibility problem on it.

use std::path::Path;
use std::sync::OnceLock;

use serde_json::json;

use super::Browser;

/// The smallest size of a touch target, in CSS pixels (WCAG 2.5.5, Apple and Google's guides).
const TARGET: f64 = 44.0;

impl Browser {
    /// On a phone-sized page: nothing is wider than the screen; every control and every
    /// board target is at least 44 × 44 pixels; and, scrolled to the top, the page shows the
    /// board's frame and, below it, the dock's first move within the first screen (a player
    /// never scrolls past the board to act).
    pub async fn assert_phone_layout(&self, what: &str) {
        self.assert_fits_width(what).await;
        let got = self
            .js(
                "window.scrollTo(0, 0);
                 // A box or a radio button is as big as its label, which takes the touch too.
                 const target = (e) => (e.type === 'checkbox' || e.type === 'radio') ? (e.closest('label') ?? e.parentElement) : e;
                 const small = [...document.querySelectorAll(
                     '#dock button, #dock input:not([type=hidden]), #dock select, #board [role=button], #board-tools button, #menu > summary')]
                   .filter((e) => e.getClientRects().length > 0)
                   .map((e) => [e, target(e).getBoundingClientRect()])
                   .filter(([, r]) => r.width < arguments[0] - 0.5 || r.height < arguments[0] - 0.5)
                   .map(([e, r]) => `${e.tagName} ${e.getAttribute('aria-label') ?? e.textContent.trim().slice(0, 40)} ${Math.round(r.width)}x${Math.round(r.height)}`);
                 const first = document.querySelector('#action-list button, #action-list select, #action-list input');
                 const board = document.getElementById('board').getBoundingClientRect();
                 return { small, firstMove: first ? first.getBoundingClientRect().top : null,
                          boardBottom: board.bottom, screen: innerHeight };",
                vec![json!(TARGET)],
            )
            .await;
        assert_eq!(
            got["small"],
            json!([]),
            "{}: {what}: touch targets under {TARGET} px",
            self.name
        );
        if let Some(top) = got["firstMove"].as_f64() {
            let screen = got["screen"].as_f64().unwrap();
            assert!(
                top + TARGET <= screen,
                "{}: {what}: the first move starts {top} px down, below the first screen of {screen} px",
                self.name
            );
            assert!(
                got["boardBottom"].as_f64().unwrap() <= top,
                "{}: {what}: the moves are not below the board",
                self.name
            );
        }
    }

    /// Every line of the page's log is a sentence: no JSON, no field list, no `snake_case`
    /// names, no `true`/`false`/`null`. Returns the number of lines read.
    pub async fn assert_log_in_words(&self) -> usize {
        let lines = self
            .js(
                "return [...document.querySelectorAll('#log li')].map((li) => li.textContent);",
                vec![],
            )
            .await;
        let lines: Vec<String> = lines
            .as_array()
            .expect("the log's lines")
            .iter()
            .map(|l| l.as_str().unwrap_or_default().to_string())
            .collect();
        assert!(!lines.is_empty(), "{}: the log is empty", self.name);
        let raw: Vec<&String> = lines.iter().filter(|l| !in_words(l)).collect();
        assert!(
            raw.is_empty(),
            "{}: {} of {} log lines are not in words, e.g. {:?}",
            self.name,
            raw.len(),
            lines.len(),
            &raw[..raw.len().min(5)]
        );
        lines.len()
    }

    /// Runs axe-core (pinned in `web/package.json`) on the page as it is now and asserts that
    /// it finds no serious or critical violation.
    pub async fn assert_accessible(&self, what: &str) {
        self.assert_accessible_within(None, what).await;
    }

    /// [`Browser::assert_accessible`] on the element `css` only (a part of a page that is
    /// about to change, checked in a moment), or the whole page with `None`.
    pub async fn assert_accessible_within(&self, css: Option<&str>, what: &str) {
        self.js(axe_source(), vec![]).await;
        let found = self
            .js(
                "return (async () => {
                   const context = arguments[0] ? document.querySelector(arguments[0]) : document;
                   const result = await axe.run(context, { resultTypes: ['violations'] });
                   return result.violations
                     .filter((v) => v.impact === 'serious' || v.impact === 'critical')
                     .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                                    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
                 })();",
                vec![json!(css)],
            )
            .await;
        assert_eq!(
            found,
            json!([]),
            "{}: {what}: axe-core finds serious accessibility problems",
            self.name
        );
    }

    /// How many moves the board itself offers (squares, cities, tiles, fields to click): a
    /// layout or accessibility check means most on a page that has some.
    pub async fn board_buttons(&self) -> usize {
        let n = self
            .js(
                "return document.querySelectorAll('#board [role=button]').length;",
                vec![],
            )
            .await;
        n.as_u64().unwrap_or_default() as usize
    }

    /// The text of the prompt bar (what the game waits for, with its details).
    pub async fn prompt(&self) -> String {
        let text = self
            .js(
                "const p = document.getElementById('prompt'); return p.hidden ? '' : p.textContent;",
                vec![],
            )
            .await;
        text.as_str().unwrap_or_default().to_string()
    }
}

/// Whether a log line reads as words.
fn in_words(line: &str) -> bool {
    let raw_marks = ['{', '}', '[', ']', '"'];
    if line.contains(raw_marks) || line.contains("undefined") || line.contains("NaN") {
        return false;
    }
    let words: Vec<&str> = line
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .collect();
    !words
        .iter()
        .any(|w| ["true", "false", "null"].contains(w) || (w.contains('_') && w.len() > 1))
}

/// axe-core's script, read once.
fn axe_source() -> &'static str {
    static SOURCE: OnceLock<String> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/node_modules/axe-core/axe.min.js");
        std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{} is missing ({e}): run `npm ci --prefix web` (.ci/run does this)",
                path.display()
            )
        })
    })
}

#[test]
fn a_log_line_in_words_passes_and_raw_ones_do_not() {
    assert!(in_words("#12 Ann buys Schillerstraße for M 260."));
    assert!(!in_words("#13 Dues owed: dues {\"count\":1}."));
    assert!(!in_words("#14 Move finished: roll again false."));
    assert!(!in_words(
        "#15 Turn started: seat Ann, number 3, cant_place_tile x."
    ));
    assert!(!in_words("#16 Ann null"));
}
