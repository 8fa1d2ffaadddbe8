//! Properties of `decide` for every hosted game, through the JSON boundary the server uses
//! ([`engine::registry`], [`DynState::check`]), at random reachable states: a seeded game played
//! a random number of random moves.
//!
//! - Every listed action of every seat, and random instances of every template, are accepted.
//! - `decide` never panics, whatever JSON a seat sends: arbitrary JSON, and listed actions
//!   mutated (a field replaced, removed or added, the type swapped, a number pushed to an edge).
//!   Refusing is fine; a panic would be a 500 for the client.
//!
//! proptest shrinks a failure to the fewest moves and the simplest action. Cases per property
//! and game: 128, or `PROPTEST_CASES` (e.g. `PROPTEST_CASES=2000` for a long local run).

use engine::{registry, DynState, Seat};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config as ProptestConfig, TestCaseError, TestRunner};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};

/// The longest random walk to a state: past the opening of every game, well short of most
/// games' end (a walk that ends the game stops there).
const MAX_MOVES: usize = 250;

/// Random instances tried per template.
const INSTANCES: usize = 3;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(128);
    ProptestConfig {
        cases,
        // A case is cheap; give shrinking room but keep a failing run bounded.
        max_shrink_iters: 512,
        ..ProptestConfig::default()
    }
}

/// The configs a game is played under: its default, and every variant at once where it has
/// optional rules that add actions.
fn configs(game: &str) -> Vec<Value> {
    let mut configs = vec![json!({})];
    if game == "tyros" {
        configs.push(json!({
            "pirates": true,
            "action_cards": true,
            "galleys": true,
            "bank_trade_once_per_round": true,
            "player_trade_free": true,
        }));
    }
    configs
}

/// Where a case starts: which config, how many seats, the seed, how many moves.
#[derive(Debug, Clone)]
struct Walk {
    config: Index,
    seats: Index,
    seed: u64,
    moves: usize,
}

fn walk() -> impl Strategy<Value = Walk> {
    (any::<Index>(), any::<Index>(), any::<u64>(), 0..MAX_MOVES).prop_map(
        |(config, seats, seed, moves)| Walk {
            config,
            seats,
            seed,
            moves,
        },
    )
}

