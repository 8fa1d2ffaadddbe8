//! Where chance comes from, and how anyone can check it.
//!
//! The rules draw chance through [`Chance`] and the functions beside it: a uniform integer
//! below `n`, a die, a pick from a list and a shuffle. Three sources exist, one per *chance
//! version* stored with every game:
//!
//! - **Version 0** ([`table::Given`]): no derivation; a record of a game played at a real
//!   table names every outcome (the faces, the cards drawn, the piles as far as seen).
//! - **Version 1** (games created before chance was made checkable): any [`RngCore`], sampled
//!   with the `rand` crate's own algorithms. Kept bit for bit so that those games, and every
//!   seeded test and fingerprint written against them, draw what they always drew.
//! - **Version 2** ([`Documented`]): the derivation `docs/fairness.md` specifies, precise enough
//!   to re-implement in another language: the ChaCha20 keystream of the game's chance key with
//!   the game's version as nonce, uniform integers by rejection sampling on 32-bit words, and
//!   Fisher–Yates shuffles from the last position down.
//!
//! A version-2 game's chance key is derived from the server's secret seed, every seat's entropy
//! and the game id ([`chance_key`]), so neither the server nor any one player chooses the
//! chance; the server commits to its seed ([`commitment`]) before anyone moves and reveals it
//! when the game ends.
//!
//! The action applied at version `v` (setup is version 0) draws from stream `v`. Every accepted
//! action happens at a distinct version, so every outcome is reproducible from the key alone.
//! Outcomes are also written into events, so a replay needs neither the key nor this module.

pub mod table;

use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};

/// A 32-byte seed: the server's secret seed of a game, or the chance key derived from it.
pub type GameSeed = [u8; 32];

/// The chance version of games created now.
pub const CURRENT_VERSION: u32 = 2;

/// The source of every chance outcome of the rules.
pub trait Chance {
    /// The next uniform 32-bit word.
    fn word(&mut self) -> u32;

    /// A uniform integer in `0..n`; `n` is at least 1.
    fn below(&mut self, n: usize) -> usize;

    /// Shuffles `len` positions by calling `swap(i, j)` for each exchange: a uniformly random
    /// permutation. Use [`shuffle`] to shuffle a slice.
    fn shuffle_swaps(&mut self, len: usize, swap: &mut dyn FnMut(usize, usize));

    /// Outcomes named by what a table sees (a die's face, the card drawn, the pile's order),
    /// for a record of a game played at a real table ([`table`]); `None` for a drawn chance.
    fn named(&mut self) -> Option<&mut dyn Named> {
        None
    }
}

/// Chance outcomes named by the items they concern, in the order the rules draw them.
///
/// A drawn chance never needs names: its outcomes follow from the key. A record of a real
/// table states them instead, and [`table::Recording`] writes them down while drawing.
pub trait Named {
    /// A die with `faces` faces: its face, `1..=faces`.
    fn die(&mut self, faces: u8) -> u8;

    /// One of the items whose JSON forms are `labels`: its index.
    fn pick(&mut self, labels: &[serde_json::Value]) -> usize;

    /// A shuffle of the items whose JSON forms are `labels`: for each position after the
    /// shuffle, the index (before it) of the item that ends there.
    fn arrange(&mut self, labels: &[serde_json::Value]) -> Vec<usize>;
}

/// The JSON form of an item the rules draw or shuffle: how a record names it.
fn label<T: serde::Serialize>(item: &T) -> serde_json::Value {
    serde_json::to_value(item).expect("the rules' items serialize")
}

/// Shuffles `items` uniformly.
pub fn shuffle<T: serde::Serialize>(chance: &mut dyn Chance, items: &mut [T]) {
    if let Some(named) = chance.named() {
        let labels: Vec<_> = items.iter().map(label).collect();
        let order = named.arrange(&labels);
        apply_order(&order, &mut |i, j| items.swap(i, j));
        return;
    }
    chance.shuffle_swaps(items.len(), &mut |i, j| items.swap(i, j));
}

/// One of `items` (at least one), uniformly: `items[below(len)]`.
pub fn pick<T: serde::Serialize + Copy>(chance: &mut dyn Chance, items: &[T]) -> T {
    if let Some(named) = chance.named() {
        let labels: Vec<_> = items.iter().map(label).collect();
        return items[named.pick(&labels)];
    }
    items[chance.below(items.len())]
}

/// One die with `faces` faces, `1..=faces`, by rejection sampling on 32-bit words in both
/// chance versions (`faces - 1` scripted as a word rolls `faces`).
pub fn die(chance: &mut dyn Chance, faces: u8) -> u8 {
    if let Some(named) = chance.named() {
        return named.die(faces);
    }
    rolled_die(chance, faces)
}

/// A die drawn from the words of `chance`.
fn rolled_die(chance: &mut dyn Chance, faces: u8) -> u8 {
    uniform_word_below(chance, u32::from(faces)) as u8 + 1
}

