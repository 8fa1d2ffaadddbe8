//! Chance version 0: the outcomes of a game played at a real table, named in its record.
//!
//! A table has no key to derive its dice from; its record states what happened instead, one
//! JSON value per draw in the order the rules draw (`docs/fairness.md`, "A game played at a
//! table"):
//!
//! - a die: its face, `1..=faces`;
//! - a number the rules draw directly (Tyros's start player): the number, `0..n`;
//! - a pick from a list (Tyros's tile swap, the pirate's field): the item picked, as the
//!   events write it (`7` for a Tyros tile);
//! - a shuffle: the list as the shuffle's event shows it (`order`), each item as the events
//!   write it or `null` where nobody saw it; the items left unnamed fill the `null`s in the
//!   order they had before the shuffle. Identical items (Tyros's trade cards of one colour)
//!   are interchangeable.
//!
//! [`Given`] takes such outcomes and reports the first that does not fit the draw;
//! [`Recording`] draws from another chance and writes its outcomes down in this form, so a
//! played game can be turned into the record a table would have kept.

use serde_json::Value;

use super::{rolled_die, Chance, Documented, Named};

/// The outcomes a record names, taken one per draw.
///
/// Once an outcome fails to fit (or is missing), the step has failed, but the rules cannot be
/// stopped mid-step: the remaining draws come from a fixed stream instead of the same value
/// again, so that a loop that draws until the dice differ (Monopoly's start roll) still ends.
pub struct Given<'a> {
    outcomes: &'a [Value],
    next: usize,
    error: Option<String>,
    after_error: Documented,
}

impl<'a> Given<'a> {
    /// The source of the draws of one step (the setup or one move).
    pub fn new(outcomes: &'a [Value]) -> Self {
        Given {
            outcomes,
            next: 0,
            error: None,
            after_error: Documented::new(&[0; 32], 0),
        }
    }

    /// Whether the step's outcomes fitted its draws, every one of them used.
    ///
    /// # Errors
    /// The first outcome that did not fit (or was missing), or how many were left over.
    pub fn finish(self) -> Result<(), String> {
        if let Some(error) = self.error {
            return Err(error);
        }
        match self.outcomes.len() - self.next {
            0 => Ok(()),
            left => Err(format!(
                "{left} outcome(s) left over: the rules drew {} here",
                self.next
            )),
        }
    }

    /// The next outcome, or `None` (and the error noted) when there is none or an earlier
    /// one failed.
    fn take(&mut self, wanted: &str) -> Option<&'a Value> {
        if self.error.is_some() {
            return None;
        }
        let value = self.outcomes.get(self.next);
        if value.is_none() {
            self.error = Some(format!(
                "outcome {} is missing: the rules draw {wanted} here",
                self.next
            ));
        }
        self.next += 1;
        value
    }

    /// Notes that outcome `next - 1` does not fit.
    fn refuse(&mut self, wanted: &str, got: &Value) {
        if self.error.is_none() {
            self.error = Some(format!(
                "outcome {} is {got}: the rules draw {wanted} here",
                self.next - 1
            ));
        }
    }

    /// A number in `low..=high`, or `None` (noted).
    fn number(&mut self, low: u64, high: u64, wanted: &str) -> Option<u64> {
        let value = self.take(wanted)?;
        match value.as_u64().filter(|n| (low..=high).contains(n)) {
            Some(n) => Some(n),
            None => {
                self.refuse(wanted, value);
                None
            }
        }
    }
}

