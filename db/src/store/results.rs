//! Finished games' results and ratings, written in the transaction of the final event: each
//! player's place (games played and won on the profile) and, for a rated game, each player's
//! rating for the game type before and after. The rating maths is the caller's ([`RateFn`]);
//! this module locks, reads and writes, so that a rating changes exactly once per game (the
//! final event is appended once, and `player_results` refuses a second row per game and
//! player).

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use crate::schema::{player_results, ratings};

/// A rating: Weng-Lin's `mu` (skill) and `sigma` (uncertainty).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Skill {
    pub mu: f64,
    pub sigma: f64,
}

/// New ratings from each standing's rating before the game and its place (1 for the first;
/// tied places are equal), in the same order.
pub type RateFn = fn(&[(Skill, i32)]) -> Vec<Skill>;

/// How a rated game changes its players' ratings.
#[derive(Debug, Clone, Copy)]
pub struct Rating {
    /// A player's rating before the first rated game of the type.
    pub initial: Skill,
    /// The rating maths.
    pub rate: RateFn,
}

impl PartialEq for Rating {
    /// Equal initial ratings; the maths is the caller's (function pointers do not compare
    /// reliably).
    fn eq(&self, other: &Rating) -> bool {
        self.initial == other.initial
    }
}

/// One player's standing at the end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    pub player_id: Uuid,
    pub seat: i32,
    /// 1 for the first; tied seats share a place.
    pub place: i32,
    pub won: bool,
}

/// What a game's final commit records about its players.
#[derive(Debug, Clone, PartialEq)]
pub struct Finish {
    pub game_type: String,
    /// Every seat that belongs to a player.
    pub standings: Vec<Standing>,
    /// Set for a rated game.
    pub rating: Option<Rating>,
}

/// Records `finish` for game `game_id`, finished at `at`, in the caller's transaction.
pub(super) fn record(
    conn: &mut PgConnection,
    game_id: Uuid,
    finish: &Finish,
    at: DateTime<Utc>,
) -> QueryResult<()> {
    let mut changes: Vec<Option<(Skill, Skill)>> = vec![None; finish.standings.len()];
    if let Some(rating) = finish.rating {
        let players: Vec<Uuid> = finish.standings.iter().map(|s| s.player_id).collect();
        let fresh: Vec<_> = players
            .iter()
            .map(|p| {
                (
                    ratings::player_id.eq(*p),
                    ratings::game_type.eq(&finish.game_type),
                    ratings::mu.eq(rating.initial.mu),
                    ratings::sigma.eq(rating.initial.sigma),
                )
            })
            .collect();
        diesel::insert_into(ratings::table)
            .values(&fresh)
            .on_conflict_do_nothing()
            .execute(conn)?;
        // Locked in player order, like every other writer of these rows.
        let current: Vec<(Uuid, f64, f64)> = ratings::table
            .filter(ratings::game_type.eq(&finish.game_type))
            .filter(ratings::player_id.eq_any(&players))
            .order(ratings::player_id.asc())
            .select((ratings::player_id, ratings::mu, ratings::sigma))
            .for_update()
            .load(conn)?;
        let before: Vec<(Skill, i32)> = finish
            .standings
            .iter()
            .map(|s| {
                let (_, mu, sigma) = current
                    .iter()
                    .find(|(p, _, _)| *p == s.player_id)
                    .copied()
                    .unwrap_or((s.player_id, rating.initial.mu, rating.initial.sigma));
                (Skill { mu, sigma }, s.place)
            })
            .collect();
        let after = (rating.rate)(&before);
        for (standing, new) in finish.standings.iter().zip(&after) {
            diesel::update(ratings::table.find((standing.player_id, &finish.game_type)))
                .set((
                    ratings::mu.eq(new.mu),
                    ratings::sigma.eq(new.sigma),
                    ratings::games.eq(ratings::games + 1),
                    ratings::updated_at.eq(at),
                ))
                .execute(conn)?;
        }
        for (i, ((old, _), new)) in before.iter().zip(&after).enumerate() {
            changes[i] = Some((*old, *new));
        }
    }
    let rows: Vec<_> = finish
        .standings
        .iter()
        .zip(&changes)
        .map(|(s, change)| {
            (
                player_results::game_id.eq(game_id),
                player_results::player_id.eq(s.player_id),
                player_results::seat.eq(s.seat),
                player_results::game_type.eq(&finish.game_type),
                player_results::place.eq(s.place),
                player_results::won.eq(s.won),
                player_results::rated.eq(change.is_some()),
                player_results::mu_before.eq(change.map(|c| c.0.mu)),
                player_results::sigma_before.eq(change.map(|c| c.0.sigma)),
                player_results::mu_after.eq(change.map(|c| c.1.mu)),
                player_results::sigma_after.eq(change.map(|c| c.1.sigma)),
                player_results::finished_at.eq(at),
            )
        })
        .collect();
    if !rows.is_empty() {
        diesel::insert_into(player_results::table)
            .values(&rows)
            .execute(conn)?;
    }
    Ok(())
}
