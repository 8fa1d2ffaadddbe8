//! Who sits at which table in a round: the tables' sizes, who sits out with a bye, and the
//! seating. Pure functions over player indices, so that their properties are tested over
//! many random tournaments (see the tests below).

/// The players at each table of a round, and how many sit out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Players (not bots) per table.
    pub tables: Vec<usize>,
    /// Players with a bye.
    pub byes: usize,
}

/// Tables for `players` players, preferring `table_size` seats, never fewer than the game's
/// `min_seats`: as many tables as `table_size` needs, with the players spread as evenly as
/// possible. With `fill_with_bots` every table is seated (the server's bots fill each to
/// `table_size`, so nobody has a bye); otherwise tables too small for the game are dropped
/// and their players have a bye.
pub fn layout(players: usize, table_size: usize, min_seats: usize, fill_with_bots: bool) -> Layout {
    let table_size = table_size.max(1);
    let mut count = players.div_ceil(table_size);
    if !fill_with_bots {
        while count > 0 && players / count < min_seats {
            count -= 1;
        }
    }
    let seated = players.min(count * table_size);
    let tables = (0..count)
        .map(|t| seated / count + usize::from(t < seated % count))
        .collect();
    Layout {
        tables,
        byes: players - seated,
    }
}

/// The `count` players who sit out: those with the fewest byes so far, from the bottom of
/// the standings (`order`, best first).
pub fn byes(order: &[usize], count: usize, byes_so_far: impl Fn(usize) -> u32) -> Vec<usize> {
    let mut candidates: Vec<(u32, usize, usize)> = order
        .iter()
        .enumerate()
        .map(|(rank, &p)| (byes_so_far(p), usize::MAX - rank, p))
        .collect();
    candidates.sort_unstable();
    candidates.iter().take(count).map(|&(_, _, p)| p).collect()
}

/// The most steps the Swiss seating search takes: ample for an exact answer up to a few
/// dozen players, and a bound on a round's pairing time beyond.
pub const SEARCH_STEPS: u64 = 200_000;

/// Swiss seating: `order` (best first) at tables of `sizes`, players of similar standing
/// together, with the fewest repeated meetings the search finds (`met(a, b)`: how often `a`
/// and `b` sat at one table before). Players are placed in standing order, each at the
/// first table with room that keeps the repeats lowest, so without repeats the first table
/// holds the leaders; the search is exact while it stays within [`SEARCH_STEPS`]: nobody
/// meets an opponent again while a seating without that exists.
pub fn swiss(
    order: &[usize],
    sizes: &[usize],
    met: impl Fn(usize, usize) -> u32,
) -> Vec<Vec<usize>> {
    let mut search = Search {
        order,
        sizes,
        met: &met,
        tables: sizes.iter().map(|&s| Vec::with_capacity(s)).collect(),
        best: None,
        steps: 0,
    };
    search.place(0, 0);
    search.best.map(|(_, tables)| tables).unwrap_or_default()
}

struct Search<'a, F: Fn(usize, usize) -> u32> {
    order: &'a [usize],
    sizes: &'a [usize],
    met: &'a F,
    tables: Vec<Vec<usize>>,
    best: Option<(u32, Vec<Vec<usize>>)>,
    steps: u64,
}

impl<F: Fn(usize, usize) -> u32> Search<'_, F> {
    fn place(&mut self, i: usize, cost: u32) {
        if self.best.as_ref().is_some_and(|(b, _)| cost >= *b) || self.steps >= SEARCH_STEPS {
            return;
        }
        self.steps += 1;
        let Some(&player) = self.order.get(i) else {
            self.best = Some((cost, self.tables.clone()));
            return;
        };
        // Empty tables of one size are alike: try one of them only.
        let mut empty_sizes_tried: Vec<usize> = Vec::new();
        for t in 0..self.tables.len() {
            if self.tables[t].len() == self.sizes[t] {
                continue;
            }
            if self.tables[t].is_empty() {
                if empty_sizes_tried.contains(&self.sizes[t]) {
                    continue;
                }
                empty_sizes_tried.push(self.sizes[t]);
            }
            let added: u32 = self.tables[t].iter().map(|&q| (self.met)(player, q)).sum();
            self.tables[t].push(player);
            self.place(i + 1, cost + added);
            self.tables[t].pop();
            if self.best.as_ref().is_some_and(|(b, _)| *b == 0) {
                return;
            }
        }
    }
}

