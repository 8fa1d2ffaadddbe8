//! Folding one event into the state: no checks, no choices, no chance. `decide` has already
//! validated everything, so each arm only records what the event says.

use super::cards::Cards;
use super::config::ReshuffleRule;
use super::data::{board, Cell, Tile};
use super::event::Event;
use super::state::{
    ActionCard, ActionCards, CardStatus, Fight, Phase, Pirate, Player, Ship, State, Turn,
};
use crate::Seat;

pub fn evolve(state: &mut State, event: &Event) {
    match event {
        Event::GameStarted { players, config } => start(state, *players, config),
        Event::TilePileShuffled { order, .. } => {
            if let Some(order) = order {
                state.tile_pile = order.clone();
            }
        }
        Event::EmpireFounded {
            empire,
            field,
            set_aside,
        } => {
            let tile = field.tile().expect("empires are founded on fields");
            // Set-aside tiles wait at the bottom until the pile is shuffled (TR-SETUP-2).
            state
                .tile_pile
                .retain(|t| *t != tile && !set_aside.contains(t));
            state.tile_pile.splice(0..0, set_aside.iter().copied());
            state.field_mut(*field).empire = Some(*empire);
            state.used_tiles.push(tile);
        }
        Event::TilesDealt { seat, count, .. } => {
            for _ in 0..*count {
                if let Some(t) = state.tile_pile.pop() {
                    state.player_mut(*seat).tiles.push(t);
                }
            }
        }
        Event::DrawPileShuffled { order, .. } => {
            if let Some(order) = order {
                state.draw_pile = order.clone();
            }
        }
        Event::StartPlayerChosen { seat } => state.start_player = *seat,
        Event::RoundStarted {
            round,
            start_player,
        } => {
            state.round = *round;
            state.start_player = *start_player;
            for p in &mut state.players {
                p.bank_trades = 0;
            }
            state.keep = vec![None; state.players.len()];
        }
        Event::CardsDrawn { seat, count, .. } => {
            let mut drawn = Cards::NONE;
            for _ in 0..*count {
                if let Some(c) = state.draw_pile.pop() {
                    *drawn.get_mut(c) += 1;
                }
            }
            let hand = &mut state.player_mut(*seat).cards;
            *hand = hand.plus(&drawn);
        }
        Event::DrawPileRebuilt { rule, order, .. } => {
            let discards = std::mem::take(&mut state.discard_pile);
            match (rule, order) {
                (ReshuffleRule::Shuffle, Some(order)) => state.draw_pile = order.clone(),
                _ => {
                    // TR-EOR-2 flip_under: the first card discarded ends up nearest the top.
                    let mut pile: Vec<_> = discards.into_iter().rev().collect();
                    pile.append(&mut state.draw_pile);
                    state.draw_pile = pile;
                }
            }
        }
        Event::ExpansionStarted => {
            state.phase = Phase::Expansion {
                step: 0,
                placed: false,
                drew: false,
            }
        }
        Event::TilePlaced { seat, tile, empire } => {
            state.player_mut(*seat).tiles.retain(|t| t != tile);
            state.field_mut(tile.cell()).empire = Some(*empire);
            state.used_tiles.push(*tile);
            if let Phase::Expansion { step, placed, .. } = &mut state.phase {
                *step += 1;
                *placed = true;
            }
        }
        Event::TileDrawn { seat, .. } => {
            if let Some(t) = state.tile_pile.pop() {
                state.player_mut(*seat).tiles.push(t);
            }
            if let Phase::Expansion { drew, .. } = &mut state.phase {
                *drew = true;
            }
        }
        Event::PlacementSkipped { .. } => {
            if let Phase::Expansion { step, .. } = &mut state.phase {
                *step += 1;
            }
        }
        Event::TilesSwapped {
            seat,
            returned,
            drawn,
        } => {
            if let (Some(returned), Some(drawn)) = (returned, drawn) {
                let hand = &mut state.player_mut(*seat).tiles;
                hand.retain(|t| t != returned);
                hand.push(*drawn);
                state.tile_pile.retain(|t| t != drawn);
                state.tile_pile.push(*returned);
            }
        }
        Event::TileSwapSkipped { .. } | Event::NoProgressDraws | Event::NoPirate => {}
        Event::LastRoundReached { .. } => state.last_round = true,
        Event::PiratePhaseStarted => state.phase = Phase::Pirates,
        Event::PirateAppeared {
            field,
            sinks_at_turn_start,
        } => {
            let tile = field.tile().expect("pirates sit on fields");
            state.used_tiles.retain(|t| *t != tile);
            state.field_mut(*field).pirate = Some(Pirate {
                sinks_at_turn_start: *sinks_at_turn_start,
            });
        }
        Event::PirateSunk { field, points } => {
            state.field_mut(*field).pirate = None;
            state.used_tiles.push(Tile(field.0));
            for p in points {
                state.player_mut(p.seat).pirate_points += p.points;
            }
        }
        Event::ActionPhaseStarted => {
            state.phase = Phase::Actions {
                turn: fresh_turn(state.start_player),
                passes: 0,
            }
        }
        Event::TurnStarted { number, .. } => {
            state.turn_number = *number;
            if let Some(turn) = state.turn_mut() {
                turn.started = true;
            }
        }
        Event::DuesOwed { dues } => state.dues.extend_from_slice(dues),
        Event::DuePaid {
            seat, cards, to, ..
        } => {
            if !state.dues.is_empty() {
                state.dues.remove(0);
            }
            give(state, *seat, cards, *to);
        }
        Event::ShipMoved {
            ship,
            path,
            fight_with,
            ..
        }
        | Event::ExplorerSailed {
            ship,
            path,
            fight_with,
            ..
        } => {
            let now = state.turn_number;
            let s = state.ship_mut(*ship);
            s.at = path.last().copied();
            s.arrived = now;
            if matches!(event, Event::ExplorerSailed { .. }) {
                s.explorer = true;
            }
            if let Some(defender) = fight_with {
                state.pending_fight = Some((*ship, *defender));
            }
            acted(state);
        }
        Event::CityFounded { seat, field, ship } => {
            state.field_mut(*field).city = Some(*seat);
            state.player_mut(*seat).cities_left -= 1;
            to_supply(state.ship_mut(*ship));
            acted(state);
        }
        Event::BonusEarned { seat, points } => {
            state.bonus_taken = true;
            state.player_mut(*seat).bonus = *points;
        }
        Event::ShipBuilt {
            ship, at, galley, ..
        } => {
            let now = state.turn_number;
            let s = state.ship_mut(*ship);
            s.at = Some(*at);
            s.galley = *galley;
            s.arrived = now;
            acted(state);
        }
        Event::BankTraded { seat, .. } => {
            // Only "any this round" matters (TR-K1a); a player may trade with the bank once a
            // turn for as many turns as the round lasts, so the count must not overflow.
            let p = state.player_mut(*seat);
            p.bank_trades = p.bank_trades.saturating_add(1);
            acted(state);
        }
        Event::CardsDiscarded { seat, cards, .. } => give(state, *seat, cards, None),
        Event::CardTakenFromPile { seat, card } => {
            if let Some(i) = state.draw_pile.iter().rposition(|c| c == card) {
                state.draw_pile.remove(i);
            }
            *state.player_mut(*seat).cards.get_mut(*card) += 1;
        }
        Event::PileSearchFailed { .. } => {}
        Event::TradeOffered {
            from,
            to,
            give,
            get,
        } => {
            state.offer = Some(super::state::Offer {
                from: *from,
                to: *to,
                give: *give,
                get: *get,
            })
        }
        Event::TradeAccepted {
            from,
            to,
            give: gives,
            get,
        } => {
            state.offer = None;
            give(state, *from, gives, Some(*to));
            give(state, *to, get, Some(*from));
            if state.config.player_trade_free {
                if let Some(turn) = state.turn_mut() {
                    turn.traded = true;
                }
            } else {
                acted(state);
            }
        }
        Event::TradeRejected { .. } | Event::TradeWithdrawn { .. } => state.offer = None,
        Event::ActionCardPlayed { seat, card } => {
            *state.player_mut(*seat).action_cards.get_mut(*card) = match card {
                ActionCard::BlockadeBreaker => CardStatus::Used,
                _ => CardStatus::Laid,
            };
            acted(state);
        }
        Event::ActionCardUsed { seat, card } | Event::ActionCardLost { seat, card } => {
            *state.player_mut(*seat).action_cards.get_mut(*card) = CardStatus::Used;
        }
        Event::ShipRelocated { ship, to, .. } => {
            let now = state.turn_number;
            let s = state.ship_mut(*ship);
            s.at = Some(*to);
            s.arrived = now;
        }
        Event::ShipSunk { ship, .. } => {
            to_supply(state.ship_mut(*ship));
            acted(state);
        }
        Event::FightStarted {
            field,
            attacker,
            defender,
        } => {
            state.pending_fight = None;
            state.fight = Some(Fight {
                field: *field,
                attacker: *attacker,
                defender: *defender,
                attacker_cards: None,
                defender_cards: None,
                revealed: false,
                winner: None,
                choices: Vec::new(),
            });
        }
        Event::FightCardsLaid { seat, cards, .. } => {
            let cards = cards.unwrap_or_default();
            let hand = &mut state.player_mut(*seat).cards;
            *hand = hand.minus(&cards);
            let attacker = state.fight.as_ref().map(|f| state.ship(f.attacker).owner);
            if let Some(f) = &mut state.fight {
                if attacker == Some(*seat) {
                    f.attacker_cards = Some(cards);
                } else {
                    f.defender_cards = Some(cards);
                }
            }
        }
        Event::FightRevealed {
            winner, choices, ..
        } => {
            if let Some(f) = &mut state.fight {
                f.revealed = true;
                f.winner = *winner;
                f.choices = choices.clone();
            }
        }
        Event::FightResolved {
            winner,
            discarded,
            sunk,
        } => resolve_fight(state, *winner, discarded, *sunk),
        Event::Passed { .. } => {}
        Event::TurnEnded { seat, passed } => {
            let next = state.next_seat(*seat);
            if let Phase::Actions { turn, passes } = &mut state.phase {
                *passes = if *passed { *passes + 1 } else { 0 };
                *turn = fresh_turn(next);
            }
        }
        Event::ActionPhaseEnded => state.phase = Phase::RoundEnd,
        Event::KeepChosen { seat, cards } => state.keep[seat.index()] = *cards,
        Event::GameEnded { outcome, scores } => {
            state.phase = Phase::Finished;
            state.final_scores = Some(scores.clone());
            state.outcome = Some(outcome.clone());
        }
    }
}

