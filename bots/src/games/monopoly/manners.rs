//! How Monopoly bots behave at a table with people (the rule is stated in `docs/bots.md`):
//!
//! - mortgages and building sales only to pay a debt, and never on what the bot lifted or
//!   built in the same turn unless nothing else pays; lifts only before the turn's first roll
//!   and builds only before it or after the move, never on what it mortgaged or sold in the
//!   turn, and only with cash left for the rents it owes (and, before the roll, for a tax);
//! - offers never withdrawn; new offers come only from the trade rule ([`super::trades`]);
//! - a rent is claimed at once, an offer answered at once, also outside the bot's turn;
//! - bids rise in steps of M 10, so an auction between bots is a few dozen bids at most.
//!
//! So a bot's turn is bounded: every kept move either passes the turn on, spends a finite
//! stock (houses, deeds, cash) or answers something that then is gone.

use engine::monopoly::data::board;
use engine::monopoly::event::Event;
use engine::monopoly::state::{State, Step};
use engine::monopoly::{Action, Monopoly};
use engine::{Game, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Cash a bot keeps when it lifts or builds before rolling: the dearest tax or card.
const ROLL_RESERVE: i64 = 200;
/// Bids rise to the next multiple of this.
pub const BID_STEP: i64 = 10;

/// What a Monopoly bot remembers of the recent log.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Memory {
    /// The start of the current turn is in the remembered log (else the bot assumes it
    /// already made its offer this turn).
    pub turn_in_sight: bool,
    /// Squares the seat mortgaged, lifted, built on and sold buildings from this turn.
    pub mortgaged: Vec<u8>,
    pub lifted: Vec<u8>,
    pub built: Vec<u8>,
    pub sold: Vec<u8>,
    /// The seat made an offer this turn.
    pub offered: bool,
    /// Seats that refused an offer of the seat within the remembered log. The rule asks only
    /// for silence until the deeds change; deeds change nearly every turn, so a refusal
    /// silences the bot towards that seat for as long as it remembers it (the last
    /// [`crate::RECENT_EVENTS`] events, several rounds).
    pub refused_by: Vec<Seat>,
    /// Seats the seat made an offer to within the last [`OFFER_GAP_ROUNDS`] rounds (answered
    /// or not): offers to one player stay rare.
    pub offered_lately: Vec<Seat>,
}

/// Rounds a bot lets pass before it makes another offer to the same player.
pub const OFFER_GAP_ROUNDS: u32 = 4;

/// The memory of `seat` from `events` (redacted for it, oldest first).
pub fn remember(seat: Seat, events: &[Event]) -> Memory {
    let mut m = Memory::default();
    let mut offers: Vec<(u32, Seat, Seat)> = Vec::new();
    // The addressees of the seat's offers and the rounds completed since each.
    let mut lately: Vec<(Seat, u32)> = Vec::new();
    for event in events {
        match event {
            Event::RoundCompleted { .. } => lately.iter_mut().for_each(|(_, r)| *r += 1),
            Event::TurnStarted { .. } => {
                m.turn_in_sight = true;
                m.mortgaged.clear();
                m.lifted.clear();
                m.built.clear();
                m.sold.clear();
                m.offered = false;
            }
            Event::Mortgaged {
                seat: s, square, ..
            } if *s == seat => m.mortgaged.push(*square),
            Event::MortgageLifted {
                seat: s, square, ..
            } if *s == seat => m.lifted.push(*square),
            Event::BuildingBought {
                seat: s, square, ..
            } if *s == seat => m.built.push(*square),
            Event::BuildingsSold {
                seat: s, levels, ..
            } if *s == seat => {
                m.sold.extend(levels.iter().map(|l| l.square));
            }
            Event::TradeOffered { offer } => {
                offers.push((offer.offer, offer.from, offer.to));
                if offer.from == seat {
                    m.offered = true;
                    lately.push((offer.to, 0));
                }
            }
            Event::TradeRejected { offer } => {
                if let Some(&(_, _, to)) = offers
                    .iter()
                    .find(|(id, from, _)| id == offer && *from == seat)
                {
                    m.refused_by.push(to);
                }
            }
            _ => {}
        }
    }
    if !m.turn_in_sight {
        m.offered = true;
    }
    m.offered_lately = lately
        .into_iter()
        .filter(|&(_, rounds)| rounds < OFFER_GAP_ROUNDS)
        .map(|(to, _)| to)
        .collect();
    m
}

