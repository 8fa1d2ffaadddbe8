//! Board, deed and card data, read once from `engine/rules/monopoly-board.json` (next to the
//! spec).
//!
//! Prices, rents, house costs, mortgage values, taxes and the 32 cards are BOARD values; the
//! lifting price is computed from the mortgage value and the interest rule (MO-D-12), never
//! repeated in code. Rule code reads every number from here.

use serde::{Deserialize, Serialize};

use crate::data_file::data_file;
use crate::data_id::{string_ids, IdIndex, StringId};

/// Squares on the board (MO-COMP-3).
pub const SQUARES: usize = 40;

/// The most seats a table may have for the listing's per-seat tables (the board allows 6,
/// MO-COMP-1; its file is checked against this).
pub(super) const MAX_SEATS: usize = 8;

/// A card, by index: the 16 Ereigniskarten first (E01 = 0), then the 16 Gemeinschaftskarten.
/// Serialized as the card's `id` string (`"E07"`, `"G05"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(pub u8);

/// The two card decks (MO-COMP-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = MonopolyDeck))]
pub enum Deck {
    /// Ereigniskarten (squares 7, 22, 36).
    Ereignis,
    /// Gemeinschaftskarten (squares 2, 17, 33).
    Gemeinschaft,
}

impl Deck {
    pub const ALL: [Deck; 2] = [Deck::Ereignis, Deck::Gemeinschaft];

    pub fn index(self) -> usize {
        match self {
            Deck::Ereignis => 0,
            Deck::Gemeinschaft => 1,
        }
    }
}

/// What a square does when a token lands on it (§4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SquareKind {
    Go,
    /// A title deed: street, Bahnhof or Werk; `deed` indexes [`Board::deeds`].
    Property {
        deed: usize,
    },
    Card(Deck),
    Tax {
        amount: i64,
    },
    /// Square 10: visiting, or in jail.
    Jail,
    FreeParking,
    GoToJail,
}

/// The three kinds of title deed (MO-COMP-3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeedKind {
    /// `rents`: base, 1–4 houses, hotel (§1.1). `group` indexes [`Board::groups`].
    Street {
        group: usize,
        rents: [i64; 6],
        house_cost: i64,
    },
    /// Rent by the number of Bahnhöfe the owner holds (MO-COMP-15).
    Railway { rents: [i64; 4] },
    /// Dice multiplier by the number of Werke the owner holds (MO-COMP-16).
    Utility { multipliers: [i64; 2] },
}

#[derive(Debug, Clone)]
pub struct DeedData {
    pub square: u8,
    pub name: String,
    pub price: i64,
    /// Mortgage value (MV).
    pub mortgage: i64,
    pub kind: DeedKind,
}

impl DeedData {
    /// The street's colour group, if a street.
    pub fn group(&self) -> Option<usize> {
        match self.kind {
            DeedKind::Street { group, .. } => Some(group),
            _ => None,
        }
    }

