//! Action templates: the one shared form for actions whose parameters cannot be listed.
//!
//! An auction bid is any amount in a range; a trade offer combines cash with any subset of
//! properties and cards. Listing every such action would make `legal_actions` useless, so a
//! game lists a template instead: the action's `type`, the fields that are fixed, and for each
//! free field the [`Domain`] it is chosen from. A client (or the playout driver, or a bot) fills
//! the template with [`ActionTemplate::instantiate`], or with values of its own choice, and
//! submits the result as an ordinary action. [`crate::Game::decide`] stays the only judge.
//!
//! The promise a game makes with every template it lists: **any** instantiation that takes each
//! free field from its domain is accepted by `decide` in the state the template was listed in.
//! The playout driver checks this with a random instantiation at every step.
//!
//! ```
//! use engine::template::{ActionTemplate, Domain};
//! use rand::SeedableRng;
//!
//! let bid = ActionTemplate::new("bid").param("amount", Domain::Integer { min: 51, max: 380 });
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let action = bid.instantiate(&mut rng);
//! assert_eq!(action["type"], "bid");
//! let amount = action["amount"].as_i64().unwrap();
//! assert!((51..=380).contains(&amount));
//! ```

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// An action with free fields: fixed fields plus one `TemplateDomain` per free field.
///
/// JSON: `{"type": "bid", "fixed": {"auction": 2}, "params": {"amount": {"kind": "integer",
/// "min": 51, "max": 380}}}`. The action it stands for is `{"type": "bid", "auction": 2,
/// "amount": <an integer from 51 to 380>}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ActionTemplate {
    /// The action's `type` tag.
    #[serde(rename = "type")]
    pub action_type: String,
    /// Fields whose value is given; copied into the action as they are.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub fixed: BTreeMap<String, Value>,
    /// Free fields, each with the values it may take.
    pub params: BTreeMap<String, Domain>,
}

/// The values one free field of a template may take.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TemplateDomain))]
pub enum Domain {
    /// A whole number from `min` to `max`, both included.
    Integer { min: i64, max: i64 },
    /// One of the listed values.
    OneOf {
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<Object>))]
        values: Vec<Value>,
    },
    /// A list of distinct values taken from `values` (in the listed order), with
    /// `min_items..=max_items` entries.
    Subset {
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<Object>))]
        values: Vec<Value>,
        min_items: usize,
        max_items: usize,
    },
    /// An object giving a count for some of the listed keys (at most the key's listed limit
    /// each; keys left out count 0), with the counts summing to `min_total..=max_total`.
    /// Used for paying with interchangeable cards: `{"red": 2, "joker": 1}`.
    Counts {
        limits: BTreeMap<String, u32>,
        min_total: u32,
        max_total: u32,
    },
}

impl ActionTemplate {
    /// A template of action `action_type` with no fields yet.
    pub fn new(action_type: impl Into<String>) -> Self {
        ActionTemplate {
            action_type: action_type.into(),
            fixed: BTreeMap::new(),
            params: BTreeMap::new(),
        }
    }

    /// Adds a fixed field.
    #[must_use]
    pub fn fixed(mut self, field: impl Into<String>, value: impl Serialize) -> Self {
        let value = serde_json::to_value(value).expect("template values serialize to JSON");
        self.fixed.insert(field.into(), value);
        self
    }

    /// Adds a free field.
    #[must_use]
    pub fn param(mut self, field: impl Into<String>, domain: Domain) -> Self {
        self.params.insert(field.into(), domain);
        self
    }

    /// A uniformly random action of this template, as JSON.
    pub fn instantiate(&self, rng: &mut dyn RngCore) -> Value {
        let mut action = Map::new();
        action.insert("type".into(), Value::String(self.action_type.clone()));
        for (field, value) in &self.fixed {
            action.insert(field.clone(), value.clone());
        }
        for (field, domain) in &self.params {
            action.insert(field.clone(), domain.pick(rng));
        }
        Value::Object(action)
    }
}

/// A uniformly random instantiation of `template` read as an action of type `A` (of game
/// `game`, named in the panic).
///
/// # Panics
/// When the instantiation is not an `A`: the game's templates and its action type disagree.
pub fn instantiate_as<A: for<'de> Deserialize<'de>>(
    game: &str,
    template: &ActionTemplate,
    rng: &mut dyn RngCore,
) -> A {
    let json = template.instantiate(rng);
    A::deserialize(&json)
        .unwrap_or_else(|e| panic!("{game} template {template:?} gave {json}, not an action: {e}"))
}

impl Domain {
    /// A set of values by their JSON form.
    pub fn one_of<T: Serialize>(values: impl IntoIterator<Item = T>) -> Self {
        Domain::OneOf {
            values: values.into_iter().map(to_json).collect(),
        }
    }

