//! Monopoly bots' trades: what they do at once instead of thinking (claim, answer, offer).
//!
//! An offer is made only at the start of the bot's own turn, at most one a turn, never while
//! one of its offers is open, to the same seat at most once in
//! [`OFFER_GAP_ROUNDS`](super::manners::OFFER_GAP_ROUNDS) rounds, never to a seat that refused
//! one while it remembers the refusal, and only when it completes a colour group of the bot's
//! and the bot's evaluation finds it worth something to the addressee too (cash makes up the
//! difference). An offer is accepted when it does not lower the bot's lead; when a game has
//! stalled (many rounds without any complete group on the board) a bot also takes what raises
//! its own worth, so that a table of bots that bought the board up split always ends.

use super::manners::{self, accepted, round_up, Memory};
use crate::evaluate::{lead, BotGame};
use engine::monopoly::data::board;
use engine::monopoly::state::{State, Step};
use engine::monopoly::{Action, Monopoly};
use engine::{Game, Seat};
use rand::RngCore;

/// The least gain in lead an offer must bring its maker.
const MIN_GAIN: f64 = 60.0;
/// What an offer gives the addressee beyond its own reckoning of the loss, so that it is
/// worth reading.
const SWEETENER: i64 = 20;
/// Cash a bot keeps after paying for a trade.
const RESERVE: i64 = 150;
/// Rounds after which a board without a complete group counts as stalled.
const STALL_ROUNDS: u32 = 30;

/// The claim, answer or offer a thinking bot of `seat` makes at once, if any.
pub fn reflex(state: &State, seat: Seat, memory: &Memory, rng: &mut dyn RngCore) -> Option<Action> {
    let mut moves = Vec::new();
    manners::bot_moves(state, seat, memory, &mut moves);
    if let Some(claim) = moves.iter().find(|a| matches!(a, Action::ClaimRent { .. })) {
        return Some(claim.clone());
    }
    if let Some(reject) = moves
        .iter()
        .find(|a| matches!(a, Action::RejectTrade { .. }))
    {
        let accept = moves
            .iter()
            .find(|a| matches!(a, Action::AcceptTrade { .. }))
            .filter(|a| worth_accepting(state, seat, a, rng));
        return Some(accept.unwrap_or(reject).clone());
    }
    propose(state, seat, memory, rng)
}

/// Whether `accept` (an answer of `seat`) keeps its lead, or, on a stalled board, raises its
/// worth.
fn worth_accepting(state: &State, seat: Seat, accept: &Action, rng: &mut dyn RngCore) -> bool {
    let Some(after) = after(state, &[(seat, accept.clone())], rng) else {
        return false;
    };
    lead::<Monopoly>(&after, seat) >= lead::<Monopoly>(state, seat)
        || (stalled(state) && worth(&after, seat) > worth(state, seat))
}

/// Whether the game has gone on for so many rounds that it needs deeds gathered in fewer
/// hands to end: a board bought up split, or with only weak groups built up, pays less rent
/// than the bank's salary, and such a game would never end.
pub fn stalled(state: &State) -> bool {
    state.rounds_completed >= STALL_ROUNDS
}

fn worth(state: &State, seat: Seat) -> f64 {
    let mut scores = Vec::new();
    Monopoly::estimate(state, &mut scores);
    scores[seat.index()]
}

/// `state` after `moves`, each decided and folded in turn; `None` if the rules refuse one.
fn after(state: &State, moves: &[(Seat, Action)], rng: &mut dyn RngCore) -> Option<State> {
    let mut state = state.clone();
    for (seat, action) in moves {
        for event in Monopoly::decide(&state, *seat, action, &mut &mut *rng).ok()? {
            Monopoly::evolve(&mut state, &event);
        }
    }
    Some(state)
}

