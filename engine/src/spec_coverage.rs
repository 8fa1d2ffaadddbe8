//! Test support: every rule ID of a game's spec must be cited by one of its tests, and its
//! error codes form one namespaced list.
//!
//! A test cites an ID only in its **name** (snake case: `ty_fly_3_…` cites `TY-FLY-3`, `t12_…`
//! cites `T12`) or in the `///` **doc comment** on the `#[test]` function (as written,
//! `TY-FLY-3`, or in snake case). Nothing else counts: not comments elsewhere, not module
//! headers, not assertion messages, not production code, not other functions. Matches are whole
//! words: `t1` is not cited by `seat1`, `t12` or `ty_t1x`.
//!
//! A game's coverage tests describe its spec once, as a [`Spec`], and checks it:
//!
//! ```ignore
//! pub(super) const SPEC: Spec = Spec {
//!     text: include_str!("../../../rules/monopoly.md"),
//!     is_rule_id,
//!     tests: &[include_str!("rent.rs"), include_str!("scenarios.rs")],
//! };
//!
//! #[test]
//! fn every_rule_id_of_the_spec_is_cited_by_a_test() {
//!     SPEC.assert_every_rule_id_cited(150);
//! }
//! ```

use std::collections::BTreeSet;

use syn::visit::Visit;

use crate::RuleError;

/// The rule names of refusals that no spec lists: the engine's own ([`RuleError::not_your_turn`],
/// [`RuleError::game_over`], [`RuleError::bad_config`]).
const GENERIC_RULES: &[&str] = &["TURN", "END", "SETUP"];

/// One game's spec as its tests read it.
pub struct Spec {
    /// The spec's text (`engine/rules/<game>.md`).
    pub text: &'static str,
    /// Whether a word of the spec is one of its rule IDs.
    pub is_rule_id: fn(&str) -> bool,
    /// The sources of every test file of the game.
    pub tests: &'static [&'static str],
}

impl Spec {
    /// The spec's rule IDs, in order of first appearance.
    pub fn rule_ids(&self) -> Vec<String> {
        rule_ids(self.text, self.is_rule_id)
    }

    /// Panics unless every rule ID of the spec is cited by a test, and the spec has at least
    /// `at_least` of them (a parser that finds none would otherwise pass).
    pub fn assert_every_rule_id_cited(&self, at_least: usize) {
        let ids = self.rule_ids();
        assert!(
            ids.len() >= at_least,
            "the spec parser found only {} ids",
            ids.len()
        );
        let missing = uncited(self.text, self.is_rule_id, self.tests);
        assert!(missing.is_empty(), "rule IDs without a test: {missing:?}");
    }

    /// Panics unless the rule `err` names is a rule ID of the spec (or one of the engine's
    /// generic rules), and its message names it too.
    pub fn assert_names_a_rule(&self, err: &RuleError) {
        assert!(
            GENERIC_RULES.contains(&err.rule) || self.rule_ids().iter().any(|id| id == err.rule),
            "{err}: {} is no rule ID of the spec",
            err.rule
        );
        assert!(
            err.message.contains(err.rule),
            "the message names the rule: {err}"
        );
    }
}

/// The words of `spec` that `is_id` accepts, in order of first appearance.
pub fn rule_ids(spec: &str, is_id: impl Fn(&str) -> bool) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for word in spec.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if is_id(word) && !ids.iter().any(|id| id == word) {
            ids.push(word.to_string());
        }
    }
    ids
}

/// Whether `s` is a non-empty run of digits.
pub fn numbered(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_digit())
}

/// The rule IDs of `spec` (the words `is_id` accepts) that no test of `tests` (the sources of
/// the game's test files) cites in its name or doc comment, in spec order.
///
/// # Panics
/// When a source does not parse as Rust, or contains no `#[test]` function (a file listed by
/// mistake).
pub fn uncited(spec: &str, is_id: impl Fn(&str) -> bool, tests: &[&str]) -> Vec<String> {
    let citations: Vec<Citation> = tests.iter().flat_map(|source| test_fns(source)).collect();
    rule_ids(spec, is_id)
        .into_iter()
        .filter(|id| !citations.iter().any(|c| c.cites(id)))
        .collect()
}

/// What one `#[test]` function can cite: the words of its name and of its doc comment.
struct Citation {
    /// The name split at `_`, lowercase as written.
    name: Vec<String>,
    /// The doc comment's words (runs of letters, digits, `-` and `_`).
    doc: BTreeSet<String>,
}

impl Citation {
    /// Whether this test cites `id` (`TY-FLY-3`).
    fn cites(&self, id: &str) -> bool {
        let snake = id.to_lowercase().replace('-', "_");
        let parts: Vec<&str> = snake.split('_').collect();
        let in_name = self
            .name
            .windows(parts.len())
            .any(|w| w.iter().zip(&parts).all(|(a, b)| a == b));
        in_name || self.doc.contains(id) || self.doc.contains(&snake)
    }
}

/// Every `#[test]` function of `source`, nested modules included.
fn test_fns(source: &str) -> Vec<Citation> {
    let file = syn::parse_file(source).unwrap_or_else(|e| panic!("a test file must parse: {e}"));
    let mut visitor = TestFns(Vec::new());
    visitor.visit_file(&file);
    assert!(
        !visitor.0.is_empty(),
        "a listed test file has no #[test] function"
    );
    visitor.0
}

