//! Where chance comes from: one secret 32-byte seed per game, and one ChaCha20 stream per
//! version of the game.
//!
//! The action applied at version `v` (setup is version 0) draws from stream `v` of the game's
//! seed. Every accepted action happens at a distinct version, so every chance outcome is
//! reproducible from the seed alone and nothing else RNG-related is stored. Outcomes are also
//! written into events, so a replay needs neither the seed nor this algorithm: the policy only
//! has to stay fixed for games still in progress.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// A game's secret seed. Never shown to a client before the game ends.
pub type GameSeed = [u8; 32];

/// The RNG of the action applied at `version` (setup uses version 0).
pub fn rng_for(seed: &GameSeed, version: i64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::from_seed(*seed);
    rng.set_stream(version as u64);
    rng
}

/// The seed of a new game: derived from the client's `seed` when given (reproducible games,
/// whose every chance outcome is then public knowledge), from the OS CSPRNG otherwise.
pub fn new_seed(client_seed: Option<u64>) -> GameSeed {
    let mut bytes = [0u8; 32];
    match client_seed {
        Some(s) => ChaCha20Rng::seed_from_u64(s).fill_bytes(&mut bytes),
        None => rand::rng().fill_bytes(&mut bytes),
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_version_draws_from_its_own_reproducible_stream() {
        let seed = new_seed(Some(42));
        assert_eq!(seed, new_seed(Some(42)));
        let first = rng_for(&seed, 7).next_u64();
        assert_eq!(first, rng_for(&seed, 7).next_u64());
        assert_ne!(first, rng_for(&seed, 8).next_u64());
    }

    #[test]
    fn server_chosen_seeds_differ() {
        assert_ne!(new_seed(None), new_seed(None));
    }
}
