//! Where a read replica stands: how far it has replayed the primary's WAL. Read on the
//! replica ([`replica_position`]) and compared with the primary's position
//! ([`bytes_behind`]); the api exports both as gauges.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Double, Nullable, Text, Uuid as SqlUuid};
use uuid::Uuid;

use crate::StoreError;

/// A replica's replay position, as it reports it.
#[derive(Debug, Clone, PartialEq, QueryableByName)]
pub struct ReplicaPosition {
    /// Whether the server is a standby at all (a reader URL may reach a primary, for instance
    /// the only member left after a failover).
    #[diesel(sql_type = Bool)]
    pub standby: bool,
    /// The last WAL position replayed (`pg_lsn` as text); `None` on a primary.
    #[diesel(sql_type = Nullable<Text>)]
    pub replayed: Option<String>,
    /// How far replay is behind what the standby has received, in seconds of commit
    /// time: 0 when everything received is replayed, else the time since the last replayed
    /// transaction committed on the primary (the usual "replication lag" of monitoring).
    #[diesel(sql_type = Double)]
    pub lag_seconds: f64,
}

/// The replay position of the server behind `conn`.
///
/// # Errors
/// `Unavailable`/`Database` only.
pub fn replica_position(conn: &mut PgConnection) -> Result<ReplicaPosition, StoreError> {
    Ok(diesel::sql_query(
        "SELECT pg_is_in_recovery() AS standby,
                pg_last_wal_replay_lsn()::text AS replayed,
                CASE WHEN NOT pg_is_in_recovery()
                       OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                     ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0)
                END::float8 AS lag_seconds",
    )
    .get_result(conn)?)
}

#[derive(QueryableByName)]
struct Bytes {
    #[diesel(sql_type = BigInt)]
    bytes: i64,
}

/// How many bytes of WAL the primary behind `conn` has written beyond `replayed` (a
/// [`ReplicaPosition::replayed`]); 0 when the replica is level or ahead (another timeline).
///
/// # Errors
/// `Unavailable`/`Database` only (a malformed position is a `Database` error).
pub fn bytes_behind(conn: &mut PgConnection, replayed: &str) -> Result<i64, StoreError> {
    let row: Bytes = diesel::sql_query(
        "SELECT greatest(pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn), 0)::int8 AS bytes",
    )
    .bind::<Text, _>(replayed)
    .get_result(conn)?;
    Ok(row.bytes)
}

#[derive(QueryableByName)]
struct Version {
    #[diesel(sql_type = BigInt)]
    version: i64,
}

/// A game's version alone (no snapshot): how far this server has it.
///
/// # Errors
/// `NotFound` for an unknown game; `Unavailable`/`Database`.
pub fn game_version(conn: &mut PgConnection, id: Uuid) -> Result<i64, StoreError> {
    let row: Version = diesel::sql_query("SELECT version FROM games WHERE id = $1")
        .bind::<SqlUuid, _>(id)
        .get_result(conn)?;
    Ok(row.version)
}
