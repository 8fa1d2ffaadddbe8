//! Board and card data, read once from `engine/rules/tycoon-board.json` (next to the spec).
//!
//! Most numbers in that file are RECONSTRUCTED (see its `provenance` block): the printed board is
//! not known. Rule code therefore reads every price, payout and ticket from here and never
//! repeats a number, so a better reconstruction is a data change only.

use serde::{Deserialize, Serialize};

use crate::data_file::{data_file, DataFile};
use crate::data_id::{string_ids, IdIndex, StringId};

/// Number of cities; fixed by the seeds (9 cities, DE §DER SPIELPLAN).
pub const CITY_COUNT: usize = 9;
/// Number of spaces on a hotel track, the unbuildable last one included (TY-COMP-11).
pub const TRACK_SPACES: usize = 13;

/// A city, by its index in the data file's `cities` list. Serialized as the city's `id` string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct City(pub u8);

/// A ticket card, by index: scheduled tickets first (S01 = 0), then charter tickets.
/// Serialized as the card's `id` string (`"S09"`, `"C25"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticket(pub u8);

/// The two ticket decks (TY-COMP-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonDeck))]
pub enum Deck {
    Scheduled,
    Charter,
}

impl Deck {
    pub const ALL: [Deck; 2] = [Deck::Scheduled, Deck::Charter];

    pub fn index(self) -> usize {
        match self {
            Deck::Scheduled => 0,
            Deck::Charter => 1,
        }
    }
}

/// The two kinds of loan card (TY-COMP-7). Serialized as the data file's ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TycoonLoanKind))]
pub enum LoanKind {
    #[serde(rename = "loan10")]
    Loan10,
    #[serde(rename = "loan16")]
    Loan16,
}

impl LoanKind {
    pub const ALL: [LoanKind; 2] = [LoanKind::Loan10, LoanKind::Loan16];

    pub fn index(self) -> usize {
        match self {
            LoanKind::Loan10 => 0,
            LoanKind::Loan16 => 1,
        }
    }

    pub fn terms(self) -> &'static LoanTerms {
        &board().loans[self.index()]
    }
}

/// What a ticket lets its holder do (TY-FLY-2..4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// Direct to `dest` from anywhere, or exactly `steps` orthogonal steps from a city.
    Scheduled { dest: City, steps: u8 },
    /// Between its two cities, either way.
    Charter { ends: [City; 2] },
}

#[derive(Debug, Clone)]
pub struct TicketCard {
    pub id: String,
    pub deck: Deck,
    pub price: i32,
    pub route: Route,
}

#[derive(Debug, Clone)]
pub struct CityData {
    pub id: String,
    pub name: String,
    pub row: u8,
    pub col: u8,
    /// Hotel cost on landing field 1 and 2 (TY-HOTEL-2).
    pub landing_costs: [i32; 2],
    /// Cost of the city's first and second factory (TY-FAC-2).
    pub factory_costs: [i32; 2],
    /// First and second majority payout per track space (TY-MAJ-1).
    pub track: [[i32; 2]; TRACK_SPACES],
}

#[derive(Debug, Clone, Deserialize)]
pub struct LoanTerms {
    pub cards: u8,
    pub amount: i32,
    pub repay: i32,
    pub repay_extended: i32,
}

/// Counts and amounts that the seeds state (TY-COMP-*).
#[derive(Debug, Clone, Deserialize)]
pub struct Constants {
    pub players_min: usize,
    pub players_max: usize,
    pub start_money: i32,
    pub phases: u8,
    pub hotels_per_colour: u8,
    pub hotels_per_phase: u8,
    pub factories_per_player: u8,
    pub landing_fields_per_city: usize,
    pub factory_fields_per_city: usize,
    pub display_scheduled: usize,
    pub display_charter: usize,
}

