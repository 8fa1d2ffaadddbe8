//! The standings of a tournament, from its stored tables and results.

use std::collections::HashMap;

use db::store::{TournamentEntry, TournamentResult, TournamentTable};
use uuid::Uuid;

use crate::dto::{Standing, TournamentFormat};

/// Ranks the `entries` (names by player id in `names`) by their `results` at the `tables`:
/// Swiss by points, then the points of everyone they sat with, then their game scores;
/// knockout first by how far they came (the last table's players, by their place there,
/// then the ones out in the round before, ...). Before any result: the entries in the order
/// they joined, all sharing rank 1.
pub fn standings(
    format: TournamentFormat,
    entries: &[TournamentEntry],
    names: &HashMap<Uuid, String>,
    tables: &[TournamentTable],
    results: &[TournamentResult],
) -> Vec<Standing> {
    let mut points: HashMap<Uuid, i32> = HashMap::new();
    let mut score: HashMap<Uuid, i64> = HashMap::new();
    let mut games: HashMap<Uuid, u32> = HashMap::new();
    let mut byes: HashMap<Uuid, u32> = HashMap::new();
    // Each player's place in the last round it played (knockout ranks by it).
    let mut last_place: HashMap<Uuid, (i32, i32)> = HashMap::new();
    for r in results {
        *points.entry(r.player_id).or_default() += r.points;
        *score.entry(r.player_id).or_default() += r.score;
        if r.bye {
            *byes.entry(r.player_id).or_default() += 1;
        } else {
            *games.entry(r.player_id).or_default() += 1;
        }
        let place = r.place.unwrap_or(i32::MAX);
        let last = last_place.entry(r.player_id).or_insert((r.round, place));
        if r.round >= last.0 {
            *last = (r.round, place);
        }
    }
    let mut opponents: HashMap<Uuid, Vec<Uuid>> = HashMap::new();
    for table in tables.iter().filter(|t| t.game_id.is_some()) {
        let at: Vec<Uuid> = table.players.iter().flatten().copied().collect();
        for &p in &at {
            let others = at.iter().copied().filter(|&q| q != p);
            opponents.entry(p).or_default().extend(others);
        }
    }
    let mut lines: Vec<Standing> = entries
        .iter()
        .map(|e| {
            let p = e.player_id;
            let opponents_points = opponents
                .get(&p)
                .map(|os| os.iter().map(|o| points.get(o).copied().unwrap_or(0)).sum())
                .unwrap_or(0);
            Standing {
                rank: 0,
                player_id: p,
                name: names.get(&p).cloned().unwrap_or_default(),
                points: points.get(&p).copied().unwrap_or(0),
                opponents_points,
                score: score.get(&p).copied().unwrap_or(0),
                games: games.get(&p).copied().unwrap_or(0),
                byes: byes.get(&p).copied().unwrap_or(0),
                out_in_round: e.out_in_round,
                withdrawn: e.withdrawn_at.is_some(),
            }
        })
        .collect();
    let key = |s: &Standing| {
        let knockout = match format {
            TournamentFormat::Knockout => {
                let reached = s.out_in_round.unwrap_or(i32::MAX);
                let (round, place) = last_place
                    .get(&s.player_id)
                    .copied()
                    .unwrap_or((0, i32::MAX));
                (std::cmp::Reverse(reached), std::cmp::Reverse(round), place)
            }
            TournamentFormat::Swiss => (std::cmp::Reverse(0), std::cmp::Reverse(0), 0),
        };
        (
            knockout,
            std::cmp::Reverse(s.points),
            std::cmp::Reverse(s.opponents_points),
            std::cmp::Reverse(s.score),
        )
    };
    lines.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.name.cmp(&b.name)));
    let mut rank = 0;
    for i in 0..lines.len() {
        if i == 0 || key(&lines[i]) != key(&lines[i - 1]) {
            rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
        }
        lines[i].rank = rank;
    }
    lines
}