fn start(state: &mut State, players: u8, config: &super::config::Config) {
    let b = board();
    let n = usize::from(players);
    *state = State::empty();
    state.config = config.clone();
    let cards = if config.action_cards {
        CardStatus::Available
    } else {
        CardStatus::Used
    };
    state.players = (0..n)
        .map(|_| Player {
            tiles: Vec::new(),
            cards: Cards::NONE,
            cities_left: config.cities_per_player,
            action_cards: ActionCards {
                favourable_wind: cards,
                blockade_breaker: cards,
                explorer: cards,
            },
            pirate_points: 0,
            bonus: 0,
            bank_trades: 0,
        })
        .collect();
    let ships = config.ships_per_player(n);
    let in_tyros = b.constants.ships_in_tyros_at_start;
    for seat in 0..players {
        for i in 0..ships {
            state.ships.push(Ship {
                owner: Seat(seat),
                at: (i < in_tyros).then_some(Cell::TYROS),
                galley: false,
                explorer: false,
                arrived: 0,
            });
        }
    }
    state.keep = vec![None; n];
}

fn fresh_turn(seat: Seat) -> Turn {
    Turn {
        seat,
        started: false,
        acted: false,
        traded: false,
    }
}

/// The turn's one action was taken (TR-ACT-0).
fn acted(state: &mut State) {
    if let Some(turn) = state.turn_mut() {
        turn.acted = true;
    }
}