/// Every action `seat` can take now: the listed ones and one random instance per template.
fn options(state: &dyn DynState, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<Value> {
    let mut all = state.legal_actions(seat);
    all.extend(
        state
            .action_templates(seat)
            .iter()
            .map(|t| t.instantiate(rng)),
    );
    all
}

/// Plays the walk's random moves (mostly by seats the game waits for, sometimes a standing
/// action of any seat), showing `visit` every state on the way and the seat count; returns the
/// state reached, its seat count and the rng.
fn reach_visiting(
    game: &str,
    walk: &Walk,
    mut visit: impl FnMut(&dyn DynState, usize, usize, &mut ChaCha8Rng),
) -> (Box<dyn DynState>, usize, ChaCha8Rng) {
    let kind = registry::find(game).expect("a hosted game");
    let info = kind.info();
    let configs = configs(game);
    let config = walk.config.get(&configs);
    let seats = info.min_seats + walk.seats.index(info.max_seats - info.min_seats + 1);
    let mut rng = ChaCha8Rng::seed_from_u64(walk.seed);
    let (mut state, _) = kind
        .setup(config, seats, &mut rng)
        .expect("the test's configs are valid");
    for step in 0..walk.moves {
        visit(state.as_ref(), seats, step, &mut rng);
        if state.outcome().is_some() {
            break;
        }
        let active = state.active_seats();
        let seat = if active.is_empty() || rng.random_ratio(1, 4) {
            Seat(rng.random_range(0..seats) as u8)
        } else {
            active[rng.random_range(0..active.len())]
        };
        let options = options(state.as_ref(), seat, &mut rng);
        if options.is_empty() {
            continue;
        }
        let action = &options[rng.random_range(0..options.len())];
        if let Err(e) = state.apply(seat, action, &mut rng) {
            panic!("{game}: listed {action} by seat {} refused: {e}", seat.0);
        }
    }
    (state, seats, rng)
}

/// [`reach_visiting`] without a visitor.
fn reach(game: &str, walk: &Walk) -> (Box<dyn DynState>, usize, ChaCha8Rng) {
    reach_visiting(game, walk, |_, _, _, _| {})
}

/// Every listed action and [`INSTANCES`] instances of every template, of every seat, are
/// accepted at the walk's end.
fn listed_and_templates_are_accepted(game: &str, walk: &Walk) -> Result<(), TestCaseError> {
    let (state, seats, mut rng) = reach(game, walk);
    for seat in (0..seats as u8).map(Seat) {
        for action in state.legal_actions(seat) {
            let verdict = state.check(seat, &action, &mut rng);
            prop_assert!(
                verdict.is_ok(),
                "{game}: listed {action} by seat {} refused: {:?}",
                seat.0,
                verdict.err()
            );
        }
        for template in state.action_templates(seat) {
            for _ in 0..INSTANCES {
                let action = template.instantiate(&mut rng);
                let verdict = state.check(seat, &action, &mut rng);
                prop_assert!(
                    verdict.is_ok(),
                    "{game}: {action} from template {template:?} refused: {:?}",
                    verdict.err()
                );
            }
        }
    }
    Ok(())
}

/// Numbers where off-by-one and overflow bugs live.
const EDGE_NUMBERS: &[i64] = &[
    -1,
    0,
    1,
    2,
    3,
    7,
    8,
    255,
    256,
    65_535,
    65_536,
    i32::MAX as i64,
    i32::MIN as i64,
    u32::MAX as i64,
    i64::MAX,
    i64::MIN,
];

/// Field names an action may carry, common to several games, so that arbitrary objects often
/// have the right keys.
const KEYS: &[&str] = &[
    "type", "ticket", "to", "city", "loan", "decision", "tile", "chain", "shares", "amount",
    "rent", "auction", "square", "offer", "ship", "path", "empire", "cards", "card", "seat",
];

/// Arbitrary JSON: numbers at the edges and anywhere, short strings, nested arrays and objects
/// whose keys are mostly action field names.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        prop::sample::select(EDGE_NUMBERS).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        prop::collection::vec(any::<char>(), 0..8).prop_map(|c| Value::from(String::from_iter(c))),
        prop::sample::select(KEYS).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|fields| {
                Value::Object(
                    fields
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

/// One change to a valid action.
#[derive(Debug, Clone)]
enum Mutation {
    /// A field (at any depth) gets an arbitrary value.
    Replace(Index, Value),
    /// A field (at any depth) is removed.
    Remove(Index),
    /// A field is added at the top.
    Add(&'static str, Value),
    /// The action takes another listed action's type, keeping its own fields.
    SwapType(Index),
    /// A number (at any depth) becomes an edge number.
    Edge(Index, i64),
    /// The whole action is replaced by arbitrary JSON.
    Whole(Value),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), any_json()).prop_map(|(i, v)| Mutation::Replace(i, v)),
        any::<Index>().prop_map(Mutation::Remove),
        (prop::sample::select(KEYS), any_json()).prop_map(|(k, v)| Mutation::Add(k, v)),
        any::<Index>().prop_map(Mutation::SwapType),
        (any::<Index>(), prop::sample::select(EDGE_NUMBERS))
            .prop_map(|(i, n)| Mutation::Edge(i, n)),
        any_json().prop_map(Mutation::Whole),
    ]
}

/// The JSON pointers of every value inside `value` (not the root).
fn pointers(value: &Value, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let here = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(here.clone());
                pointers(v, &here, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let here = format!("{at}/{i}");
                out.push(here.clone());
                pointers(v, &here, out);
            }
        }
        _ => {}
    }
}

/// Removes the value at `pointer` from its object or array.
fn remove(root: &mut Value, pointer: &str) {
    let (parent, last) = pointer.rsplit_once('/').expect("a pointer below the root");
    let last = last.replace("~1", "/").replace("~0", "~");
    match root.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.remove(&last);
        }
        Some(Value::Array(items)) => {
            if let Ok(i) = last.parse::<usize>() {
                if i < items.len() {
                    items.remove(i);
                }
            }
        }
        _ => {}
    }
}

