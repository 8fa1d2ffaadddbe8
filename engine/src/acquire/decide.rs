//! Deciding an action: every check, then the events it causes, chance included.
//!
//! The only chance in Acquire is the pile's order, shuffled once at setup (AQ-SETUP-1); every
//! later draw takes the top tile, so `decide` needs no RNG after setup.
//!
//! Follow-up events (a founding, a merger's automatic steps, bonuses, the draw at the end of a
//! turn, the next turn) are computed on a scratch copy of the state that folds each event as it
//! is emitted, so each step sees exactly the state the log will produce.

use super::action::Action;
use super::config::Config;
use super::data::{board, Chain, Tile};
use super::event::{EndReason, Event, Payout};
use super::rules::{self, Kind};
use super::state::{Cell, ChainSize, Stage, State};
use crate::chance::{shuffle, Chance};
use crate::{Outcome, RuleError, Seat};

/// The setup events: shuffle, start tiles, start player, hands, first turn (AQ-SETUP-1..4).
pub fn setup(
    config: &Config,
    seats: usize,
    chance: &mut dyn Chance,
) -> Result<Vec<Event>, RuleError> {
    let mut s = Scratch::new(&State::empty());
    s.emit(Event::GameStarted {
        players: seats as u8,
        config: config.clone(),
    });
    let mut order: Vec<Tile> = Tile::all().collect();
    shuffle(chance, &mut order);
    s.emit(Event::TilesShuffled {
        tiles: order.len() as u8,
        order: Some(order),
    });
    let c = &board().constants;
    let mut start: Option<(Tile, Seat)> = None;
    for seat in s.state.seats().collect::<Vec<_>>() {
        for _ in 0..c.start_tiles_per_player {
            let Some(&tile) = s.state.bag.last() else {
                break;
            };
            s.emit(Event::StartTilePlaced { seat, tile });
            // AQ-SETUP-3: lowest column number, then the letter closest to A = lowest index.
            if start.is_none_or(|(best, _)| tile < best) {
                start = Some((tile, seat));
            }
        }
    }
    let first = start.map_or(Seat(0), |(_, seat)| seat);
    let mut seat = first;
    for _ in 0..seats {
        for _ in 0..c.hand_size {
            s.draw(seat);
        }
        seat = s.state.next_seat(seat);
    }
    s.start_turn(first);
    Ok(s.events)
}

/// The events `action` of `seat` causes, or why the rules refuse it. `_chance` goes unused: every
/// draw takes the top of the pile shuffled at setup.
pub fn decide(
    state: &State,
    seat: Seat,
    action: &Action,
    _chance: &mut dyn Chance,
) -> Result<Vec<Event>, RuleError> {
    let Stage::Turn(turn) = &state.stage else {
        return Err(RuleError::game_over());
    };
    if rules::actor(state) != Some(seat) {
        return Err(RuleError::not_your_turn(seat));
    }
    let mut s = Scratch::new(state);
    match action {
        &Action::PlaceTile { tile, chain } => {
            let kind = rules::check_place(state, turn, tile, chain)?;
            s.emit(Event::TilePlaced { seat, tile });
            match kind {
                Kind::Lone => {}
                Kind::Found => {
                    let chain = chain.expect("check_place demands a name for a founding");
                    let tiles = s.group(tile);
                    let free_share =
                        s.state.chain(chain).bank_shares >= board().constants.founder_bonus_shares;
                    s.emit(Event::ChainFounded {
                        seat,
                        chain,
                        tiles,
                        free_share,
                    });
                }
                Kind::Grow(chain) => {
                    let tiles = s.group(tile);
                    s.emit(Event::ChainGrew { chain, tiles });
                }
                Kind::Merge => {
                    s.start_merger(tile);
                    s.advance_merger();
                }
            }
        }
        &Action::ChooseSurvivor { chain } => {
            rules::check_survivor(state, turn, chain)?;
            s.emit(Event::SurvivorChosen { chain });
            s.advance_merger();
        }
        Action::OrderDefuncts { order } => {
            let order = rules::check_order(state, turn, order)?;
            s.emit(Event::DefunctsOrdered { order });
            s.advance_merger();
        }
        &Action::DisposeShares { sell, trade } => {
            rules::check_dispose(state, turn, sell, trade)?;
            let m = state
                .merger
                .as_ref()
                .expect("checked: a merger is settling");
            let defunct = m.defuncts[0];
            let survivor = m.survivor.expect("checked: the survivor is known");
            let held = state.player(seat).shares[defunct.chain.index()];
            let price = board().price(defunct.chain, defunct.size);
            s.emit(Event::SharesDisposed {
                seat,
                chain: defunct.chain,
                survivor,
                sold: sell,
                traded: trade,
                kept: held - sell - trade,
                price,
                proceeds: i32::from(sell) * price,
            });
            s.advance_merger();
        }
        Action::AnnounceEnd => {
            rules::check_announce(state, turn)?;
            s.emit(Event::EndAnnounced { seat });
        }
        &Action::BuyShare { chain } => {
            let price = rules::check_buy(state, turn, chain)?;
            s.emit(Event::ShareBought { seat, chain, price });
        }
        Action::EndTurn => {
            rules::check_end_turn(turn)?;
            s.end_turn();
        }
    }
    Ok(s.events)
}