fn to_supply(ship: &mut Ship) {
    ship.at = None;
    ship.galley = false;
    ship.explorer = false;
}

/// Cards leave `from`'s hand for `to`'s hand, or face up onto the discard pile.
fn give(state: &mut State, from: Seat, cards: &Cards, to: Option<Seat>) {
    let hand = &mut state.player_mut(from).cards;
    *hand = hand.minus(cards);
    match to {
        Some(to) => {
            let hand = &mut state.player_mut(to).cards;
            *hand = hand.plus(cards);
        }
        None => state.discard_pile.extend(cards.to_list()),
    }
}

/// TR-GAL-5: the winner discards its group and takes the rest back; the loser's ship and token
/// go to its supply and it takes its cards back; on a tie both ships lose galley status.
fn resolve_fight(
    state: &mut State,
    winner: Option<Seat>,
    discarded: &Cards,
    sunk: Option<super::state::ShipId>,
) {
    let Some(f) = state.fight.take() else { return };
    let sides = [
        (f.attacker, f.attacker_cards.unwrap_or_default()),
        (f.defender, f.defender_cards.unwrap_or_default()),
    ];
    for (ship, laid) in sides {
        let owner = state.ship(ship).owner;
        let back = if Some(owner) == winner {
            state.discard_pile.extend(discarded.to_list());
            laid.minus(discarded)
        } else {
            laid
        };
        let hand = &mut state.player_mut(owner).cards;
        *hand = hand.plus(&back);
        if winner.is_none() {
            state.ship_mut(ship).galley = false;
        }
    }
    if let Some(ship) = sunk {
        to_supply(state.ship_mut(ship));
    }
}
