//! Test support: every rule ID of a game's spec must be named by one of its tests, and its
//! error codes form one namespaced list.

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

/// The IDs that no test names, as written (`TY-FLY-3`) or in snake case (`ty_fly_3`), and not
/// merely as the prefix of a longer number (`t1` is not named by `t12`).
pub fn unnamed(ids: &[String], tests: &[&str]) -> Vec<String> {
    let haystack = tests.concat().to_lowercase();
    let names = |needle: &str| {
        haystack
            .match_indices(needle)
            .any(|(i, _)| !haystack[i + needle.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    ids.iter()
        .filter(|id| {
            let id = id.to_lowercase();
            !(names(&id) || names(&id.replace('-', "_")))
        })
        .cloned()
        .collect()
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
