//! Setting up and deciding an action: every check (in `rules` and its family files), then the
//! events it causes, then whatever the rules do by themselves until the next decision (`flow`).

use super::action::Action;
use super::action_cards;
use super::building;
use super::cards::{Card, Cards, Empire};
use super::config::{Config, FailedPileSearch};
use super::data::{Cell, Tile};
use super::errors as e;
use super::event::{BankForm, DiscardReason, Event};
use super::flow::Scratch;
use super::legal;
use super::moves;
use super::moves::MovePlan;
use super::payment;
use super::rules::{self, Awaiting};
use super::scoring;
use super::state::{ActionCard, ShipId, State};
use super::trade;
use crate::chance::{shuffle, Chance};
use crate::{RuleError, Seat};

/// The setup events (TR-SETUP-1..5) up to the first decision of round 1.
///
/// # Errors
/// `invalid_config` when the configuration contradicts itself or the seat count.
pub fn setup(
    config: &Config,
    seats: usize,
    chance: &mut dyn Chance,
) -> Result<Vec<Event>, RuleError> {
    config.validate(seats)?;
    let mut s = Scratch::new(&State::empty());
    s.emit(Event::GameStarted {
        players: seats as u8,
        config: config.clone(),
    });
    let mut order: Vec<Tile> = Tile::all().collect();
    shuffle(chance, &mut order);
    s.emit(Event::TilePileShuffled {
        tiles: order.len() as u8,
        order: Some(order),
    });
    s.found_empires();
    s.shuffle_tiles(chance);
    for seat in s.state.seats().collect::<Vec<_>>() {
        let n = usize::from(config.tiles_in_hand).min(s.state.tile_pile.len());
        let tiles: Vec<Tile> = s.state.tile_pile.iter().rev().take(n).copied().collect();
        s.emit(Event::TilesDealt {
            seat,
            count: n as u8,
            tiles: Some(tiles),
        });
    }
    let mut cards: Vec<Card> = config.trade_card_split.to_list();
    shuffle(chance, &mut cards);
    s.emit(Event::DrawPileShuffled {
        cards: cards.len() as u8,
        order: Some(cards),
    });
    let start = Seat(chance.below(seats) as u8);
    s.emit(Event::StartPlayerChosen { seat: start });
    s.start_round(start, chance);
    s.advance(chance);
    Ok(s.events)
}

pub fn decide(
    state: &State,
    seat: Seat,
    action: &Action,
    chance: &mut dyn Chance,
) -> Result<Vec<Event>, RuleError> {
    if state.outcome.is_some() {
        return Err(RuleError::game_over());
    }
    if seat.index() >= state.players.len() {
        return Err(RuleError::not_your_turn(seat));
    }
    let mut s = act(state, seat, action, chance)?;
    s.advance(chance);
    Ok(s.events)
}

