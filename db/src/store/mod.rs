//! The repository: plain synchronous functions over a `&mut PgConnection`, each doing one
//! request's whole database work (the api calls them inside `web::block`).
//!
//! Every write to a game holds its `games` row lock (`SELECT ... FOR UPDATE` first, or the
//! version-guarded UPDATE of [`append_at_version`]'s single statement), so all
//! changes to one game are serialised and `version` is exactly the seq of the last event.

mod append;
mod apply;
mod bot_turns;
mod challenges;
mod chat;
mod deadlines;
mod events;
mod games;
mod idempotency;
mod locked;
mod notices;
mod players;
mod replication;
mod results;
mod seats;
mod seeks;
mod table_chance;
mod tournaments;

pub use append::{append_imported, Applied, BotTurn, DeadlineChange, Decision, LockWait};
pub use apply::{
    append_at_version, append_locked, check_actionable, lock_for_start, read_locked,
    remember_response, stored_response, AppendError, IdempotencyKey, Replay, Starting,
};
pub use bot_turns::{claim_bot_turn, drop_stale_bot_turn, ClaimedTurn, BOT_CHANNEL};
pub use challenges::*;
pub use chat::{
    chat_after, mute_player, muted_by, post_chat, unmute_player, ChatLimit, ChatRateLimited,
    ChatRow, NewChat,
};
pub use deadlines::{
    claim_deadline, drop_stale_deadline, next_deadline_in, reschedule_deadline, ClaimedDeadline,
    DeadlineKind, EndedOpen, DEADLINE_CHANNEL,
};
pub use events::{all_events, events_after, events_up_to};
pub use games::{
    active_bot_only_games, atomically, claim_bot_game_slot, create_game, create_game_noticed,
    get_game, list_games, BotSeat, ClockKind, Cursor, GameFilter, GameSummary, NewGame, NewSeat,
    Page,
};
pub use idempotency::{
    claim_lobby_key, expire_idempotency_keys, save_lobby_response, token_secret,
};
pub use locked::{any_seat_moved, write_locked, Changed, LockedChange};
pub use notices::{
    expire_notices, notice_range, notices_after, record_now, NewNotice, NoticeDue, NoticeRow,
    NOTICE_CHANNEL,
};
pub use players::{
    create_player, get_player, leaderboard, player_by_name_key, player_by_token, player_games,
    profile, rotate_player_token, PlayerGame, PlayerGameFilter, PlayerGamePage, Profile, Ranked,
    RatingRow, Record, ResultRow,
};
pub use replication::{bytes_behind, game_version, replica_position, ReplicaPosition};
pub use results::{Finish, RateFn, Rating, Skill, Standing};
pub use seats::{
    join_bot_seat, join_player_seat, join_seat, roster, seat_by_token, seats, set_seat_entropy,
    Roster,
};
pub use seeks::*;
pub use table_chance::{put_table_chance, table_chance, TableChance};
pub use tournaments::*;

use diesel::prelude::*;

use crate::StoreError;

/// One round trip to the server: readiness checks use it, since the pool hands out recently
/// used connections without checking them.
///
/// # Errors
/// `Unavailable` when the server cannot be reached.
pub fn ping(conn: &mut PgConnection) -> Result<(), StoreError> {
    use diesel::r2d2::R2D2Connection;
    Ok(conn.ping()?)
}
