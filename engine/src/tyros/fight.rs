//! The galley fight's scoring (TR-GAL-5): whoever laid more identical cards wins.
//!
//! A group is the cards of one colour, jokers joining any group when they are wild (TR-D-14);
//! without wild jokers the jokers are a group of their own. A side's score is its largest group.

use super::cards::{Card, Cards};
use super::config::Config;

/// The distinct groups of identical cards among `laid`.
pub fn groups(config: &Config, laid: &Cards) -> Vec<Cards> {
    let jokers = Cards::of(Card::Joker, laid.joker);
    let mut out: Vec<Cards> = Vec::new();
    for (card, n) in laid.iter() {
        let group = match card {
            Card::Joker => jokers,
            _ if config.jokers_wild => Cards::of(card, n).plus(&jokers),
            _ => Cards::of(card, n),
        };
        // With wild jokers a jokers-only group is only a group when no colour was laid.
        let dominated = card == Card::Joker && config.jokers_wild && laid.total() > u32::from(n);
        if !dominated && !out.contains(&group) {
            out.push(group);
        }
    }
    out
}

/// A side's fight score: its largest group (0 for no cards).
pub fn score(config: &Config, laid: &Cards) -> u32 {
    groups(config, laid)
        .iter()
        .map(Cards::total)
        .max()
        .unwrap_or(0)
}

/// The largest groups of `laid`, any of which the winner may discard.
pub fn largest_groups(config: &Config, laid: &Cards) -> Vec<Cards> {
    let best = score(config, laid);
    groups(config, laid)
        .into_iter()
        .filter(|g| g.total() == best)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jokers_join_every_colour_group_when_wild() {
        let config = Config::default();
        let laid = Cards::from_array([2, 0, 0, 2, 1]);
        assert_eq!(score(&config, &laid), 3);
        assert_eq!(
            largest_groups(&config, &laid),
            vec![
                Cards::from_array([2, 0, 0, 0, 1]),
                Cards::from_array([0, 0, 0, 2, 1])
            ]
        );
        assert_eq!(score(&config, &Cards::of(Card::Joker, 3)), 3);
        assert_eq!(score(&config, &Cards::NONE), 0);
    }

    #[test]
    fn without_wild_jokers_jokers_are_a_group_of_their_own() {
        let config = Config {
            jokers_wild: false,
            ..Config::default()
        };
        let laid = Cards::from_array([2, 0, 0, 0, 3]);
        assert_eq!(score(&config, &laid), 3);
        assert_eq!(
            largest_groups(&config, &laid),
            vec![Cards::of(Card::Joker, 3)]
        );
    }
}