/// Makes the permutation `order` (position `i` gets the item that was at `order[i]`) with
/// swaps, following each position's cycle.
fn apply_order(order: &[usize], swap: &mut dyn FnMut(usize, usize)) {
    for i in 0..order.len() {
        let mut from = order[i];
        while from < i {
            from = order[from];
        }
        if from != i {
            swap(i, from);
        }
    }
}

/// A uniform integer below `n` from 32-bit words: the first word below the largest multiple of
/// `n` that is at most `u32::MAX`, reduced modulo `n`.
fn uniform_word_below(chance: &mut dyn Chance, n: u32) -> u32 {
    let limit = u32::MAX - u32::MAX % n;
    loop {
        let word = chance.word();
        if word < limit {
            return word % n;
        }
    }
}

/// Version 1: the `rand` crate's sampling over any generator.
impl<R: RngCore + ?Sized> Chance for R {
    fn word(&mut self) -> u32 {
        self.next_u32()
    }

    fn below(&mut self, n: usize) -> usize {
        self.random_range(0..n)
    }

    fn shuffle_swaps(&mut self, len: usize, swap: &mut dyn FnMut(usize, usize)) {
        // `rand` shuffles a slice in place; shuffle the positions with it, then make the same
        // permutation with swaps: position `i` ends up holding what was at `order[i]`.
        let mut order: Vec<usize> = (0..len).collect();
        order.shuffle(self);
        apply_order(&order, swap);
    }
}

/// Version 2: the documented derivation (`docs/fairness.md`) over a stream of words (the
/// game's ChaCha20 keystream; tests script it).
pub struct Documented<S = ChaCha20Rng> {
    stream: S,
}

impl Documented {
    /// The stream of the action applied at `version` (setup: 0) of the game with `key`:
    /// ChaCha20 (20 rounds, the original 64-bit counter and 64-bit nonce layout) keyed with
    /// `key`, nonce `version`, block counter from 0.
    pub fn new(key: &GameSeed, version: i64) -> Documented {
        let mut stream = ChaCha20Rng::from_seed(*key);
        stream.set_stream(version as u64);
        Documented { stream }
    }
}

impl<S: RngCore> Chance for Documented<S> {
    /// The keystream's next four bytes, little-endian.
    fn word(&mut self) -> u32 {
        self.stream.next_u32()
    }

    fn below(&mut self, n: usize) -> usize {
        let n = u32::try_from(n).expect("the rules never draw from more than 2^32 outcomes");
        uniform_word_below(self, n) as usize
    }

    /// Fisher–Yates from the end: for `i` from `len - 1` down to 1, swap `i` with
    /// `below(i + 1)`.
    fn shuffle_swaps(&mut self, len: usize, swap: &mut dyn FnMut(usize, usize)) {
        for i in (1..len).rev() {
            let j = self.below(i + 1);
            swap(i, j);
        }
    }
}

/// The chance of the action applied at `version` of a game, by its chance version: version 1
/// reads `seed` as the generator's seed, version 2 as the chance key.
pub enum GameChance {
    Rand(ChaCha20Rng),
    Documented(Documented),
}

impl GameChance {
    /// The chance of a game of `chance_version` drawing with `seed` at `version`.
    pub fn new(chance_version: u32, seed: &GameSeed, version: i64) -> GameChance {
        if chance_version < 2 {
            GameChance::Rand(rng_for(seed, version))
        } else {
            GameChance::Documented(Documented::new(seed, version))
        }
    }

    /// The chance to hand to the rules.
    pub fn as_dyn(&mut self) -> &mut dyn Chance {
        match self {
            GameChance::Rand(rng) => rng,
            GameChance::Documented(documented) => documented,
        }
    }
}

/// The version-1 generator of the action applied at `version` (setup uses version 0).
pub fn rng_for(seed: &GameSeed, version: i64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::from_seed(*seed);
    rng.set_stream(version as u64);
    rng
}

/// The server's seed of a new game: from the OS CSPRNG, or derived from the client's `seed`
/// (a reproducible game, whose every chance outcome is then public knowledge). Version 2
/// derives a client's seed as SHA-256 of its 8 bytes big-endian; version 1 expanded it with
/// `rand`'s `seed_from_u64`.
pub fn new_seed(chance_version: u32, client_seed: Option<u64>) -> GameSeed {
    match client_seed {
        Some(s) if chance_version < 2 => {
            let mut bytes = [0u8; 32];
            ChaCha20Rng::seed_from_u64(s).fill_bytes(&mut bytes);
            bytes
        }
        Some(s) => Sha256::digest(s.to_be_bytes()).into(),
        None => {
            let mut bytes = [0u8; 32];
            rand::rng().fill_bytes(&mut bytes);
            bytes
        }
    }
}

/// What the server publishes before anyone moves: SHA-256 of its seed.
pub fn commitment(server_seed: &GameSeed) -> [u8; 32] {
    Sha256::digest(server_seed).into()
}