impl Chance for Given<'_> {
    fn word(&mut self) -> u32 {
        // The rules draw raw words only through `die`, which asks for a face.
        if self.error.is_none() {
            self.error = Some("the rules drew a raw word, which a table cannot name".into());
        }
        self.after_error.word()
    }

    fn below(&mut self, n: usize) -> usize {
        let wanted = format!("a number from 0 to {}", n.saturating_sub(1));
        match self.number(0, n.saturating_sub(1) as u64, &wanted) {
            Some(k) => k as usize,
            None => self.after_error.below(n),
        }
    }

    fn shuffle_swaps(&mut self, len: usize, swap: &mut dyn FnMut(usize, usize)) {
        // The rules shuffle items through `shuffle`, which asks for their order by name.
        if self.error.is_none() {
            self.error = Some("the rules shuffled unnamed positions".into());
        }
        self.after_error.shuffle_swaps(len, swap);
    }

    fn named(&mut self) -> Option<&mut dyn Named> {
        Some(self)
    }
}

impl Named for Given<'_> {
    fn die(&mut self, faces: u8) -> u8 {
        let wanted = format!("a die's face from 1 to {faces}");
        match self.number(1, u64::from(faces), &wanted) {
            Some(face) => face as u8,
            None => rolled_die(&mut self.after_error, faces),
        }
    }

    fn pick(&mut self, labels: &[Value]) -> usize {
        let wanted = format!("one of {}", Value::from(labels.to_vec()));
        let Some(value) = self.take(&wanted) else {
            return self.after_error.below(labels.len());
        };
        match labels.iter().position(|l| l == value) {
            Some(i) => i,
            None => {
                self.refuse(&wanted, value);
                self.after_error.below(labels.len())
            }
        }
    }

    fn arrange(&mut self, labels: &[Value]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..labels.len()).collect();
        let wanted = format!(
            "the order of a shuffle of {} items (each named or null)",
            labels.len()
        );
        if let Some(value) = self.take(&wanted) {
            match arrangement(labels, value) {
                Some(order) => return order,
                None => self.refuse(&wanted, value),
            }
        }
        let len = order.len();
        self.after_error
            .shuffle_swaps(len, &mut |i, j| order.swap(i, j));
        order
    }
}

/// The order `named` states for `labels`: named positions get the first unused item of that
/// name, the `null`s the unnamed items in their order. `None` if it is not such a list.
fn arrangement(labels: &[Value], named: &Value) -> Option<Vec<usize>> {
    let named = named.as_array().filter(|n| n.len() == labels.len())?;
    let mut used = vec![false; labels.len()];
    let mut order = vec![usize::MAX; labels.len()];
    for (position, name) in named.iter().enumerate() {
        if name.is_null() {
            continue;
        }
        let item = (0..labels.len()).find(|&i| !used[i] && labels[i] == *name)?;
        used[item] = true;
        order[position] = item;
    }
    let mut unnamed = (0..labels.len()).filter(|&i| !used[i]);
    for slot in order.iter_mut().filter(|slot| **slot == usize::MAX) {
        *slot = unnamed.next()?;
    }
    Some(order)
}

/// A chance that draws from another and writes each outcome down as a table names it: the
/// same draws, so the outcomes replay through [`Given`] to the same game.
pub struct Recording<'a> {
    inner: &'a mut dyn Chance,
    outcomes: Vec<Value>,
}

impl<'a> Recording<'a> {
    /// Draws from `inner`.
    pub fn new(inner: &'a mut dyn Chance) -> Self {
        Recording {
            inner,
            outcomes: Vec::new(),
        }
    }

    /// The outcomes written down, in the order drawn.
    pub fn into_outcomes(self) -> Vec<Value> {
        self.outcomes
    }
}

impl Chance for Recording<'_> {
    fn word(&mut self) -> u32 {
        self.inner.word()
    }

    fn below(&mut self, n: usize) -> usize {
        let k = self.inner.below(n);
        self.outcomes.push(k.into());
        k
    }

    fn shuffle_swaps(&mut self, len: usize, swap: &mut dyn FnMut(usize, usize)) {
        self.inner.shuffle_swaps(len, swap);
    }

    fn named(&mut self) -> Option<&mut dyn Named> {
        Some(self)
    }
}

