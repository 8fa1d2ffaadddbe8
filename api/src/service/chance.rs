//! A stored game's chance: the key its draws come from, and what it shows of it (the
//! commitment from creation on, the reveal once it is over). The derivation itself is the
//! engine's ([`engine::chance`]); this module only reads the rows it needs.

use db::{GameRow, SeatRow};
use engine::chance::{self, GameChance, GameSeed};
use uuid::Uuid;

use crate::dto::{ChanceCommitment, ChanceInfo, ChanceReveal};

/// The key a game of `chance_version` draws with: version 1 draws with the server's seed
/// itself; version 2 with [`chance::chance_key`] of the seed, the game id and the seats'
/// entropies, or of the seed alone for a seeded game.
pub fn key<'a>(
    chance_version: i32,
    seeded: bool,
    server_seed: &GameSeed,
    game_id: Uuid,
    entropies: impl ExactSizeIterator<Item = Option<&'a str>>,
) -> GameSeed {
    if chance_version < 2 {
        *server_seed
    } else if seeded {
        chance::chance_key(server_seed, &[0; 16], entropies.map(|_| None))
    } else {
        chance::chance_key(server_seed, game_id.as_bytes(), entropies)
    }
}

/// The key of a stored game with `seats` (an imported game's is the recorded game's).
fn stored_key(game: &GameRow, seats: &[SeatRow]) -> GameSeed {
    key(
        game.chance_version,
        game.chance_seeded,
        &game.rng_seed.0,
        game.imported_from.unwrap_or(game.id),
        seats.iter().map(|s| s.entropy.as_deref()),
    )
}

/// The chance of the action applied to `game` at `version` (setup: 0).
pub fn at(game: &GameRow, seats: &[SeatRow], version: i64) -> GameChance {
    GameChance::new(
        u32::try_from(game.chance_version).unwrap_or(1),
        &stored_key(game, seats),
        version,
    )
}

/// What a list shows of a listed game's chance.
pub fn listed(game: &db::store::GameSummary) -> ChanceCommitment {
    ChanceCommitment {
        version: game.chance_version,
        seeded: game.chance_seeded,
        commitment: (game.chance_version >= 2).then(|| hex::encode(&game.seed_sha256)),
    }
}

/// What `game` shows of its commitment.
fn commitment(game: &GameRow) -> ChanceCommitment {
    ChanceCommitment {
        version: game.chance_version,
        seeded: game.chance_seeded,
        commitment: (game.chance_version >= 2)
            .then(|| hex::encode(chance::commitment(&game.rng_seed.0))),
    }
}

/// What `game` reveals of its chance: nothing until it is over, and only a version 2 game
/// has a reveal.
pub fn revealed(game: &GameRow, seats: &[SeatRow]) -> Option<ChanceReveal> {
    (game.chance_version >= 2 && game.status.is_over()).then(|| ChanceReveal {
        server_seed: hex::encode(game.rng_seed.0),
        entropies: if game.chance_seeded {
            vec![None; seats.len()]
        } else {
            seats.iter().map(|s| s.entropy.clone()).collect()
        },
        key: hex::encode(stored_key(game, seats)),
    })
}

/// What `game` shows of its chance: the reveal only once it is over.
pub fn info(game: &GameRow, seats: &[SeatRow]) -> ChanceInfo {
    let reveal = revealed(game, seats);
    let ChanceCommitment {
        version,
        seeded,
        commitment,
    } = commitment(game);
    ChanceInfo {
        version,
        seeded,
        commitment,
        reveal,
    }
}
