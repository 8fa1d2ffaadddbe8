//! What the store appends: setup, actions and the seats' lifecycle all become the same
//! [`Decision`] (events, snapshot, status, the seats' lifecycle, the game's bot turn and
//! deadline), written by the same append path. A [`Table`] carries what a decision needs
//! beside the engine's state: the seats the server's bots play, the clock, and the seats'
//! lifecycle as of the game's latest commit; it collects the commit's events and closes it.

use std::time::Duration;

use chrono::{DateTime, Utc};
use db::store::{BotTurn, DeadlineChange, Decision, Finish, Standing};
use db::{GameRow, JsonText, NewEvent, SeatRow};
use engine::{registry, DynState, Seat};
use serde_json::Value;
use uuid::Uuid;

use super::caller::wire_seat;
use super::notices;
use crate::dto::Clock;
use crate::error::ApiError;
use crate::lifecycle::outcome::outcome;
use crate::lifecycle::replay::{awaited, status_of};
use crate::lifecycle::{Due, Lifecycle, LifecycleEvent};
use crate::stored::StoredLifecycle;

/// One commit being made to a game: what the game's seats and clock are, and the events so
/// far.
#[derive(Debug, Clone)]
pub struct Table {
    /// Per seat: played by the server's bot from creation.
    native_bots: Vec<bool>,
    delay_ms: i32,
    clock: Clock,
    /// As of the latest commit, settled with its time; then with this commit's events.
    life: Lifecycle,
    /// The game stores a lifecycle (keep writing it).
    stored: bool,
    /// A stand-in bot played a seat before this commit (its bot turn may need clearing).
    had_stand_in: bool,
    /// The game is being started: its expiry deadline goes.
    starting: bool,
    /// The seq the next event gets.
    next_seq: i64,
    events: Vec<NewEvent>,
    /// The game, as its players' notices and results name it.
    game: GameFacts,
    /// The seat whose request makes this commit, if any.
    actor: Option<Seat>,
}

/// What a commit's notices and results need to know of its game.
#[derive(Debug, Clone)]
pub struct GameFacts {
    pub game_id: Uuid,
    pub game_type: String,
    pub rated: bool,
    /// Per seat, the player it belongs to.
    pub players: Vec<Option<Uuid>>,
}

impl GameFacts {
    /// The facts of a stored game with `seats`.
    pub fn of(game: &GameRow, seats: &[SeatRow]) -> GameFacts {
        GameFacts {
            game_id: game.id,
            game_type: game.game_type.clone(),
            rated: game.rated,
            players: seats.iter().map(|s| s.player_id).collect(),
        }
    }
}

/// The seats the server's bots play from creation, from the stored seats.
pub fn native_bots(seats: &[SeatRow]) -> Vec<bool> {
    seats.iter().map(SeatRow::is_bot).collect()
}

/// The clock and the seats' lifecycle of a stored game as of its latest commit (settled with
/// that commit's time, `updated_at`).
///
/// # Errors
/// 500 when the stored lifecycle is unreadable.
pub fn lifecycle_of(game: &GameRow, seats: &[SeatRow]) -> Result<(Clock, Lifecycle), ApiError> {
    let clock = Clock::read_stored(game.clock.as_ref())?;
    let mut life = match &game.lifecycle {
        Some(stored) => StoredLifecycle::read(stored)?,
        None => Lifecycle::new(&clock, &native_bots(seats)),
    };
    life.settle(game.updated_at, &clock);
    Ok((clock, life))
}

/// The clock and the seats' lifecycle as a commit leaves them ([`Table::close_keeping`]): what
/// [`lifecycle_of`] reads from the game the commit wrote, without parsing it again.
#[derive(Debug, Clone)]
pub struct Closed {
    clock: Clock,
    life: Lifecycle,
}

impl Closed {
    /// The clock and the lifecycle as of the commit, settled with its time (`updated_at` of
    /// the game it wrote), as [`lifecycle_of`] returns them for that game.
    pub fn settled(self, commit_time: DateTime<Utc>) -> (Clock, Lifecycle) {
        let Closed { clock, mut life } = self;
        life.settle(commit_time, &clock);
        (clock, life)
    }
}

/// A game row as read, with its clock and seats' lifecycle parsed once ([`lifecycle_of`]): the
/// bot runner reads the game before its bot thinks and hands this to the action path, which
/// decides on it first instead of reading and parsing the same version again.
#[derive(Debug, Clone)]
pub struct GameRead {
    pub game: GameRow,
    pub clock: Clock,
    pub life: Lifecycle,
}

impl GameRead {
    /// `game` with its lifecycle parsed.
    ///
    /// # Errors
    /// 500 when its stored clock or lifecycle is unreadable.
    pub fn of(game: GameRow, seats: &[SeatRow]) -> Result<GameRead, ApiError> {
        let (clock, life) = lifecycle_of(&game, seats)?;
        Ok(GameRead { game, clock, life })
    }
}