    /// The street's house (and hotel) cost, if a street.
    pub fn house_cost(&self) -> Option<i64> {
        match self.kind {
            DeedKind::Street { house_cost, .. } => Some(house_cost),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct GroupData {
    pub id: String,
    /// Indexes into [`Board::deeds`], in square order.
    pub deeds: Vec<usize>,
    pub house_cost: i64,
}

/// What a card does (the data file's `card_effect_kinds`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    AdvanceTo {
        square: u8,
    },
    /// Forward to the next Bahnhof; an owner gets `rent_multiplier` × the rent (G05).
    AdvanceToNearestRailway {
        rent_multiplier: i64,
    },
    MoveBack {
        steps: u8,
    },
    MoveBackTo {
        square: u8,
    },
    GoToJail,
    GetOutOfJailFree,
    ReceiveFromBank {
        amount: i64,
    },
    PayBank {
        amount: i64,
    },
    PayEachPlayer {
        amount: i64,
    },
    ReceiveFromEachPlayer {
        amount: i64,
    },
    Repairs {
        per_house: i64,
        per_hotel: i64,
    },
    PayOrDraw {
        amount: i64,
        draw_deck: Deck,
    },
}

#[derive(Debug, Clone)]
pub struct CardData {
    pub id: String,
    pub deck: Deck,
    pub text: String,
    pub effect: Effect,
}

/// Counts and amounts of §1 (their provenance is in the data file).
#[derive(Debug, Clone, Deserialize)]
pub struct Constants {
    pub players_min: usize,
    pub players_max: usize,
    pub start_money: i64,
    pub salary: i64,
    pub jail_square: u8,
    pub jail_fine: i64,
    pub max_jail_attempts: u8,
    pub doubles_to_jail: u8,
    pub houses: u8,
    pub hotels: u8,
    pub max_houses_per_street: u8,
    pub mortgage_interest_percent: i64,
    pub building_sell_back_percent: i64,
    pub auction_min_bid: i64,
    pub cards_per_deck: usize,
}

/// Everything printed on the board, the deeds and the cards.
#[derive(Debug, Clone)]
pub struct Board {
    pub constants: Constants,
    pub squares: Vec<SquareKind>,
    pub square_names: Vec<String>,
    /// The 28 title deeds in square order.
    pub deeds: Vec<DeedData>,
    /// Each deed's square, by deed: [`Board::deeds`]' squares packed together for the passes
    /// over every deed that listing makes at each step.
    pub deed_squares: Vec<u8>,
    /// Each group's deeds as a bit set over deed indices (bit `d`: deed `d`).
    pub group_deeds: Vec<u32>,
    /// The deeds of each deed's colour group as a bit set, by deed (empty for stations and
    /// utilities): which deeds a building on it ties (MO-MORT-1, MO-TRADE-1).
    pub group_of_deed: Vec<u32>,
    pub groups: Vec<GroupData>,
    /// The 32 cards: Ereignis first, then Gemeinschaft.
    pub cards: Vec<CardData>,
    card_ids: IdIndex,
}

impl Board {
    pub fn deed(&self, deed: usize) -> &DeedData {
        &self.deeds[deed]
    }

    /// The deed printed on `square`, if any.
    pub fn deed_at(&self, square: u8) -> Option<usize> {
        match self.squares.get(usize::from(square))? {
            SquareKind::Property { deed } => Some(*deed),
            _ => None,
        }
    }

    pub fn card(&self, card: Card) -> &CardData {
        &self.cards[usize::from(card.0)]
    }

    /// The cards of one deck in printed order.
    pub fn deck_cards(&self, deck: Deck) -> impl Iterator<Item = Card> + '_ {
        (0..self.cards.len())
            .filter(move |&i| self.cards[i].deck == deck)
            .map(|i| Card(i as u8))
    }

    /// The first Bahnhof at or after `square` going forward (G05).
    pub fn next_railway(&self, square: u8) -> u8 {
        (1..=SQUARES as u8)
            .map(|step| (square + step) % SQUARES as u8)
            .find(|&s| {
                self.deed_at(s)
                    .is_some_and(|d| matches!(self.deed(d).kind, DeedKind::Railway { .. }))
            })
            .expect("the board has Bahnhöfe")
    }
}

data_file!(pub fn board() -> Board = "monopoly-board.json", parse);

