//! PostgreSQL event store for the board-game server.
//!
//! - [`local_pg`]: start a private PostgreSQL cluster when no `DATABASE_URL` is given.
//! - [`migrate`]: apply the embedded migrations (`db/migrations`).
//! - [`connect_pool`]/[`get_conn`]: the r2d2 pool the api uses inside `web::block`.
//! - [`conninfo`]: connection strings that notice a vanished server in bounded time.
//! - [`store`]: repository functions; [`store::append_at_version`] and [`store::append_locked`]
//!   append an action's events (see `docs/architecture.md`, "Storage").
//! - [`notify`]: LISTEN/NOTIFY so long polls wake up across processes.
//! - `testing` (feature `testing`): a shared test cluster and a fresh database per test.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let pool = db::connect_pool(&std::env::var("DATABASE_URL")?, 8)?;
//! let mut conn = db::get_conn(&pool)?;
//! db::migrate(&mut conn)?;
//! let page = db::store::list_games(&mut conn, &Default::default(), None, 20)?;
//! # let _ = page; Ok(()) }
//! ```
//!
//! Engine types, row types and API types stay apart: this crate stores JSON and knows nothing
//! about the rules; the api converts between the engine and these rows.

pub mod conninfo;
pub mod local_pg;
pub mod models;
pub mod notify;
pub mod schema;
pub mod store;
pub mod token;

mod error;
mod pool;

#[cfg(feature = "testing")]
pub mod testing;

pub use error::StoreError;
pub use models::{
    EventRow, GameRow, GameStatus, JsonText, NewEvent, PlayerRow, RngSeed, SeatRow, StoredResponse,
};
pub use pool::{
    connect_pool, connect_pool_lazy, get_conn, DbConn, DbManager, Pool, PooledConn,
    CHECKOUT_TIMEOUT, CHECKOUT_WHILE_DOWN, PING_AFTER_IDLE, RECONNECT_EVERY,
};

/// The connection every store function takes (diesel's), for callers that group store calls
/// with [`store::atomically`].
pub use diesel::PgConnection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

/// The migrations in `db/migrations`, compiled into the binary.
pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

/// A migration failed; the message names the migration and the SQL error.
#[derive(Debug, thiserror::Error)]
#[error("migration failed: {0}")]
pub struct MigrationError(String);

/// Applies every pending migration; safe to call at every start-up (already applied ones are
/// skipped, and PostgreSQL's transactional DDL makes a failed one leave nothing behind).
///
/// # Errors
/// [`MigrationError`] with the failing migration's message.
pub fn migrate(conn: &mut PgConnection) -> Result<(), MigrationError> {
    let applied = conn
        .run_pending_migrations(MIGRATIONS)
        .map_err(|e| MigrationError(e.to_string()))?;
    for m in applied {
        tracing::info!(migration = %m, "applied migration");
    }
    Ok(())
}