/// Everything printed on the board and the cards.
#[derive(Debug, Clone)]
pub struct Board {
    pub constants: Constants,
    pub cities: Vec<CityData>,
    pub tickets: Vec<TicketCard>,
    /// Number of scheduled tickets; they come first in `tickets`.
    pub scheduled_count: usize,
    /// Red track spaces in increasing order; the k-th closes the hotel on space k−1 (TY-RED-1).
    pub red_spaces: Vec<u8>,
    /// The last space, never built on (TY-HOTEL-4).
    pub unbuildable_space: u8,
    /// Payday distribution by number of cities (TY-DIST-1).
    pub distribution: Vec<i32>,
    /// Indexed by [`LoanKind::index`].
    pub loans: [LoanTerms; 2],
    city_ids: IdIndex,
    ticket_ids: IdIndex,
}

impl Board {
    pub fn city(&self, city: City) -> &CityData {
        &self.cities[usize::from(city.0)]
    }

    pub fn ticket(&self, ticket: Ticket) -> &TicketCard {
        &self.tickets[usize::from(ticket.0)]
    }

    /// Manhattan distance on the city grid (TY-COMP-9).
    pub fn distance(&self, a: City, b: City) -> u8 {
        let (a, b) = (self.city(a), self.city(b));
        a.row.abs_diff(b.row) + a.col.abs_diff(b.col)
    }

    /// All tickets of one deck, in card order.
    pub fn deck(&self, deck: Deck) -> impl Iterator<Item = Ticket> + '_ {
        let range = match deck {
            Deck::Scheduled => 0..self.scheduled_count,
            Deck::Charter => self.scheduled_count..self.tickets.len(),
        };
        range.map(|i| Ticket(i as u8))
    }

    /// How many face-up cards of `deck` the display holds when full (TY-SETUP-3).
    pub fn display_size(&self, deck: Deck) -> usize {
        match deck {
            Deck::Scheduled => self.constants.display_scheduled,
            Deck::Charter => self.constants.display_charter,
        }
    }

    /// The red space index of `space`, counted from 0, if it is red.
    pub fn red_rank(&self, space: u8) -> Option<usize> {
        self.red_spaces.iter().position(|&red| red == space)
    }

    pub fn cities(&self) -> impl Iterator<Item = City> {
        (0..self.cities.len()).map(|i| City(i as u8))
    }
}

/// The data file, compiled into the crate.
static BOARD: DataFile<Board> = data_file!("tycoon-board.json", parse);

/// The board, parsed on first use.
pub fn board() -> &'static Board {
    BOARD.get()
}

/// The raw shape of the data file (only the parts the rules use).
mod raw {
    use super::{Constants, LoanTerms};
    use serde::Deserialize;
    use std::collections::HashMap;

    #[derive(Deserialize)]
    pub struct File {
        pub constants: Constants,
        pub track: Track,
        pub tiers: HashMap<String, Tier>,
        pub cities: Vec<City>,
        pub distribution: Distribution,
        pub scheduled_tickets: Vec<Scheduled>,
        pub charter_tickets: Vec<Charter>,
        pub loans: Vec<Loan>,
    }
    #[derive(Deserialize)]
    pub struct Track {
        pub spaces: usize,
        pub red_spaces: Vec<u8>,
        pub unbuildable_space: u8,
    }
    #[derive(Deserialize)]
    pub struct Tier {
        pub track: Vec<[i32; 2]>,
    }
    #[derive(Deserialize)]
    pub struct City {
        pub id: String,
        pub name: String,
        pub row: u8,
        pub col: u8,
        pub tier: String,
        pub landing_costs: [i32; 2],
        pub factory_costs: [i32; 2],
    }
    #[derive(Deserialize)]
    pub struct Distribution {
        pub by_city_count: Vec<i32>,
    }
    #[derive(Deserialize)]
    pub struct Scheduled {
        pub id: String,
        pub dest: String,
        pub steps: u8,
        pub price: i32,
    }
    #[derive(Deserialize)]
    pub struct Charter {
        pub id: String,
        pub cities: [String; 2],
        pub price: i32,
    }
    #[derive(Deserialize)]
    pub struct Loan {
        pub id: String,
        #[serde(flatten)]
        pub terms: LoanTerms,
    }
}

