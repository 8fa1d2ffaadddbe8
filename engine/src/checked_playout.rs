//! The seeded random playout every game's tests run (test builds only): play one game to the
//! end by its legal actions, checking every step with the game's own [`Checks`], then check
//! that the log replays to the final state and that state and log survive JSON.
//!
//! Every game gets the same invariant set from here: some seat is always active and can act;
//! every listed action and every template instantiation is accepted; the game's own
//! conservation ([`Checks::invariants`]), money ([`Checks::ledger`]) and secrecy
//! ([`Checks::hidden`]) checks hold after every step; the game ends; the log replays to the
//! state; the state survives its snapshot (the JSON text the server stores) and the log its
//! JSON.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{playout, Game, Seat};

/// What a game's playout tests check along the way, each a function of theirs that panics
/// when its check fails.
pub(crate) struct Checks<G: Game> {
    /// Conservation and shape invariants of any reachable state.
    pub invariants: fn(state: &G::State),
    /// `legal` is exactly the set of actions `decide` accepts from `seat` (slow: a few games).
    pub exactly_legal: fn(state: &G::State, seat: Seat, legal: &[G::Action]),
    /// Every change between `before` and `after` is accounted for by `events`.
    pub ledger: fn(before: &G::State, after: &G::State, events: &[G::Event]),
    /// No view and no redacted event tells a viewer what it may not know. Runs at every step
    /// of every playout, so it must be cheap.
    pub hidden: fn(state: &G::State, events: &[G::Event]),
}

/// The policy that weighs every listed action and template alike.
pub(crate) fn uniform<A>(_: &A) -> u32 {
    1
}

/// One playout's parameters.
pub(crate) struct Playout {
    pub players: usize,
    pub seed: u64,
    /// Run [`Checks::exactly_legal`] at every step.
    pub check_completeness: bool,
    /// Far above any real game; reaching it means a game that does not end.
    pub max_actions: usize,
    /// Besides the final snapshot (checked in every game), round-trip the state after every
    /// step in games whose seed is a multiple of this.
    pub json_every: u64,
    /// Whether seats the game is not waiting for may have actions (standing actions). When
    /// false, every seat outside `active_seats` must have none.
    pub standing_actions: bool,
}

