//! Everything the rules do by themselves between two decisions: founding, dealing, the automatic
//! steps of Phase 2, the pirate phase, turn starts and ends, payments with only one way to pay,
//! the galley fight's reveal, the end of a round and the end of the game.
//!
//! [`Scratch::advance`] runs these steps on a scratch copy (each event folded as it is emitted)
//! until the game waits for some seat's decision or is over. Chance (shuffles, blind swaps,
//! pirate draws) is drawn here and written into the events.

use super::cards::{Cards, Empire};
use super::config::{CantPlaceTile, ReshuffleRule, SetupMode};
use super::data::{board, Tile};
use super::event::{Event, SkipReason, SwapSkipReason};
use super::fight;
use super::payment;
use super::rules::{self, Awaiting};
use super::scoring;
use super::state::{ActionCard, CardStatus, Due, DueReason, Need, Phase};
use crate::chance::{pick, shuffle, Chance};
use crate::Seat;

pub(super) type Scratch = crate::scratch::Scratch<super::Tyros>;

impl Scratch {
    /// TR-SETUP-2: reveal tiles from the top; a tile next to a founded empire is set aside; the
    /// four founding tiles leave the pile (into the used pool).
    pub(super) fn found_empires(&mut self) {
        let fixed = self.state.config.setup == SetupMode::Fixed;
        let map = self.state.map();
        let mut founded: Vec<Tile> = Vec::new();
        for (i, empire) in Empire::ALL.into_iter().enumerate() {
            let mut set_aside = Vec::new();
            let field = if fixed {
                board().first_game_setup[i]
            } else {
                let mut pile = self.state.tile_pile.iter().rev();
                loop {
                    let &tile = pile.next().expect("32 tiles always found four empires");
                    if founded.iter().any(|f| map.adjacent(f.cell(), tile.cell())) {
                        set_aside.push(tile);
                    } else {
                        break tile;
                    }
                }
            };
            founded.push(field);
            self.emit(Event::EmpireFounded {
                empire,
                field: field.cell(),
                set_aside,
            });
        }
    }

    pub(super) fn shuffle_tiles(&mut self, chance: &mut dyn Chance) {
        let mut order = self.state.tile_pile.clone();
        shuffle(chance, &mut order);
        self.emit(Event::TilePileShuffled {
            tiles: order.len() as u8,
            order: Some(order),
        });
    }

    /// A round begins (TR-RND-1): Phase 1 deals the cards (TR-P1-1), then Phase 2 starts.
    pub(super) fn start_round(&mut self, start_player: Seat, chance: &mut dyn Chance) {
        self.emit(Event::RoundStarted {
            round: self.state.round + 1,
            start_player,
        });
        let dealt = self
            .state
            .config
            .cards_dealt
            .for_players(self.state.players.len());
        for seat in self.state.seats_from(start_player).collect::<Vec<_>>() {
            self.draw_cards(seat, dealt, chance);
        }
        self.emit(Event::ExpansionStarted);
    }

    /// Draws `count` cards for `seat`, rebuilding the pile when it runs out; when even that is
    /// not enough, the seat gets what there is (TR-P1-1, TR-EOR-2).
    pub(super) fn draw_cards(&mut self, seat: Seat, count: u8, chance: &mut dyn Chance) {
        let mut left = usize::from(count);
        while left > 0 {
            if self.state.draw_pile.is_empty() {
                if self.state.discard_pile.is_empty() {
                    return;
                }
                self.rebuild_pile(chance);
            }
            let n = left.min(self.state.draw_pile.len());
            let top = &self.state.draw_pile[self.state.draw_pile.len() - n..];
            self.emit(Event::CardsDrawn {
                seat,
                count: n as u8,
                cards: Some(Cards::count(top)),
            });
            left -= n;
        }
    }

    /// The discard pile goes back into the draw pile (TR-EOR-2, TR-RC).
    pub(super) fn rebuild_pile(&mut self, chance: &mut dyn Chance) {
        let rule = self.state.config.reshuffle_rule;
        let cards = (self.state.draw_pile.len() + self.state.discard_pile.len()) as u8;
        let order = match rule {
            ReshuffleRule::Shuffle => {
                let mut order = self.state.draw_pile.clone();
                order.extend_from_slice(&self.state.discard_pile);
                shuffle(chance, &mut order);
                Some(order)
            }
            ReshuffleRule::FlipUnder => None,
        };
        self.emit(Event::DrawPileRebuilt { rule, cards, order });
    }

