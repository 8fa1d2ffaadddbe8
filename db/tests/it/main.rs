//! Integration tests against a real PostgreSQL (see `db::testing`): one test binary, so one
//! shared cluster and one migrated template for all of them.

mod apply;
mod caller;
mod deadlines;
mod games;
mod helpers;
mod local_pg;
mod migrations;
mod notify;
mod pool;
