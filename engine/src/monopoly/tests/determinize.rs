//! A seat's sample of the unseen: in Monopoly only the order of each deck's never-drawn top is
//! secret (MO-SETUP-3); drawn cards go under the deck in the open (MO-CARD-1, MO-CARD-2).

use super::playouts::check_invariants;
use super::support::rng;
use crate::checked_determinize::{check, play_to_end, positions, varied};
use crate::monopoly::data::Deck;
use crate::monopoly::state::State;
use crate::monopoly::{Config, Event, Monopoly};
use crate::{Game, Seat};

fn short_game() -> Config {
    Config {
        round_limit: Some(25),
        ..Config::default()
    }
}

/// The true state with each deck's undrawn top in another order: what no seat can tell apart.
fn reordered(state: &State) -> State {
    let mut twin = state.clone();
    for (deck, &undrawn) in twin.decks.iter_mut().zip(&state.undrawn) {
        deck[..usize::from(undrawn)].reverse();
    }
    twin
}

/// What everyone knows of the decks: the undrawn tops as sets, the rest in order.
fn known_decks(state: &State) -> State {
    let mut known = state.clone();
    for (deck, &undrawn) in known.decks.iter_mut().zip(&state.undrawn) {
        deck[..usize::from(undrawn)].sort_unstable();
    }
    known
}

/// MO-SETUP-3, MO-CARD-1, MO-CARD-2: samples keep every view and every card that has been
/// drawn (and so put under its deck in the open) in its place; only the undrawn tops vary.
#[test]
fn mo_setup_3_mo_card_1_mo_card_2_samples_redeal_only_the_undrawn_top_of_each_deck() {
    for players in 2..=6 {
        for seed in 0..2 {
            for state in positions::<Monopoly>(&short_game(), players, seed, 60) {
                for seat in state.seats() {
                    let other_truth = Monopoly::determinize(&state, seat, &mut rng(999));
                    let twins = [reordered(&state), other_truth];
                    let samples = check::<Monopoly>(&state, seat, &twins, 4);
                    for sample in &samples {
                        check_invariants(sample);
                        assert_eq!(known_decks(sample), known_decks(&state));
                    }
                    let shufflable = state.undrawn.iter().any(|&n| n > 1);
                    assert_eq!(varied(&samples), shufflable, "only undrawn orders vary");
                }
            }
        }
    }
}

/// Once every card of a deck has been drawn, its whole order is known: a sample keeps it.
#[test]
fn mo_card_1_a_deck_drawn_through_is_known_in_full() {
    let mut state = positions::<Monopoly>(&short_game(), 4, 3, 1).remove(5);
    let deck = Deck::ALL[0];
    for _ in 0..state.undrawn[deck.index()] {
        let card = state.decks[deck.index()][0];
        let event = Event::CardDrawn {
            seat: Seat(0),
            deck,
            card,
        };
        Monopoly::evolve(&mut state, &event);
    }
    assert_eq!(state.undrawn[deck.index()], 0);
    for seed in 0..4 {
        let sample = Monopoly::determinize(&state, Seat(0), &mut rng(seed));
        assert_eq!(sample.decks[deck.index()], state.decks[deck.index()]);
    }
}

#[test]
fn a_sample_plays_on_to_the_end_under_the_real_rules() {
    for players in 2..=6 {
        for (i, state) in positions::<Monopoly>(&short_game(), players, 11, 80)
            .into_iter()
            .enumerate()
        {
            let seat = Seat((i % players) as u8);
            let sample = Monopoly::determinize(&state, seat, &mut rng(i as u64));
            play_to_end::<Monopoly>(sample, i as u64, 50_000);
        }
    }
}