    /// Runs the automatic steps until some seat must decide or the game is over.
    pub(super) fn advance(&mut self, chance: &mut dyn Chance) {
        loop {
            if self.state.outcome.is_some() {
                return;
            }
            if !self.state.dues.is_empty() {
                if self.pay_forced_due() {
                    continue;
                }
                return;
            }
            if let Some((attacker, defender)) = self.state.pending_fight {
                let field = self
                    .state
                    .ship(defender)
                    .at
                    .expect("the defender is on the board");
                self.emit(Event::FightStarted {
                    field,
                    attacker,
                    defender,
                });
                continue;
            }
            if self.state.fight.is_some() {
                if self.fight_step() {
                    continue;
                }
                return;
            }
            if self.state.offer.is_some() {
                return;
            }
            let progressed = match self.state.phase {
                Phase::Setup | Phase::Finished => false,
                Phase::Expansion { step, .. } => self.expansion_step(step, chance),
                Phase::Pirates => {
                    self.emit(Event::ActionPhaseStarted);
                    true
                }
                Phase::Actions { turn, passes } => self.turn_step(turn, passes),
                Phase::RoundEnd => self.round_end_step(chance),
            };
            if !progressed {
                return;
            }
        }
    }

    /// Pays the first due when only one payment is possible.
    fn pay_forced_due(&mut self) -> bool {
        let due = self.state.dues[0];
        let hand = self.state.player(due.payer).cards;
        let Some(cards) = payment::options(&self.state.config, &hand, &self.state.dues).single()
        else {
            return false;
        };
        self.emit(Event::DuePaid {
            seat: due.payer,
            cards,
            to: due.to,
            reason: due.reason,
        });
        true
    }

    /// Lays "no cards" for a side with an empty hand, reveals, and resolves a fight whose
    /// winner has nothing to choose (TR-GAL-5).
    fn fight_step(&mut self) -> bool {
        let f = self.state.fight.clone().expect("a fight is on");
        match rules::awaiting(&self.state) {
            Awaiting::FightCards(seat) => {
                if !self.state.player(seat).cards.is_empty() {
                    return false;
                }
                self.emit(Event::FightCardsLaid {
                    seat,
                    count: 0,
                    cards: Some(Cards::NONE),
                });
                true
            }
            Awaiting::FightChoice(_) => false,
            _ if !f.revealed => {
                let config = &self.state.config;
                let a = f.attacker_cards.expect("both sides laid");
                let d = f.defender_cards.expect("both sides laid");
                let (sa, sd) = (fight::score(config, &a), fight::score(config, &d));
                let (winner, laid) = match sa.cmp(&sd) {
                    std::cmp::Ordering::Greater => (Some(self.state.ship(f.attacker).owner), a),
                    std::cmp::Ordering::Less => (Some(self.state.ship(f.defender).owner), d),
                    std::cmp::Ordering::Equal => (None, Cards::NONE),
                };
                let groups = fight::largest_groups(config, &laid);
                self.emit(Event::FightRevealed {
                    attacker_cards: a,
                    defender_cards: d,
                    winner,
                    choices: if groups.len() > 1 { groups } else { Vec::new() },
                });
                true
            }
            _ => {
                let discarded = match f.winner {
                    Some(w) => {
                        let laid = if w == self.state.ship(f.attacker).owner {
                            f.attacker_cards
                        } else {
                            f.defender_cards
                        };
                        fight::largest_groups(&self.state.config, &laid.unwrap_or_default())
                            .first()
                            .copied()
                            .unwrap_or_default()
                    }
                    None => Cards::NONE,
                };
                self.resolve_fight(discarded);
                true
            }
        }
    }