/// Plays one seeded game of `G` to the end, each step a choice among every seat's actions
/// (templates instantiated at random) weighted by `policy`, checking every step with `checks`.
/// Returns the whole log, setup included.
///
/// At every step: some seat is active; every active seat can act; every template of every seat
/// instantiates to an action `decide` accepts (the template promise), and
/// [`Game::action_template_count`] and [`Game::action_template`] agree with the list; the
/// chosen action is accepted; the game's own checks hold.
pub(crate) fn play<G: Game>(
    p: &Playout,
    checks: &Checks<G>,
    config: &G::Config,
    policy: fn(&G::Action) -> u32,
) -> Vec<G::Event> {
    let (players, seed) = (p.players, p.seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut log = G::setup(config, players, &mut rng).unwrap();
    let mut state = G::replay(&log);
    (checks.invariants)(&state);
    (checks.hidden)(&state, &log);
    let mut steps = 0;
    while G::outcome(&state).is_none() {
        assert!(
            steps < p.max_actions,
            "game {seed} with {players} players did not end"
        );
        let active = G::active_seats(&state);
        assert!(!active.is_empty(), "an unfinished game waits for some seat");
        let choices = playout::choices::<G>(&state, &mut rng);
        let mut counts = vec![(0, 0); players];
        G::choice_counts(&state, &mut counts);
        for seat in (0..players).map(|s| Seat(s as u8)) {
            check_listing::<G>(&state, seat, steps, &rng);
            assert_eq!(
                counts[seat.index()],
                (
                    G::legal_action_count(&state, seat),
                    G::action_template_count(&state, seat)
                ),
                "{seat}: every seat's counts at once must be each seat's counts"
            );
        }
        let (mut own, mut counted) = (rng.clone(), rng.clone());
        assert_eq!(
            G::random_choice(&state, &mut own),
            playout::counted_choice::<G>(&state, &mut counted),
            "the game's random choice must be the counted one"
        );
        assert_eq!(
            own.next_u64(),
            counted.next_u64(),
            "the game's random choice must draw what the counted one draws"
        );
        for seat in (0..players).map(|s| Seat(s as u8)) {
            let has_choice = choices.iter().any(|c| c.seat == seat);
            if active.contains(&seat) {
                assert!(has_choice, "active {seat} must have a legal action");
            } else if !p.standing_actions {
                assert!(!has_choice, "{seat} is not active and may not act");
            }
        }
        for c in choices.iter().filter(|c| c.from_template) {
            let mut probe = rng.clone();
            if let Err(e) = G::decide(&state, c.seat, &c.action, &mut probe) {
                panic!("{} instantiated {:?} refused: {e}", c.seat, c.action);
            }
        }
        if p.check_completeness {
            for &seat in &active {
                let legal: Vec<G::Action> = choices
                    .iter()
                    .filter(|c| c.seat == seat && !c.from_template)
                    .map(|c| c.action.clone())
                    .collect();
                (checks.exactly_legal)(&state, seat, &legal);
            }
        }
        let choice = playout::pick(&mut rng, &choices, |c| policy(&c.action))
            .expect("the policy gives some listed action a weight");
        let (seat, action) = (choice.seat, &choice.action);
        let events = G::decide(&state, seat, action, &mut rng)
            .unwrap_or_else(|e| panic!("listed action {action:?} of {seat} refused: {e}"));
        let before = state.clone();
        for e in &events {
            G::evolve(&mut state, e);
        }
        (checks.ledger)(&before, &state, &events);
        (checks.hidden)(&state, &events);
        (checks.invariants)(&state);
        if seed.is_multiple_of(p.json_every) {
            assert_snapshot_round_trips::<G>(&state);
        }
        log.extend(events);
        steps += 1;
    }
    assert!(steps > 0);
    assert_eq!(
        G::replay(&log),
        state,
        "replaying the log must give the final state"
    );
    assert_snapshot_round_trips::<G>(&state);
    let log_json = serde_json::to_string(&log).unwrap();
    let back: Vec<G::Event> = serde_json::from_str(&log_json).unwrap();
    assert_eq!(back, log, "events JSON must round-trip");
    log
}

/// The shortcuts of the random playout driver agree with the lists: the action count is the
/// list's length and the action at an index is the list's (index 0, the last and one that moves
/// with `step`, as checking every index at every step would be quadratic in long lists); the
/// template count and every template agree with the template list, and each template's direct
/// fill draws what its JSON instantiation draws from the same `rng` and gives the same action.
fn check_listing<G: Game>(state: &G::State, seat: Seat, step: usize, rng: &ChaCha8Rng) {
    let legal = G::legal_actions(state, seat);
    assert_eq!(
        G::legal_action_count(state, seat),
        legal.len(),
        "{seat}: the action count must count the listed actions"
    );
    if let Some(last) = legal.len().checked_sub(1) {
        for i in [0, last, step % legal.len()] {
            assert_eq!(G::legal_action(state, seat, i).as_ref(), Some(&legal[i]));
        }
    }
    assert_eq!(G::legal_action(state, seat, legal.len()), None);
    let templates = G::action_templates(state, seat);
    assert_eq!(
        G::action_template_count(state, seat),
        templates.len(),
        "{seat}: the template count must count the templates"
    );
    for (i, template) in templates.iter().enumerate() {
        assert_eq!(G::action_template(state, seat, i).as_ref(), Some(template));
        let (mut direct, mut by_json) = (rng.clone(), rng.clone());
        let filled = G::template_action(state, seat, i, &mut direct);
        let read = crate::template::instantiate_as::<G::Action>(G::NAME, template, &mut by_json);
        assert_eq!(
            filled.as_ref(),
            Some(&read),
            "{seat}: template {template:?}"
        );
        assert_eq!(
            direct.next_u64(),
            by_json.next_u64(),
            "{seat}: filling {template:?} must draw what its JSON instantiation draws"
        );
    }
    assert_eq!(G::action_template(state, seat, templates.len()), None);
    assert_eq!(
        G::template_action(state, seat, templates.len(), &mut rng.clone()),
        None
    );
}

/// The state read back from its snapshot (the JSON text the server stores) is the state, and
/// writes the same text again.
fn assert_snapshot_round_trips<G: Game>(state: &G::State) {
    let snapshot = serde_json::to_string(state).unwrap();
    let back: G::State = serde_json::from_str(&snapshot).unwrap();
    assert_eq!(&back, state, "the snapshot must read back as the state");
    assert_eq!(serde_json::to_string(&back).unwrap(), snapshot);
}

/// Calls `f` with every string `value` serializes to (the strings of its JSON form: values, map
/// keys, field names and enum variant names), without building the JSON. The cheap way for
/// [`Checks::hidden`] to look for a secret anywhere in a view or an event at every step.
pub(crate) fn each_string(value: &impl serde::Serialize, f: &mut dyn FnMut(&str)) {
    value
        .serialize(&mut Strings(f))
        .expect("visiting strings cannot fail");
}

/// A serializer that only visits strings (see [`each_string`]).
struct Strings<'f>(&'f mut dyn FnMut(&str));

