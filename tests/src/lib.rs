//! End-to-end tests of the HTTP API live in `tests/api/` (one binary with modules); the load
//! generator is `src/bin/loadgen/`. This library holds what both use.

use engine::ActionTemplate;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// A seeded choice among legal Tycoon actions that prefers building and flying, so that games
/// end in a few hundred moves (uniformly random players mostly borrow and pass).
///
/// # Panics
/// When `actions` is empty.
pub fn pick<'a>(rng: &mut ChaCha8Rng, actions: &'a [Value]) -> &'a Value {
    let weight = |a: &Value| match a["type"].as_str().unwrap_or("") {
        "build_hotel" | "renovate_hotel" => 60,
        "build_factory" => 15,
        "fly" => 8,
        "buy_ticket" => 2,
        _ => 1,
    };
    let total: u32 = actions.iter().map(weight).sum();
    let mut roll = rng.random_range(0..total);
    for a in actions {
        if roll < weight(a) {
            return a;
        }
        roll -= weight(a);
    }
    unreachable!("the roll is below the total weight")
}

/// A seeded choice among a seat's listed `actions` and its `templates` (JSON, as the API sends
/// them), a template counting as one choice and filled in at random. Listed actions are weighted
/// as [`pick`] weights them.
///
/// # Panics
/// When both lists are empty, or a template is not an `ActionTemplate`.
pub fn choose(rng: &mut ChaCha8Rng, actions: &[Value], templates: &[Value]) -> Value {
    let listed = if actions.is_empty() { 0 } else { 1 };
    let roll = rng.random_range(0..listed + templates.len());
    if roll < listed {
        return pick(rng, actions).clone();
    }
    let template: ActionTemplate = serde_json::from_value(templates[roll - listed].clone())
        .expect("the API sends ActionTemplate objects");
    template.instantiate(rng)
}
