//! Who may act and what they may do: the seat the game waits for and every action a seat may
//! take now. Each action is listed when the same check `decide` runs ([`super::rules`]) lets
//! it through, so the list and `decide` cannot drift apart.

use super::action::Action;
use super::data::Chain;
use super::rules::{self, MergerStep, Refusal};
use super::state::{State, Step, Turn};
use crate::Seat;

/// The turn's player, or during a merger's disposals the holder whose turn it is to dispose.
pub fn active_seats(state: &State) -> Vec<Seat> {
    rules::actor(state).into_iter().collect()
}

/// Every action `seat` may take now: nothing unless it is the seat that must act.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    let mut actions = Vec::new();
    let Some(turn) = state.turn() else {
        return actions;
    };
    if rules::actor(state) != Some(seat) {
        return actions;
    }
    match turn.step {
        Step::Place => placements(state, turn, seat, &mut actions),
        Step::Merger => merger_decisions(state, turn, seat, &mut actions),
        Step::Buy => purchases(state, turn, &mut actions),
    }
    actions
}

/// Each playable tile of the hand; a founding tile once per chain that could be founded.
fn placements(state: &State, turn: &Turn, seat: Seat, actions: &mut Vec<Action>) {
    for &tile in &state.player(seat).hand {
        match rules::check_place(state, turn, tile, None) {
            Ok(_) => actions.push(Action::PlaceTile { tile, chain: None }),
            Err(Refusal::NameRequired(_)) => {
                for chain in Chain::all().filter(|&c| !state.is_active(c)) {
                    actions.push(Action::PlaceTile {
                        tile,
                        chain: Some(chain),
                    });
                }
            }
            Err(_) => {}
        }
    }
}

/// The merger's next decision: the survivor, the order of the defunct chains, or the seat's
/// split of its defunct shares.
fn merger_decisions(state: &State, turn: &Turn, seat: Seat, actions: &mut Vec<Action>) {
    let Some(m) = &state.merger else {
        return;
    };
    match rules::merger_step(m) {
        MergerStep::Survivor => {
            actions.extend(rules::largest(m).map(|chain| Action::ChooseSurvivor { chain }))
        }
        MergerStep::Order => actions.extend(
            rules::valid_orders(state, m)
                .into_iter()
                .map(|order| Action::OrderDefuncts { order }),
        ),
        MergerStep::Dispose(_) => {
            // Every concrete split: at most 13 trade counts x 26 sale counts.
            let held = state.player(seat).shares[m.defuncts[0].chain.index()];
            for trade in (0..=held).step_by(2) {
                if rules::check_dispose(state, turn, 0, trade).is_err() {
                    break;
                }
                for sell in 0..=held - trade {
                    actions.push(Action::DisposeShares { sell, trade });
                }
            }
        }
    }
}

/// Announcing the end where it may be, each share the seat may buy, and ending the turn.
fn purchases(state: &State, turn: &Turn, actions: &mut Vec<Action>) {
    if rules::check_announce(state, turn).is_ok() {
        actions.push(Action::AnnounceEnd);
    }
    for chain in Chain::all() {
        if rules::check_buy(state, turn, chain).is_ok() {
            actions.push(Action::BuyShare { chain });
        }
    }
    actions.push(Action::EndTurn);
}
