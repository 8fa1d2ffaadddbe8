//! Empire colours and trade cards, and card counts by colour (a hand, a payment, a pile's
//! contents).
//!
//! Trade cards of one colour are interchangeable (TR-COMP-6), so a hand is five counts, never a
//! list; only the draw and discard piles keep an order.

use serde::{Deserialize, Serialize};

/// One of the four empires, and its colour (TR-COMP-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosEmpire))]
pub enum Empire {
    Orange,
    Yellow,
    Green,
    Violet,
}

impl Empire {
    /// In founding order (TR-SETUP-2): the 1st revealed field is orange, the 4th violet.
    pub const ALL: [Empire; 4] = [
        Empire::Orange,
        Empire::Yellow,
        Empire::Green,
        Empire::Violet,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The trade card of this colour.
    pub fn card(self) -> Card {
        Card::ALL[self.index()]
    }
}

/// A trade card: an empire colour or a joker (TR-COMP-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosCard))]
pub enum Card {
    Orange,
    Yellow,
    Green,
    Violet,
    Joker,
}

impl Card {
    pub const ALL: [Card; 5] = [
        Card::Orange,
        Card::Yellow,
        Card::Green,
        Card::Violet,
        Card::Joker,
    ];

    /// Ordered by [`Card::name`]: the order of a card map's keys in a template's domain.
    pub const BY_NAME: [Card; 5] = [
        Card::Green,
        Card::Joker,
        Card::Orange,
        Card::Violet,
        Card::Yellow,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The JSON name, also the key in [`Cards`] and in payment templates.
    pub fn name(self) -> &'static str {
        ["orange", "yellow", "green", "violet", "joker"][self.index()]
    }

    /// The empire of a colour card; `None` for a joker.
    pub fn empire(self) -> Option<Empire> {
        Empire::ALL.get(self.index()).copied()
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Trade cards counted by colour. JSON: `{"orange": 2, "joker": 1}`; colours with no card may
/// be left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosCards))]
pub struct Cards {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub orange: u8,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub yellow: u8,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub green: u8,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub violet: u8,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub joker: u8,
}

impl Cards {
    pub const NONE: Cards = Cards {
        orange: 0,
        yellow: 0,
        green: 0,
        violet: 0,
        joker: 0,
    };

    /// `n` cards of one colour.
    pub fn of(card: Card, n: u8) -> Cards {
        let mut cards = Cards::NONE;
        *cards.get_mut(card) = n;
        cards
    }

    /// Counts in [`Card::ALL`] order.
    pub fn from_array(counts: [u8; 5]) -> Cards {
        let [orange, yellow, green, violet, joker] = counts;
        Cards {
            orange,
            yellow,
            green,
            violet,
            joker,
        }
    }

    pub fn to_array(self) -> [u8; 5] {
        [
            self.orange,
            self.yellow,
            self.green,
            self.violet,
            self.joker,
        ]
    }

    pub fn get(&self, card: Card) -> u8 {
        match card {
            Card::Orange => self.orange,
            Card::Yellow => self.yellow,
            Card::Green => self.green,
            Card::Violet => self.violet,
            Card::Joker => self.joker,
        }
    }

    pub fn get_mut(&mut self, card: Card) -> &mut u8 {
        match card {
            Card::Orange => &mut self.orange,
            Card::Yellow => &mut self.yellow,
            Card::Green => &mut self.green,
            Card::Violet => &mut self.violet,
            Card::Joker => &mut self.joker,
        }
    }

    /// Number of cards, as a wide integer (counts of 5 colours can exceed a byte in sums).
    pub fn total(&self) -> u32 {
        self.to_array().iter().map(|&n| u32::from(n)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Whether every count of `other` is available here.
    pub fn contains(&self, other: &Cards) -> bool {
        Card::ALL.iter().all(|&c| self.get(c) >= other.get(c))
    }

    /// `self + other`, saturating (never reached: 60 cards fit a byte).
    pub fn plus(&self, other: &Cards) -> Cards {
        let mut out = *self;
        for c in Card::ALL {
            *out.get_mut(c) = self.get(c).saturating_add(other.get(c));
        }
        out
    }

    /// `self − other`; callers check [`Cards::contains`] first.
    pub fn minus(&self, other: &Cards) -> Cards {
        let mut out = *self;
        for c in Card::ALL {
            *out.get_mut(c) = self.get(c).saturating_sub(other.get(c));
        }
        out
    }

    /// The colours held, with their counts (zero counts left out).
    pub fn iter(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        Card::ALL
            .into_iter()
            .map(|c| (c, self.get(c)))
            .filter(|&(_, n)| n > 0)
    }

    /// The cards as a list in [`Card::ALL`] order (how they go onto the discard pile).
    pub fn to_list(self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.total() as usize);
        for (c, n) in self.iter() {
            out.extend(std::iter::repeat_n(c, usize::from(n)));
        }
        out
    }

    /// Counts of a list of cards.
    pub fn count(cards: &[Card]) -> Cards {
        let mut out = Cards::NONE;
        for &c in cards {
            *out.get_mut(c) += 1;
        }
        out
    }

    /// Number of different colours held.
    pub fn kinds(&self) -> usize {
        self.iter().count()
    }
}

impl std::fmt::Display for Cards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_empty() {
            return f.write_str("no cards");
        }
        let parts: Vec<String> = self
            .iter()
            .map(|(c, n)| format!("{n} {}", c.name()))
            .collect();
        f.write_str(&parts.join(" + "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_name_orders_the_cards_by_name() {
        let mut sorted = Card::ALL;
        sorted.sort_by_key(|c| c.name());
        assert_eq!(Card::BY_NAME, sorted);
    }

    #[test]
    fn cards_serialize_as_a_colour_map_without_zeros() {
        let c = Cards::from_array([2, 0, 0, 0, 1]);
        assert_eq!(
            serde_json::to_value(c).unwrap(),
            serde_json::json!({"orange": 2, "joker": 1})
        );
        let back: Cards =
            serde_json::from_value(serde_json::json!({"joker": 1, "orange": 2})).unwrap();
        assert_eq!(back, c);
        assert!(serde_json::from_value::<Cards>(serde_json::json!({"red": 1})).is_err());
        assert_eq!(c.to_list(), vec![Card::Orange, Card::Orange, Card::Joker]);
        assert_eq!(Cards::count(&c.to_list()), c);
    }
}
