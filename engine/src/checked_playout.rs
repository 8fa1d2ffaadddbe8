//! The seeded random playout every game's tests run (test builds only): play one game to the
//! end by its legal actions, checking every step with the game's own [`Checks`], then check
//! that the log replays to the final state and that state and log survive JSON.

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{Game, Seat};

/// What a game's playout tests check along the way.
pub(crate) trait Checks<G: Game> {
    /// Conservation and shape invariants of any reachable state.
    fn invariants(state: &G::State);
    /// `legal` is exactly the set of actions `decide` accepts from `seat` (slow: a few games).
    fn exactly_legal(state: &G::State, seat: Seat, legal: &[G::Action]);
    /// Every change between `before` and `after` is accounted for by `events`.
    fn ledger(before: &G::State, after: &G::State, events: &[G::Event]);
    /// No view and no redacted event tells a viewer what it may not know.
    fn hidden(state: &G::State, events: &[G::Event]);
}

/// One playout's parameters.
pub(crate) struct Playout {
    pub players: usize,
    pub seed: u64,
    /// Run [`Checks::exactly_legal`] at every step.
    pub check_completeness: bool,
    /// Far above any real game; reaching it means a game that does not end.
    pub max_actions: usize,
    /// Run [`Checks::hidden`] in games whose seed is a multiple of this.
    pub hidden_every: u64,
    /// Check the JSON round trips in games whose seed is a multiple of this.
    pub json_every: u64,
}

/// A seeded choice among `legal`, each action weighted by `policy`.
pub(crate) fn pick<A: Clone, R: Rng>(rng: &mut R, legal: &[A], policy: fn(&A) -> u32) -> A {
    let total: u32 = legal.iter().map(policy).sum();
    let mut roll = rng.random_range(0..total);
    for a in legal {
        let w = policy(a);
        if roll < w {
            return a.clone();
        }
        roll -= w;
    }
    unreachable!("roll below the total weight")
}

/// Plays one seeded game of `G` to the end with `policy`, checking every step with `C`.
/// Returns the whole log, setup included.
pub(crate) fn play<G: Game, C: Checks<G>>(
    p: &Playout,
    config: &G::Config,
    policy: fn(&G::Action) -> u32,
) -> Vec<G::Event> {
    let (players, seed) = (p.players, p.seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut log = G::setup(config, players, &mut rng).unwrap();
    let mut state = G::replay(&log);
    C::invariants(&state);
    let mut steps = 0;
    while G::outcome(&state).is_none() {
        assert!(
            steps < p.max_actions,
            "game {seed} with {players} players did not end"
        );
        let active = G::active_seats(&state);
        assert_eq!(active.len(), 1, "exactly one seat decides at a time");
        let seat = active[0];
        let legal = G::legal_actions(&state, seat);
        assert!(!legal.is_empty(), "{seat} must have a legal action");
        for other in (0..players).map(|s| Seat(s as u8)).filter(|s| *s != seat) {
            assert!(G::legal_actions(&state, other).is_empty());
        }
        if p.check_completeness {
            C::exactly_legal(&state, seat, &legal);
        }
        let action = pick(&mut rng, &legal, policy);
        let events = G::decide(&state, seat, &action, &mut rng)
            .unwrap_or_else(|e| panic!("listed action {action:?} refused: {e}"));
        let before = state.clone();
        for e in &events {
            G::evolve(&mut state, e);
        }
        C::ledger(&before, &state, &events);
        if seed.is_multiple_of(p.hidden_every) {
            C::hidden(&state, &events);
        }
        C::invariants(&state);
        log.extend(events);
        steps += 1;
    }
    assert!(steps > 0);
    assert_eq!(
        G::replay(&log),
        state,
        "replaying the log must give the final state"
    );
    if seed.is_multiple_of(p.json_every) {
        let json = serde_json::to_value(&state).unwrap();
        let back: G::State = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, state, "state JSON must round-trip");
        assert_eq!(serde_json::to_value(&back).unwrap(), json);
        let log_json = serde_json::to_value(&log).unwrap();
        let back: Vec<G::Event> = serde_json::from_value(log_json).unwrap();
        assert_eq!(back, log, "events JSON must round-trip");
    }
    log
}