struct TestFns(Vec<Citation>);

impl<'ast> Visit<'ast> for TestFns {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let is_test = f
            .attrs
            .iter()
            .any(|a| a.path().segments.last().is_some_and(|s| s.ident == "test"));
        if is_test {
            let mut doc = BTreeSet::new();
            for attr in f.attrs.iter().filter(|a| a.path().is_ident("doc")) {
                if let syn::Meta::NameValue(nv) = &attr.meta {
                    if let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }) = &nv.value
                    {
                        doc.extend(words(&text.value()));
                    }
                }
            }
            self.0.push(Citation {
                name: f
                    .sig
                    .ident
                    .to_string()
                    .split('_')
                    .map(String::from)
                    .collect(),
                doc,
            });
        }
        syn::visit::visit_item_fn(self, f);
    }
}

/// The words of a doc comment: runs of ASCII letters, digits, `-` and `_`, with a `-` or `_`
/// at either end dropped (`TY-FLY-3,` gives `TY-FLY-3`; `seat1` stays `seat1`).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .map(|w| w.trim_matches(|c| c == '-' || c == '_'))
        .filter(|w| !w.is_empty())
        .map(String::from)
}

/// Panics unless every code of `all` appears once and starts with `namespace` (`"tycoon."`).
pub fn assert_codes_unique_and_namespaced(all: &[&str], namespace: &str) {
    let mut codes = all.to_vec();
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), all.len(), "a code is listed twice");
    assert!(
        codes.iter().all(|c| c.starts_with(namespace)),
        "every code starts with {namespace}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str =
        "- **XX-A-1.** One. - **XX-A-12.** Twelve. - **T1** Short. - **XX-B-2.** Two.";

    fn is_id(word: &str) -> bool {
        word.starts_with("XX-") || word == "T1"
    }

    #[test]
    fn an_id_counts_in_a_test_name_or_its_doc_comment() {
        let tests = r#"
            /// Checks XX-B-2, as the spec says.
            #[test]
            fn xx_a_12_twelve_and_t1_short() {}

            #[test]
            /// Attributes may come first; xx_a_1 in snake case.
            #[should_panic]
            fn another() {}
        "#;
        assert!(uncited(SPEC, is_id, &[tests]).is_empty());
    }

    #[test]
    fn comments_messages_other_functions_and_partial_words_do_not_count() {
        let tests = r#"
            //! Module header: XX-A-1, T1.
            /// A helper documented with XX-A-12.
            fn xx_b_2_helper() {}

            // A comment naming XX-A-1.
            #[test]
            fn seat1_and_xx_a_120_and_xx_b_20() {
                assert!(true, "XX-A-1 and T1 in a message");
                let _ = "xx_b_2";
            }

            /// Not XX-A-1x nor t1a nor T12.
            #[test]
            fn t12_is_not_the_short_one() {}
        "#;
        assert_eq!(
            uncited(SPEC, is_id, &[tests]),
            vec!["XX-A-1", "XX-A-12", "T1", "XX-B-2"]
        );
    }

    #[test]
    fn tests_in_nested_modules_count() {
        let tests = "mod inner { #[test] fn xx_a_1_one() {} }
                     #[tokio::test] async fn xx_a_12_t1_xx_b_2() {}";
        assert!(uncited(SPEC, is_id, &[tests]).is_empty());
    }

    #[test]
    #[should_panic(expected = "no #[test] function")]
    fn a_listed_file_without_tests_is_refused() {
        uncited(SPEC, is_id, &["fn helper() {}"]);
    }

    const CITED: Spec = Spec {
        text: SPEC,
        is_rule_id: is_id,
        tests: &["#[test] fn xx_a_1_xx_a_12_t1_xx_b_2() {}"],
    };

    #[test]
    fn a_spec_whose_ids_are_all_cited_passes() {
        CITED.assert_every_rule_id_cited(4);
    }

    #[test]
    #[should_panic(expected = "found only 4 ids")]
    fn a_spec_with_fewer_ids_than_expected_fails() {
        CITED.assert_every_rule_id_cited(5);
    }

    #[test]
    #[should_panic(expected = "rule IDs without a test: [\"XX-B-2\"]")]
    fn a_spec_with_an_uncited_id_fails() {
        let spec = Spec {
            tests: &["#[test] fn xx_a_1_xx_a_12_t1() {}"],
            ..CITED
        };
        spec.assert_every_rule_id_cited(4);
    }

    #[test]
    fn a_refusal_names_a_rule_of_the_spec_or_a_generic_one() {
        CITED.assert_names_a_rule(&RuleError::new("x.y", "XX-A-12", "no"));
        CITED.assert_names_a_rule(&RuleError::game_over());
    }

    #[test]
    #[should_panic(expected = "XX-C-1 is no rule ID of the spec")]
    fn a_refusal_naming_no_rule_of_the_spec_fails() {
        CITED.assert_names_a_rule(&RuleError::new("x.y", "XX-C-1", "no"));
    }
}
