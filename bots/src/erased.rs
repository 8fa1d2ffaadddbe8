//! The bots behind a game type name, for the service: a stored snapshot in, an action as JSON
//! out, no game types needed by the caller.

use crate::arena::{play_match, playout_lengths, Match, MatchReport, PlayoutLengths};
use crate::{Bot, BotGame, Decision, InfoSet, RECENT_EVENTS};
use engine::acquire::Acquire;
use engine::monopoly::Monopoly;
use engine::tycoon::Tycoon;
use engine::tyros::Tyros;
use engine::{Game, Seat};
use rand::RngCore;
use serde::Deserialize;
use serde_json::Value;

/// Why no bot move could be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BotError {
    /// No bot plays this game type.
    #[error("no bot plays the game type {0:?}")]
    UnknownGame(String),
    /// The snapshot is not a state of this game: a server-side fault.
    #[error("stored game data is unreadable: {0}")]
    Corrupt(String),
    /// The game has no such seat.
    #[error("the game has no seat {0}")]
    NoSuchSeat(Seat),
    /// The game refuses this configuration.
    #[error("bad config: {0}")]
    BadConfig(String),
}

type Chooser =
    fn(&str, &[Value], Seat, &Bot, &mut dyn RngCore) -> Result<Decision<Value>, BotError>;
type Standing = fn(&str, &[Seat]) -> Result<Option<Seat>, BotError>;
type Arena = fn(&Value, &Match) -> Result<MatchReport, BotError>;
type Playouts = fn(&Value, usize, usize, u64, usize) -> Result<[PlayoutLengths; 2], BotError>;

/// One game the bots play, behind its type name.
struct Entry {
    name: &'static str,
    choose: Chooser,
    standing: Standing,
    arena: Arena,
    playouts: Playouts,
}

/// Declares the games the bots play (each a [`BotGame`]); a test checks it names every hosted
/// game.
macro_rules! bot_games {
    ($($game:ty),+ $(,)?) => {
        static BOT_GAMES: &[Entry] = &[$(Entry {
            name: <$game as Game>::NAME,
            choose: choose_from::<$game>,
            standing: standing_in::<$game>,
            arena: |config, m| Ok(play_match::<$game>(&read_config::<$game>(config)?, m)),
            playouts: |config, players, games, seed, max| {
                let config = read_config::<$game>(config)?;
                Ok(playout_lengths::<$game>(&config, players, games, seed, max))
            },
        }),+];
    };
}

bot_games!(Tycoon, Acquire, Monopoly, Tyros);

/// The type names of the games bots play.
pub fn bot_games() -> impl Iterator<Item = &'static str> {
    BOT_GAMES.iter().map(|entry| entry.name)
}

/// The move `bot` plays for `seat` in the game of type `game` whose stored state is `snapshot`
/// (the text of `engine::DynState::snapshot`), as the action's JSON; `action` is `None` when
/// the seat has nothing to do (the game does not wait for it, and nothing calls for a standing
/// action of it). `recent` are the last events of the log up to the snapshot as stored
/// (at most [`RECENT_EVENTS`] are read, oldest first): the bot sees them as its seat may, and
/// its manners remember what it did this turn and which offers were refused.
///
/// # Errors
/// [`BotError`] for an unknown game type, an unreadable snapshot or event, or a seat the game
/// lacks.
pub fn choose_json(
    game: &str,
    snapshot: &str,
    recent: &[Value],
    seat: Seat,
    bot: &Bot,
    rng: &mut dyn RngCore,
) -> Result<Decision<Value>, BotError> {
    let recent = &recent[recent.len().saturating_sub(RECENT_EVENTS)..];
    (find(game)?.choose)(snapshot, recent, seat, bot, rng)
}

/// The bot seat among `bots` that has a standing action to take outside its turn in the game
/// of type `game` whose stored state is `snapshot` (see [`BotGame::wants_to_act`]: a rent to
/// claim, an offer to answer), the lowest if several; `None` when none has. A service arms
/// such a seat's bot when no bot seat is active, so that bots claim and answer while people
/// play.
///
/// # Errors
/// [`BotError`] for an unknown game type or an unreadable snapshot.
pub fn standing_seat(game: &str, snapshot: &str, bots: &[Seat]) -> Result<Option<Seat>, BotError> {
    (find(game)?.standing)(snapshot, bots)
}

/// Plays the match `m` of the game type `game` with the configuration `config` (the JSON a
/// create request carries; `{}` for the defaults).
///
/// # Errors
/// [`BotError::UnknownGame`] when no bot plays `game`, [`BotError::BadConfig`] for a config
/// the game refuses.
pub fn arena_match(game: &str, config: &Value, m: &Match) -> Result<MatchReport, BotError> {
    (find(game)?.arena)(config, m)
}

