//! Folding one event into the state: no checks, no choices, no chance. `decide` has already
//! validated everything, so each arm only records what the event says.

use super::data::{board, Tile, CHAIN_COUNT};
use super::event::Event;
use super::state::{Cell, ChainState, Merger, Player, Stage, State, Step, Turn};

pub fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::GameStarted { players, config } => {
            let b = board();
            let c = &b.constants;
            state.config = config.clone();
            state.players = (0..*players)
                .map(|_| Player {
                    cash: c.start_cash,
                    shares: [0; CHAIN_COUNT],
                    hand: Vec::with_capacity(c.hand_size),
                })
                .collect();
            state.cells = vec![Cell::Empty; b.tile_count];
            state.chains = [ChainState {
                size: 0,
                bank_shares: c.shares_per_chain,
            }; CHAIN_COUNT];
        }
        Event::TilesShuffled { order, .. } => {
            state.bag = order.clone().unwrap_or_default();
        }
        Event::StartTilePlaced { tile, .. } => {
            take_from_bag(state, *tile);
            state.cells[tile.index()] = Cell::Unincorporated;
        }
        Event::TileDrawn { seat, tile } => {
            if let Some(tile) = tile {
                take_from_bag(state, *tile);
                state.player_mut(*seat).hand.push(*tile);
            }
            if let Some(turn) = state.turn_mut() {
                turn.drew = true;
            }
        }
        Event::TurnStarted { seat } => {
            state.stage = Stage::Turn(Turn {
                seat: *seat,
                step: Step::Place,
                placed: false,
                bought: 0,
                announced: false,
                drew: false,
            });
        }
        Event::PlacementSkipped { .. } => set_step(state, Step::Buy),
        Event::TilePlaced { seat, tile } => {
            let hand = &mut state.player_mut(*seat).hand;
            if let Some(i) = hand.iter().position(|t| t == tile) {
                hand.remove(i);
            }
            state.cells[tile.index()] = Cell::Unincorporated;
            if let Some(turn) = state.turn_mut() {
                turn.placed = true;
                turn.step = Step::Buy;
            }
        }
        Event::ChainFounded {
            seat,
            chain,
            tiles,
            free_share,
        } => {
            join(state, *chain, tiles);
            if *free_share {
                let shares = board().constants.founder_bonus_shares;
                state.chain_mut(*chain).bank_shares -= shares;
                state.player_mut(*seat).shares[chain.index()] += shares;
            }
        }
        Event::ChainGrew { chain, tiles } => join(state, *chain, tiles),
        Event::MergerStarted {
            maker,
            tile,
            chains,
        } => {
            state.merger = Some(Merger {
                maker: *maker,
                tile: *tile,
                chains: chains.clone(),
                survivor: None,
                ordered: false,
                defuncts: Vec::new(),
                settling: false,
                disposers: Vec::new(),
            });
            set_step(state, Step::Merger);
        }
        Event::SurvivorChosen { chain } => {
            if let Some(m) = &mut state.merger {
                m.survivor = Some(*chain);
            }
        }
        Event::DefunctsOrdered { order } => {
            if let Some(m) = &mut state.merger {
                m.defuncts = order.clone();
                m.ordered = true;
            }
        }
        Event::BankTileDrawn {
            tile, placed_later, ..
        } => {
            if let Some(tile) = tile {
                take_from_bag(state, *tile);
                if *placed_later {
                    state.bank_tiles.push(*tile);
                } else {
                    state.removed.push(*tile);
                }
            }
        }
        Event::BonusesPaid { payouts, .. } => {
            for p in payouts {
                state.player_mut(p.seat).cash += p.amount;
            }
        }
        Event::DisposalStarted { holders, .. } => {
            if let Some(m) = &mut state.merger {
                m.settling = true;
                m.disposers = holders.clone();
            }
        }
        Event::SharesDisposed {
            seat,
            chain,
            survivor,
            sold,
            traded,
            proceeds,
            ..
        } => {
            let ratio = &board().constants.trade_ratio;
            let gained = traded / ratio.give_defunct * ratio.get_survivor;
            let player = state.player_mut(*seat);
            player.cash += proceeds;
            player.shares[chain.index()] -= sold + traded;
            player.shares[survivor.index()] += gained;
            state.chain_mut(*chain).bank_shares += sold + traded;
            state.chain_mut(*survivor).bank_shares -= gained;
            if let Some(m) = &mut state.merger {
                if let Some(i) = m.disposers.iter().position(|s| s == seat) {
                    m.disposers.remove(i);
                }
            }
        }
        Event::ChainAbsorbed {
            defunct,
            survivor,
            tiles,
        } => {
            state.chain_mut(*defunct).size = 0;
            join(state, *survivor, tiles);
            if let Some(m) = &mut state.merger {
                if let Some(i) = m.defuncts.iter().position(|c| c.chain == *defunct) {
                    m.defuncts.remove(i);
                }
                m.settling = false;
                m.disposers.clear();
            }
        }
        Event::MergerCompleted { survivor, tiles } => {
            join(state, *survivor, tiles);
            state.merger = None;
            set_step(state, Step::Buy);
        }
        Event::BankTilePlaced { tile } => {
            state.bank_tiles.retain(|t| t != tile);
            state.cells[tile.index()] = Cell::Unincorporated;
        }
        Event::BankTileSetAside { tile } => {
            state.bank_tiles.retain(|t| t != tile);
            state.removed.push(*tile);
        }
        Event::EndAnnounced { .. } => {
            if let Some(turn) = state.turn_mut() {
                turn.announced = true;
            }
        }
        Event::ShareBought { seat, chain, price } => {
            let player = state.player_mut(*seat);
            player.cash -= price;
            player.shares[chain.index()] += 1;
            state.chain_mut(*chain).bank_shares -= 1;
            if let Some(turn) = state.turn_mut() {
                turn.bought += 1;
            }
        }
        Event::DeadTileRemoved { seat, tile } => {
            state.player_mut(*seat).hand.retain(|t| t != tile);
            state.removed.push(*tile);
        }
        Event::TurnEnded { .. } => {
            if let Some(turn) = state.turn() {
                state.idle_turns = if turn.placed || turn.drew {
                    0
                } else {
                    state.idle_turns.saturating_add(1)
                };
            }
        }
        Event::FinalScoringStarted { .. } => {}
        Event::SharesSold {
            seat,
            chain,
            count,
            proceeds,
            ..
        } => {
            let player = state.player_mut(*seat);
            player.cash += proceeds;
            player.shares[chain.index()] -= count;
            state.chain_mut(*chain).bank_shares += count;
        }
        Event::GameEnded { outcome } => {
            state.stage = Stage::Finished;
            state.outcome = Some(outcome.clone());
        }
    }
}

fn set_step(state: &mut State, step: Step) {
    if let Some(turn) = state.turn_mut() {
        turn.step = step;
    }
}

/// The top of the pile is the last tile; search from there.
fn take_from_bag(state: &mut State, tile: Tile) {
    if let Some(i) = state.bag.iter().rposition(|t| *t == tile) {
        state.bag.remove(i);
    }
}

/// Mark tiles as part of `chain` and count them in (only tiles not already in it).
fn join(state: &mut State, chain: super::data::Chain, tiles: &[Tile]) {
    for tile in tiles {
        if state.cells[tile.index()] != Cell::Chain(chain) {
            state.cells[tile.index()] = Cell::Chain(chain);
            state.chains[chain.index()].size += 1;
        }
    }
}
