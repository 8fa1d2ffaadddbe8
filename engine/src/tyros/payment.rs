//! Card payments: whether a hand can settle a list of dues, and the ways to pay the first one.
//!
//! One action can owe several dues from one hand, always in this order: colour dues (jokers
//! wild, TR-COMP-8), at most one "two identical" due (TR-GAL-2), then "any card" dues (tolls,
//! tribute, levies). A move is legal only if the whole list can be paid (TR-D-19), and each
//! payment step offers only choices that keep the rest payable, so a payer can never pay
//! themselves into a corner.

use super::cards::{Card, Cards, Empire};
use super::config::Config;
use super::state::{Due, Need};

/// Whether `hand` can pay every due of `dues` (all of one payer, in the order above).
pub fn affordable(config: &Config, hand: &Cards, dues: &[Due]) -> bool {
    let mut colour = [0u32; 4];
    let mut identical = Vec::new();
    let mut any = 0u32;
    for due in dues {
        match due.need {
            Need::Colour { colour: e } => colour[e.index()] += u32::from(due.count),
            Need::Identical => identical.push(due.count),
            Need::Any => any += u32::from(due.count),
        }
    }
    let rest = |hand: &Cards| colour_and_any_payable(config, hand, &colour, any);
    match identical[..] {
        [] => rest(hand),
        [n] => identical_sets(config, hand, n)
            .into_iter()
            .any(|set| rest(&hand.minus(&set))),
        _ => false,
    }
}

/// Colour dues take their own colour first and jokers for the rest; "any" dues take whatever
/// remains. That greedy order is optimal, since only jokers are shared between colours.
fn colour_and_any_payable(config: &Config, hand: &Cards, colour: &[u32; 4], any: u32) -> bool {
    let mut jokers_needed = 0;
    for e in Empire::ALL {
        jokers_needed += colour[e.index()].saturating_sub(u32::from(hand.get(e.card())));
    }
    let jokers = if config.jokers_wild {
        u32::from(hand.joker)
    } else {
        0
    };
    jokers_needed <= jokers && colour.iter().sum::<u32>() + any <= hand.total()
}

/// Every set of `n` identical cards `hand` holds (TR-GAL-2, TR-D-14): `n` of one colour, or
/// with wild jokers some of a colour and jokers for the rest (all jokers counted once).
pub fn identical_sets(config: &Config, hand: &Cards, n: u8) -> Vec<Cards> {
    let mut out = Vec::new();
    for c in Card::ALL {
        let jokers = if config.jokers_wild && c != Card::Joker {
            hand.joker
        } else {
            0
        };
        let lowest = if c == Card::Joker || !config.jokers_wild {
            n
        } else {
            1
        };
        for own in (lowest..=n).rev() {
            if own <= hand.get(c) && n - own <= jokers {
                out.push(Cards::of(c, own).plus(&Cards::of(Card::Joker, n - own)));
            }
        }
    }
    out
}

/// How the first of `dues` may be paid from `hand` with the rest still payable.
pub enum Options {
    /// One of these exact payments (colour and "identical" dues).
    Listed(Vec<Cards>),
    /// Any `count` cards of `hand` ("any card" dues: everything that follows is "any" too, so
    /// every choice leaves the rest payable).
    AnyOf { hand: Cards, count: u8 },
}

impl Options {
    /// The only possible payment, when there is exactly one.
    pub fn single(&self) -> Option<Cards> {
        match self {
            Options::Listed(list) if list.len() == 1 => Some(list[0]),
            Options::Listed(_) => None,
            Options::AnyOf { hand, count } => {
                let total = hand.total();
                if u32::from(*count) == total {
                    Some(*hand)
                } else if *count == 0 {
                    Some(Cards::NONE)
                } else {
                    let mut kinds = hand.iter();
                    match (kinds.next(), kinds.next()) {
                        (Some((card, _)), None) => Some(Cards::of(card, *count)),
                        _ => None,
                    }
                }
            }
        }
    }

    pub fn allows(&self, cards: &Cards) -> bool {
        match self {
            Options::Listed(list) => list.contains(cards),
            Options::AnyOf { hand, count } => {
                hand.contains(cards) && cards.total() == u32::from(*count)
            }
        }
    }
}

/// The ways to pay `dues[0]` from `hand` (the payer's other dues follow it in `dues`).
pub fn options(config: &Config, hand: &Cards, dues: &[Due]) -> Options {
    let due = dues[0];
    let rest: Vec<Due> = dues[1..]
        .iter()
        .filter(|d| d.payer == due.payer)
        .copied()
        .collect();
    let candidates = match due.need {
        Need::Any => {
            return Options::AnyOf {
                hand: *hand,
                count: due.count,
            }
        }
        Need::Identical => identical_sets(config, hand, due.count),
        Need::Colour { colour } => {
            let card = colour.card();
            let jokers = if config.jokers_wild { hand.joker } else { 0 };
            (0..=due.count)
                .rev()
                .filter(|&own| own <= hand.get(card) && due.count - own <= jokers)
                .map(|own| Cards::of(card, own).plus(&Cards::of(Card::Joker, due.count - own)))
                .collect()
        }
    };
    Options::Listed(
        candidates
            .into_iter()
            .filter(|pay| hand.contains(pay) && affordable(config, &hand.minus(pay), &rest))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tyros::state::DueReason;
    use crate::Seat;

    fn due(need: Need, count: u8) -> Due {
        Due {
            payer: Seat(0),
            need,
            count,
            to: None,
            reason: DueReason::Move,
        }
    }

    fn green(count: u8) -> Due {
        due(
            Need::Colour {
                colour: Empire::Green,
            },
            count,
        )
    }

    #[test]
    fn jokers_fill_colour_gaps_but_are_kept_for_later_colour_dues() {
        let config = Config::default();
        let hand = Cards::from_array([0, 0, 1, 0, 1]);
        let yellow = due(
            Need::Colour {
                colour: Empire::Yellow,
            },
            1,
        );
        assert!(affordable(&config, &hand, &[green(1), yellow]));
        // Paying green with the joker would leave yellow unpayable: only the green card is offered.
        let Options::Listed(list) = options(&config, &hand, &[green(1), yellow]) else {
            panic!()
        };
        assert_eq!(list, vec![Cards::of(Card::Green, 1)]);
        assert!(!affordable(&config, &hand, &[green(2), yellow]));
    }

    #[test]
    fn without_wild_jokers_only_the_colour_pays_a_colour_due() {
        let config = Config {
            jokers_wild: false,
            ..Config::default()
        };
        let hand = Cards::from_array([0, 0, 1, 0, 3]);
        assert!(!affordable(&config, &hand, &[green(2)]));
        assert!(affordable(&config, &hand, &[green(1), due(Need::Any, 3)]));
        assert_eq!(
            identical_sets(&config, &hand, 2),
            vec![Cards::of(Card::Joker, 2)]
        );
    }

    #[test]
    fn an_identical_pair_is_chosen_so_that_the_colour_due_stays_payable() {
        let config = Config::default();
        let hand = Cards::from_array([0, 0, 2, 0, 0]);
        assert!(!affordable(
            &config,
            &hand,
            &[green(1), due(Need::Identical, 2)]
        ));
        let hand = Cards::from_array([2, 0, 1, 0, 0]);
        assert!(affordable(
            &config,
            &hand,
            &[green(1), due(Need::Identical, 2)]
        ));
    }
}