    /// The fight's outcome once the winner's discard is known (TR-GAL-5).
    pub(super) fn resolve_fight(&mut self, discarded: Cards) {
        let f = self.state.fight.clone().expect("a fight is on");
        let sunk = f.winner.map(|w| {
            if w == self.state.ship(f.attacker).owner {
                f.defender
            } else {
                f.attacker
            }
        });
        self.emit(Event::FightResolved {
            winner: f.winner,
            discarded,
            sunk,
        });
    }

    /// One step of Phase 2 (TR-P2-1..7): waits for a seat that can place, skips the others.
    fn expansion_step(&mut self, step: u8, chance: &mut dyn Chance) -> bool {
        let players = self.state.players.len();
        let laps = self.state.config.tiles_per_round.for_players(players);
        if usize::from(step) >= usize::from(laps) * players {
            self.end_expansion(chance);
            return true;
        }
        let seat = rules::expansion_seat(&self.state, step);
        let hand = &self.state.player(seat).tiles;
        if hand.is_empty() {
            self.emit(Event::PlacementSkipped {
                seat,
                reason: SkipReason::NoTiles,
            });
            return true;
        }
        if hand.iter().any(|&t| self.state.placeable(t)) {
            return false;
        }
        self.emit(Event::PlacementSkipped {
            seat,
            reason: SkipReason::CannotPlace,
        });
        if self.state.config.pirates {
            self.blind_swap(seat, chance);
        } else if self.state.config.cant_place_tile == CantPlaceTile::PassAndDraw {
            self.draw_tile(seat);
        }
        true
    }

    fn draw_tile(&mut self, seat: Seat) {
        if let Some(&tile) = self.state.tile_pile.last() {
            self.emit(Event::TileDrawn {
                seat,
                tile: Some(tile),
            });
        }
    }

    /// Pirates: a random hand tile for a random pile tile, unless the pile is empty or holds
    /// no placeable tile (TR-PIR-2).
    fn blind_swap(&mut self, seat: Seat, chance: &mut dyn Chance) {
        let pile = &self.state.tile_pile;
        if pile.is_empty() {
            self.emit(Event::TileSwapSkipped {
                seat,
                reason: SwapSkipReason::PileEmpty,
            });
            return;
        }
        if !pile.iter().any(|&t| self.state.placeable(t)) {
            self.emit(Event::TileSwapSkipped {
                seat,
                reason: SwapSkipReason::NoUsableTile,
            });
            return;
        }
        let hand = &self.state.player(seat).tiles;
        let returned = pick(chance, hand);
        let drawn = pick(chance, pile);
        self.emit(Event::TilesSwapped {
            seat,
            returned: Some(returned),
            drawn: Some(drawn),
        });
        self.shuffle_tiles(chance);
    }

    /// After Phase 2: the no-progress fallback (TR-P2-7), the end trigger (TR-END-1), then
    /// the pirate phase (TR-PIR-3) or the action phase.
    fn end_expansion(&mut self, chance: &mut dyn Chance) {
        if let Phase::Expansion {
            placed: false,
            drew: false,
            ..
        } = self.state.phase
        {
            if !self.state.tile_pile.is_empty() {
                self.emit(Event::NoProgressDraws);
                for seat in self
                    .state
                    .seats_from(self.state.start_player)
                    .collect::<Vec<_>>()
                {
                    self.draw_tile(seat);
                }
            }
        }
        if self.state.tile_pile.is_empty() && self.state.someone_without_tiles() {
            self.emit(Event::LastRoundReached {
                round: self.state.round,
            });
        }
        if self.state.config.pirates {
            self.emit(Event::PiratePhaseStarted);
            self.pirate_appears(chance);
        } else {
            self.emit(Event::ActionPhaseStarted);
        }
    }