    /// Any sub-list of `values` (empty included).
    pub fn any_subset<T: Serialize>(values: impl IntoIterator<Item = T>) -> Self {
        let values: Vec<Value> = values.into_iter().map(to_json).collect();
        Domain::Subset {
            max_items: values.len(),
            min_items: 0,
            values,
        }
    }

    /// Whether the domain has at least one value.
    pub fn is_satisfiable(&self) -> bool {
        match self {
            Domain::Integer { min, max } => min <= max,
            Domain::OneOf { values } => !values.is_empty(),
            Domain::Subset {
                values,
                min_items,
                max_items,
            } => min_items <= max_items && *min_items <= values.len(),
            Domain::Counts {
                limits,
                min_total,
                max_total,
            } => min_total <= max_total && *min_total <= limits.values().sum::<u32>(),
        }
    }

    /// Whether `value` is one of the domain's values.
    pub fn contains(&self, value: &Value) -> bool {
        match self {
            Domain::Integer { min, max } => {
                value.as_i64().is_some_and(|v| (*min..=*max).contains(&v))
            }
            Domain::OneOf { values } => values.contains(value),
            Domain::Subset {
                values,
                min_items,
                max_items,
            } => {
                let Some(items) = value.as_array() else {
                    return false;
                };
                let mut seen = Vec::with_capacity(items.len());
                for item in items {
                    match values.iter().position(|v| v == item) {
                        Some(i) if !seen.contains(&i) => seen.push(i),
                        _ => return false,
                    }
                }
                (*min_items..=*max_items).contains(&items.len())
            }
            Domain::Counts {
                limits,
                min_total,
                max_total,
            } => {
                let Some(counts) = value.as_object() else {
                    return false;
                };
                let mut total = 0u64;
                for (key, count) in counts {
                    let (Some(limit), Some(count)) = (limits.get(key), count.as_u64()) else {
                        return false;
                    };
                    if count > u64::from(*limit) {
                        return false;
                    }
                    total += count;
                }
                (u64::from(*min_total)..=u64::from(*max_total)).contains(&total)
            }
        }
    }

    /// A random value of the domain (uniform over integers, choices and subset sizes).
    ///
    /// # Panics
    /// When the domain is empty ([`Domain::is_satisfiable`] is false): a game never lists such
    /// a template.
    pub fn pick(&self, rng: &mut dyn RngCore) -> Value {
        assert!(self.is_satisfiable(), "empty template domain {self:?}");
        match self {
            Domain::Integer { min, max } => Value::from(draw::integer(rng, *min, *max)),
            Domain::OneOf { values } => values[draw::index(rng, values.len())].clone(),
            Domain::Subset {
                values,
                min_items,
                max_items,
            } => Value::Array(
                draw::subset(rng, values.len(), *min_items, *max_items)
                    .into_iter()
                    .map(|i| values[i].clone())
                    .collect(),
            ),
            Domain::Counts {
                limits,
                min_total,
                max_total,
            } => {
                let caps: Vec<u32> = limits.values().copied().collect();
                let mut counts = vec![0; caps.len()];
                draw::counts(rng, &caps, *min_total, *max_total, &mut counts);
                Value::Object(
                    limits
                        .keys()
                        .zip(counts)
                        .filter(|&(_, n)| n > 0)
                        .map(|(k, n)| (k.clone(), Value::from(n)))
                        .collect(),
                )
            }
        }
    }
}

/// The random draws behind [`Domain::pick`], on plain values. A game that fills in its own
/// templates ([`crate::Game::template_action`]) calls these with its domains' values in the
/// template's order (free fields by name, as [`ActionTemplate::instantiate`] takes them), so
/// it draws exactly what the JSON instantiation draws and seeded playouts stay the same.
pub mod draw {
    use rand::seq::index::sample;
    use rand::{Rng, RngCore};

    /// A whole number from `min` to `max` ([`super::Domain::Integer`]).
    pub fn integer(rng: &mut dyn RngCore, min: i64, max: i64) -> i64 {
        rng.random_range(min..=max)
    }

    /// The index of one of `len` values ([`super::Domain::OneOf`]).
    pub fn index(rng: &mut dyn RngCore, len: usize) -> usize {
        rng.random_range(0..len)
    }

    /// The indices, ascending, of a sub-list of `len` values with `min_items..=max_items`
    /// entries, the size uniform ([`super::Domain::Subset`]).
    pub fn subset(
        rng: &mut dyn RngCore,
        len: usize,
        min_items: usize,
        max_items: usize,
    ) -> Vec<usize> {
        let n = rng.random_range(min_items..=max_items.min(len));
        let mut chosen = sample(rng, len, n).into_vec();
        chosen.sort_unstable();
        chosen
    }