type Scratch = crate::scratch::Scratch<super::Acquire>;

impl Scratch {
    /// Draw the top tile into `seat`'s hand, if the pile has one (AQ-DRAW-2).
    fn draw(&mut self, seat: Seat) -> bool {
        match self.state.bag.last() {
            Some(&tile) => {
                self.emit(Event::TileDrawn {
                    seat,
                    tile: Some(tile),
                });
                true
            }
            None => false,
        }
    }

    /// `tile` and every unincorporated tile connected to it (AQ-FOUND-1, AQ-PLACE-2).
    fn group(&self, tile: Tile) -> Vec<Tile> {
        let mut group = vec![tile];
        let mut i = 0;
        while i < group.len() {
            for n in group[i].neighbours() {
                if self.state.cell(n) == Cell::Unincorporated && !group.contains(&n) {
                    group.push(n);
                }
            }
            i += 1;
        }
        group
    }

    fn start_turn(&mut self, seat: Seat) {
        self.emit(Event::TurnStarted { seat });
        if !rules::has_playable_tile(&self.state, seat) {
            self.emit(Event::PlacementSkipped { seat }); // AQ-PLACE-4
        }
    }

    fn start_merger(&mut self, tile: Tile) {
        let maker = self.state.turn().expect("mergers happen in a turn").seat;
        let chains = rules::touch(&self.state, tile)
            .chains()
            .iter()
            .map(|&chain| ChainSize {
                chain,
                size: self.state.chain(chain).size,
            })
            .collect();
        self.emit(Event::MergerStarted {
            maker,
            tile,
            chains,
        });
    }

    /// Run the merger (and, for two players, the bank tiles after it) until a decision is
    /// needed or buying opens (AQ-MERGE-2..7, AQ-2P-2..8).
    fn advance_merger(&mut self) {
        loop {
            let Some(m) = &self.state.merger else {
                if !self.place_next_bank_tile() {
                    return;
                }
                continue;
            };
            let Some(survivor) = m.survivor else {
                let largest: Vec<Chain> = rules::largest(m).collect();
                if largest.len() > 1 {
                    return; // the maker chooses (AQ-MERGE-2)
                }
                self.emit(Event::SurvivorChosen { chain: largest[0] });
                continue;
            };
            if !m.ordered {
                let order = rules::sorted_defuncts(&self.state, m, survivor);
                if rules::order_is_open(&order) {
                    return; // the maker orders equal chains (AQ-MERGE-4)
                }
                self.emit(Event::DefunctsOrdered { order });
                continue;
            }
            if m.settling {
                if !m.disposers.is_empty() {
                    return; // a holder decides (AQ-DISP-1)
                }
                let defunct = m.defuncts[0].chain;
                let tiles = self.chain_tiles(defunct);
                self.emit(Event::ChainAbsorbed {
                    defunct,
                    survivor,
                    tiles,
                });
                continue;
            }
            if let Some(&defunct) = m.defuncts.first() {
                let maker = m.maker;
                let bank = self
                    .state
                    .two_player()
                    .then(|| self.draw_bank_tile(defunct.chain, true));
                self.pay_bonuses(defunct, bank);
                let mut holders = Vec::new();
                let mut seat = maker;
                for _ in 0..self.state.players.len() {
                    if self.state.player(seat).shares[defunct.chain.index()] > 0 {
                        holders.push(seat);
                    }
                    seat = self.state.next_seat(seat);
                }
                self.emit(Event::DisposalStarted {
                    chain: defunct.chain,
                    holders,
                });
                continue;
            }
            let tiles = self.group(m.tile);
            self.emit(Event::MergerCompleted { survivor, tiles });
        }
    }

