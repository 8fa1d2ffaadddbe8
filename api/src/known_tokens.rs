//! Seat tokens this process has seen to be real. The rate limiter gives a budget of its own
//! only to these: a made-up bearer token is no identity, so a request with one spends the
//! budget of its address like any anonymous request (a fresh budget per made-up token would be
//! no limit at all).
//!
//! A token is learned when this process creates it (creating a game, joining a seat) and when
//! a request's token is recognised as a seat's. A real token this process has not seen yet
//! (made by another process, or forgotten when the memory was full) spends its address's
//! budget on its first request only.

use std::hash::BuildHasher;

use quick_cache::sync::Cache;

/// The tokens seen to be real, at most `capacity` of them (the least used are forgotten
/// first). Only keyed hashes are kept, never a token.
pub struct KnownTokens {
    seen: Cache<u64, ()>,
    keys: std::collections::hash_map::RandomState,
}

impl KnownTokens {
    /// A memory of at most `capacity` tokens.
    pub fn new(capacity: usize) -> KnownTokens {
        KnownTokens {
            seen: Cache::new(capacity.max(1)),
            keys: std::collections::hash_map::RandomState::new(),
        }
    }

    /// The token's key: a hash keyed per process, so that nobody can aim at another token's
    /// budget with a crafted collision.
    pub fn key(&self, token: &str) -> u64 {
        self.keys.hash_one(token)
    }

    /// Remembers `token` as a seat's.
    pub fn learn(&self, token: &str) {
        self.seen.insert(self.key(token), ());
    }

    /// The token's key when the token is known to be a seat's.
    pub fn known(&self, token: &str) -> Option<u64> {
        let key = self.key(token);
        self.seen.get(&key).map(|()| key)
    }
}

/// How many tokens a process remembers (16 bytes each).
pub const KNOWN_TOKENS_CAPACITY: usize = 100_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_learned_tokens_are_known() {
        let known = KnownTokens::new(10);
        assert_eq!(known.known("abc"), None);
        known.learn("abc");
        assert_eq!(known.known("abc"), Some(known.key("abc")));
        assert_eq!(known.known("abd"), None);
    }
}