/// Knockout seating: `order` (best first) dealt to tables of `sizes` in a snake (first,
/// second, ... last table, then back), so that the strongest meet as late as possible.
pub fn knockout(order: &[usize], sizes: &[usize]) -> Vec<Vec<usize>> {
    let mut tables: Vec<Vec<usize>> = sizes.iter().map(|&s| Vec::with_capacity(s)).collect();
    let n = tables.len();
    let mut players = order.iter();
    let mut pass = 0;
    while tables.iter().zip(sizes).any(|(t, &s)| t.len() < s) {
        for k in 0..n {
            let t = if pass % 2 == 0 { k } else { n - 1 - k };
            if tables[t].len() < sizes[t] {
                if let Some(&p) = players.next() {
                    tables[t].push(p);
                }
            }
        }
        pass += 1;
        if pass > order.len() + n {
            break;
        }
    }
    tables
}

/// Points for `place` (1 for the first) at a table of `seats` seats: `seats - place`, so the
/// first of four scores 3 and the last 0.
pub fn points(place: u32, seats: usize) -> i32 {
    i32::try_from(seats).unwrap_or(i32::MAX) - i32::try_from(place).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Repeated meetings of a seating, given who met whom before.
    fn repeats(tables: &[Vec<usize>], met: &HashMap<(usize, usize), u32>) -> u32 {
        let mut total = 0;
        for table in tables {
            for (i, &a) in table.iter().enumerate() {
                for &b in &table[i + 1..] {
                    total += met.get(&(a.min(b), a.max(b))).copied().unwrap_or(0);
                }
            }
        }
        total
    }

    /// The fewest repeats any seating of `players` at tables of `sizes` has, by trying every
    /// assignment of a table to each player.
    fn fewest_repeats(
        players: &[usize],
        sizes: &[usize],
        met: &HashMap<(usize, usize), u32>,
    ) -> u32 {
        let mut best = u32::MAX;
        let mut tables: Vec<Vec<usize>> = vec![Vec::new(); sizes.len()];
        fn go(
            i: usize,
            players: &[usize],
            sizes: &[usize],
            tables: &mut Vec<Vec<usize>>,
            met: &HashMap<(usize, usize), u32>,
            best: &mut u32,
        ) {
            if i == players.len() {
                *best = (*best).min(repeats(tables, met));
                return;
            }
            for t in 0..sizes.len() {
                if tables[t].len() < sizes[t] {
                    tables[t].push(players[i]);
                    go(i + 1, players, sizes, tables, met, best);
                    tables[t].pop();
                }
            }
        }
        go(0, players, sizes, &mut tables, met, &mut best);
        best
    }

    #[test]
    fn layouts_seat_everyone_once_at_tables_the_game_allows() {
        for players in 0..40 {
            for table_size in 2..=6 {
                for min_seats in 2..=table_size {
                    for fill in [false, true] {
                        let l = layout(players, table_size, min_seats, fill);
                        assert_eq!(l.tables.iter().sum::<usize>() + l.byes, players);
                        assert!(l.tables.iter().all(|&t| t <= table_size && t >= 1));
                        let (lo, hi) = (l.tables.iter().min(), l.tables.iter().max());
                        assert!(hi.zip(lo).is_none_or(|(h, l)| h - l <= 1), "even tables");
                        if fill {
                            assert_eq!(l.byes, 0, "bots fill the tables");
                        } else {
                            assert!(l.tables.iter().all(|&t| t >= min_seats));
                            // A bye only when every table is full, or no table can be formed.
                            assert!(
                                l.byes == 0
                                    || l.tables.iter().all(|&t| t == table_size)
                                    || l.tables.is_empty()
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn swiss_rounds_repeat_no_meeting_while_a_seating_without_exists() {
        let mut rng = ChaCha8Rng::seed_from_u64(37);
        let mut total_byes = 0;
        for tournament in 0..150 {
            let players: usize = rng.random_range(4..=9);
            let table_size: usize = rng.random_range(2..=4);
            let min_seats: usize = rng.random_range(2..=table_size);
            let fill = rng.random_bool(0.5);
            let mut byes_given = 0;
            let mut met: HashMap<(usize, usize), u32> = HashMap::new();
            let mut bye_count: HashMap<usize, u32> = HashMap::new();
            let mut points: Vec<i32> = vec![0; players];
            for round in 0..5 {
                let mut order: Vec<usize> = (0..players).collect();
                order.shuffle(&mut rng);
                order.sort_by_key(|&p| std::cmp::Reverse(points[p]));
                let plan = layout(players, table_size, min_seats, fill);
                byes_given += plan.byes;
                let sitting_out = byes(&order, plan.byes, |p| {
                    bye_count.get(&p).copied().unwrap_or(0)
                });
                // Byes are fair: those who sit out have had no more byes than anyone seated.
                let count = |p: &usize| bye_count.get(p).copied().unwrap_or(0);
                let most_out = sitting_out.iter().map(count).max();
                let fewest_in = order
                    .iter()
                    .filter(|p| !sitting_out.contains(p))
                    .map(count)
                    .min();
                assert!(
                    most_out.zip(fewest_in).is_none_or(|(o, i)| o <= i),
                    "tournament {tournament} round {round}: an unfair bye"
                );
                let seated: Vec<usize> = order
                    .iter()
                    .copied()
                    .filter(|p| !sitting_out.contains(p))
                    .collect();
                let tables = swiss(&seated, &plan.tables, |a, b| {
                    met.get(&(a.min(b), a.max(b))).copied().unwrap_or(0)
                });
                // Everyone exactly once.
                let mut all: Vec<usize> = tables
                    .iter()
                    .flatten()
                    .copied()
                    .chain(sitting_out.iter().copied())
                    .collect();
                all.sort_unstable();
                assert_eq!(
                    all,
                    (0..players).collect::<Vec<_>>(),
                    "tournament {tournament} round {round}"
                );
                for (table, &size) in tables.iter().zip(&plan.tables) {
                    assert_eq!(table.len(), size);
                }
                assert_eq!(
                    repeats(&tables, &met),
                    fewest_repeats(&seated, &plan.tables, &met),
                    "tournament {tournament} round {round}: a meeting repeated that another seating avoids"
                );
                for table in &tables {
                    for (i, &a) in table.iter().enumerate() {
                        for &b in &table[i + 1..] {
                            *met.entry((a.min(b), a.max(b))).or_default() += 1;
                        }
                    }
                    for (place, &p) in table.iter().enumerate() {
                        points[p] += (table.len() - place) as i32;
                    }
                }
                for &p in &sitting_out {
                    *bye_count.entry(p).or_default() += 1;
                }
            }
            total_byes += byes_given;
        }
        assert!(
            total_byes > 100,
            "the tournaments tried had byes to give: {total_byes}"
        );
    }

    #[test]
    fn the_first_round_seats_the_standings_in_order() {
        let order = [5, 3, 1, 0, 2, 4, 6, 7];
        assert_eq!(
            swiss(&order, &[4, 4], |_, _| 0),
            vec![vec![5, 3, 1, 0], vec![2, 4, 6, 7]]
        );
        assert_eq!(
            knockout(&order, &[4, 4]),
            vec![vec![5, 0, 2, 7], vec![3, 1, 4, 6]]
        );
        assert_eq!(points(1, 4), 3);
        assert_eq!(points(4, 4), 0);
    }
}
