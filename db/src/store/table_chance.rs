//! The chance outcomes of a game imported from a table's record (migration 29): chance
//! version 0 draws nothing, so the outcomes the record named are kept beside the game for its
//! own record to name again.

use diesel::prelude::*;
use serde_json::Value;
use uuid::Uuid;

use crate::schema::table_chance;
use crate::StoreError;

/// The outcomes of one imported game: the setup's, and each move's by its index.
#[derive(Debug, Clone, PartialEq, Queryable, Insertable)]
#[diesel(table_name = table_chance)]
pub struct TableChance {
    pub game_id: Uuid,
    /// A JSON array, one value per draw.
    pub setup: Value,
    /// A JSON array of arrays.
    pub moves: Value,
}

/// Keeps `outcomes` (in the import's transaction).
///
/// # Errors
/// Store errors.
pub fn put_table_chance(conn: &mut PgConnection, outcomes: &TableChance) -> Result<(), StoreError> {
    diesel::insert_into(table_chance::table)
        .values(outcomes)
        .execute(conn)?;
    Ok(())
}

/// The outcomes kept for `game_id`, if it was imported from a table's record.
///
/// # Errors
/// Store errors.
pub fn table_chance(
    conn: &mut PgConnection,
    game_id: Uuid,
) -> Result<Option<TableChance>, StoreError> {
    Ok(table_chance::table.find(game_id).first(conn).optional()?)
}