/// Parse and cross-check a board file.
fn parse(json: &str) -> Result<Board, String> {
    let file: raw::File = serde_json::from_str(json).map_err(|e| e.to_string())?;
    if file.track.spaces != TRACK_SPACES || file.cities.len() != CITY_COUNT {
        return Err("the engine expects 9 cities with 13 track spaces".into());
    }
    let cities = file
        .cities
        .iter()
        .map(|c| {
            let tier = file
                .tiers
                .get(&c.tier)
                .ok_or(format!("unknown tier {}", c.tier))?;
            let track: [[i32; 2]; TRACK_SPACES] = tier
                .track
                .clone()
                .try_into()
                .map_err(|_| "track length".to_string())?;
            Ok(CityData {
                id: c.id.clone(),
                name: c.name.clone(),
                row: c.row,
                col: c.col,
                landing_costs: c.landing_costs,
                factory_costs: c.factory_costs,
                track,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let city_ids = IdIndex::new(cities.iter().map(|c| c.id.as_str()));
    let mut board = Board {
        constants: file.constants,
        cities,
        tickets: Vec::new(),
        scheduled_count: file.scheduled_tickets.len(),
        red_spaces: file.track.red_spaces,
        unbuildable_space: file.track.unbuildable_space,
        distribution: file.distribution.by_city_count,
        loans: [loan(&file.loans, "loan10")?, loan(&file.loans, "loan16")?],
        city_ids,
        ticket_ids: IdIndex::default(),
    };
    let city = |board: &Board, id: &str| {
        board
            .city_ids
            .get(id)
            .map(City)
            .ok_or(format!("unknown city {id}"))
    };
    for s in &file.scheduled_tickets {
        let dest = city(&board, &s.dest)?;
        board.tickets.push(TicketCard {
            id: s.id.clone(),
            deck: Deck::Scheduled,
            price: s.price,
            route: Route::Scheduled {
                dest,
                steps: s.steps,
            },
        });
    }
    for c in &file.charter_tickets {
        let ends = [city(&board, &c.cities[0])?, city(&board, &c.cities[1])?];
        board.tickets.push(TicketCard {
            id: c.id.clone(),
            deck: Deck::Charter,
            price: c.price,
            route: Route::Charter { ends },
        });
    }
    if board.distribution.len() != CITY_COUNT + 1 {
        return Err("distribution needs one entry per city count 0..=9".into());
    }
    board.ticket_ids = IdIndex::new(board.tickets.iter().map(|t| t.id.as_str()));
    Ok(board)
}

fn loan(loans: &[raw::Loan], id: &str) -> Result<LoanTerms, String> {
    loans
        .iter()
        .find(|l| l.id == id)
        .map(|l| l.terms.clone())
        .ok_or(format!("missing loan {id}"))
}

impl StringId for City {
    const WHAT: &'static str = "city";
    const SCHEMA_NAME: &'static str = "TycoonCity";
    const SCHEMA_DESCRIPTION: &'static str = "A Tycoon city id.";

    fn id(self) -> &'static str {
        &board().city(self).id
    }

    fn from_id(id: &str) -> Option<City> {
        board().city_ids.get(id).map(City)
    }

    fn all_ids() -> impl Iterator<Item = &'static str> {
        board().cities.iter().map(|c| c.id.as_str())
    }
}

impl StringId for Ticket {
    const WHAT: &'static str = "ticket";
    const SCHEMA_NAME: &'static str = "TycoonTicket";
    const SCHEMA_DESCRIPTION: &'static str =
        "A Tycoon ticket id: S01-S18 scheduled, C01-C36 charter.";

    fn id(self) -> &'static str {
        &board().ticket(self).id
    }

    fn from_id(id: &str) -> Option<Ticket> {
        board().ticket_ids.get(id).map(Ticket)
    }

    fn all_ids() -> impl Iterator<Item = &'static str> {
        board().tickets.iter().map(|t| t.id.as_str())
    }
}

string_ids!(City, Ticket);

impl std::fmt::Display for City {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&board().city(*self).name)
    }
}

impl std::fmt::Display for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}
