//! A tiny game with a secret and a template, for the bots' own tests (Tycoon and Acquire have
//! no templates). Each seat is dealt a secret card from 1 to 9 (the rest of the deck stays
//! face down) and holds 10 coins. In seat order each seat bids any amount from 0 to 10 (a
//! template) or passes. The highest bid wins three times its card and pays the bid; a tie goes
//! to the higher card.

use crate::BotGame;
use engine::chance::Chance;
use engine::template::IntegerRange;
use engine::{Game, Outcome, RuleError, Seat, Viewer};
use rand::seq::SliceRandom;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

pub const COINS: u32 = 10;
const PRIZE_PER_PIP: i64 = 3;

pub struct Toy;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = ToyConfig)]
pub struct Config {}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub cards: Vec<u8>,
    pub deck: Vec<u8>,
    /// `None` until the seat acted; `Some(None)` for a pass.
    pub bids: Vec<Option<Option<u32>>>,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = ToyAction)]
pub enum Action {
    Bid { amount: u32 },
    Pass,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = ToyEvent)]
pub enum Event {
    Dealt { cards: Vec<u8>, deck: Vec<u8> },
    Acted { seat: Seat, bid: Option<u32> },
    Ended { outcome: Outcome },
}

/// The one template: a bid of any amount up to the coins.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[schema(as = ToyTemplate)]
pub enum Template {
    Bid { params: BidParams },
}

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[schema(as = ToyBidParams)]
pub struct BidParams {
    amount: IntegerRange,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = ToyView)]
pub struct View {
    pub card: Option<u8>,
    pub bids: Vec<Option<Option<u32>>>,
}

impl State {
    fn next(&self) -> Option<Seat> {
        if self.outcome.is_some() {
            return None;
        }
        self.bids
            .iter()
            .position(Option::is_none)
            .map(|s| Seat(s as u8))
    }

    /// Final scores once every seat has acted.
    fn scores(&self) -> Vec<i64> {
        let mut scores = vec![i64::from(COINS); self.cards.len()];
        let best = (0..self.cards.len())
            .filter_map(|s| self.bids[s].flatten().map(|bid| (bid, self.cards[s], s)))
            .max();
        if let Some((bid, card, s)) = best {
            scores[s] += PRIZE_PER_PIP * i64::from(card) - i64::from(bid);
        }
        scores
    }
}

impl Game for Toy {
    type Config = Config;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Template = Template;

    const NAME: &'static str = "toy";
    const TITLE: &'static str = "Toy sealed bids";
    const RULES_VERSION: u32 = 1;

    fn seat_range() -> RangeInclusive<usize> {
        2..=4
    }

    fn setup(_: &Config, seats: usize, chance: &mut dyn Chance) -> Result<Vec<Event>, RuleError> {
        let mut deck: Vec<u8> = (1..=9).collect();
        engine::chance::shuffle(chance, &mut deck);
        let cards = deck.split_off(deck.len() - seats);
        Ok(vec![Event::Dealt { cards, deck }])
    }

    fn empty_state() -> State {
        State {
            cards: Vec::new(),
            deck: Vec::new(),
            bids: Vec::new(),
            outcome: None,
        }
    }

    fn evolve(state: &mut State, event: &Event) {
        match event {
            Event::Dealt { cards, deck } => {
                state.bids = vec![None; cards.len()];
                state.cards = cards.clone();
                state.deck = deck.clone();
            }
            Event::Acted { seat, bid } => state.bids[seat.index()] = Some(*bid),
            Event::Ended { outcome } => state.outcome = Some(outcome.clone()),
        }
    }

    fn decide(
        state: &State,
        seat: Seat,
        action: &Action,
        _: &mut dyn Chance,
    ) -> Result<Vec<Event>, RuleError> {
        if state.next() != Some(seat) {
            return Err(RuleError::not_your_turn(seat));
        }
        let bid = match *action {
            Action::Bid { amount } if amount > COINS => {
                return Err(RuleError::new(
                    "toy.too_much",
                    "TOY-1",
                    "bid above the coins",
                ))
            }
            Action::Bid { amount } => Some(amount),
            Action::Pass => None,
        };
        let mut after = state.clone();
        let acted = Event::Acted { seat, bid };
        Toy::evolve(&mut after, &acted);
        let mut events = vec![acted];
        if after.next().is_none() {
            events.push(Event::Ended {
                outcome: Outcome::highest_wins(after.scores()),
            });
        }
        Ok(events)
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        if state.next() == Some(seat) {
            vec![Action::Pass]
        } else {
            Vec::new()
        }
    }

    fn action_templates(state: &State, seat: Seat) -> Vec<Template> {
        if state.next() == Some(seat) {
            let amount = IntegerRange::new(0, i64::from(COINS));
            vec![Template::Bid {
                params: BidParams { amount },
            }]
        } else {
            Vec::new()
        }
    }

    fn active_seats(state: &State) -> Vec<Seat> {
        state.next().into_iter().collect()
    }

    fn seat_count(state: &State) -> usize {
        state.cards.len()
    }

    fn view(state: &State, viewer: Viewer) -> View {
        View {
            card: match viewer {
                Viewer::Seat(seat) => Some(state.cards[seat.index()]),
                Viewer::Spectator => None,
            },
            bids: state.bids.clone(),
        }
    }

    fn redact(event: &Event, _: Viewer) -> Option<Event> {
        match event {
            Event::Dealt { .. } => None,
            other => Some(other.clone()),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn determinize(state: &State, seat: Seat, rng: &mut dyn RngCore) -> State {
        let mut sample = state.clone();
        let mut unseen = std::mem::take(&mut sample.deck);
        for (s, &card) in state.cards.iter().enumerate() {
            if s != seat.index() {
                unseen.push(card);
            }
        }
        unseen.sort_unstable();
        unseen.shuffle(rng);
        for (s, card) in sample.cards.iter_mut().enumerate() {
            if s != seat.index() {
                *card = unseen.pop().expect("as many unseen cards as before");
            }
        }
        sample.deck = unseen;
        sample
    }
}

impl BotGame for Toy {
    const LEAD: f64 = 3.0;
    type Memory = ();

    fn estimate(state: &State, scores: &mut Vec<f64>) {
        scores.clear();
        let final_scores = match &state.outcome {
            Some(outcome) => outcome.scores.clone(),
            None => state.scores(),
        };
        scores.extend(final_scores.iter().map(|&s| s as f64));
    }
}
