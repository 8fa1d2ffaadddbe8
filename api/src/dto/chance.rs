//! What a game shows of its chance: how it is drawn, the server's commitment from creation
//! on, and once the game is over everything needed to recompute every die and every deck
//! (`docs/fairness.md`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A game's chance. Version 2 games (every game created since chance became checkable)
/// commit to the server's secret seed at creation and reveal it, with every seat's entropy,
/// when the game is over (finished, aborted or expired); version 1 games predate that and
/// show neither.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChanceInfo {
    /// How chance is drawn: 2 is the derivation `docs/fairness.md` specifies; 1 the older
    /// one, kept for games created before it.
    pub version: i32,
    /// Whether the creator fixed the chance with a `seed`: then it is derived from that seed
    /// alone (no game id, no entropy) and public knowledge from the start.
    pub seeded: bool,
    /// SHA-256 of the server's seed, lowercase hex, shown from creation on; `null` for a
    /// version 1 game.
    #[schema(required = true)]
    pub commitment: Option<String>,
    /// The server's seed and the seats' entropies; `null` until the game is over (and for a
    /// version 1 game).
    #[schema(required = true)]
    pub reveal: Option<ChanceReveal>,
}

/// What a version 2 game reveals when it is over: with the game id, enough to derive its
/// chance key and recompute every chance outcome of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChanceReveal {
    /// The server's 32-byte seed, lowercase hex: its SHA-256 is the `commitment`.
    pub server_seed: String,
    /// What each seat's taker added, in seat order; `null` for a seat that added nothing.
    pub entropies: Vec<Option<String>>,
    /// The key every chance outcome was drawn with, lowercase hex (derived from the above as
    /// `docs/fairness.md` says; shown for convenience, a verifier derives it itself).
    pub key: String,
}

/// What a game list shows of a game's chance: the commitment (fetch the game for the reveal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChanceCommitment {
    /// As in `ChanceInfo`.
    pub version: i32,
    /// As in `ChanceInfo`.
    pub seeded: bool,
    /// SHA-256 of the server's seed, lowercase hex; `null` for a version 1 game.
    #[schema(required = true)]
    pub commitment: Option<String>,
}
