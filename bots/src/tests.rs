//! The bots' promises, on every hosted game and on a toy game with a template: they move only
//! for an active seat, every move passes `decide`, and a move never depends on what the seat
//! cannot see.

use crate::toy::{self, Toy};
use crate::{Bot, BotGame, Budget, Level};
use engine::acquire::{self, Acquire};
use engine::monopoly::{self, Monopoly};
use engine::tycoon::{self, Tycoon};
use engine::tyros::{self, Tyros};
use engine::{playout, Game, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Every level, the search with a budget small enough for test builds.
fn bots() -> [Bot; 3] {
    Level::ALL.map(|level| Bot {
        budget: Budget::iterations(24),
        ..Bot::new(level)
    })
}

/// Every `every`-th position of a seeded uniformly random game of `players`.
fn positions<G: Game>(players: usize, seed: u64, every: usize) -> Vec<G::State> {
    let mut rng = rng(seed);
    let config = G::Config::default();
    let mut state = G::replay(&G::setup(&config, players, &mut rng).expect("valid setup"));
    let mut out = Vec::new();
    for step in 0.. {
        if G::outcome(&state).is_some() {
            break;
        }
        if step % every == 0 {
            out.push(state.clone());
        }
        let choice = playout::random_choice::<G>(&state, &mut rng).expect("someone may act");
        for e in G::decide(&state, choice.seat, &choice.action, &mut rng).expect("listed") {
            G::evolve(&mut state, &e);
        }
    }
    out
}

/// Every bot, for every seat of every position: `None` unless the seat is active or has a
/// standing action to take ([`BotGame::wants_to_act`]), and then a move that `decide` accepts.
/// Returns the moves made.
fn moves_are_legal_and_in_turn<G: BotGame>(positions: &[G::State]) -> Vec<G::Action> {
    let mut moves = Vec::new();
    for (i, state) in positions.iter().enumerate() {
        let active = G::active_seats(state);
        for seat in (0..G::seat_count(state)).map(|s| Seat(s as u8)) {
            let due = active.contains(&seat) || G::wants_to_act(state, seat);
            for bot in bots() {
                let decision = bot.choose::<G>(state, seat, &mut rng(i as u64));
                match decision.action {
                    None => assert!(!due, "{} passed as active {seat}", bot.level),
                    Some(action) => {
                        assert!(due, "{} acted out of turn", bot.level);
                        if let Err(e) = G::decide(state, seat, &action, &mut rng(0)) {
                            panic!("{} chose {action:?}, refused: {e}", bot.level);
                        }
                        moves.push(action);
                    }
                }
            }
        }
    }
    moves
}

#[test]
fn bots_move_only_for_an_active_seat_and_every_move_passes_decide() {
    for players in 2..=4 {
        moves_are_legal_and_in_turn::<Tycoon>(&positions::<Tycoon>(players, players as u64, 23));
    }
    for players in 2..=6 {
        moves_are_legal_and_in_turn::<Acquire>(&positions::<Acquire>(players, players as u64, 19));
    }
    for players in [2, 4, 6] {
        moves_are_legal_and_in_turn::<Monopoly>(&positions::<Monopoly>(players, 3, 97));
    }
    for players in 3..=4 {
        moves_are_legal_and_in_turn::<Tyros>(&positions::<Tyros>(players, 3, 61));
    }
}

#[test]
fn bots_fill_in_templates_and_their_bids_pass_decide() {
    let positions: Vec<toy::State> = (0..12)
        .flat_map(|seed| positions::<Toy>(2 + seed as usize % 3, seed, 1))
        .collect();
    let moves = moves_are_legal_and_in_turn::<Toy>(&positions);
    let bids: Vec<u32> = moves
        .iter()
        .filter_map(|m| match m {
            toy::Action::Bid { amount } => Some(*amount),
            toy::Action::Pass => None,
        })
        .collect();
    assert!(bids.len() > moves.len() / 4, "bids are made: {bids:?}");
    assert!(bids.iter().any(|&b| b != bids[0]), "bid amounts vary");
}

/// Each position with its twins: states that differ only in what `seat` cannot see.
fn same_move_whatever_the_unseen<G: BotGame>(
    positions: &[G::State],
    twin: impl Fn(&G::State, Seat) -> G::State,
) {
    let mut checked = 0;
    for (i, state) in positions.iter().enumerate() {
        let Some(&seat) = G::active_seats(state).first() else {
            continue;
        };
        let twins = [
            twin(state, seat),
            G::determinize(state, seat, &mut rng(999)),
        ];
        // Late positions may hide nothing (an empty pile): their twins are the state itself.
        for other in twins.iter().filter(|t| *t != state) {
            for bot in bots() {
                let seed = 1000 + i as u64;
                let real = bot.choose::<G>(state, seat, &mut rng(seed));
                let swapped = bot.choose::<G>(other, seat, &mut rng(seed));
                assert_eq!(
                    real, swapped,
                    "{} looked at what {seat} cannot see",
                    bot.level
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} positions checked");
}

#[test]
fn tycoon_bots_ignore_the_order_of_the_draw_piles() {
    let reordered = |state: &tycoon::State, _: Seat| {
        let mut twin = state.clone();
        for deck in &mut twin.decks {
            deck.draw.reverse();
        }
        twin
    };
    for players in [2, 4] {
        same_move_whatever_the_unseen::<Tycoon>(&positions::<Tycoon>(players, 11, 29), reordered);
    }
}

#[test]
fn acquire_bots_ignore_other_hands_and_the_pile() {
    // Another player's first tile swapped with the top of the pile, and the pile reversed.
    let swapped = |state: &acquire::State, seat: Seat| {
        let mut twin = state.clone();
        twin.bag.reverse();
        let other = (seat.index() + 1) % twin.players.len();
        if let (Some(top), Some(tile)) = (twin.bag.last_mut(), twin.players[other].hand.first_mut())
        {
            std::mem::swap(top, tile);
        }
        twin
    };
    for players in [2, 4] {
        same_move_whatever_the_unseen::<Acquire>(&positions::<Acquire>(players, 11, 23), swapped);
    }
}

#[test]
fn monopoly_bots_ignore_the_order_of_the_undrawn_cards() {
    let reordered = |state: &monopoly::State, _: Seat| {
        let mut twin = state.clone();
        for (deck, &undrawn) in twin.decks.iter_mut().zip(&state.undrawn) {
            deck[..usize::from(undrawn)].reverse();
        }
        twin
    };
    for players in [2, 4] {
        same_move_whatever_the_unseen::<Monopoly>(
            &positions::<Monopoly>(players, 11, 41),
            reordered,
        );
    }
}

#[test]
fn tyros_bots_ignore_other_hands_and_the_piles() {
    // Both piles reversed, and another player's tiles swapped with the pile's top.
    let swapped = |state: &tyros::State, seat: Seat| {
        let mut twin = state.clone();
        twin.tile_pile.reverse();
        twin.draw_pile.reverse();
        let other = (seat.index() + 1) % twin.players.len();
        if let (Some(top), Some(tile)) = (
            twin.tile_pile.last_mut(),
            twin.players[other].tiles.first_mut(),
        ) {
            std::mem::swap(top, tile);
        }
        twin
    };
    for players in [3, 4] {
        same_move_whatever_the_unseen::<Tyros>(&positions::<Tyros>(players, 11, 37), swapped);
    }
}

#[test]
fn toy_bots_ignore_the_other_cards() {
    let swapped = |state: &toy::State, seat: Seat| {
        let mut twin = state.clone();
        let other = (seat.index() + 1) % twin.cards.len();
        std::mem::swap(&mut twin.cards[other], &mut twin.deck[0]);
        twin
    };
    let positions: Vec<toy::State> = (0..8)
        .flat_map(|seed| positions::<Toy>(3, seed, 1))
        .collect();
    same_move_whatever_the_unseen::<Toy>(&positions, swapped);
}

#[test]
fn mcts_outbids_a_lower_bid_when_holding_the_best_card() {
    // Seat 0 bid 4; seat 1 holds the 9, so any bid of 4 or more wins 27 (ties go to the
    // higher card) while passing leaves seat 0 ahead.
    let mut state = Toy::replay(&[toy::Event::Dealt {
        cards: vec![2, 9],
        deck: vec![1, 3, 4, 5, 6, 7, 8],
    }]);
    Toy::evolve(
        &mut state,
        &toy::Event::Acted {
            seat: Seat(0),
            bid: Some(4),
        },
    );
    let bot = Bot {
        budget: Budget::iterations(200),
        ..Bot::new(Level::Mcts)
    };
    for seed in 0..5 {
        let decision = bot.choose::<Toy>(&state, Seat(1), &mut rng(seed));
        match decision.action {
            Some(toy::Action::Bid { amount }) => assert!((4..=toy::COINS).contains(&amount)),
            other => panic!("seed {seed}: {other:?} gives the win away"),
        }
    }
}
