//! How a game that is over ranks its seats: by its rules among the seats that played to the
//! end, and every seat that left (resigned, or taken over by the server's bot and not
//! reclaimed) below all of them, whatever its score. The one rule every game shares; no game
//! adds to it (the seats that left are ranked among themselves by the game's own scores when
//! it has them, and by the order of leaving when it ended before scoring: whoever stayed
//! longer ranks higher).

use engine::Seat;

use super::fold::Lifecycle;
use crate::dto::{EndedBy, Outcome};

/// The outcome of a game whose rules gave `engine` (if they did) and whose seats' lifecycle
/// is `life`; `None` while it is not over, and for an aborted game (no winner).
pub fn outcome(engine: Option<engine::Outcome>, life: &Lifecycle) -> Option<Outcome> {
    if life.aborted_by.is_some() {
        return None;
    }
    let left = life.left_seats();
    let gone = |seat: usize| left.iter().any(|l| usize::from(l.seat) == seat);
    let seats = life.seats.len();
    // Each seat's key: (played to the end, won by the rules, score, how late it left).
    let (scores, ended_by, winners_by_rules): (Vec<i64>, EndedBy, Vec<Seat>) =
        if life.ended_by_resignation() {
            (Vec::new(), EndedBy::Resignation, Vec::new())
        } else {
            let o = engine?;
            (o.scores, EndedBy::Rules, o.winners)
        };
    let key = |seat: usize| {
        let left_at = left
            .iter()
            .find(|l| usize::from(l.seat) == seat)
            .map_or(i64::MAX, |l| l.seq);
        (
            !gone(seat),
            winners_by_rules.iter().any(|w| w.index() == seat),
            scores.get(seat).copied().unwrap_or(0),
            left_at,
        )
    };
    let places: Vec<u32> = (0..seats)
        .map(|seat| 1 + (0..seats).filter(|&other| key(other) > key(seat)).count() as u32)
        .collect();
    let winners = (0..seats)
        .filter(|&seat| places[seat] == 1 && !gone(seat))
        .map(|seat| seat as u8)
        .collect();
    Some(Outcome {
        winners,
        scores,
        places,
        left,
        ended_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dto::{Clock, LeftReason};
    use crate::lifecycle::LifecycleEvent;

    fn life(seats: usize, resigned: &[(u8, i64)]) -> Lifecycle {
        let mut life = Lifecycle::new(&Clock::Unlimited, &vec![false; seats]);
        for &(seat, seq) in resigned {
            life.apply(
                &LifecycleEvent::SeatResigned { seat },
                seq,
                &Clock::Unlimited,
            );
        }
        life
    }

    fn rules(winners: &[u8], scores: &[i64]) -> Option<engine::Outcome> {
        Some(engine::Outcome {
            winners: winners.iter().map(|&s| Seat(s)).collect(),
            scores: scores.to_vec(),
        })
    }

    #[test]
    fn without_leavers_the_rules_rank_the_seats() {
        let o = outcome(rules(&[2], &[10, 30, 50, 30]), &life(4, &[])).unwrap();
        assert_eq!(o.winners, vec![2]);
        assert_eq!(o.places, vec![4, 2, 1, 2]);
        assert_eq!(o.ended_by, EndedBy::Rules);
        assert!(o.left.is_empty());
    }

    #[test]
    fn a_seat_that_resigned_ranks_below_every_seat_that_finished_whatever_its_score() {
        // Seat 1 resigned at seq 40; the bot playing on for it scored best.
        let o = outcome(rules(&[1], &[10, 90, 50, 30]), &life(4, &[(1, 40)])).unwrap();
        assert_eq!(o.places, vec![3, 4, 1, 2]);
        assert_eq!(o.winners, vec![2], "the best seat that played to the end");
        assert_eq!(o.left[0].reason, LeftReason::Resigned);
        assert_eq!(o.scores, vec![10, 90, 50, 30]);
    }

    #[test]
    fn in_a_two_seat_game_a_resignation_ends_it_and_the_other_seat_wins() {
        let o = outcome(None, &life(2, &[(0, 12)])).unwrap();
        assert_eq!(o.winners, vec![1]);
        assert_eq!(o.places, vec![2, 1]);
        assert_eq!(o.ended_by, EndedBy::Resignation);
        assert!(o.scores.is_empty(), "the rules never scored the game");
    }

    #[test]
    fn seats_that_left_before_the_last_resignation_rank_by_how_long_they_stayed() {
        let o = outcome(None, &life(3, &[(2, 5), (0, 9)])).unwrap();
        assert_eq!(o.places, vec![2, 1, 3]);
    }

    #[test]
    fn an_aborted_game_has_no_outcome_and_an_unfinished_one_neither() {
        let mut aborted = life(2, &[]);
        aborted.apply(
            &LifecycleEvent::GameAborted { seat: 0 },
            3,
            &Clock::Unlimited,
        );
        assert_eq!(outcome(rules(&[0], &[1, 0]), &aborted), None);
        assert_eq!(outcome(None, &life(3, &[(1, 4)])), None);
    }
}
