//! A seat's sample of the unseen: only the draw piles' order is secret in Tycoon (TY-SETUP-3,
//! TY-TIX-4, TY-TIX-5: hands public), so a sample reshuffles them and keeps everything else.

use super::playouts::check_invariants;
use super::support::rng;
use crate::checked_determinize::{check, play_to_end, positions, varied};
use crate::tycoon::state::State;
use crate::tycoon::{Config, Tycoon};
use crate::{Game, Seat};

/// `state` with each draw pile sorted: what a seat knows about the piles.
fn piles_as_sets(state: &State) -> State {
    let mut known = state.clone();
    for deck in &mut known.decks {
        deck.draw.sort_unstable();
    }
    known
}

/// The true state with its draw piles in another order: what the seat cannot tell apart.
fn reordered(state: &State) -> State {
    let mut twin = state.clone();
    for deck in &mut twin.decks {
        deck.draw.reverse();
    }
    twin
}

#[test]
fn ty_setup_3_ty_tix_5_samples_keep_every_view_and_reshuffle_only_the_draw_piles() {
    for players in 2..=4 {
        for seed in 0..3 {
            for state in positions::<Tycoon>(&Config::default(), players, seed, 40) {
                for seat in state.seats() {
                    let other_truth = Tycoon::determinize(&state, seat, &mut rng(999));
                    let samples =
                        check::<Tycoon>(&state, seat, &[reordered(&state), other_truth], 4);
                    for sample in &samples {
                        check_invariants(sample);
                        assert_eq!(piles_as_sets(sample), piles_as_sets(&state));
                    }
                    let shufflable = state.decks.iter().any(|d| d.draw.len() > 1);
                    assert_eq!(varied(&samples), shufflable, "only hidden orders vary");
                }
            }
        }
    }
}

#[test]
fn a_sample_plays_on_to_the_end_under_the_real_rules() {
    for players in 2..=4 {
        for (i, state) in positions::<Tycoon>(&Config::default(), players, 7, 30)
            .into_iter()
            .enumerate()
        {
            let seat = Seat((i % players) as u8);
            let sample = Tycoon::determinize(&state, seat, &mut rng(i as u64));
            play_to_end::<Tycoon>(sample, i as u64, 20_000);
        }
    }
}
