//! End-to-end tests of the HTTP API: the real application on a real socket, a real PostgreSQL
//! database per test (db::testing). One binary with modules links once.

mod availability;
mod bad_input;
mod clients;
mod concurrency;
mod conventions;
mod faults;
mod helpers;
mod hidden_information;
mod hostile_input;
mod load;
mod lobby;
mod openapi;
mod playthrough;
mod polling;
mod schemathesis;
mod seat_views;
mod storage;
mod stream;