/// [`Strings`] never fails; serde still wants an error type.
#[derive(Debug)]
struct NoError;

impl std::fmt::Display for NoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no error")
    }
}

impl std::error::Error for NoError {}

impl serde::ser::Error for NoError {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NoError
    }
}

/// Scalars other than strings carry no string.
macro_rules! ignore {
    ($($method:ident: $ty:ty),*) => {
        $(fn $method(self, _: $ty) -> Result<(), NoError> { Ok(()) })*
    };
}

impl serde::Serializer for &mut Strings<'_> {
    type Ok = ();
    type Error = NoError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    ignore!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_f32: f32, serialize_f64: f64, serialize_bytes: &[u8],
        serialize_unit_struct: &'static str);

    fn serialize_char(self, v: char) -> Result<(), NoError> {
        (self.0)(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), NoError> {
        (self.0)(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), NoError> {
        Ok(())
    }
    fn serialize_some<T: ?Sized + serde::Serialize>(self, v: &T) -> Result<(), NoError> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), NoError> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), NoError> {
        (self.0)(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + serde::Serialize>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), NoError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + serde::Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), NoError> {
        (self.0)(variant);
        v.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, NoError> {
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, NoError> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, NoError> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self, NoError> {
        (self.0)(variant);
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, NoError> {
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, NoError> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self, NoError> {
        (self.0)(variant);
        Ok(self)
    }
}

/// Sequences, tuples and maps: every element, key and value in turn.
macro_rules! elements {
    ($($trait:ident :: $method:ident),*) => {$(
        impl serde::ser::$trait for &mut Strings<'_> {
            type Ok = ();
            type Error = NoError;
            fn $method<T: ?Sized + serde::Serialize>(&mut self, v: &T) -> Result<(), NoError> {
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), NoError> {
                Ok(())
            }
        }
    )*};
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl serde::ser::SerializeMap for &mut Strings<'_> {
    type Ok = ();
    type Error = NoError;
    fn serialize_key<T: ?Sized + serde::Serialize>(&mut self, key: &T) -> Result<(), NoError> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: ?Sized + serde::Serialize>(&mut self, v: &T) -> Result<(), NoError> {
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<(), NoError> {
        Ok(())
    }
}

/// Structs: every field name and value.
macro_rules! fields {
    ($($trait:ident),*) => {$(
        impl serde::ser::$trait for &mut Strings<'_> {
            type Ok = ();
            type Error = NoError;
            fn serialize_field<T: ?Sized + serde::Serialize>(
                &mut self,
                name: &'static str,
                v: &T,
            ) -> Result<(), NoError> {
                (self.0)(name);
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), NoError> {
                Ok(())
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::each_string;
    use serde_json::json;

    #[test]
    fn each_string_visits_every_string_of_the_json_form() {
        let value = json!({ "a": ["1A", { "b": "secret" }], "n": 3, "none": null });
        let mut seen = Vec::new();
        each_string(&value, &mut |s| seen.push(s.to_string()));
        seen.sort();
        assert_eq!(seen, ["1A", "a", "b", "n", "none", "secret"]);
        // Engine types too: a tagged event's type and fields, a ticket's id.
        let event = crate::tycoon::Event::TicketBought {
            seat: crate::Seat(1),
            ticket: crate::tycoon::Ticket(8),
            price: 5,
        };
        let mut seen = Vec::new();
        each_string(&event, &mut |s| seen.push(s.to_string()));
        assert_eq!(
            seen,
            ["type", "ticket_bought", "seat", "ticket", "S09", "price"]
        );
    }
}
