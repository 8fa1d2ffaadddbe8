//! A seat's sample of the unseen: the other hands and the pile are dealt anew from the tiles
//! the seat cannot see (AQ-COMP-5, AQ-INFO-2); sizes, the board, removed and bank tiles and
//! all holdings are kept, hidden holdings included (AQ-INFO-3 hides them from views only).

use super::playouts::check_invariants;
use super::support::rng;
use crate::acquire::data::Tile;
use crate::acquire::state::State;
use crate::acquire::{Acquire, Config};
use crate::checked_determinize::{check, play_to_end, positions, varied};
use crate::{Game, Seat};

/// What `seat` knows: the state with the unseen tiles taken out, and those tiles as a set.
fn known_to(state: &State, seat: Seat) -> (State, Vec<Tile>) {
    let mut known = state.clone();
    let mut unseen = std::mem::take(&mut known.bag);
    for (i, player) in known.players.iter_mut().enumerate() {
        if i != seat.index() {
            unseen.append(&mut player.hand);
        }
    }
    unseen.sort_unstable();
    (known, unseen)
}

/// The true state with one tile of another hand swapped with one of the pile, and the pile
/// reversed: a deal `seat` cannot tell apart.
fn swapped(state: &State, seat: Seat) -> State {
    let mut twin = state.clone();
    twin.bag.reverse();
    let other =
        (0..twin.players.len()).find(|&i| i != seat.index() && !twin.players[i].hand.is_empty());
    if let (Some(other), Some(top)) = (other, twin.bag.last_mut()) {
        std::mem::swap(top, &mut twin.players[other].hand[0]);
    }
    twin
}

fn samples_keep_what_the_seat_knows(config: &Config, players: usize, seed: u64) {
    for state in positions::<Acquire>(config, players, seed, 25) {
        for seat in state.seats() {
            let other_truth = Acquire::determinize(&state, seat, &mut rng(999));
            let samples = check::<Acquire>(&state, seat, &[swapped(&state, seat), other_truth], 4);
            let (known, unseen) = known_to(&state, seat);
            for sample in &samples {
                check_invariants(sample);
                assert_eq!(known_to(sample, seat), (known.clone(), unseen.clone()));
                for (p, q) in sample.players.iter().zip(&state.players) {
                    assert_eq!(p.hand.len(), q.hand.len(), "hand sizes are public");
                }
            }
            assert_eq!(varied(&samples), unseen.len() > 1);
        }
    }
}

#[test]
fn aq_comp_5_aq_info_2_samples_keep_every_view_and_redeal_only_unseen_tiles() {
    for players in 2..=6 {
        for seed in 0..2 {
            samples_keep_what_the_seat_knows(&Config::default(), players, seed);
        }
    }
}

#[test]
fn aq_info_3_samples_keep_hidden_holdings_which_the_public_log_shows() {
    let config = Config {
        hidden_holdings: true,
        ..Config::default()
    };
    samples_keep_what_the_seat_knows(&config, 4, 3);
}

#[test]
fn a_sample_plays_on_to_the_end_under_the_real_rules() {
    for players in 2..=6 {
        for (i, state) in positions::<Acquire>(&Config::default(), players, 7, 20)
            .into_iter()
            .enumerate()
        {
            let seat = Seat((i % players) as u8);
            let sample = Acquire::determinize(&state, seat, &mut rng(i as u64));
            play_to_end::<Acquire>(sample, i as u64, 5_000);
        }
    }
}