    /// Counts for keys with the limits `caps` (in key order), summing to
    /// `min_total..=max_total` ([`super::Domain::Counts`]), written to `counts`: the total is
    /// uniform, then dealt one unit at a time to a uniformly chosen key with room left.
    pub fn counts(
        rng: &mut dyn RngCore,
        caps: &[u32],
        min_total: u32,
        max_total: u32,
        counts: &mut [u32],
    ) {
        let capacity: u32 = caps.iter().sum();
        let total = rng.random_range(min_total..=max_total.min(capacity));
        counts.fill(0);
        for _ in 0..total {
            let open = caps.iter().zip(&*counts).filter(|(cap, n)| n < cap).count();
            let mut k = rng.random_range(0..open);
            for (cap, n) in caps.iter().zip(counts.iter_mut()) {
                if *n < *cap {
                    if k == 0 {
                        *n += 1;
                        break;
                    }
                    k -= 1;
                }
            }
        }
    }
}

/// How many items `walk` hands to its visitor: with [`nth_found`], how a game answers
/// [`crate::Game::action_template_count`] and [`crate::Game::action_template`] from the one
/// walk that finds its templates, without building the ones not asked for.
pub(crate) fn count_found<T>(walk: impl FnOnce(&mut dyn FnMut(T))) -> usize {
    let mut count = 0;
    walk(&mut |_| count += 1);
    count
}

/// The `index`-th item `walk` hands to its visitor (see [`count_found`]).
pub(crate) fn nth_found<T>(index: usize, walk: impl FnOnce(&mut dyn FnMut(T))) -> Option<T> {
    let (mut seen, mut found) = (0, None);
    walk(&mut |item| {
        if seen == index {
            found = Some(item);
        }
        seen += 1;
    });
    found
}

fn to_json<T: Serialize>(value: T) -> Value {
    serde_json::to_value(value).expect("template values serialize to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn domains() -> Vec<Domain> {
        vec![
            Domain::Integer { min: -3, max: 7 },
            Domain::one_of(["a", "b", "c"]),
            Domain::Subset {
                values: (0..6).map(Value::from).collect(),
                min_items: 2,
                max_items: 4,
            },
            Domain::any_subset(["x", "y"]),
            Domain::Counts {
                limits: [("red".to_string(), 2), ("joker".to_string(), 1)].into(),
                min_total: 2,
                max_total: 3,
            },
        ]
    }

    #[test]
    fn every_picked_value_is_in_its_domain_and_every_bound_is_reached() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for domain in domains() {
            let mut seen = std::collections::BTreeSet::new();
            for _ in 0..500 {
                let v = domain.pick(&mut rng);
                assert!(domain.contains(&v), "{v} not in {domain:?}");
                seen.insert(v.to_string());
            }
            let expected = match &domain {
                Domain::Integer { .. } => 11,
                Domain::OneOf { .. } => 3,
                Domain::Subset { min_items: 2, .. } => 15 + 20 + 15,
                Domain::Subset { .. } => 4,
                Domain::Counts { .. } => 2 + 1,
            };
            assert_eq!(seen.len(), expected, "{domain:?}: {seen:?}");
        }
    }

    #[test]
    fn values_outside_a_domain_are_refused() {
        let [int, one, subset, _, counts] = &domains()[..] else {
            unreachable!()
        };
        assert!(!int.contains(&Value::from(8)));
        assert!(!int.contains(&Value::from("1")));
        assert!(!one.contains(&Value::from("d")));
        assert!(!subset.contains(&serde_json::json!([1])));
        assert!(!subset.contains(&serde_json::json!([1, 1])));
        assert!(!subset.contains(&serde_json::json!([1, 9])));
        assert!(!counts.contains(&serde_json::json!({"red": 3})));
        assert!(!counts.contains(&serde_json::json!({"blue": 2})));
        assert!(!counts.contains(&serde_json::json!({"joker": 1})));
        assert!(counts.contains(&serde_json::json!({"joker": 1, "red": 1})));
    }

    #[test]
    fn an_instantiated_template_carries_type_fixed_fields_and_params() {
        let t = ActionTemplate::new("offer_trade")
            .fixed("to", 2)
            .param("cash", Domain::Integer { min: 0, max: 0 });
        let action = t.instantiate(&mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(
            action,
            serde_json::json!({"type": "offer_trade", "to": 2, "cash": 0})
        );
        let json = serde_json::to_value(&t).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"type": "offer_trade", "fixed": {"to": 2},
                "params": {"cash": {"kind": "integer", "min": 0, "max": 0}}})
        );
        assert_eq!(serde_json::from_value::<ActionTemplate>(json).unwrap(), t);
    }

    #[test]
    fn an_empty_domain_is_unsatisfiable() {
        assert!(!Domain::Integer { min: 2, max: 1 }.is_satisfiable());
        assert!(!Domain::one_of(Vec::<u8>::new()).is_satisfiable());
        assert!(!Domain::Subset {
            values: vec![],
            min_items: 1,
            max_items: 1
        }
        .is_satisfiable());
    }
}