    /// TR-PIR-3: a pirate on the field of a tile drawn from the used pool; each ship there pays
    /// a levy, unless a galley sinks it at once (TR-COMB-2).
    fn pirate_appears(&mut self, chance: &mut dyn Chance) {
        let pool = &self.state.used_tiles;
        if pool.is_empty() {
            self.emit(Event::NoPirate);
            return;
        }
        let field = pick(chance, pool).cell();
        let ships: Vec<_> = self.state.ships_at(field).collect();
        let galley_there =
            self.state.config.combined() && ships.iter().any(|&id| self.state.ship(id).galley);
        self.emit(Event::PirateAppeared {
            field,
            sinks_at_turn_start: !galley_there && ships.len() >= 2,
        });
        if galley_there {
            let points = scoring::sinking_points(&self.state, field);
            self.emit(Event::PirateSunk { field, points });
            return;
        }
        let levy = board().variants.pirates.levy_per_ship_on_arrival;
        let mut dues = Vec::new();
        for seat in self.state.seats_from(self.state.start_player) {
            let own = ships
                .iter()
                .filter(|&&id| self.state.ship(id).owner == seat)
                .count() as u8;
            let hand = self.state.player(seat).cards.total();
            let count = u32::from(own * levy).min(hand) as u8;
            if count > 0 {
                dues.push(Due {
                    payer: seat,
                    need: Need::Any,
                    count,
                    to: None,
                    reason: DueReason::Levy,
                });
            }
        }
        if !dues.is_empty() {
            self.emit(Event::DuesOwed { dues });
        }
    }

    /// Turn bookkeeping of the action phase (TR-ACT-0, TR-PIR-5, TR-K1 b).
    fn turn_step(&mut self, turn: super::state::Turn, passes: u8) -> bool {
        if usize::from(passes) >= self.state.players.len() {
            self.end_action_phase();
            return true;
        }
        if !turn.started {
            self.emit(Event::TurnStarted {
                seat: turn.seat,
                number: self.state.turn_number + 1,
            });
            let due: Vec<_> = super::data::Cell::fields()
                .filter(|&c| {
                    self.state
                        .field(c)
                        .pirate
                        .is_some_and(|p| p.sinks_at_turn_start)
                        && self
                            .state
                            .ships_at(c)
                            .any(|id| self.state.ship(id).owner == turn.seat)
                })
                .collect();
            for field in due {
                let points = scoring::sinking_points(&self.state, field);
                self.emit(Event::PirateSunk { field, points });
            }
            return true;
        }
        if turn.acted && (turn.traded || !self.state.config.player_trade_free) {
            self.emit(Event::TurnEnded {
                seat: turn.seat,
                passed: false,
            });
            return true;
        }
        false
    }

    /// Everyone passed in succession: the game ends after the last round (TR-END-1), otherwise
    /// unused winds are lost (TR-AK-4) and the round ends.
    fn end_action_phase(&mut self) {
        self.emit(Event::ActionPhaseEnded);
        if self.state.last_round {
            let scores = scoring::score_sheets(&self.state);
            let outcome = scoring::outcome(&scores);
            self.emit(Event::GameEnded { outcome, scores });
            return;
        }
        for seat in self.state.seats().collect::<Vec<_>>() {
            let card = ActionCard::FavourableWind;
            if self.state.player(seat).action_cards.get(card) == CardStatus::Laid {
                self.emit(Event::ActionCardLost { seat, card });
            }
        }
    }

    /// End of round (TR-EOR-1..3): forced keep choices are made; once every choice is in, the
    /// discards are shown, the pile rebuilt and the next round begins.
    fn round_end_step(&mut self, chance: &mut dyn Chance) -> bool {
        let kept = self.state.config.cards_kept;
        let mut waiting = false;
        for seat in self.state.seats().collect::<Vec<_>>() {
            if !rules::keep_pending(&self.state, seat) {
                continue;
            }
            let hand = self.state.player(seat).cards;
            match (payment::Options::AnyOf { hand, count: kept }).single() {
                Some(cards) => self.emit(Event::KeepChosen {
                    seat,
                    cards: Some(cards),
                }),
                None => waiting = true,
            }
        }
        if waiting {
            return false;
        }
        for seat in self
            .state
            .seats_from(self.state.start_player)
            .collect::<Vec<_>>()
        {
            let hand = self.state.player(seat).cards;
            let keep = self.state.keep[seat.index()].unwrap_or(hand);
            let cards = hand.minus(&keep);
            if !cards.is_empty() {
                self.emit(Event::CardsDiscarded {
                    seat,
                    cards,
                    reason: super::event::DiscardReason::RoundEnd,
                });
            }
        }
        self.rebuild_pile(chance);
        let next = self.state.next_seat(self.state.start_player);
        self.start_round(next, chance);
        true
    }
}
