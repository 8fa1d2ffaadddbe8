//! The bots behind a game type name, for the service: a stored snapshot in, an action as JSON
//! out, no game types needed by the caller.

use crate::arena::{play_match, Match, Tally};
use crate::{Bot, BotGame, Decision};
use engine::acquire::Acquire;
use engine::monopoly::Monopoly;
use engine::tycoon::Tycoon;
use engine::tyros::Tyros;
use engine::{Game, Seat};
use rand::RngCore;
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
}

type Chooser = fn(&str, Seat, &Bot, &mut dyn RngCore) -> Result<Decision<Value>, BotError>;
type Arena = fn(&Match) -> Vec<Tally>;

/// Declares the games the bots play (each a [`BotGame`]); a test checks it names every hosted
/// game.
macro_rules! bot_games {
    ($($game:ty),+ $(,)?) => {
        static BOT_GAMES: &[(&str, Chooser, Arena)] = &[$((
            <$game as Game>::NAME,
            choose_from::<$game>,
            |m| play_match::<$game>(&Default::default(), m),
        )),+];
    };
}

bot_games!(Tycoon, Acquire, Monopoly, Tyros);

/// The type names of the games bots play.
pub fn bot_games() -> impl Iterator<Item = &'static str> {
    BOT_GAMES.iter().map(|(name, _, _)| *name)
}

/// The move `bot` plays for `seat` in the game of type `game` whose stored state is `snapshot`
/// (the text of `engine::DynState::snapshot`), as the action's JSON; `action` is `None` when
/// the game does not wait for that seat.
///
/// # Errors
/// [`BotError`] for an unknown game type, an unreadable snapshot or a seat the game lacks.
pub fn choose_json(
    game: &str,
    snapshot: &str,
    seat: Seat,
    bot: &Bot,
    rng: &mut dyn RngCore,
) -> Result<Decision<Value>, BotError> {
    let (_, choose, _) = find(game)?;
    choose(snapshot, seat, bot, rng)
}

/// Plays the match `m` of the game type `game` with its default configuration.
///
/// # Errors
/// [`BotError::UnknownGame`] when no bot plays `game`.
pub fn arena_match(game: &str, m: &Match) -> Result<Vec<Tally>, BotError> {
    let (_, _, arena) = find(game)?;
    Ok(arena(m))
}

fn find(game: &str) -> Result<&'static (&'static str, Chooser, Arena), BotError> {
    BOT_GAMES
        .iter()
        .find(|(name, _, _)| *name == game)
        .ok_or_else(|| BotError::UnknownGame(game.to_string()))
}

fn choose_from<G: BotGame>(
    snapshot: &str,
    seat: Seat,
    bot: &Bot,
    rng: &mut dyn RngCore,
) -> Result<Decision<Value>, BotError> {
    let state: G::State =
        serde_json::from_str(snapshot).map_err(|e| BotError::Corrupt(e.to_string()))?;
    if seat.index() >= G::seat_count(&state) {
        return Err(BotError::NoSuchSeat(seat));
    }
    let decision = bot.choose::<G>(&state, seat, rng);
    Ok(Decision {
        action: decision
            .action
            .map(|a| serde_json::to_value(a).expect("engine actions serialize to JSON")),
        iterations: decision.iterations,
        simulated_actions: decision.simulated_actions,
    })
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
                let decision = choose_json(game.name(), &state.snapshot(), seat, &bot, &mut rng)
                    .unwrap_or_else(|e| panic!("{}: {e}", game.name()));
                let action = decision.action.expect("the active seat has a move");
                // Listed, or an instantiated template: either way the rules accept it.
                if let Err(e) = state.check(seat, &action, &mut rng) {
                    panic!("{}: {level} chose {action}, refused: {e}", game.name());
                }
                if let Some(idle) = idle {
                    let waiting = choose_json(game.name(), &state.snapshot(), idle, &bot, &mut rng);
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