impl Named for Recording<'_> {
    fn die(&mut self, faces: u8) -> u8 {
        let face = rolled_die(self.inner, faces);
        self.outcomes.push(face.into());
        face
    }

    fn pick(&mut self, labels: &[Value]) -> usize {
        let i = self.inner.below(labels.len());
        self.outcomes.push(labels[i].clone());
        i
    }

    fn arrange(&mut self, labels: &[Value]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..labels.len()).collect();
        self.inner
            .shuffle_swaps(labels.len(), &mut |i, j| order.swap(i, j));
        self.outcomes
            .push(order.iter().map(|&i| labels[i].clone()).collect());
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::{die, pick, shuffle, Documented, GameChance};
    use serde_json::json;

    #[test]
    fn given_outcomes_are_the_draws() {
        let outcomes = [json!(5), json!(["c", null, "a"]), json!("b"), json!(1)];
        let mut given = Given::new(&outcomes);
        assert_eq!(die(&mut given, 6), 5);
        let mut items = ["a", "b", "c"];
        shuffle(&mut given, &mut items);
        // `null` is the unnamed "b".
        assert_eq!(items, ["c", "b", "a"]);
        assert_eq!(pick(&mut given, &["a", "b"]), "b");
        assert_eq!(given.below(3), 1);
        assert_eq!(given.finish(), Ok(()));
    }

    #[test]
    fn identical_items_are_interchangeable() {
        let outcomes = [json!(["red", "blue", "red"])];
        let mut given = Given::new(&outcomes);
        let mut items = ["red", "red", "blue"];
        shuffle(&mut given, &mut items);
        assert_eq!(items, ["red", "blue", "red"]);
        assert_eq!(given.finish(), Ok(()));
    }

    #[test]
    fn an_outcome_that_does_not_fit_is_the_error() {
        for (outcomes, says) in [
            (
                vec![json!(7)],
                "outcome 0 is 7: the rules draw a die's face from 1 to 6",
            ),
            (vec![], "outcome 0 is missing"),
            (vec![json!(2), json!(3)], "1 outcome(s) left over"),
        ] {
            let mut given = Given::new(&outcomes);
            die(&mut given, 6);
            let error = given.finish().unwrap_err();
            assert!(error.starts_with(says), "{error}");
        }
        // A shuffle naming an item twice, or one that is not there.
        for order in [json!(["a", "a"]), json!(["a", "z"]), json!(["a"])] {
            let outcomes = [order];
            let mut given = Given::new(&outcomes);
            shuffle(&mut given, &mut ["a", "b"]);
            assert!(given.finish().is_err());
        }
    }

    /// After a failed outcome the draws go on from a stream, so a loop that rolls until the
    /// dice differ still ends (the step has failed all the same).
    #[test]
    fn a_failed_outcome_holds_no_loop() {
        let outcomes = [json!(9)];
        let mut given = Given::new(&outcomes);
        while die(&mut given, 6) == die(&mut given, 6) {}
        assert!(given.finish().unwrap_err().starts_with("outcome 0 is 9"));
    }

    /// A recording draws exactly what its chance draws, and its outcomes replay to the same.
    #[test]
    fn a_recording_replays_through_given() {
        let key = [7u8; 32];
        let play = |chance: &mut dyn Chance| {
            let mut deck: Vec<u8> = (0..20).collect();
            shuffle(chance, &mut deck);
            let faces = [die(chance, 6), die(chance, 6)];
            let picked = pick(chance, &deck[..5]);
            (deck, faces, picked, chance.below(4))
        };
        let drawn = play(GameChance::new(2, &key, 3).as_dyn());
        let mut inner = Documented::new(&key, 3);
        let mut recording = Recording::new(&mut inner);
        assert_eq!(play(&mut recording), drawn);
        let outcomes = recording.into_outcomes();
        assert_eq!(outcomes.len(), 5);
        let mut given = Given::new(&outcomes);
        assert_eq!(play(&mut given), drawn);
        assert_eq!(given.finish(), Ok(()));
    }
}
