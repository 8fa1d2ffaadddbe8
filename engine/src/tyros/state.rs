//! The full Tyros state, secrets included: tile hands, card hands, both piles' order, the cards
//! laid face down in a galley fight and sealed keep choices. Only `evolve` changes it; `view`
//! decides what each viewer sees.

use super::cards::{Card, Cards, Empire};
use super::config::Config;
use super::data::{board, Cell, Map, Tile, CELL_COUNT};
use crate::{Outcome, Seat};
use serde::{Deserialize, Serialize};

/// A ship, by its index in the game's `ships` list; ship ids never change during a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosShipId))]
pub struct ShipId(pub u8);

impl ShipId {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    #[serde(deserialize_with = "super::config::stored")]
    pub config: Config,
    pub players: Vec<Player>,
    /// One entry per cell, indexed by [`Cell::index`]; Tyros (entry 0) never joins an empire.
    pub fields: Vec<Field>,
    /// Every ship of every player, on the board or in its owner's supply.
    pub ships: Vec<Ship>,
    /// Face-down landscape tiles, top last. Order secret (TR-SETUP-3).
    pub tile_pile: Vec<Tile>,
    /// Founding and played tiles not under a pirate: the pool pirates are drawn from
    /// (TR-SETUP-2, TR-P2-6, TR-PIR-3). Public.
    pub used_tiles: Vec<Tile>,
    /// Trade cards face down, top last. Order secret (TR-SETUP-4, TR-D-20).
    pub draw_pile: Vec<Card>,
    /// Trade cards face up, first discarded first. Public (TR-D-20).
    pub discard_pile: Vec<Card>,
    pub round: u8,
    pub start_player: Seat,
    /// Phase 2 of this round ended with the tile pile empty and a player without tiles: the
    /// game ends after this action phase (TR-END-1).
    pub last_round: bool,
    /// Action-phase turns started so far; ships remember the turn they arrived in (TR-GAL-4).
    pub turn_number: u32,
    pub phase: Phase,
    /// Card payments still owed, paid in order (the first is due now).
    pub dues: Vec<Due>,
    /// A trade offer awaiting the recipient's answer (TR-ACT-E).
    pub offer: Option<Offer>,
    /// A galley fight that starts once the move's costs are paid: (attacker, defender).
    pub pending_fight: Option<(ShipId, ShipId)>,
    pub fight: Option<Fight>,
    /// Sealed keep choices at round end, per seat (TR-EOR-1).
    pub keep: Vec<Option<Cards>>,
    /// Someone already earned the all-empires bonus (TR-SCORE-5).
    pub bonus_taken: bool,
    /// The final score sheets, once the game is over.
    pub final_scores: Option<Vec<ScoreSheet>>,
    pub outcome: Option<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Landscape tiles in hand. Secret to everyone but this seat; the count is public.
    pub tiles: Vec<Tile>,
    /// Trade cards in hand. Secret to everyone but this seat; the count is public.
    pub cards: Cards,
    pub cities_left: u8,
    pub action_cards: ActionCards,
    /// Points from sinking pirates (TR-PIR-6, TR-COMB-3).
    pub pirate_points: i32,
    /// The all-empires bonus, once earned (TR-SCORE-5).
    pub bonus: i32,
    /// Bank trades this round (TR-K1 a).
    pub bank_trades: u8,
}

/// The three action cards of a player (TR-AK-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosActionCards))]
pub struct ActionCards {
    pub favourable_wind: CardStatus,
    pub blockade_breaker: CardStatus,
    pub explorer: CardStatus,
}

/// Where an action card is (TR-AK-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosCardStatus))]
pub enum CardStatus {
    /// In hand, not played (or the variant is off: never playable).
    Available,
    /// Played and laid out; its effect (the half-price move, the voyage) is still to come.
    Laid,
    /// Out of the game.
    Used,
}

/// The three action cards (SEED §V2, §Mat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosActionCard))]
pub enum ActionCard {
    /// "Günstiger Wind": one move at half the card cost, later in the same round (TR-AK-4).
    FavourableWind,
    /// "Blockadebrecher": move a rival ship from a shared cell to an adjacent field (TR-AK-5).
    BlockadeBreaker,
    /// "Der Entdecker": one later voyage to a neutral field (TR-AK-6).
    Explorer,
}

impl ActionCard {
    pub const ALL: [ActionCard; 3] = [
        ActionCard::FavourableWind,
        ActionCard::BlockadeBreaker,
        ActionCard::Explorer,
    ];

    /// The card's id in the data file.
    pub fn data_id(self) -> &'static str {
        match self {
            ActionCard::FavourableWind => "guenstiger_wind",
            ActionCard::BlockadeBreaker => "blockadebrecher",
            ActionCard::Explorer => "entdecker",
        }
    }
}

impl ActionCards {
    pub fn get(&self, card: ActionCard) -> CardStatus {
        match card {
            ActionCard::FavourableWind => self.favourable_wind,
            ActionCard::BlockadeBreaker => self.blockade_breaker,
            ActionCard::Explorer => self.explorer,
        }
    }

