//! Seat tokens and request fingerprints. Only hashes reach the database: a seat token is shown
//! once, at join, and a dump of the database cannot be used to act for anyone.

use sha2::{Digest, Sha256};

/// SHA-256 of a seat token, as stored in `seats.token_sha256`.
pub fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// A fresh seat token: 64 hex characters carrying 244 bits from the OS CSPRNG (two v4 UUIDs).
pub fn new_token() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// A seat token derived from a client's `Idempotency-Key` and what it was used for (`parts`:
/// the operation, the game, the seat), so that a retried request gets the same token back
/// although no token is stored: 64 hex characters, as [`new_token`]'s. As unguessable as the
/// key it comes from (the api asks keys of such requests for at least 16 characters).
pub fn derived_token(key: &str, parts: &[&[u8]]) -> String {
    let mut all: Vec<&[u8]> = vec![b"board-game-server seat token", key.as_bytes()];
    all.extend_from_slice(parts);
    fingerprint(&all)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Fingerprint of a request for idempotency checks: SHA-256 over the length-prefixed parts,
/// so `["ab", "c"]` and `["a", "bc"]` differ. Pass e.g. the method, path and canonical body.
pub fn fingerprint(parts: &[&[u8]]) -> Vec<u8> {
    let mut h = Sha256::new();
    for part in parts {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part);
    }
    h.finalize().to_vec()
}