/// Whether `seat` has a rent to claim or an offer to answer that the rules let it act on now.
pub fn wants_to_act(state: &State, seat: Seat) -> bool {
    let cheap =
        state.rents.iter().any(|r| r.owner == seat) || state.offers.iter().any(|o| o.to == seat);
    cheap
        && Monopoly::legal_actions(state, seat)
            .iter()
            .any(|a| matches!(a, Action::ClaimRent { .. } | Action::RejectTrade { .. }))
}

/// The moves a bot of `seat` considers (see the module documentation), into `out`.
pub fn bot_moves(state: &State, seat: Seat, memory: &Memory, out: &mut Vec<Action>) {
    out.clear();
    let legal = Monopoly::legal_actions(state, seat);
    if let Some(claim) = legal.iter().find(|a| matches!(a, Action::ClaimRent { .. })) {
        out.push(claim.clone());
        return;
    }
    if let Some(offer) = legal.iter().find_map(|a| match a {
        Action::RejectTrade { offer } => Some(*offer),
        _ => None,
    }) {
        answers(state, seat, offer, &legal, out);
        return;
    }
    if !Monopoly::active_seats(state).contains(&seat) {
        return;
    }
    if legal.contains(&Action::DeclareBankruptcy) {
        out.push(Action::DeclareBankruptcy);
        return;
    }
    if legal.contains(&Action::PayDebt) {
        out.push(Action::PayDebt);
        return;
    }
    let debtor = state.raising_funds() == Some(seat);
    let turn = state.turn.filter(|t| t.seat == seat);
    let before_roll = turn.is_some_and(|t| t.step == Step::Roll && !t.rolled);
    let may_build = turn.is_some_and(|t| t.step == Step::Done) || before_roll;
    let cash = state.player(seat).cash;
    // Cash kept after a lift or a build: the rents the seat owes, and before the roll what the
    // dice may cost at once (a tax, a card).
    let owed: i64 = state
        .rents
        .iter()
        .filter(|r| r.payer == seat)
        .map(|r| r.amount)
        .sum::<i64>()
        + if before_roll { ROLL_RESERVE } else { 0 };
    let mut undoing = Vec::new();
    for action in legal {
        let keep = match &action {
            Action::Build { squares } => {
                let square = squares[0];
                let cost = board()
                    .deed_at(square)
                    .and_then(|d| board().deed(d).house_cost())
                    .unwrap_or(i64::MAX / 2);
                !debtor && may_build && !memory.sold.contains(&square) && cash - cost >= owed
            }
            Action::LiftMortgage { square } => {
                let mv = board()
                    .deed_at(*square)
                    .map_or(0, |d| board().deed(d).mortgage);
                let price = mv + state.config.interest(mv);
                !debtor && before_roll && !memory.mortgaged.contains(square) && cash - price >= owed
            }
            Action::Mortgage { square } | Action::SellBuilding { square } => {
                let undoes = memory.lifted.contains(square) || memory.built.contains(square);
                if debtor && undoes {
                    undoing.push(action.clone());
                }
                debtor && !undoes
            }
            Action::WithdrawTrade { .. }
            | Action::OfferTrade { .. }
            | Action::AcceptTrade { .. }
            | Action::RejectTrade { .. } => false,
            _ => true,
        };
        if keep {
            out.push(action);
        }
    }
    if debtor && out.is_empty() {
        // Nothing else pays the debt: undoing this turn's own lift or build is forced.
        out.append(&mut undoing);
    }
    if let Some(bid) = bid(state, seat) {
        out.push(bid);
    }
}

