//! The per-game knowledge the bots need besides the rules: how good a position looks for each
//! seat, which moves a bot considers (its manners), what it does outside its turn, and how the
//! simulated players of a search play.

use crate::candidates::own_actions;
use engine::playout::{self, Choice};
use engine::{Game, Seat};
use rand::RngCore;

/// A game the bots can play: [`Game`] plus a hand-written evaluation and the bots' manners.
///
/// The manners (see `docs/bots.md`) are the same for every level: a bot only ever picks among
/// [`BotGame::bot_moves`], so `random`, `greedy` and `mcts` alike never undo their own standing
/// actions in a turn, never press an offer that was refused, and end every turn within a
/// bounded number of actions.
pub trait BotGame: Game + Sized {
    /// A lead in score units that makes a win likely; utilities (see [`utilities`]) turn a
    /// seat's lead over the best other seat into a value between 0 and 1 on this scale.
    const LEAD: f64;

    /// What a bot's manners need to remember from the recent log (its own moves this turn,
    /// offers refused since the board last changed); `()` for games without such manners.
    type Memory: Default + Clone + std::fmt::Debug;

    /// The memory of `seat` from `events`, the most recent part of the log as the seat saw it
    /// (redacted), oldest first, ending in `state`. The log may be cut anywhere: what lies
    /// before `events` is forgotten, so manners must err towards restraint when the start of
    /// a turn is not in sight.
    fn remember(_state: &Self::State, _seat: Seat, _events: &[Self::Event]) -> Self::Memory {
        Self::Memory::default()
    }

    /// Each seat's expected final score in the game's score units (money for the economic
    /// games), judged from `state` as it stands, written into `scores` (one per seat).
    /// Called on finished games too, where it should give the final scores.
    fn estimate(state: &Self::State, scores: &mut Vec<f64>);

    /// The moves a bot of `seat` considers in `state`, into `out`: for an active seat its
    /// listed actions and up to `per_template` instantiations of each template, less what its
    /// manners forbid; for a seat the game does not wait for, only what
    /// [`BotGame::wants_to_act`] calls for (empty otherwise). Never empty for an active seat
    /// of a running game. `memory` is the seat's memory at the real position; simulated
    /// players in a search pass the default.
    fn bot_moves(
        state: &Self::State,
        seat: Seat,
        _memory: &Self::Memory,
        per_template: usize,
        rng: &mut dyn RngCore,
        out: &mut Vec<Self::Action>,
    ) {
        *out = own_actions::<Self>(state, seat, per_template, rng);
    }

    /// A move a thinking bot (`greedy`, `mcts`) of `seat` makes at once, without weighing it
    /// against the others: what its manners call for now (claiming a rent, answering an
    /// offer by its trade rule, an offer worth reading for both sides). `None` to think.
    /// Only moves of [`BotGame::bot_moves`] or offers the rules accept.
    fn reflex(
        _state: &Self::State,
        _seat: Seat,
        _memory: &Self::Memory,
        _rng: &mut dyn RngCore,
    ) -> Option<Self::Action> {
        None
    }

    /// Whether a bot of `seat` has something to do although the game does not wait for it: a
    /// standing action its manners call for at once (a rent to claim, an offer to answer).
    /// Such a seat moves before the seats the game waits for; each of its moves must end
    /// the want it answers, so the wants of a position run out.
    fn wants_to_act(_state: &Self::State, _seat: Seat) -> bool {
        false
    }

    /// The share of a search's playout moves a simulated player chooses as the `greedy` level
    /// would (the best evaluation one ply ahead) rather than by [`BotGame::playout_move`].
    /// Greedy moves cost a dozen evaluations each, but where a cheap policy is a poor model of
    /// play the search is only as good as its simulated players (figures in `docs/bots.md`).
    const GREEDY_PLAYOUT: f64 = 0.0;

    /// Whether [`BotGame::wants_to_act`] can ever be true: a service skips asking otherwise.
    const HAS_STANDING_ACTIONS: bool = false;

    /// How much more likely a simulated player is to take `action` than a listed action of
    /// weight 1; 0 never. Uniformly random players are poor models of people in most games
    /// (they borrow, dither and waste money); a light bias makes simulated games more telling.
    fn playout_weight(_state: &Self::State, _action: &Self::Action) -> u32 {
        1
    }

    /// The next move of a simulated game, by whom: the first seat that wants to act, else the
    /// first seat the game waits for, playing a [`BotGame::playout_weight`]-weighted choice of
    /// its bot moves. Games with a faster or better playout policy override it.
    fn playout_move(
        state: &Self::State,
        rng: &mut dyn RngCore,
        buffer: &mut Vec<Choice<Self::Action>>,
    ) -> Option<(Seat, Self::Action)> {
        let seat = next_actor::<Self>(state)?;
        let mut moves = Vec::new();
        Self::bot_moves(state, seat, &Self::Memory::default(), 1, rng, &mut moves);
        buffer.clear();
        buffer.extend(moves.into_iter().map(|action| Choice {
            seat,
            action,
            from_template: false,
        }));
        let choice = playout::pick(rng, buffer, |c| Self::playout_weight(state, &c.action))?;
        Some((seat, choice.action.clone()))
    }
}

/// The seat whose move comes next when bots play every seat: the lowest seat that wants to act
/// outside its turn, else the lowest seat the game waits for; `None` once the game is over.
pub fn next_actor<G: BotGame>(state: &G::State) -> Option<Seat> {
    if G::outcome(state).is_some() {
        return None;
    }
    let seats = G::seat_count(state);
    (0..seats)
        .map(|s| Seat(s as u8))
        .find(|&s| G::wants_to_act(state, s))
        .or_else(|| G::active_seats(state).into_iter().min())
}

/// Each seat's lead over the best other seat, in score units.
pub fn leads(scores: &[f64], out: &mut Vec<f64>) {
    out.clear();
    for (i, &own) in scores.iter().enumerate() {
        let best_other = scores
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &s)| s)
            .fold(f64::NEG_INFINITY, f64::max);
        out.push(if best_other.is_finite() {
            own - best_other
        } else {
            0.0
        });
    }
}

/// Each seat's value of `state` between 0 and 1: the logistic of its lead over the best other
/// seat on the scale [`BotGame::LEAD`]. Finished games are judged by their final scores, so a
/// win is worth nearly 1 and a clear win a little more than a narrow one.
pub fn utilities<G: BotGame>(
    state: &G::State,
    lead_scale: f64,
    scores: &mut Vec<f64>,
    out: &mut Vec<f64>,
) {
    G::estimate(state, scores);
    leads(scores, out);
    let lead = G::LEAD * lead_scale;
    for value in out.iter_mut() {
        *value = 1.0 / (1.0 + (-*value / lead).exp());
    }
}

/// `seat`'s lead over the best other seat in `state`, in score units.
pub fn lead<G: BotGame>(state: &G::State, seat: Seat) -> f64 {
    let mut scores = Vec::new();
    G::estimate(state, &mut scores);
    let mut out = Vec::new();
    leads(&scores, &mut out);
    out[seat.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lead_is_measured_against_the_best_other_seat() {
        let mut out = Vec::new();
        leads(&[10.0, 4.0, 7.0], &mut out);
        assert_eq!(out, vec![3.0, -6.0, -3.0]);
    }
}
