//! Ratings: the Weng-Lin model (the OpenSkill family, made for free-for-all games of any
//! number of players) from the `skillratings` crate, each player a team of one. No rating
//! maths lives here: this module only converts between the store's [`Skill`] and the crate's
//! types. The store applies it in the transaction of a rated game's final event
//! ([`db::store::Finish`]).
//!
//! ```
//! use api::ratings::{rate, INITIAL};
//! // Three newcomers: the winner gains, the last loses, everyone grows more certain.
//! let after = rate(&[(INITIAL, 2), (INITIAL, 1), (INITIAL, 3)]);
//! assert!(after[1].mu > INITIAL.mu && after[2].mu < INITIAL.mu);
//! assert!(after.iter().all(|s| s.sigma < INITIAL.sigma));
//! ```

use db::store::{Rating, Skill};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// A newcomer's rating: the model's defaults (mu 25, sigma 25/3).
pub const INITIAL: Skill = Skill {
    mu: 25.0,
    sigma: 25.0 / 3.0,
};

/// New ratings from each player's rating before the game and place (1 for the first; equal
/// places tie), in the same order.
pub fn rate(standings: &[(Skill, i32)]) -> Vec<Skill> {
    let teams: Vec<[WengLinRating; 1]> = standings
        .iter()
        .map(|(s, _)| {
            [WengLinRating {
                rating: s.mu,
                uncertainty: s.sigma,
            }]
        })
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(standings)
        .map(|(team, (_, place))| {
            (
                &team[..],
                MultiTeamOutcome::new(usize::try_from(*place).unwrap_or(1).max(1)),
            )
        })
        .collect();
    weng_lin_multi_team(&input, &WengLinConfig::new())
        .into_iter()
        .map(|team| {
            let r = team[0];
            Skill {
                mu: r.rating,
                sigma: r.uncertainty,
            }
        })
        .collect()
}

/// What the store needs to rate a game.
pub fn rating() -> Rating {
    Rating {
        initial: INITIAL,
        rate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tie_between_equals_moves_no_rating_and_order_follows_places() {
        let tied = rate(&[(INITIAL, 1), (INITIAL, 1)]);
        assert!((tied[0].mu - INITIAL.mu).abs() < 1e-9);
        assert!((tied[1].mu - tied[0].mu).abs() < 1e-9);
        let four = rate(&[(INITIAL, 4), (INITIAL, 1), (INITIAL, 2), (INITIAL, 3)]);
        assert!(four[1].mu > four[2].mu && four[2].mu > four[3].mu && four[3].mu > four[0].mu);
    }
}
