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
