//! Seat tokens and request fingerprints. Only hashes reach the database: a seat token is shown
//! once, at join, and a dump of the database cannot be used to act for anyone.

use hmac::{Hmac, Mac};
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

/// The deployment's secret behind tokens derived from an `Idempotency-Key`: 32 random bytes,
/// made once by the first process that starts and kept in the database (`token_secret`), so
/// every process derives the same token for a retried request. Without it a derived token would
/// be a hash of the key and public parts, and anyone who saw a key (in a proxy's or a client's
/// log: nobody treats that header as a secret) could compute the token. Never printed: its
/// `Debug` shows nothing of it.
#[derive(Clone)]
pub struct TokenSecret([u8; 32]);

impl std::fmt::Debug for TokenSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenSecret(…)")
    }
}

impl TokenSecret {
    /// 32 bytes from the OS CSPRNG.
    ///
    /// # Panics
    /// When the OS has no randomness to give (nothing secure could be made then).
    pub fn generate() -> TokenSecret {
        let mut secret = [0; 32];
        getrandom::fill(&mut secret).expect("the OS random number generator");
        TokenSecret(secret)
    }

    /// The secret as stored; `None` unless it is 32 bytes.
    pub fn from_stored(bytes: &[u8]) -> Option<TokenSecret> {
        bytes.try_into().ok().map(TokenSecret)
    }

    /// The bytes to store.
    pub fn stored(&self) -> &[u8] {
        &self.0
    }

    /// What a client's `key` makes of this secret: the key stands for the tokens of its
    /// request through this value only, so the key itself need not be kept.
    pub fn for_key(&self, key: &str) -> KeyedTokens {
        let mut mac = self.mac();
        mac.update(b"board-game-server keyed tokens\0");
        mac.update(key.as_bytes());
        KeyedTokens(mac.finalize().into_bytes().into())
    }

    fn mac(&self) -> Hmac<Sha256> {
        Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a key of any length")
    }
}

/// The tokens one `Idempotency-Key` makes ([`TokenSecret::for_key`]).
#[derive(Clone)]
pub struct KeyedTokens([u8; 32]);

impl std::fmt::Debug for KeyedTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyedTokens(…)")
    }
}

impl KeyedTokens {
    /// The token for `parts` (the operation, the game, the seat): HMAC-SHA256 under the
    /// key's value of the length-prefixed parts, 64 hex characters as [`new_token`]'s. The same
    /// key and parts give the same token, so a retried request gets it back although no token
    /// is stored; without the deployment's secret nobody can compute it.
    pub fn token(&self, parts: &[&[u8]]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes any key");
        for part in parts {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part);
        }
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keyed_token_depends_on_the_secret_the_key_and_every_part() {
        let secret = TokenSecret::generate();
        let token = secret.for_key("0123456789abcdef").token(&[b"op", b"game"]);
        assert_eq!(token.len(), 64);
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(
            secret.for_key("0123456789abcdef").token(&[b"op", b"game"]),
            token
        );
        assert_ne!(
            TokenSecret::generate()
                .for_key("0123456789abcdef")
                .token(&[b"op", b"game"]),
            token,
            "another deployment's secret"
        );
        assert_ne!(
            secret.for_key("0123456789abcdeg").token(&[b"op", b"game"]),
            token
        );
        assert_ne!(
            secret.for_key("0123456789abcdef").token(&[b"o", b"pgame"]),
            token
        );
    }

    #[test]
    fn neither_secret_shows_in_debug_output() {
        let secret = TokenSecret::from_stored(&[0xab; 32]).unwrap();
        assert_eq!(format!("{secret:?}"), "TokenSecret(…)");
        assert_eq!(format!("{:?}", secret.for_key("k")), "KeyedTokens(…)");
        assert!(TokenSecret::from_stored(&[1; 31]).is_none());
    }
}