    /// Place the first waiting bank tile (AQ-2P-5..8). False when none is waiting.
    fn place_next_bank_tile(&mut self) -> bool {
        let Some(&tile) = self.state.bank_tiles.first() else {
            return false;
        };
        match rules::playability(&self.state, tile) {
            Err(_) => self.emit(Event::BankTileSetAside { tile }),
            Ok(kind) => {
                self.emit(Event::BankTilePlaced { tile });
                match kind {
                    Kind::Lone | Kind::Found => {} // AQ-2P-7: founds nothing
                    Kind::Grow(chain) => {
                        let tiles = self.group(tile);
                        self.emit(Event::ChainGrew { chain, tiles });
                    }
                    Kind::Merge => self.start_merger(tile),
                }
            }
        }
        true
    }

    fn chain_tiles(&self, chain: Chain) -> Vec<Tile> {
        Tile::all()
            .filter(|&t| self.state.cell(t) == Cell::Chain(chain))
            .collect()
    }

    /// Two players: the bank's phantom holding from a drawn tile's column (AQ-2P-2, AQ-2P-9).
    fn draw_bank_tile(&mut self, chain: Chain, placed_later: bool) -> u8 {
        let tile = self.state.bag.last().copied();
        let holding = tile.map_or(0, Tile::column);
        self.emit(Event::BankTileDrawn {
            chain,
            tile,
            holding,
            placed_later,
        });
        holding
    }

    /// Majority and minority bonuses of `chain` at the size that counts (AQ-BONUS, AQ-2P-3).
    fn pay_bonuses(&mut self, chain: ChainSize, bank_holding: Option<u8>) {
        let Some(prices) = board().prices(chain.chain, chain.size) else {
            return;
        };
        let mut holdings: Vec<(Option<Seat>, u8)> = self
            .state
            .seats()
            .map(|s| (Some(s), self.state.player(s).shares[chain.chain.index()]))
            .collect();
        if let Some(h) = bank_holding {
            holdings.push((None, h));
        }
        let awards = rules::bonus_awards(prices, &holdings);
        let payouts = awards
            .iter()
            .filter_map(|&(seat, shares, amount)| {
                seat.map(|seat| Payout {
                    seat,
                    shares,
                    amount,
                })
            })
            .collect();
        let bank_award = awards.iter().filter(|a| a.0.is_none()).map(|a| a.2).sum();
        self.emit(Event::BonusesPaid {
            chain: chain.chain,
            size: chain.size,
            payouts,
            bank_holding,
            bank_award,
        });
    }

    /// AQ-DRAW-1, AQ-DEAD-1, AQ-END-5, then the next turn or the final scoring.
    fn end_turn(&mut self) {
        let turn = *self.state.turn().expect("end_turn in a turn");
        let seat = turn.seat;
        if turn.announced {
            self.final_scoring(EndReason::Announced); // AQ-END-3: no draw
            return;
        }
        if turn.placed {
            while self.state.player(seat).hand.len() < board().constants.hand_size {
                if !self.draw(seat) {
                    break;
                }
            }
        }
        let dead: Vec<Tile> = self
            .state
            .player(seat)
            .hand
            .iter()
            .copied()
            .filter(|&t| rules::is_dead(&self.state, t))
            .collect();
        for &tile in &dead {
            self.emit(Event::DeadTileRemoved { seat, tile });
        }
        for _ in &dead {
            if !self.draw(seat) {
                break;
            }
        }
        self.emit(Event::TurnEnded { seat });
        if usize::from(self.state.idle_turns) >= self.state.players.len() {
            self.final_scoring(EndReason::Stalled);
        } else {
            let next = self.state.next_seat(seat);
            self.start_turn(next);
        }
    }

    /// AQ-END-4, AQ-2P-9: bonuses of every active chain, all shares sold, most cash wins.
    fn final_scoring(&mut self, reason: EndReason) {
        self.emit(Event::FinalScoringStarted { reason });
        let active: Vec<ChainSize> = self
            .state
            .active_chains()
            .map(|chain| ChainSize {
                chain,
                size: self.state.chain(chain).size,
            })
            .collect();
        let bank: Vec<Option<u8>> = active
            .iter()
            .map(|c| {
                self.state
                    .two_player()
                    .then(|| self.draw_bank_tile(c.chain, false))
            })
            .collect();
        for (c, bank) in active.iter().zip(bank) {
            self.pay_bonuses(*c, bank);
        }
        for seat in self.state.seats().collect::<Vec<_>>() {
            for c in &active {
                let count = self.state.player(seat).shares[c.chain.index()];
                if count > 0 {
                    let price = board().price(c.chain, c.size);
                    self.emit(Event::SharesSold {
                        seat,
                        chain: c.chain,
                        count,
                        price,
                        proceeds: i32::from(count) * price,
                    });
                }
            }
        }
        let outcome = Outcome::highest_wins(
            self.state
                .players
                .iter()
                .map(|p| i64::from(p.cash))
                .collect(),
        );
        self.emit(Event::GameEnded { outcome });
    }
}