/// Checks `action` on `state` (a refusal copies nothing), then emits its own events on a
/// scratch copy.
fn act(
    state: &State,
    seat: Seat,
    action: &Action,
    chance: &mut dyn Chance,
) -> Result<Scratch, RuleError> {
    let s = match action {
        &Action::PlaceTile { tile, empire } => place_tile(state, seat, tile, empire)?,
        Action::Move {
            ship,
            to,
            path,
            wind,
            cost,
        } => {
            let plan = moves::check_move(state, seat, *ship, *to, path.as_deref(), *wind)?;
            check_cost(&plan, *cost)?;
            let mut s = Scratch::new(state);
            s.emit(Event::ShipMoved {
                seat,
                ship: *ship,
                from: plan.from,
                path: plan.path.clone(),
                wind: *wind,
                fight_with: plan.fight_with,
            });
            if *wind {
                s.emit(Event::ActionCardUsed {
                    seat,
                    card: ActionCard::FavourableWind,
                });
            }
            arrive(&mut s, *ship, *to, plan);
            s
        }
        Action::ExplorerVoyage {
            ship,
            to,
            path,
            cost,
        } => {
            let plan = moves::check_voyage(state, seat, *ship, *to, path.as_deref())?;
            check_cost(&plan, *cost)?;
            let mut s = Scratch::new(state);
            s.emit(Event::ExplorerSailed {
                seat,
                ship: *ship,
                from: plan.from,
                path: plan.path.clone(),
                fight_with: plan.fight_with,
            });
            s.emit(Event::ActionCardUsed {
                seat,
                card: ActionCard::Explorer,
            });
            arrive(&mut s, *ship, *to, plan);
            s
        }
        &Action::FoundCity { ship } => {
            let (field, dues) = building::check_city::<RuleError>(state, seat, ship)?;
            let mut s = Scratch::new(state);
            s.emit(Event::CityFounded { seat, field, ship });
            s.emit(Event::DuesOwed { dues });
            if !s.state.bonus_taken && scoring::city_in_every_empire(&s.state, seat) {
                s.emit(Event::BonusEarned {
                    seat,
                    points: state.config.bonus_city_in_all_empires,
                });
            }
            s
        }
        &Action::BuildShip { at, galley } => {
            let (ship, dues) = building::check_build::<RuleError>(state, seat, at, galley)?;
            let mut s = Scratch::new(state);
            s.emit(Event::ShipBuilt {
                seat,
                ship,
                at,
                galley,
            });
            s.emit(Event::DuesOwed { dues });
            sink_if_two(&mut s, at);
            s
        }
        Action::BankSwap { cards } => {
            trade::check_bank_swap(state, seat, cards)?;
            let mut s = Scratch::new(state);
            s.emit(Event::BankTraded {
                seat,
                form: BankForm::Swap,
            });
            s.emit(Event::CardsDiscarded {
                seat,
                cards: *cards,
                reason: DiscardReason::BankTrade,
            });
            s.draw_cards(seat, cards.total() as u8, chance);
            s
        }
        &Action::BankPick { colour, cards } => {
            trade::check_bank_pick(state, seat, &cards)?;
            let mut s = Scratch::new(state);
            bank_pick(&mut s, seat, colour, cards, chance);
            s
        }
        &Action::OfferTrade { to, give, get } => {
            trade::check_offer(state, seat, to, &give, &get, legal::has_action)?;
            let mut s = Scratch::new(state);
            s.emit(Event::TradeOffered {
                from: seat,
                to,
                give,
                get,
            });
            s
        }
        Action::AcceptTrade | Action::RejectTrade => {
            let offer = state.offer.ok_or_else(no_offer)?;
            if offer.to != seat {
                return Err(RuleError::not_your_turn(seat));
            }
            if *action == Action::AcceptTrade {
                rules::check_in_hand(state, seat, &offer.get, "TR-ACT-E")?;
            }
            let mut s = Scratch::new(state);
            if *action == Action::AcceptTrade {
                s.emit(Event::TradeAccepted {
                    from: offer.from,
                    to: offer.to,
                    give: offer.give,
                    get: offer.get,
                });
            } else {
                s.emit(Event::TradeRejected {
                    from: offer.from,
                    to: offer.to,
                });
            }
            s
        }
        Action::WithdrawTrade => {
            let offer = state.offer.ok_or_else(no_offer)?;
            if offer.from != seat {
                return Err(RuleError::new(
                    e::NO_OFFER,
                    "TR-ACT-E",
                    "only the offerer withdraws an offer",
                ));
            }
            let mut s = Scratch::new(state);
            s.emit(Event::TradeWithdrawn {
                from: offer.from,
                to: offer.to,
            });
            s
        }
        Action::PlayFavourableWind | Action::PlayExplorer => {
            let card = if *action == Action::PlayExplorer {
                ActionCard::Explorer
            } else {
                ActionCard::FavourableWind
            };
            action_cards::check_action_card::<RuleError>(state, seat, card)?;
            let mut s = Scratch::new(state);
            s.emit(Event::ActionCardPlayed { seat, card });
            s
        }
        &Action::PlayBlockadeBreaker { ship, to } => {
            let from = action_cards::check_blockade::<RuleError>(state, seat, ship, to)?;
            let mut s = Scratch::new(state);
            s.emit(Event::ActionCardPlayed {
                seat,
                card: ActionCard::BlockadeBreaker,
            });
            s.emit(Event::ShipRelocated {
                seat,
                ship,
                from,
                to,
            });
            sink_if_two(&mut s, to);
            s
        }
        &Action::SinkShip { galley, target } => {
            action_cards::check_sink::<RuleError>(state, seat, galley, target)?;
            let mut s = Scratch::new(state);
            s.emit(Event::ShipSunk {
                seat,
                galley,
                ship: target,
            });
            s
        }
        Action::Pass => {
            check_pass(state, seat)?;
            let mut s = Scratch::new(state);
            s.emit(Event::Passed { seat });
            s.emit(Event::TurnEnded { seat, passed: true });
            s
        }
        Action::EndTurn => {
            let turn = rules::turn_of::<RuleError>(state, seat)?;
            if !state.config.player_trade_free || !turn.acted || turn.traded {
                return Err(RuleError::new(
                    e::CANNOT_END_TURN,
                    "TR-K1",
                    "end_turn closes a turn after its action when player_trade_free is on",
                ));
            }
            let mut s = Scratch::new(state);
            s.emit(Event::TurnEnded {
                seat,
                passed: false,
            });
            s
        }
        Action::Pay { cards } => pay(state, seat, cards)?,
        Action::LayFightCards { cards } => lay_fight_cards(state, seat, cards)?,
        Action::ChooseFightDiscard { cards } => {
            let Awaiting::FightChoice(winner) = rules::awaiting(state) else {
                return Err(no_fight_decision());
            };
            if winner != seat {
                return Err(RuleError::not_your_turn(seat));
            }
            let f = state.fight.as_ref().expect("a fight is on");
            if !f.choices.contains(cards) {
                return Err(RuleError::new(
                    e::INVALID_FIGHT_CARDS,
                    "TR-GAL-5",
                    "name one of your largest groups of identical cards",
                ));
            }
            let mut s = Scratch::new(state);
            s.resolve_fight(*cards);
            s
        }
        Action::Keep { cards } => {
            if !rules::keep_pending(state, seat) {
                return Err(RuleError::new(
                    e::NO_KEEP_DUE,
                    "TR-EOR-1",
                    "you have no cards to choose from now",
                ));
            }
            let kept = state.config.cards_kept;
            if cards.total() != u32::from(kept) {
                return Err(RuleError::new(
                    e::BAD_CARD_COUNT,
                    "TR-EOR-1",
                    format!("keep exactly {kept} cards"),
                ));
            }
            rules::check_in_hand(state, seat, cards, "TR-EOR-1")?;
            let mut s = Scratch::new(state);
            s.emit(Event::KeepChosen {
                seat,
                cards: Some(*cards),
            });
            s
        }
    };
    Ok(s)
}

