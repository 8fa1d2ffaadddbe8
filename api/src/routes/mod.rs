//! Every documented route, registered through utoipa's actix-web integration so that the
//! router and the OpenAPI document come from one list ([`configure`]). One module per
//! endpoint family: [`games`] (catalogue, lobby), [`play`] and [`stream`], [`lifecycle`]
//! (resign, reclaim, abort), [`players`] and [`player_stream`] (identity, profiles, a
//! player's games and stream, leaderboards), [`seeks`], [`challenges`] (challenges,
//! rematches, blocks), [`chat`] (table chat, mutes), [`tournaments`], [`history`],
//! [`operations`].
//! Unknown routes and wrong methods are [`crate::fallback`]'s.

pub mod challenges;
pub mod chat;
pub mod games;
pub mod history;
pub mod lifecycle;
pub mod operations;
pub mod play;
pub mod player_stream;
pub mod players;
pub mod seating;
pub mod seeks;
pub mod stream;
pub mod tournaments;

use utoipa_actix_web::service_config::ServiceConfig;

/// Registers every documented route. The router tries routes in this order, matching each
/// dynamic path with a regular expression, so the routes of play come first: every move
/// passes through them.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(play::post_action)
        .service(play::get_game)
        .service(play::legal_actions)
        .service(stream::stream_game)
        .service(play::dry_run_action)
        .service(games::list_game_types)
        .service(games::create_game)
        .service(games::list_games)
        .service(seating::join_seat)
        .service(seating::start_game)
        .service(lifecycle::resign)
        .service(lifecycle::reclaim)
        .service(lifecycle::abort)
        .service(players::create_player)
        .service(players::me)
        .service(players::rotate_token)
        .service(players::my_games)
        .service(player_stream::player_stream)
        .service(players::profile)
        .service(players::player_records)
        .service(players::leaderboard)
        .service(chat::post_chat)
        .service(chat::get_chat)
        .service(chat::mute)
        .service(chat::list_mutes)
        .service(chat::unmute)
        .service(challenges::create_challenge)
        .service(challenges::list_challenges)
        .service(challenges::get_challenge)
        .service(challenges::accept_challenge)
        .service(challenges::decline_challenge)
        .service(challenges::cancel_challenge)
        .service(challenges::rematch)
        .service(challenges::get_rematch)
        .service(challenges::block_player)
        .service(challenges::list_blocks)
        .service(challenges::unblock_player)
        .service(challenges::get_settings)
        .service(challenges::put_settings)
        .service(tournaments::create_tournament)
        .service(tournaments::list_tournaments)
        .service(tournaments::get_tournament)
        .service(tournaments::tournament_rounds)
        .service(tournaments::join_tournament)
        .service(tournaments::leave_tournament)
        .service(tournaments::start_tournament)
        .service(seeks::create_seek)
        .service(seeks::get_seek)
        .service(seeks::cancel_seek)
        .service(history::list_events)
        .service(history::export_events)
        .service(history::game_record)
        .service(history::import_record)
        .service(history::get_state)
        .service(operations::healthz)
        .service(operations::readyz)
        .service(operations::metrics);
}