/// Whole simulated games of `game` without bots: the lengths under the engine's uniformly
/// random driver and under the bots' playout policy (see [`playout_lengths`]).
///
/// # Errors
/// As [`arena_match`].
pub fn arena_playouts(
    game: &str,
    config: &Value,
    players: usize,
    games: usize,
    seed: u64,
    max_actions: usize,
) -> Result<[PlayoutLengths; 2], BotError> {
    (find(game)?.playouts)(config, players, games, seed, max_actions)
}

fn find(game: &str) -> Result<&'static Entry, BotError> {
    BOT_GAMES
        .iter()
        .find(|entry| entry.name == game)
        .ok_or_else(|| BotError::UnknownGame(game.to_string()))
}

fn read_config<G: BotGame>(config: &Value) -> Result<G::Config, BotError> {
    G::read_config(config, G::RULES_VERSION).map_err(BotError::BadConfig)
}

fn read_state<G: BotGame>(snapshot: &str) -> Result<G::State, BotError> {
    serde_json::from_str(snapshot).map_err(|e| BotError::Corrupt(e.to_string()))
}

fn choose_from<G: BotGame>(
    snapshot: &str,
    recent: &[Value],
    seat: Seat,
    bot: &Bot,
    rng: &mut dyn RngCore,
) -> Result<Decision<Value>, BotError> {
    let state = read_state::<G>(snapshot)?;
    if seat.index() >= G::seat_count(&state) {
        return Err(BotError::NoSuchSeat(seat));
    }
    let events = recent
        .iter()
        .map(|e| G::Event::deserialize(e).map_err(|e| BotError::Corrupt(e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    let decision = bot.decide(&InfoSet::<G>::with_log(&state, seat, &events), rng);
    Ok(Decision {
        action: decision
            .action
            .map(|a| serde_json::to_value(a).expect("engine actions serialize to JSON")),
        iterations: decision.iterations,
        simulated_actions: decision.simulated_actions,
    })
}

fn standing_in<G: BotGame>(snapshot: &str, bots: &[Seat]) -> Result<Option<Seat>, BotError> {
    if !G::HAS_STANDING_ACTIONS {
        return Ok(None);
    }
    let state = read_state::<G>(snapshot)?;
    if G::outcome(&state).is_some() {
        return Ok(None);
    }
    let mut bots = bots.to_vec();
    bots.sort();
    Ok(bots
        .into_iter()
        .filter(|s| s.index() < G::seat_count(&state))
        .find(|&s| G::wants_to_act(&state, s)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Level;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn every_hosted_game_has_bots() {
        for game in engine::registry::all() {
            assert!(
                bot_games().any(|name| name == game.name()),
                "add {} to bot_games! with its BotGame evaluation",
                game.name()
            );
        }
    }

    #[test]
    fn a_bot_moves_from_a_stored_snapshot_by_game_name() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for game in engine::registry::all() {
            let seats = game.info().min_seats;
            let (state, _) = game.setup(&serde_json::json!({}), seats, &mut rng).unwrap();
            let seat = state.active_seats()[0];
            let idle = (0..seats as u8)
                .map(Seat)
                .find(|s| !state.active_seats().contains(s));
            for level in Level::ALL {
                let bot = Bot {
                    budget: crate::Budget::iterations(50),
                    ..Bot::new(level)
                };
                let decision =
                    choose_json(game.name(), &state.snapshot(), &[], seat, &bot, &mut rng)
                        .unwrap_or_else(|e| panic!("{}: {e}", game.name()));
                let action = decision.action.expect("the active seat has a move");
                // Listed, or an instantiated template: either way the rules accept it.
                if let Err(e) = state.check(seat, &action, &mut rng) {
                    panic!("{}: {level} chose {action}, refused: {e}", game.name());
                }
                if let Some(idle) = idle {
                    let waiting =
                        choose_json(game.name(), &state.snapshot(), &[], idle, &bot, &mut rng);
                    assert_eq!(waiting.unwrap().action, None, "{level} acted out of turn");
                }
            }
        }
    }

    #[test]
    fn bad_requests_are_refused_with_a_reason() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let bot = Bot::new(Level::Random);
        let err = |game, snapshot, seat| {
            choose_json(
                game,
                snapshot,
                &[],
                Seat(seat),
                &bot,
                &mut ChaCha8Rng::seed_from_u64(1),
            )
            .unwrap_err()
        };
        assert_eq!(err("chess", "{}", 0), BotError::UnknownGame("chess".into()));
        assert!(matches!(err("tycoon", "{}", 0), BotError::Corrupt(_)));
        let (state, _) = engine::registry::find("tycoon")
            .unwrap()
            .setup(&serde_json::json!({}), 2, &mut rng)
            .unwrap();
        assert_eq!(
            err("tycoon", &state.snapshot(), 2),
            BotError::NoSuchSeat(Seat(2))
        );
    }
}
