//! What a seat cannot see in Tyros (TR-D-20): the other players' tiles and trade cards, the
//! order of the tile pile and of the draw pile, other seats' face-down fight cards before they
//! are shown, and other seats' sealed keep choices at round end. Everything else (board,
//! ships, cities, the used pool, the face-up discard pile, hand sizes) is public.
//!
//! A sample pools each kind of unseen piece, puts it in a canonical order, shuffles it and deals
//! it back with the same counts. Known approximation: the public log says a little more than the
//! state keeps (cards that reached a hand through an accepted trade are known until played; a
//! failed bank pick shows the pile held no card of a colour at that moment); the sample is
//! uniform over the unseen pieces.

use super::cards::{Card, Cards};
use super::payment::affordable;
use super::state::State;
use crate::{Seat, Viewer};
use rand::seq::SliceRandom;
use rand::RngCore;

/// `state` with everything `seat` cannot see dealt anew (see [`crate::Game::determinize`]).
pub fn determinize(state: &State, seat: Seat, rng: &mut dyn RngCore) -> State {
    sample(state, Viewer::Seat(seat), rng)
}

/// The same for any viewer: a spectator's sample re-deals every hand too.
pub(crate) fn sample(state: &State, viewer: Viewer, rng: &mut dyn RngCore) -> State {
    let mut s = state.clone();
    let others: Vec<Seat> = s.seats().filter(|&x| viewer != Viewer::Seat(x)).collect();

    let mut tiles = s.tile_pile.clone();
    for &o in &others {
        tiles.extend(s.player(o).tiles.iter().copied());
    }
    tiles.sort_unstable();
    tiles.shuffle(rng);
    let n = s.tile_pile.len();
    s.tile_pile = tiles.drain(..n).collect();
    for &o in &others {
        let n = s.player(o).tiles.len();
        s.player_mut(o).tiles = tiles.drain(..n).collect();
    }

    // Face-down fight cards of another seat, laid and not yet shown: (attacker?, count).
    let hidden_fight: Vec<(bool, Cards)> = match &s.fight {
        Some(f) if !f.revealed => [
            (true, f.attacker, f.attacker_cards),
            (false, f.defender, f.defender_cards),
        ]
        .into_iter()
        .filter(|(_, ship, _)| others.contains(&s.ship(*ship).owner))
        .filter_map(|(attacker, _, laid)| laid.map(|l| (attacker, l)))
        .collect(),
        _ => Vec::new(),
    };
    let mut pool: Vec<Card> = s.draw_pile.clone();
    for &o in &others {
        pool.extend(s.player(o).cards.to_list());
    }
    for (_, laid) in &hidden_fight {
        pool.extend(laid.to_list());
    }
    pool.sort_unstable();
    // Everyone knows that a seat owing cards can pay them (a move is legal only if its whole
    // bill can be paid, TR-D-19), so a deal where it cannot is no sample: deal again.
    let mut cards = Vec::with_capacity(pool.len());
    for _ in 0..MAX_DEALS {
        cards.clone_from(&pool);
        cards.shuffle(rng);
        if others
            .iter()
            .all(|&o| can_pay(&s, o, &cards[hand_range(&s, &others, o)]))
        {
            break;
        }
    }
    let n = s.draw_pile.len();
    s.draw_pile = cards.drain(..n).collect();
    for &o in &others {
        let n = s.player(o).cards.total() as usize;
        let hand: Vec<Card> = cards.drain(..n).collect();
        s.player_mut(o).cards = Cards::count(&hand);
        // A sealed keep choice: the same number of cards, chosen from the new hand.
        if let Some(kept) = s.keep[o.index()] {
            let mut hand = hand;
            hand.shuffle(rng);
            hand.truncate(kept.total() as usize);
            s.keep[o.index()] = Some(Cards::count(&hand));
        }
    }
    if let Some(f) = &mut s.fight {
        for (attacker, laid) in hidden_fight {
            let redealt = Some(Cards::count(
                &cards.drain(..laid.total() as usize).collect::<Vec<_>>(),
            ));
            if attacker {
                f.attacker_cards = redealt;
            } else {
                f.defender_cards = redealt;
            }
        }
    }
    s
}

/// Deals tried before giving up on the dues constraint. A seat owing a colour holds it in a
/// good share of random deals, so this many never all fail in practice; should they, the last
/// deal stands (a sample a seat cannot pay from, never one that copies the true hands).
const MAX_DEALS: usize = 10_000;

/// Where `seat`'s hand lies in a shuffled deal: after the draw pile, in the order of `others`.
fn hand_range(s: &State, others: &[Seat], seat: Seat) -> std::ops::Range<usize> {
    let mut start = s.draw_pile.len();
    for &o in others {
        let len = s.player(o).cards.total() as usize;
        if o == seat {
            return start..start + len;
        }
        start += len;
    }
    unreachable!("{seat} is one of the others")
}

/// Whether `hand` pays every card `seat` owes.
fn can_pay(s: &State, seat: Seat, hand: &[Card]) -> bool {
    let dues: Vec<_> = s.dues.iter().filter(|d| d.payer == seat).copied().collect();
    dues.is_empty() || affordable(&s.config, &Cards::count(hand), &dues)
}
