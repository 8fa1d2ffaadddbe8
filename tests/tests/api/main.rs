//! End-to-end tests of the HTTP API: the real application on a real socket, a real PostgreSQL
//! database per test (db::testing). One binary with modules links once.

mod acquire;
mod availability;
mod bad_input;
mod bots;
mod browser;
mod caching;
mod challenges;
mod chat;
mod clients;
mod clocks;
mod concurrency;
mod conventions;
mod faults;
mod helpers;
mod hostile_input;
mod leaving;
mod limits;
mod load;
mod lobby;
mod lobby_retries;
mod monopoly;
mod openapi;
mod players;
mod polling;
mod readme;
mod records;
mod schemathesis;
mod seat_views;
mod sse;
mod storage;
mod stream;
mod tycoon;
mod tyros;
mod watchers;
mod web_client;