/// The raw shape of the data file (only the parts the rules use).
mod raw {
    use super::Constants;
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct File {
        pub constants: Constants,
        pub groups: Vec<Group>,
        pub squares: Vec<Square>,
        pub decks: Decks,
    }
    #[derive(Deserialize)]
    pub struct Group {
        pub id: String,
        pub squares: Vec<u8>,
        pub house_cost: i64,
        pub hotel_cost: i64,
    }
    #[derive(Deserialize)]
    pub struct Square {
        pub index: u8,
        pub name: String,
        #[serde(rename = "type")]
        pub kind: String,
        pub group: Option<String>,
        pub price: Option<i64>,
        pub rent: Option<[i64; 6]>,
        pub rent_by_count: Option<[i64; 4]>,
        pub dice_multiplier_by_count: Option<[i64; 2]>,
        pub house_cost: Option<i64>,
        pub mortgage: Option<i64>,
        pub amount: Option<i64>,
        pub deck: Option<String>,
    }
    #[derive(Deserialize)]
    pub struct Decks {
        pub ereignis: Deck,
        pub gemeinschaft: Deck,
    }
    #[derive(Deserialize)]
    pub struct Deck {
        pub cards: Vec<Card>,
    }
    #[derive(Deserialize)]
    pub struct Card {
        pub id: String,
        pub text_de: String,
        pub effect: serde_json::Value,
    }
}

fn deck_named(name: &str) -> Result<Deck, String> {
    match name {
        "ereignis" => Ok(Deck::Ereignis),
        "gemeinschaft" => Ok(Deck::Gemeinschaft),
        other => Err(format!("unknown deck {other}")),
    }
}

fn effect(v: &serde_json::Value) -> Result<Effect, String> {
    let int = |field: &str| {
        v[field]
            .as_i64()
            .ok_or_else(|| format!("card effect {v} lacks {field}"))
    };
    let square = |field: &str| int(field).map(|s| s as u8);
    Ok(match v["kind"].as_str().unwrap_or_default() {
        "advance_to" => Effect::AdvanceTo {
            square: square("square")?,
        },
        "advance_to_nearest" if v["square_type"] == "railway" => Effect::AdvanceToNearestRailway {
            rent_multiplier: int("rent_multiplier")?,
        },
        "move_back" => Effect::MoveBack {
            steps: square("steps")?,
        },
        "move_back_to" => Effect::MoveBackTo {
            square: square("square")?,
        },
        "go_to_jail" => Effect::GoToJail,
        "get_out_of_jail_free" => Effect::GetOutOfJailFree,
        "receive_from_bank" => Effect::ReceiveFromBank {
            amount: int("amount")?,
        },
        "pay_bank" => Effect::PayBank {
            amount: int("amount")?,
        },
        "pay_each_player" => Effect::PayEachPlayer {
            amount: int("amount")?,
        },
        "receive_from_each_player" => Effect::ReceiveFromEachPlayer {
            amount: int("amount")?,
        },
        "repairs" => Effect::Repairs {
            per_house: int("per_house")?,
            per_hotel: int("per_hotel")?,
        },
        "pay_or_draw" => Effect::PayOrDraw {
            amount: int("amount")?,
            draw_deck: deck_named(v["draw_deck"].as_str().unwrap_or_default())?,
        },
        _ => return Err(format!("unknown card effect {v}")),
    })
}