/// `action` changed by `mutation`; `types` are the action types listed in the state.
fn mutate(mut action: Value, mutation: &Mutation, types: &[String]) -> Value {
    let mut all = Vec::new();
    pointers(&action, "", &mut all);
    match mutation {
        Mutation::Replace(i, v) if !all.is_empty() => {
            *action
                .pointer_mut(&all[i.index(all.len())])
                .expect("a listed pointer") = v.clone();
        }
        Mutation::Remove(i) if !all.is_empty() => remove(&mut action, &all[i.index(all.len())]),
        Mutation::Add(k, v) => {
            if let Value::Object(map) = &mut action {
                map.insert((*k).to_string(), v.clone());
            }
        }
        Mutation::SwapType(i) if !types.is_empty() => action["type"] = json!(i.get(types)),
        Mutation::Edge(i, n) => {
            let numbers: Vec<&String> = all
                .iter()
                .filter(|p| action.pointer(p).is_some_and(Value::is_number))
                .collect();
            if !numbers.is_empty() {
                *action
                    .pointer_mut(numbers[i.index(numbers.len())])
                    .expect("a listed pointer") = json!(n);
            }
        }
        Mutation::Whole(v) => action = v.clone(),
        _ => {}
    }
    action
}

/// `decide` answers (accepts or refuses) mutated valid actions and arbitrary ones, from every
/// seat, at every state of the walk; a panic fails the case. At step `k` the `k`-th change
/// (cyclically) is made to one of the actions valid there, listed or from a template.
fn decide_never_panics(
    game: &str,
    walk: &Walk,
    pick: &Index,
    changes: &[Mutation],
    raw: &Value,
) -> Result<(), TestCaseError> {
    let probe = |state: &dyn DynState, seats: usize, step: usize, rng: &mut ChaCha8Rng| {
        let mut valid: Vec<Value> = Vec::new();
        for seat in (0..seats as u8).map(Seat) {
            valid.extend(options(state, seat, rng));
        }
        let mut types: Vec<String> = valid
            .iter()
            .filter_map(|a| a["type"].as_str().map(str::to_string))
            .collect();
        types.sort();
        types.dedup();
        let mut tries = vec![raw.clone()];
        if !valid.is_empty() {
            let action = valid[(pick.index(valid.len()) + step) % valid.len()].clone();
            tries.push(mutate(action, &changes[step % changes.len()], &types));
        }
        for action in &tries {
            for seat in (0..seats as u8).map(Seat) {
                // Accepted or refused are both fine; returning at all is the property.
                let _ = state.check(seat, action, rng);
            }
        }
    };
    let (state, seats, mut rng) = reach_visiting(game, walk, &probe);
    probe(state.as_ref(), seats, walk.moves, &mut rng);
    Ok(())
}

fn run_listed(game: &str) {
    let mut runner = TestRunner::new(config());
    runner
        .run(&walk(), |w| listed_and_templates_are_accepted(game, &w))
        .unwrap_or_else(|e| panic!("{game}: {e}"));
}

fn run_never_panics(game: &str) {
    let mut runner = TestRunner::new(config());
    let changes = prop::collection::vec(mutation(), 1..8);
    let strategy = (walk(), any::<Index>(), changes, any_json());
    runner
        .run(&strategy, |(w, pick, changes, raw)| {
            decide_never_panics(game, &w, &pick, &changes, &raw)
        })
        .unwrap_or_else(|e| panic!("{game}: {e}"));
}

#[test]
fn every_hosted_game_is_covered_here() {
    let names: Vec<&str> = registry::all().iter().map(|g| g.name()).collect();
    assert_eq!(names, ["tycoon", "acquire", "monopoly", "tyros"]);
}

#[test]
fn tycoon_accepts_every_listed_action_and_template_instance() {
    run_listed("tycoon");
}

#[test]
fn acquire_accepts_every_listed_action_and_template_instance() {
    run_listed("acquire");
}

#[test]
fn monopoly_accepts_every_listed_action_and_template_instance() {
    run_listed("monopoly");
}

#[test]
fn tyros_accepts_every_listed_action_and_template_instance() {
    run_listed("tyros");
}

#[test]
fn tycoon_decide_never_panics_on_any_json_action() {
    run_never_panics("tycoon");
}

#[test]
fn acquire_decide_never_panics_on_any_json_action() {
    run_never_panics("acquire");
}

#[test]
fn monopoly_decide_never_panics_on_any_json_action() {
    run_never_panics("monopoly");
}

#[test]
fn tyros_decide_never_panics_on_any_json_action() {
    run_never_panics("tyros");
}
