//! The process's memory of complete rosters.
//!
//! Every request that names a seat token needs the game's seats: to recognise the caller and,
//! for documents, to list the players. Once all seats of a game are taken its roster never
//! changes (seats are taken, never given up), so keeping it here is not game state held
//! between requests: no other process can make it stale, and losing it costs one query. Open
//! games' rosters are read fresh on every request.

use std::sync::Arc;

use db::store::{self, Roster};
use db::{PooledConn, StoreError};
use quick_cache::sync::Cache;
use uuid::Uuid;

/// Complete rosters by game id, at most `capacity` of them (the least used go first).
pub struct RosterCache {
    complete: Cache<Uuid, Arc<Roster>>,
}

impl RosterCache {
    /// A cache of at most `capacity` rosters.
    pub fn new(capacity: usize) -> RosterCache {
        RosterCache {
            complete: Cache::new(capacity.max(1)),
        }
    }

    /// The roster of `game_id`, from memory when it is complete and was seen before.
    ///
    /// # Errors
    /// `NotFound` for an unknown game; `Unavailable`/`Database`.
    pub fn get(&self, conn: &mut PooledConn, game_id: Uuid) -> Result<Arc<Roster>, StoreError> {
        if let Some(roster) = self.complete.get(&game_id) {
            return Ok(roster);
        }
        let roster = Arc::new(store::roster(conn, game_id)?);
        if roster.is_complete() {
            self.complete.insert(game_id, roster.clone());
        }
        Ok(roster)
    }
}
