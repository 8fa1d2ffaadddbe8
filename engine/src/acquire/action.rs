//! What a seat may ask for. The JSON form (`{"type": "place_tile", "tile": "9F"}`) is stable
//! API: variants and fields are only ever added.

use super::data::{Chain, Tile};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AcquireAction))]
pub enum Action {
    /// Place a tile from the hand (AQ-PLACE-1). `chain` names the new chain when the tile founds
    /// one (AQ-FOUND-2) and must be absent otherwise.
    PlaceTile {
        tile: Tile,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chain: Option<Chain>,
    },
    /// The merger maker picks the survivor among equal largest chains (AQ-MERGE-2).
    ChooseSurvivor { chain: Chain },
    /// The merger maker gives the settling order of all defunct chains, which must respect the
    /// size order and only reorder equal sizes (AQ-MERGE-4).
    OrderDefuncts { order: Vec<Chain> },
    /// A holder of the defunct chain sells `sell` and trades `trade` (even) of his shares; he
    /// keeps the rest (AQ-DISP-2).
    DisposeShares { sell: u8, trade: u8 },
    /// Announce the end of the game, after placing and before buying (AQ-END-1).
    AnnounceEnd,
    /// Buy one share of an active chain (AQ-BUY-1); at most 3 per turn.
    BuyShare { chain: Chain },
    /// Finish buying: draw and pass the turn on (AQ-DRAW-1), or score the game after an
    /// announcement (AQ-END-4).
    EndTurn,
}