    pub fn get_mut(&mut self, card: ActionCard) -> &mut CardStatus {
        match card {
            ActionCard::FavourableWind => &mut self.favourable_wind,
            ActionCard::BlockadeBreaker => &mut self.blockade_breaker,
            ActionCard::Explorer => &mut self.explorer,
        }
    }
}

/// One cell of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Field {
    /// The empire the field belongs to; `None` while neutral. Never changes once set (TR-P2-2).
    pub empire: Option<Empire>,
    /// The city on the field (one site per field, TR-ACT-B).
    pub city: Option<Seat>,
    pub pirate: Option<Pirate>,
}

/// A pirate token (TR-PIR-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosPirate))]
pub struct Pirate {
    /// It appeared where 2 ships already stood: it sinks at the start of the first action-phase
    /// turn of one of their owners (TR-PIR-5).
    pub sinks_at_turn_start: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosShip))]
pub struct Ship {
    pub owner: Seat,
    /// The cell it stands in; `None` in its owner's supply.
    pub at: Option<Cell>,
    /// Carries a galley token (TR-GAL-2).
    pub galley: bool,
    /// Reached its cell by an explorer voyage (TR-AK-8); cleared when it returns to supply.
    pub explorer: bool,
    /// The action-phase turn in which it came to its cell (0: at the start of the game).
    pub arrived: u32,
}

/// Where the round stands (TR-RND-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosPhase))]
pub enum Phase {
    /// Before the setup events are folded.
    Setup,
    /// Phase 2: the `step`-th placement of the phase (laps times players, from the start
    /// player). `placed` / `drew`: some tile was placed / drawn in this phase (TR-P2-7).
    Expansion {
        step: u8,
        placed: bool,
        drew: bool,
    },
    /// The pirate phase (TR-PIR-3) while levies are being paid.
    Pirates,
    /// Phase 3 (4 with Pirates): `passes` passes in a row so far (TR-ACT-0).
    Actions {
        turn: Turn,
        passes: u8,
    },
    /// End of round: players choose the cards they keep (TR-EOR-1).
    RoundEnd,
    Finished,
}

/// One turn of the action phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosTurn))]
pub struct Turn {
    pub seat: Seat,
    /// The turn's start (pirate sinking, TR-PIR-5) has happened.
    pub started: bool,
    /// The turn's one action was taken (TR-ACT-0).
    pub acted: bool,
    /// With `player_trade_free`: the turn's free trade was made (TR-K1 b).
    pub traded: bool,
}

/// What a due may be paid with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosNeed))]
pub enum Need {
    /// Cards of the colour; jokers too when `jokers_wild` (TR-COMP-8).
    Colour { colour: Empire },
    /// Any cards (tolls, tribute, levies, Tyros shipyard, neutral explorer cells).
    Any,
    /// Two identical cards (the galley upgrade, TR-GAL-2).
    Identical,
}

/// Why a due is owed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosDueReason))]
pub enum DueReason {
    /// A move's card cost (TR-ACT-A).
    Move,
    /// An explorer voyage's card cost (TR-AK-7).
    Voyage,
    /// Pirate tolls (TR-PIR-7).
    Toll,
    /// Tribute to a rival city's owner (TR-ACT-A).
    Tribute,
    /// A city's cost (TR-ACT-B).
    City,
    /// A ship's cost (TR-ACT-C).
    Build,
    /// The galley upgrade (TR-GAL-2).
    Galley,
    /// A pirate's levy (TR-PIR-3).
    Levy,
}

/// A payment owed now: `count` cards fitting `need`, from `payer` to `to` (`null`: the discard
/// pile).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosDue))]
pub struct Due {
    pub payer: Seat,
    pub need: Need,
    pub count: u8,
    pub to: Option<Seat>,
    pub reason: DueReason,
}

/// A trade offer (TR-ACT-E): `from` gives `give` and receives `get`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosOffer))]
pub struct Offer {
    pub from: Seat,
    pub to: Seat,
    pub give: Cards,
    pub get: Cards,
}

/// A galley fight (TR-GAL-5): the attacker lays first, then the defender, then both are shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fight {
    pub field: Cell,
    pub attacker: ShipId,
    pub defender: ShipId,
    /// Laid face down; secret to the other side until both are laid.
    pub attacker_cards: Option<Cards>,
    pub defender_cards: Option<Cards>,
    /// Both laid and shown.
    pub revealed: bool,
    /// Once shown: the winner; `None` on a tie.
    pub winner: Option<Seat>,
    /// The winner's equal largest groups, when there is more than one to choose from.
    pub choices: Vec<Cards>,
}