/// The bid a bot of `seat` may make in the running auction: the lowest allowed, rounded up to
/// [`BID_STEP`] while the seat's cash reaches it.
pub fn bid(state: &State, seat: Seat) -> Option<Action> {
    let auction = state.auction.as_ref()?;
    if !auction.bidders.contains(&seat) || auction.high.is_some_and(|h| h.seat == seat) {
        return None;
    }
    let floor = auction.high.map_or(auction.min_bid, |h| h.amount + 1);
    let cash = state.player(seat).cash;
    let stepped = round_up(floor, BID_STEP);
    let amount = if stepped <= cash { stepped } else { floor };
    (amount <= cash).then_some(Action::Bid { amount })
}

/// Accepting the offer `id` made to `seat` (as it is, or lifting every mortgaged deed it
/// gives, whichever the rules allow) and rejecting it.
fn answers(state: &State, seat: Seat, id: u32, legal: &[Action], out: &mut Vec<Action>) {
    let as_is = Action::AcceptTrade {
        offer: id,
        lift: Vec::new(),
    };
    if legal.contains(&as_is) {
        out.push(as_is);
    } else if let Some(offer) = state.offers.iter().find(|o| o.offer == id) {
        let lift: Vec<u8> = offer
            .give
            .properties
            .iter()
            .copied()
            .filter(|&s| state.deed(s).is_some_and(|d| d.mortgaged))
            .collect();
        let lifting = Action::AcceptTrade { offer: id, lift };
        if !offer.give.properties.is_empty() && accepted(state, seat, &lifting) {
            out.push(lifting);
        }
    }
    out.push(Action::RejectTrade { offer: id });
}

/// Whether the rules accept `action` of `seat` now (a trade's answer or offer: no chance
/// is drawn).
pub fn accepted(state: &State, seat: Seat, action: &Action) -> bool {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    Monopoly::decide(state, seat, action, &mut rng).is_ok()
}

/// `value` rounded up to a multiple of `step` (both positive).
pub fn round_up(value: i64, step: i64) -> i64 {
    (value + step - 1) / step * step
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::monopoly::state::{Bundle, TradeOffer};

    fn offer(offer: u32, from: u8, to: u8) -> TradeOffer {
        TradeOffer {
            offer,
            from: Seat(from),
            to: Seat(to),
            give: Bundle::default(),
            get: Bundle::default(),
            lift: Vec::new(),
        }
    }

    #[test]
    fn the_memory_holds_this_turns_own_moves_and_who_refused() {
        let me = Seat(1);
        let events = [
            Event::TradeOffered {
                offer: offer(4, 1, 2),
            },
            Event::TradeRejected { offer: 4 },
            Event::TurnStarted { seat: Seat(0) },
            Event::Mortgaged {
                seat: me,
                square: 3,
                amount: 30,
            },
            Event::TurnStarted { seat: me },
            Event::MortgageLifted {
                seat: me,
                square: 3,
                amount: 33,
            },
            Event::Mortgaged {
                seat: Seat(0),
                square: 5,
                amount: 100,
            },
            Event::TradeOffered {
                offer: offer(5, 1, 0),
            },
            Event::TradeOffered {
                offer: offer(6, 0, 1),
            },
            Event::TradeRejected { offer: 6 },
        ];
        let m = remember(me, &events);
        assert!(m.turn_in_sight);
        assert_eq!(m.lifted, vec![3], "this turn's lift");
        assert!(
            m.mortgaged.is_empty(),
            "the last turn's mortgage is forgotten"
        );
        assert!(m.offered);
        assert_eq!(
            m.refused_by,
            vec![Seat(2)],
            "only refusals of my offers count"
        );
    }

    #[test]
    fn without_the_start_of_the_turn_in_sight_a_bot_assumes_it_has_offered() {
        let m = remember(
            Seat(0),
            &[Event::BuildingBought {
                seat: Seat(0),
                square: 1,
                level: 1,
                price: 50,
            }],
        );
        assert!(!m.turn_in_sight && m.offered);
        assert_eq!(m.built, vec![1]);
    }
}