/// What a version-2 game's chance is drawn with: SHA-256 over the ASCII label `chance-v2`,
/// the server's 32-byte seed, the game id's 16 bytes (RFC 9562 order), and for each seat in
/// seat order its entropy's UTF-8 length as 4 bytes big-endian followed by those bytes (a seat
/// that sent none: length 0).
pub fn chance_key<'a>(
    server_seed: &GameSeed,
    game_id: &[u8; 16],
    entropies: impl IntoIterator<Item = Option<&'a str>>,
) -> GameSeed {
    let mut hash = Sha256::new();
    hash.update(b"chance-v2");
    hash.update(server_seed);
    hash.update(game_id);
    for entropy in entropies {
        let bytes = entropy.unwrap_or("").as_bytes();
        hash.update((bytes.len() as u32).to_be_bytes());
        hash.update(bytes);
    }
    hash.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn each_version_draws_from_its_own_reproducible_stream() {
        let seed = new_seed(2, Some(42));
        assert_eq!(seed, new_seed(2, Some(42)));
        let first = Documented::new(&seed, 7).word();
        assert_eq!(first, Documented::new(&seed, 7).word());
        assert_ne!(first, Documented::new(&seed, 8).word());
    }

    #[test]
    fn server_chosen_seeds_differ() {
        assert_ne!(new_seed(2, None), new_seed(2, None));
    }

    /// Version 1 keeps `rand`'s outcomes: the swaps make exactly the permutation `rand`'s
    /// own shuffle makes, and `below` is `random_range`.
    #[test]
    fn version_one_is_rand_bit_for_bit() {
        for len in [0, 1, 2, 5, 30, 108] {
            let mut direct: Vec<usize> = (0..len).collect();
            direct.shuffle(&mut ChaCha8Rng::seed_from_u64(len as u64));
            let mut swapped: Vec<usize> = (0..len).collect();
            shuffle(&mut ChaCha8Rng::seed_from_u64(len as u64), &mut swapped);
            assert_eq!(direct, swapped, "length {len}");
        }
        let mut a = ChaCha8Rng::seed_from_u64(9);
        let mut b = ChaCha8Rng::seed_from_u64(9);
        for n in 1..50 {
            assert_eq!(Chance::below(&mut a, n), b.random_range(0..n));
        }
    }

    /// Words scripted for [`Documented`].
    struct Words(Vec<u32>);

    impl RngCore for Words {
        fn next_u32(&mut self) -> u32 {
            self.0.remove(0)
        }
        fn next_u64(&mut self) -> u64 {
            unreachable!("version 2 draws 32-bit words only")
        }
        fn fill_bytes(&mut self, _: &mut [u8]) {
            unreachable!("version 2 draws 32-bit words only")
        }
    }

    /// Version 2's shuffle is Fisher–Yates from the end, each swap partner drawn by
    /// rejection sampling: scripted words show the order.
    #[test]
    fn version_two_shuffles_from_the_end_with_rejection_sampling() {
        // 3 positions: i = 2 draws below 3 (u32::MAX is rejected, then 4 % 3 = 1), i = 1
        // draws below 2 (7 % 2 = 1).
        let mut words = Documented {
            stream: Words(vec![u32::MAX, 4, 7]),
        };
        let mut items = ['a', 'b', 'c'];
        shuffle(&mut words, &mut items);
        // swap(2, 1): a c b; swap(1, 1): a c b.
        assert_eq!(items, ['a', 'c', 'b']);
        assert!(words.stream.0.is_empty());
    }

    /// Rejection sampling: the largest multiple of 6 below 2^32 is 4294967292; words from it
    /// up are drawn again.
    #[test]
    fn version_two_rejects_the_words_above_the_last_full_multiple() {
        let mut words = Documented {
            stream: Words(vec![4_294_967_292, 4_294_967_291]),
        };
        assert_eq!(die(&mut words, 6), (4_294_967_291u32 % 6) as u8 + 1);
        let mut words = Documented {
            stream: Words(vec![u32::MAX - 1, 10]),
        };
        assert_eq!(words.below(4), 2);
    }

    /// The key changes with every input, and a seat's entropy cannot be moved into another
    /// seat's (lengths are part of the hash).
    #[test]
    fn the_chance_key_binds_seed_game_and_every_seat_in_order() {
        let seed = [1u8; 32];
        let game = [2u8; 16];
        let key = chance_key(&seed, &game, [Some("ab"), None]);
        assert_ne!(key, chance_key(&[3u8; 32], &game, [Some("ab"), None]));
        assert_ne!(key, chance_key(&seed, &[4u8; 16], [Some("ab"), None]));
        assert_ne!(key, chance_key(&seed, &game, [None, Some("ab")]));
        assert_ne!(key, chance_key(&seed, &game, [Some("a"), Some("b")]));
        assert_eq!(key, chance_key(&seed, &game, [Some("ab"), Some("")]));
    }
}
