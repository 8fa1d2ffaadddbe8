//! The seeded random playout every game's tests run (test builds only): play one game to the
//! end by its legal actions, checking every step with the game's own [`Checks`], then check
//! that the log replays to the final state and that state and log survive JSON.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{playout, Game, Seat};

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
    /// Whether seats the game is not waiting for may have actions (standing actions). When
    /// false, every seat outside `active_seats` must have none.
    pub standing_actions: bool,
}

/// Plays one seeded game of `G` to the end, each step a choice among every seat's actions
/// (templates instantiated at random) weighted by `policy`, checking every step with `C`.
/// Returns the whole log, setup included.
///
/// At every step: some seat is active; every active seat can act; every template of every seat
/// instantiates to an action `decide` accepts (the template promise); the chosen action is
/// accepted; the game's own checks hold.
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
        assert!(!active.is_empty(), "an unfinished game waits for some seat");
        let choices = playout::choices::<G>(&state, &mut rng);
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
                C::exactly_legal(&state, seat, &legal);
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
