//! The determinization contract every game's tests check (test builds only): a seat's sample
//! looks the same to that seat and to spectators, depends on nothing the seat cannot see, and
//! differs from draw to draw where something is hidden.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::{Game, Seat, Viewer};

fn view<G: Game>(state: &G::State, viewer: Viewer) -> Value {
    serde_json::to_value(G::view(state, viewer)).expect("views serialize")
}

/// Checks [`Game::determinize`] for `seat` on `state` with `draws` RNG seeds, and returns the
/// samples. `twins` are states that differ from `state` only in what `seat` cannot see: each
/// must give exactly the same sample for the same seed, or the sample leaks hidden information.
///
/// # Panics
/// When a sample changes what `seat` or a spectator sees, or depends on a twin's hidden parts.
pub(crate) fn check<G: Game>(
    state: &G::State,
    seat: Seat,
    twins: &[G::State],
    draws: u64,
) -> Vec<G::State> {
    let own = view::<G>(state, Viewer::Seat(seat));
    let public = view::<G>(state, Viewer::Spectator);
    for twin in twins {
        assert_eq!(
            view::<G>(twin, Viewer::Seat(seat)),
            own,
            "a twin must look the same to {seat}"
        );
    }
    (0..draws)
        .map(|seed| {
            let sample = G::determinize(state, seat, &mut ChaCha8Rng::seed_from_u64(seed));
            assert_eq!(
                view::<G>(&sample, Viewer::Seat(seat)),
                own,
                "{seat} must see the same in its sample"
            );
            assert_eq!(
                view::<G>(&sample, Viewer::Spectator),
                public,
                "the sample must keep every public fact"
            );
            assert_eq!(G::active_seats(&sample), G::active_seats(state));
            assert_eq!(
                G::legal_actions(&sample, seat),
                G::legal_actions(state, seat)
            );
            for twin in twins {
                let from_twin = G::determinize(twin, seat, &mut ChaCha8Rng::seed_from_u64(seed));
                assert_eq!(
                    from_twin, sample,
                    "the sample must not depend on what {seat} cannot see"
                );
            }
            sample
        })
        .collect()
}

/// Whether the samples are not all the same: something hidden was redealt.
pub(crate) fn varied<S: PartialEq>(samples: &[S]) -> bool {
    samples.iter().any(|s| *s != samples[0])
}

/// Positions of one seeded uniformly random game of `players`: every `every`-th state until the
/// end, the final one excluded.
pub(crate) fn positions<G: Game>(
    config: &G::Config,
    players: usize,
    seed: u64,
    every: usize,
) -> Vec<G::State> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = G::replay(&G::setup(config, players, &mut rng).expect("valid setup"));
    let mut out = Vec::new();
    for step in 0.. {
        if G::outcome(&state).is_some() {
            break;
        }
        if step % every == 0 {
            out.push(state.clone());
        }
        let choice = crate::playout::random_choice::<G>(&state, &mut rng).expect("someone acts");
        for event in G::decide(&state, choice.seat, &choice.action, &mut rng).expect("legal") {
            G::evolve(&mut state, &event);
        }
    }
    out
}

/// Plays `sample` to its end with uniformly random choices; panics if an action the sample
/// lists is refused or the game does not end within `max_actions`.
pub(crate) fn play_to_end<G: Game>(mut sample: G::State, seed: u64, max_actions: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..max_actions {
        if G::outcome(&sample).is_some() {
            return;
        }
        let choice = crate::playout::random_choice::<G>(&sample, &mut rng).expect("someone acts");
        let events = G::decide(&sample, choice.seat, &choice.action, &mut rng)
            .unwrap_or_else(|e| panic!("{:?} refused in a sample: {e}", choice.action));
        for event in &events {
            G::evolve(&mut sample, event);
        }
    }
    panic!("a sample did not end within {max_actions} actions");
}