/// One player's points at the end (TR-SCORE).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = TyrosScoreSheet))]
pub struct ScoreSheet {
    pub seat: Seat,
    /// City-controlled fields (TR-SCORE-3, TR-SCORE-4).
    pub city_points: i32,
    /// Ship-controlled empire fields.
    pub ship_points: i32,
    /// Explorer ships controlling neutral fields (TR-AK-8).
    pub explorer_points: i32,
    /// The all-empires bonus (TR-SCORE-5).
    pub bonus: i32,
    /// Pirate sinking (TR-SCORE-6).
    pub pirate_points: i32,
    pub total: i32,
    /// Tie-breaks (TR-SCORE-7): cities on the board, then ship-controlled fields.
    pub cities: u8,
    pub ship_controlled_fields: u8,
}

impl State {
    /// The state before the setup events.
    pub fn empty() -> State {
        State {
            config: Config::default(),
            players: Vec::new(),
            fields: vec![Field::default(); CELL_COUNT],
            ships: Vec::new(),
            tile_pile: Vec::new(),
            used_tiles: Vec::new(),
            draw_pile: Vec::new(),
            discard_pile: Vec::new(),
            round: 0,
            start_player: Seat(0),
            last_round: false,
            turn_number: 0,
            phase: Phase::Setup,
            dues: Vec::new(),
            offer: None,
            pending_fight: None,
            fight: None,
            keep: Vec::new(),
            bonus_taken: false,
            final_scores: None,
            outcome: None,
        }
    }

    pub fn map(&self) -> &'static Map {
        board().map(self.config.desert_cell, self.config.sea_cell)
    }

    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        Seat::all(self.players.len())
    }

    /// Every seat once, clockwise from `first` (TR-RND-2).
    pub fn seats_from(&self, first: Seat) -> impl Iterator<Item = Seat> {
        first.clockwise(self.players.len())
    }

    /// The seat to the left of `seat`.
    pub fn next_seat(&self, seat: Seat) -> Seat {
        seat.next(self.players.len())
    }

    pub fn field(&self, cell: Cell) -> &Field {
        &self.fields[cell.index()]
    }

    pub fn field_mut(&mut self, cell: Cell) -> &mut Field {
        &mut self.fields[cell.index()]
    }

    pub fn ship(&self, id: ShipId) -> &Ship {
        &self.ships[id.index()]
    }

    pub fn ship_mut(&mut self, id: ShipId) -> &mut Ship {
        &mut self.ships[id.index()]
    }

    /// Ships standing in `cell`, in id order.
    pub fn ships_at(&self, cell: Cell) -> impl Iterator<Item = ShipId> + '_ {
        (0..self.ships.len() as u8)
            .map(ShipId)
            .filter(move |&id| self.ship(id).at == Some(cell))
    }

    pub fn ship_count(&self, cell: Cell) -> usize {
        self.ships.iter().filter(|s| s.at == Some(cell)).count()
    }

    /// The owner's ships in supply, in id order.
    pub fn ships_in_supply(&self, owner: Seat) -> impl Iterator<Item = ShipId> + '_ {
        (0..self.ships.len() as u8)
            .map(ShipId)
            .filter(move |&id| self.ship(id).owner == owner && self.ship(id).at.is_none())
    }

    /// Galley tokens in the owner's supply (TR-GAL-1): those not under a ship.
    pub fn galley_tokens_left(&self, owner: Seat) -> u8 {
        let used = self
            .ships
            .iter()
            .filter(|s| s.owner == owner && s.galley)
            .count() as u8;
        board()
            .variants
            .galleys
            .tokens_per_player
            .saturating_sub(used)
    }

    pub fn cities_of(&self, seat: Seat) -> impl Iterator<Item = Cell> + '_ {
        Cell::fields().filter(move |&c| self.field(c).city == Some(seat))
    }

    /// Fields of each empire, in [`Empire::ALL`] order.
    pub fn empire_sizes(&self) -> [u8; 4] {
        let mut sizes = [0; 4];
        for f in &self.fields {
            if let Some(e) = f.empire {
                sizes[e.index()] += 1;
            }
        }
        sizes
    }

    /// The empires orthogonally adjacent to `cell`, each once, in [`Empire::ALL`] order.
    pub fn adjacent_empires(&self, cell: Cell) -> Vec<Empire> {
        let mut out: Vec<Empire> = self
            .map()
            .neighbours(cell)
            .filter_map(|c| self.field(c).empire)
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Whether a tile could be placed now (TR-P2-1): its field is neutral and next to an empire.
    pub fn placeable(&self, tile: Tile) -> bool {
        let cell = tile.cell();
        self.field(cell).empire.is_none()
            && self
                .map()
                .neighbours(cell)
                .any(|c| self.field(c).empire.is_some())
    }

    /// The action-phase turn, if the action phase is on.
    pub fn turn(&self) -> Option<&Turn> {
        match &self.phase {
            Phase::Actions { turn, .. } => Some(turn),
            _ => None,
        }
    }

    pub fn turn_mut(&mut self) -> Option<&mut Turn> {
        match &mut self.phase {
            Phase::Actions { turn, .. } => Some(turn),
            _ => None,
        }
    }

    /// Players in the game holding no landscape tile (TR-END-1, TR-AK-3).
    pub fn someone_without_tiles(&self) -> bool {
        self.players.iter().any(|p| p.tiles.is_empty())
    }
}
