//! The synchronous work of each request: store calls and engine calls, run inside
//! `web::block` (see [`crate::state::AppState::db`]). Handlers parse the request, call one
//! function here, and turn the result into a response.
//!
//! By endpoint family, like [`crate::routes`]: [`lobby`] (create), [`seating`] (join, start), [`play`]
//! (documents, legal actions), [`act`] (actions: the action path), [`history`] (the log, time travel), [`lifecycle`]
//! (resign, reclaim, abort, and the deadlines the deadline workers fire), [`challenges`]
//! (challenges, rematches), [`blocks`] (whom a player takes them from), [`chat`] (table chat,
//! mutes). Shared steps:
//! [`caller`] (which game, which seat), [`document`] (what a caller sees), [`decision`] (what
//! the store appends).

pub mod act;
pub mod blocks;
pub mod caller;
pub mod challenges;
pub mod chance;
pub mod chat;
pub mod decision;
pub mod document;
pub mod history;
pub mod import;
pub mod lifecycle;
pub mod lobby;
pub mod lobby_keys;
pub mod notices;
pub mod play;
pub mod players;
pub mod profiles;
pub mod record;
pub mod seating;
pub mod seeks;