/// The offer `seat` makes now, if its manners allow one and one is worth making.
fn propose(state: &State, seat: Seat, memory: &Memory, rng: &mut dyn RngCore) -> Option<Action> {
    let turn = state.turn?;
    let free = state.auction.is_none()
        && state.shortage.is_none()
        && state.inheritance.is_none()
        && state.raising_funds().is_none();
    if turn.seat != seat
        || turn.step != Step::Roll
        || turn.rolled
        || !free
        || memory.offered
        || state.offers.iter().any(|o| o.from == seat || o.to == seat)
    {
        return None;
    }
    let lead_now = lead::<Monopoly>(state, seat);
    let stalled = stalled(state);
    let mut best: Option<(f64, Action)> = None;
    for to in state.solvent().filter(|&s| s != seat) {
        if memory.refused_by.contains(&to) || memory.offered_lately.contains(&to) {
            continue;
        }
        for get in wanted(state, seat, to, stalled) {
            for give in gifts(state, seat, to) {
                if same_group(&give, &get) {
                    continue;
                }
                let Some(offer) = priced(state, seat, to, &give, &get, rng) else {
                    continue;
                };
                let Some(after) = executed(state, seat, to, &offer, rng) else {
                    continue;
                };
                let gain = lead::<Monopoly>(&after, seat) - lead_now;
                // On a stalled board gathering deeds is worth it in itself.
                let worth_it = gain >= MIN_GAIN || stalled;
                if worth_it && best.as_ref().is_none_or(|(g, _)| gain > *g) {
                    best = Some((gain, offer));
                }
            }
        }
    }
    best.map(|(_, offer)| offer)
}

/// The deeds `seat` would ask of `to`: for each colour group that only the two of them hold,
/// unbuilt and unmortgaged, `to`'s part of it; with `loose` (a stalled board) also groups that
/// a third player holds part of, so that deeds gather in fewer hands.
pub fn wanted(state: &State, seat: Seat, to: Seat, loose: bool) -> Vec<Vec<u8>> {
    let b = board();
    b.groups
        .iter()
        .filter_map(|group| {
            let mut theirs = Vec::new();
            let mut mine = 0;
            for &d in &group.deeds {
                let deed = &state.deeds[d];
                if deed.level > 0 || deed.mortgaged {
                    return None;
                }
                match deed.owner {
                    Some(o) if o == seat => mine += 1,
                    Some(o) if o == to => theirs.push(b.deed(d).square),
                    Some(_) if loose => {}
                    _ => return None,
                }
            }
            (mine > 0 && !theirs.is_empty()).then_some(theirs)
        })
        .collect()
}

/// What `seat` could give `to` besides cash: nothing, or its part of a group that only the two
/// of them hold and that it would complete for `to`.
fn gifts(state: &State, seat: Seat, to: Seat) -> Vec<Vec<u8>> {
    // What `to` would ask of `seat` is what `seat` can give to complete a group of `to`'s.
    let mut out = vec![Vec::new()];
    out.extend(wanted(state, to, seat, false));
    out
}

/// Whether the first deed of `a` and of `b` are of one colour group (a swap within a group
/// completes nothing).
pub fn same_group(a: &[u8], b: &[u8]) -> bool {
    let group = |squares: &[u8]| {
        let square = *squares.first()?;
        board().deed(board().deed_at(square)?).group()
    };
    group(a).is_some() && group(a) == group(b)
}

/// The offer of `give` and cash for `get`, with as much cash as makes it worth something to
/// `to` by the bot's reckoning; `None` if that is more than `seat` can spare.
fn priced(
    state: &State,
    seat: Seat,
    to: Seat,
    give: &[u8],
    get: &[u8],
    rng: &mut dyn RngCore,
) -> Option<Action> {
    let offer = |cash: i64| Action::OfferTrade {
        to,
        give_cash: cash,
        give_properties: give.to_vec(),
        give_cards: Vec::new(),
        get_cash: 0,
        get_properties: get.to_vec(),
        get_cards: Vec::new(),
        lift: Vec::new(),
    };
    let before = worth(state, to);
    let loss = before - worth(&executed(state, seat, to, &offer(0), rng)?, to);
    let cash = round_up(loss.max(0.0).ceil() as i64 + SWEETENER, 10);
    if state.player(seat).cash - cash < RESERVE {
        return None;
    }
    let offer = offer(cash);
    let after = executed(state, seat, to, &offer, rng)?;
    (worth(&after, to) >= before).then_some(offer)
}

/// `state` after `offer` of `seat` was made and accepted by `to`.
fn executed(
    state: &State,
    seat: Seat,
    to: Seat,
    offer: &Action,
    rng: &mut dyn RngCore,
) -> Option<State> {
    if !accepted(state, seat, offer) {
        return None;
    }
    let id = state.next_offer;
    after(
        state,
        &[
            (seat, offer.clone()),
            (
                to,
                Action::AcceptTrade {
                    offer: id,
                    lift: Vec::new(),
                },
            ),
        ],
        rng,
    )
}