impl Table {
    /// The next commit to a started game.
    ///
    /// # Errors
    /// 500 when its stored lifecycle is unreadable.
    pub fn of_game(game: &GameRow, seats: &[SeatRow], delay_ms: u32) -> Result<Table, ApiError> {
        let (clock, life) = lifecycle_of(game, seats)?;
        Ok(Table::of_parsed(game, seats, delay_ms, clock, life))
    }

    /// [`Table::of_game`] with the game's clock and lifecycle already parsed
    /// ([`lifecycle_of`]).
    pub fn of_parsed(
        game: &GameRow,
        seats: &[SeatRow],
        delay_ms: u32,
        clock: Clock,
        life: Lifecycle,
    ) -> Table {
        Table {
            game: GameFacts::of(game, seats),
            actor: None,
            native_bots: native_bots(seats),
            delay_ms: i32::try_from(delay_ms).unwrap_or(i32::MAX),
            clock,
            had_stand_in: life.any_stand_in(),
            life,
            stored: game.lifecycle.is_some(),
            starting: false,
            next_seq: game.version + 1,
            events: Vec::new(),
        }
    }

    /// The setup commit of a game with `clock` whose seats `native_bots` are the server's
    /// bots (`true`), at version 0.
    pub fn starting(game: GameFacts, clock: Clock, native_bots: Vec<bool>, delay_ms: u32) -> Table {
        let life = Lifecycle::new(&clock, &native_bots);
        Table {
            game,
            actor: None,
            native_bots,
            delay_ms: i32::try_from(delay_ms).unwrap_or(i32::MAX),
            clock,
            life,
            stored: false,
            had_stand_in: false,
            starting: true,
            next_seq: 1,
            events: Vec::new(),
        }
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The seats' lifecycle, with this commit's lifecycle events so far.
    pub fn life(&self) -> &Lifecycle {
        &self.life
    }

    /// Whether the server's bot plays `seat` (seated at creation, or standing in).
    pub fn bot_plays(&self, seat: Seat) -> bool {
        self.native_bots.get(seat.index()).copied().unwrap_or(false)
            || self.life.stand_in(seat).is_some()
    }

    /// Adds a lifecycle event, asked for by `by` (`None`: the server's own, such as a
    /// timeout). Lifecycle events carry no action: they are not moves.
    pub fn record(&mut self, by: Option<Seat>, event: LifecycleEvent) {
        self.actor = self.actor.or(by);
        self.life.apply(&event, self.next_seq, &self.clock);
        self.events.push(NewEvent {
            seat: by.map(wire_seat),
            action: None,
            event: event.to_json(),
        });
        self.next_seq += 1;
    }

    /// Adds the game's setup events (no seat caused them).
    pub fn setup(&mut self, events: Vec<Value>) {
        self.next_seq += events.len() as i64;
        self.events.extend(events.into_iter().map(NewEvent::system));
    }

    /// Adds the events that `seat`'s `action` caused.
    pub fn action(&mut self, seat: Seat, action: &Value, events: Vec<Value>) {
        self.actor = Some(seat);
        self.next_seq += events.len() as i64;
        self.events.extend(
            events
                .into_iter()
                .map(|e| NewEvent::by_seat(wire_seat(seat), action.clone(), e)),
        );
    }

    /// Closes the commit: the game's `state` after it decides the status and the seats it
    /// waits for; their clocks run, the game's next bot turn and deadline follow.
    pub fn close(self, state: &dyn DynState) -> Decision {
        self.close_keeping(state).0
    }

    /// [`Table::close`], keeping the clock and the seats' lifecycle the commit leaves, so the
    /// answer to it is built without reading the stored lifecycle back.
    pub fn close_keeping(mut self, state: &dyn DynState) -> (Decision, Closed) {
        let status = status_of(state, &self.life);
        let awaited = awaited(state, status);
        self.life
            .close_commit(&awaited, status != db::GameStatus::Active, &self.clock);
        let snapshot = state.snapshot();
        let over = status.is_over();
        let bot_turn = self.bot_turn(&awaited, over, &snapshot);
        let deadline = self.deadline();
        let game_outcome = if over {
            outcome(state.outcome(), &self.life)
        } else {
            None
        };
        let notices = match registry::find(&self.game.game_type) {
            Some(kind) if self.game.players.iter().any(Option::is_some) => {
                let dues = self.life.dues();
                notices::for_commit(&notices::Commit {
                    game_id: self.game.game_id,
                    kind,
                    version: self.next_seq - 1,
                    rated: self.game.rated,
                    players: &self.game.players,
                    starts: self.starting,
                    status,
                    awaited: awaited
                        .iter()
                        .map(|&s| (s, dues.iter().find(|(d, _)| *d == s).map(|(_, due)| *due)))
                        .collect(),
                    bot_plays: &|s| self.bot_plays(s),
                    actor: self.actor,
                    events: &self.events,
                    outcome: game_outcome.clone(),
                })
            }
            _ => Vec::new(),
        };
        let finish = match &game_outcome {
            Some(o) if status == db::GameStatus::Finished => self.finish(o),
            _ => None,
        };
        let lifecycle = (self.stored
            || self.clock.is_on()
            || self.life != Lifecycle::new(&self.clock, &self.native_bots))
        .then(|| StoredLifecycle::write(&self.life));
        let decision = Decision {
            events: self.events,
            snapshot: JsonText::new(snapshot),
            status,
            active_seats: awaited.into_iter().map(wire_seat).collect(),
            bot_turn,
            lifecycle,
            deadline,
            notices,
            finish,
        };
        let closed = Closed {
            clock: self.clock,
            life: self.life,
        };
        (decision, closed)
    }

    /// The results of a game that finished with `outcome`, for its players' seats (none for a
    /// game without players), rated when the game is.
    fn finish(&self, outcome: &crate::dto::Outcome) -> Option<Finish> {
        let standings: Vec<Standing> = self
            .game
            .players
            .iter()
            .enumerate()
            .filter_map(|(seat, player)| {
                Some(Standing {
                    player_id: (*player)?,
                    seat: seat as i32,
                    place: i32::try_from(*outcome.places.get(seat)?).unwrap_or(i32::MAX),
                    won: outcome.winners.iter().any(|&w| usize::from(w) == seat),
                })
            })
            .collect();
        if standings.is_empty() {
            return None;
        }
        let rated = self.game.rated && standings.len() == self.game.players.len();
        Some(Finish {
            game_type: self.game.game_type.clone(),
            standings,
            rating: rated.then(crate::ratings::rating),
        })
    }

    /// `None` for a game no bot ever played (nothing to write); otherwise the lowest seat the
    /// server's bot plays with a standing action to take in the game stored as `snapshot` unless it is
    /// `over` (a rent to claim, an offer to answer, see [`bots::standing_seat`]), or else the lowest
    /// awaited seat the server's bot plays, if any. Standing actions come first: a rent must
    /// be claimed before the next player rolls. One bot turn per game at a time: when several
    /// bot seats may move, the next is armed after this one's move.
    fn bot_turn(&self, awaited: &[Seat], over: bool, snapshot: &str) -> Option<BotTurn> {
        let any_bot = self.native_bots.iter().any(|&b| b) || self.life.any_stand_in();
        if !any_bot && !self.had_stand_in {
            return None;
        }
        let mut awaited = awaited.to_vec();
        awaited.sort();
        let seat = self
            .standing_seat(over, snapshot)
            .or_else(|| awaited.into_iter().find(|&s| self.bot_plays(s)));
        Some(BotTurn {
            seat: seat.map(wire_seat),
            delay_ms: self.delay_ms,
        })
    }

    /// The lowest bot-played seat with a standing action to take, unless the game is `over`
    /// (an ended game waits for nobody, whatever its last state).
    fn standing_seat(&self, over: bool, snapshot: &str) -> Option<Seat> {
        if over {
            return None;
        }
        let bot_seats: Vec<Seat> = (0..self.native_bots.len())
            .filter_map(|i| u8::try_from(i).ok().map(Seat))
            .filter(|&s| self.bot_plays(s))
            .collect();
        if bot_seats.is_empty() {
            return None;
        }
        bots::standing_seat(&self.game.game_type, snapshot, &bot_seats).unwrap_or_else(|error| {
            tracing::error!(%error, game = %self.game.game_type, "bots' standing actions unreadable");
            None
        })
    }

    /// The earliest running clock's deadline (a game with a clock always writes it; one
    /// without has none, except an open game's expiry, which its start clears).
    fn deadline(&self) -> DeadlineChange {
        if !self.clock.is_on() {
            return if self.starting {
                DeadlineChange::Clear
            } else {
                DeadlineChange::Keep
            };
        }
        let mut at: Option<DateTime<Utc>> = None;
        let mut after_commit: Option<Duration> = None;
        for (_, due) in self.life.dues() {
            match due {
                Due::At(t) => at = Some(at.map_or(t, |a| a.min(t))),
                Due::AfterCommit(d) => {
                    let d = d.to_std().unwrap_or_default();
                    after_commit = Some(after_commit.map_or(d, |a| a.min(d)));
                }
            }
        }
        if at.is_none() && after_commit.is_none() {
            DeadlineChange::Clear
        } else {
            DeadlineChange::Arm { at, after_commit }
        }
    }
}