fn no_offer() -> RuleError {
    RuleError::new(e::NO_OFFER, "TR-ACT-E", "no trade offer is pending")
}

fn no_fight_decision() -> RuleError {
    RuleError::new(
        e::NO_FIGHT_DECISION,
        "TR-GAL-5",
        "no galley fight waits for this",
    )
}

fn check_cost(plan: &MovePlan, cost: Option<u8>) -> Result<(), RuleError> {
    match cost {
        Some(c) if c != plan.total() => Err(RuleError::new(
            e::COST_MISMATCH,
            "TR-D-6",
            format!("this move costs {} cards, not {c}", plan.total()),
        )),
        _ => Ok(()),
    }
}

/// Phase 2: place a tile, draw a replacement (TR-P2-1..3).
fn place_tile(
    state: &State,
    seat: Seat,
    tile: Tile,
    empire: Option<Empire>,
) -> Result<Scratch, RuleError> {
    match rules::awaiting(state) {
        Awaiting::Placement(p) if p == seat => {}
        Awaiting::Placement(_) => return Err(RuleError::not_your_turn(seat)),
        _ => {
            return Err(RuleError::new(
                e::WRONG_PHASE,
                "TR-P2-1",
                "tiles are placed in Phase 2",
            ))
        }
    }
    // The same words wherever the tile is: another hand, the pile or the board (TR-D-20).
    if !state.player(seat).tiles.contains(&tile) {
        return Err(RuleError::new(
            e::TILE_NOT_IN_HAND,
            "TR-P2-1",
            format!("tile {tile} is not in your hand"),
        ));
    }
    if !state.placeable(tile) {
        return Err(RuleError::new(
            e::TILE_NOT_PLACEABLE,
            "TR-P2-1",
            format!("field {tile} touches no empire"),
        ));
    }
    let near = state.adjacent_empires(tile.cell());
    let empire = match (empire, &near[..]) {
        (Some(e), _) if near.contains(&e) => e,
        (Some(e), _) => {
            return Err(RuleError::new(
                e::EMPIRE_NOT_ADJACENT,
                "TR-P2-2",
                format!("field {tile} does not touch the {e:?} empire"),
            ))
        }
        (None, [only]) => *only,
        (None, _) => {
            return Err(RuleError::new(
                e::EMPIRE_CHOICE_REQUIRED,
                "TR-P2-2",
                format!("field {tile} touches several empires: name one"),
            ))
        }
    };
    let mut s = Scratch::new(state);
    s.emit(Event::TilePlaced { seat, tile, empire });
    if let Some(&drawn) = s.state.tile_pile.last() {
        s.emit(Event::TileDrawn {
            seat,
            tile: Some(drawn),
        });
    }
    Ok(s)
}

/// After a ship arrived: its dues, and pirate sinking (TR-PIR-5, TR-COMB-2).
fn arrive(s: &mut Scratch, ship: ShipId, to: Cell, plan: MovePlan) {
    if !plan.dues.is_empty() {
        s.emit(Event::DuesOwed { dues: plan.dues });
    }
    let galley_entered = s.state.config.combined()
        && s.state.ship(ship).galley
        && s.state.field(to).pirate.is_some();
    if galley_entered {
        let points = scoring::sinking_points(&s.state, to);
        s.emit(Event::PirateSunk { field: to, points });
    } else {
        sink_if_two(s, to);
    }
}