/// Parse and cross-check a board file.
fn parse(json: &str) -> Result<Board, String> {
    let file: raw::File = serde_json::from_str(json).map_err(|e| e.to_string())?;
    if file.squares.len() != SQUARES {
        return Err("the board has 40 squares".into());
    }
    if file.constants.players_max > MAX_SEATS {
        return Err(format!(
            "at most {} players (the listing's limit)",
            MAX_SEATS
        ));
    }
    let mut groups: Vec<GroupData> = Vec::new();
    for g in &file.groups {
        if g.hotel_cost != g.house_cost {
            return Err(format!("group {}: the hotel costs the house cost", g.id));
        }
        groups.push(GroupData {
            id: g.id.clone(),
            deeds: Vec::new(),
            house_cost: g.house_cost,
        });
    }
    let mut squares = Vec::new();
    let mut deeds = Vec::new();
    for (i, s) in file.squares.iter().enumerate() {
        if usize::from(s.index) != i {
            return Err(format!("square {i} out of order"));
        }
        let need = |v: Option<i64>, what: &str| v.ok_or(format!("square {i} lacks {what}"));
        let deed_kind = match s.kind.as_str() {
            "street" => {
                let id = s.group.clone().unwrap_or_default();
                let group = groups
                    .iter()
                    .position(|g| g.id == id)
                    .ok_or(format!("unknown group {id}"))?;
                Some(DeedKind::Street {
                    group,
                    rents: s.rent.ok_or(format!("square {i} lacks rents"))?,
                    house_cost: need(s.house_cost, "house_cost")?,
                })
            }
            "railway" => Some(DeedKind::Railway {
                rents: s.rent_by_count.ok_or(format!("square {i} lacks rents"))?,
            }),
            "utility" => Some(DeedKind::Utility {
                multipliers: s
                    .dice_multiplier_by_count
                    .ok_or(format!("square {i} lacks multipliers"))?,
            }),
            _ => None,
        };
        let kind = if let Some(kind) = deed_kind {
            if let DeedKind::Street { group, .. } = kind {
                groups[group].deeds.push(deeds.len());
            }
            deeds.push(DeedData {
                square: s.index,
                name: s.name.clone(),
                price: need(s.price, "price")?,
                mortgage: need(s.mortgage, "mortgage")?,
                kind,
            });
            SquareKind::Property {
                deed: deeds.len() - 1,
            }
        } else {
            match s.kind.as_str() {
                "go" => SquareKind::Go,
                "card" => SquareKind::Card(deck_named(s.deck.as_deref().unwrap_or_default())?),
                "tax" => SquareKind::Tax {
                    amount: need(s.amount, "amount")?,
                },
                "jail" => SquareKind::Jail,
                "free_parking" => SquareKind::FreeParking,
                "go_to_jail" => SquareKind::GoToJail,
                other => return Err(format!("unknown square type {other}")),
            }
        };
        squares.push(kind);
    }
    for (g, raw) in groups.iter().zip(&file.groups) {
        let listed: Vec<u8> = g.deeds.iter().map(|&d| deeds[d].square).collect();
        if listed != raw.squares {
            return Err(format!("group {} lists other squares", g.id));
        }
    }
    if deeds.len() > 32 {
        return Err("at most 32 title deeds (deed sets are 32 bits)".into());
    }
    let mut cards = Vec::new();
    for (deck, raw) in [
        (Deck::Ereignis, &file.decks.ereignis),
        (Deck::Gemeinschaft, &file.decks.gemeinschaft),
    ] {
        if raw.cards.len() != file.constants.cards_per_deck {
            return Err("each deck has cards_per_deck cards".into());
        }
        for c in &raw.cards {
            cards.push(CardData {
                id: c.id.clone(),
                deck,
                text: c.text_de.clone(),
                effect: effect(&c.effect)?,
            });
        }
    }
    let group_deeds: Vec<u32> = groups
        .iter()
        .map(|g| g.deeds.iter().fold(0, |set, &d| set | 1 << d))
        .collect();
    Ok(Board {
        constants: file.constants,
        squares,
        square_names: file.squares.iter().map(|s| s.name.clone()).collect(),
        deed_squares: deeds.iter().map(|d| d.square).collect(),
        group_of_deed: deeds
            .iter()
            .map(|d| d.group().map_or(0, |g| group_deeds[g]))
            .collect(),
        group_deeds,
        deeds,
        groups,
        card_ids: IdIndex::new(cards.iter().map(|c| c.id.as_str())),
        cards,
    })
}

impl StringId for Card {
    const WHAT: &'static str = "card";
    const SCHEMA_NAME: &'static str = "MonopolyCard";
    const SCHEMA_DESCRIPTION: &'static str =
        "A Monopoly card id: E01-E16 Ereigniskarten, G01-G16 Gemeinschaftskarten.";

    fn id(self) -> &'static str {
        &board().card(self).id
    }

    fn from_id(id: &str) -> Option<Card> {
        board().card_ids.get(id).map(Card)
    }

    fn all_ids() -> impl Iterator<Item = &'static str> {
        board().cards.iter().map(|c| c.id.as_str())
    }
}

string_ids!(Card);

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}
