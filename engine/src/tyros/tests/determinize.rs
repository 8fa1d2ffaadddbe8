//! A seat's sample of the unseen (TR-D-20): other hands, both piles' order, the other side's
//! face-down fight cards and other seats' sealed keep choices are dealt anew; the rest is kept.

use super::playouts::check_invariants;
use super::support::rng;
use crate::checked_determinize::{check, play_to_end, positions, varied};
use crate::tyros::state::State;
use crate::tyros::{Config, Tyros};
use crate::{Game, Seat};

/// The true state with both piles in another order: what no seat can tell apart.
fn reordered(state: &State) -> State {
    let mut twin = state.clone();
    twin.tile_pile.reverse();
    twin.draw_pile.reverse();
    twin
}

/// TR-D-20, TR-SETUP-3, TR-SETUP-4: samples keep the seat's and the spectator's view, the seat's
/// legal actions and every conserved piece, and do not depend on what the seat cannot see.
#[test]
fn tr_d_20_samples_keep_every_view_and_redeal_only_what_the_seat_cannot_see() {
    for players in 3..=4 {
        for seed in 0..2 {
            for state in positions::<Tyros>(&Config::default(), players, seed, 40) {
                for seat in state.seats() {
                    let other_truth = Tyros::determinize(&state, seat, &mut rng(999));
                    let twins = [reordered(&state), other_truth];
                    let samples = check::<Tyros>(&state, seat, &twins, 4);
                    for sample in &samples {
                        check_invariants(sample);
                        assert_eq!(sample.player(seat), state.player(seat), "own hand kept");
                        assert_eq!(
                            sample.discard_pile, state.discard_pile,
                            "discards are public"
                        );
                    }
                    let unseen_tiles = state.tile_pile.len()
                        + state
                            .seats()
                            .filter(|&o| o != seat)
                            .map(|o| state.player(o).tiles.len())
                            .sum::<usize>();
                    if unseen_tiles > 1 && !state.tile_pile.is_empty() {
                        assert!(varied(&samples), "hidden tiles must be redealt");
                    }
                }
            }
        }
    }
}

#[test]
fn a_sample_plays_on_to_the_end_under_the_real_rules() {
    for players in 3..=4 {
        for (i, state) in positions::<Tyros>(&Config::default(), players, 5, 60)
            .into_iter()
            .enumerate()
        {
            let seat = Seat((i % players) as u8);
            let sample = Tyros::determinize(&state, seat, &mut rng(i as u64));
            play_to_end::<Tyros>(sample, i as u64, 50_000);
        }
    }
}