/// A pirate sinks as soon as a second ship is parked on its field (TR-PIR-5).
fn sink_if_two(s: &mut Scratch, field: Cell) {
    if scoring::pirate_sinks(&s.state, field) {
        let points = scoring::sinking_points(&s.state, field);
        s.emit(Event::PirateSunk { field, points });
    }
}

/// Bank trade (2): three cards for a chosen colour, if the pile holds one; then the pile is
/// shuffled (TR-ACT-D, TR-D-9). A search that finds nothing still costs the cards and shuffles
/// the pile under `failed_pile_search = discard` (rules version 2); under `keep_cards` it costs
/// nothing but the turn.
fn bank_pick(s: &mut Scratch, seat: Seat, colour: Empire, cards: Cards, chance: &mut dyn Chance) {
    s.emit(Event::BankTraded {
        seat,
        form: BankForm::Pick,
    });
    if s.state.draw_pile.is_empty() && !s.state.discard_pile.is_empty() {
        s.rebuild_pile(chance);
    }
    let found = s.state.draw_pile.contains(&colour.card());
    if !found && s.state.config.failed_pile_search == FailedPileSearch::KeepCards {
        s.emit(Event::PileSearchFailed { seat, colour });
        return;
    }
    s.emit(Event::CardsDiscarded {
        seat,
        cards,
        reason: DiscardReason::BankTrade,
    });
    if found {
        s.emit(Event::CardTakenFromPile {
            seat,
            card: colour.card(),
        });
    } else {
        s.emit(Event::PileSearchFailed { seat, colour });
    }
    let mut order = s.state.draw_pile.clone();
    shuffle(chance, &mut order);
    s.emit(Event::DrawPileShuffled {
        cards: order.len() as u8,
        order: Some(order),
    });
}

/// Passing (TR-ACT-0, TR-ACT-P); with `player_trade_free` a turn with a trade takes an action:
/// a pass turn has no free trade, and an offer is taken only when an action remains after it
/// (TR-K1 b, [`trade::check_free_trade`]).
fn check_pass(state: &State, seat: Seat) -> Result<(), RuleError> {
    let turn = rules::fresh_turn_of::<RuleError>(state, seat)?;
    if turn.traded {
        return Err(RuleError::new(
            e::PASS_NOT_ALLOWED,
            "TR-K1",
            "a turn with a free trade takes an action (player_trade_free)",
        ));
    }
    Ok(())
}

fn pay(state: &State, seat: Seat, cards: &Cards) -> Result<Scratch, RuleError> {
    let Some(&due) = state.dues.first() else {
        return Err(RuleError::new(e::NO_DUE, "TR-D-19", "nothing is owed now"));
    };
    if due.payer != seat {
        return Err(RuleError::not_your_turn(seat));
    }
    let hand = state.player(seat).cards;
    rules::check_in_hand(state, seat, cards, "TR-D-19")?;
    if !payment::options(&state.config, &hand, &state.dues).allows(cards) {
        return Err(RuleError::new(
            e::INVALID_PAYMENT,
            "TR-D-19",
            format!(
                "{cards} does not pay {} card(s) of {:?} with the rest still payable",
                due.count, due.need
            ),
        ));
    }
    let mut s = Scratch::new(state);
    s.emit(Event::DuePaid {
        seat,
        cards: *cards,
        to: due.to,
        reason: due.reason,
    });
    Ok(s)
}

/// Cards laid face down in a galley fight: 1–5, attacker first (TR-GAL-5).
fn lay_fight_cards(state: &State, seat: Seat, cards: &Cards) -> Result<Scratch, RuleError> {
    match rules::awaiting(state) {
        Awaiting::FightCards(p) if p == seat => {}
        Awaiting::FightCards(_) => return Err(RuleError::not_your_turn(seat)),
        _ => return Err(no_fight_decision()),
    }
    rules::check_in_hand(state, seat, cards, "TR-GAL-5")?;
    let g = &super::data::board().variants.galleys;
    let max = u32::from(g.fight_cards_max).min(state.player(seat).cards.total());
    let min = u32::from(g.fight_cards_min).min(max);
    if !(min..=max).contains(&cards.total()) {
        return Err(RuleError::new(
            e::INVALID_FIGHT_CARDS,
            "TR-GAL-5",
            format!("lay {} to {} cards", g.fight_cards_min, g.fight_cards_max),
        ));
    }
    let mut s = Scratch::new(state);
    s.emit(Event::FightCardsLaid {
        seat,
        count: cards.total() as u8,
        cards: Some(*cards),
    });
    Ok(s)
}
