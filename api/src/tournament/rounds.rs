//! A tournament's steps: its start, a round's end (its results, the knockout's eliminations)
//! and the next round's pairing and games, or its end. Each step runs in the caller's
//! transaction, which holds the tournament's row lock: it happens once, whichever process
//! takes it, or not at all.

use std::collections::HashMap;
use std::time::Duration;

use db::store::{
    self, NewNotice, NoticeDue, NoticeRow, TournamentEntry, TournamentResult, TournamentRow,
    TournamentTable,
};
use db::PgConnection;
use engine::DynGame;
use uuid::Uuid;

use super::pairing;
use super::standings::standings;
use super::{format_of, names_of};
use crate::dto::{
    BotInfo, BotLevel, Clock, PlayerNotice, TournamentFinishedNotice, TournamentFormat,
    TournamentRoundNotice,
};
use crate::error::ApiError;
use crate::lifecycle::outcome::outcome;
use crate::service::decision::lifecycle_of;
use crate::service::lobby::{self, GamePlan, SeatPlan};
use crate::state::Context;

/// How often a running tournament is looked at for the end of its round.
pub const ROUND_CHECK: Duration = Duration::from_secs(2);

/// The most rounds a knockout runs (a guard; tables shrink every round).
const MAX_ROUNDS: i32 = 20;

/// Takes tournament `t`'s next step, if it is due: the notices to send once committed.
///
/// # Errors
/// Store errors; 500 for unreadable stored data.
pub fn advance(
    conn: &mut PgConnection,
    cx: &Context,
    t: &TournamentRow,
) -> Result<Vec<NoticeRow>, ApiError> {
    match t.status.as_str() {
        "waiting" => start(conn, cx, t),
        "running" => match round_results(conn, t)? {
            None => {
                store::update_tournament(conn, t.id, "running", t.round, ROUND_CHECK)?;
                Ok(Vec::new())
            }
            Some(results) => end_round(conn, cx, t, &results),
        },
        _ => Ok(Vec::new()),
    }
}

fn kind_of(t: &TournamentRow) -> Result<&'static dyn DynGame, ApiError> {
    engine::registry::find(&t.game_type)
        .ok_or_else(|| ApiError::internal(format!("a tournament of unknown type {}", t.game_type)))
}

/// The first round, or the end of a tournament too few joined.
fn start(
    conn: &mut PgConnection,
    cx: &Context,
    t: &TournamentRow,
) -> Result<Vec<NoticeRow>, ApiError> {
    let entries = store::tournament_entries(conn, t.id)?;
    if entries.len() < 2 {
        store::update_tournament(conn, t.id, "cancelled", 0, Duration::ZERO)?;
        tracing::info!(tournament_id = %t.id, "tournament cancelled: fewer than two players");
        return Ok(Vec::new());
    }
    start_round(conn, cx, t, 1, &entries, &[], &[])
}

/// Pairs round `round` among the players still in, creates its games, records its byes.
fn start_round(
    conn: &mut PgConnection,
    cx: &Context,
    t: &TournamentRow,
    round: i32,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
    results: &[TournamentResult],
) -> Result<Vec<NoticeRow>, ApiError> {
    let kind = kind_of(t)?;
    let format = format_of(t);
    let names = names_of(conn, entries)?;
    let ranked = standings(format, entries, &names, tables, results);
    let playing: Vec<Uuid> = ranked
        .iter()
        .filter(|s| !s.withdrawn && s.out_in_round.is_none())
        .map(|s| s.player_id)
        .collect();
    let index: HashMap<Uuid, usize> = playing.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let order: Vec<usize> = (0..playing.len()).collect();
    let table_size = usize::try_from(t.table_size).unwrap_or(2);
    let layout = pairing::layout(
        playing.len(),
        table_size,
        kind.info().min_seats,
        t.fill_with_bots,
    );
    let bye_count = |i: usize| {
        results
            .iter()
            .filter(|r| r.bye && r.player_id == playing[i])
            .count() as u32
    };
    let sitting_out = pairing::byes(&order, layout.byes, bye_count);
    let seated: Vec<usize> = order
        .iter()
        .copied()
        .filter(|i| !sitting_out.contains(i))
        .collect();
    let mut met: HashMap<(usize, usize), u32> = HashMap::new();
    for table in tables.iter().filter(|t| t.game_id.is_some()) {
        let at: Vec<usize> = table
            .players
            .iter()
            .flatten()
            .filter_map(|p| index.get(p).copied())
            .collect();
        for (i, &a) in at.iter().enumerate() {
            for &b in &at[i + 1..] {
                *met.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
    }
    let seating = match format {
        TournamentFormat::Swiss => pairing::swiss(&seated, &layout.tables, |a, b| {
            met.get(&(a.min(b), a.max(b))).copied().unwrap_or(0)
        }),
        TournamentFormat::Knockout => pairing::knockout(&seated, &layout.tables),
    };
    let bot = BotLevel::parse(&t.bot_level).unwrap_or(BotLevel::Greedy);
    let mut rows = Vec::new();
    let mut notices = Vec::new();
    let mut told = Vec::new();
    for (number, table) in seating.iter().enumerate() {
        // Seats turn with the rounds and tables, so that nobody always moves first.
        let mut players: Vec<Option<Uuid>> = table.iter().map(|&i| Some(playing[i])).collect();
        if t.fill_with_bots {
            players.resize(table_size.max(players.len()), None);
        }
        let turn = (round as usize + number) % players.len().max(1);
        players.rotate_left(turn);
        let mut seats = Vec::with_capacity(players.len());
        for player in &players {
            seats.push(match player {
                Some(id) => SeatPlan::Player(store::get_player(conn, *id)?.ok_or_else(|| {
                    ApiError::internal("a tournament player that does not exist")
                })?),
                None => SeatPlan::Bot(BotInfo {
                    level: bot,
                    budget_ms: None,
                }),
            });
        }
        let plan = GamePlan {
            kind,
            config: t.config.clone(),
            entropies: vec![None; seats.len()],
            seats,
            seed: None,
            clock: Clock::read_stored(Some(&t.clock))?,
            rated: t.rated,
            bearer: None,
        };
        let (created, started) = lobby::create_game_in(conn, cx, plan)?;
        notices.extend(started);
        for (seat, player) in players.iter().enumerate() {
            if let Some(p) = player {
                told.push((*p, Some(created.game_id), Some(seat as i32)));
            }
        }
        rows.push(TournamentTable {
            tournament_id: t.id,
            round,
            table_no: number as i32 + 1,
            game_id: Some(created.game_id),
            players,
        });
    }
    let mut bye_results = Vec::new();
    for (k, &i) in sitting_out.iter().enumerate() {
        let p = playing[i];
        rows.push(TournamentTable {
            tournament_id: t.id,
            round,
            table_no: (seating.len() + k + 1) as i32,
            game_id: None,
            players: vec![Some(p)],
        });
        bye_results.push(TournamentResult {
            tournament_id: t.id,
            round,
            player_id: p,
            place: None,
            points: pairing::points(1, table_size),
            score: 0,
            bye: true,
        });
        told.push((p, None, None));
    }
    store::insert_tables(conn, &rows)?;
    store::insert_results(conn, &bye_results)?;
    store::update_tournament(conn, t.id, "running", round, ROUND_CHECK)?;
    notices.extend(tell(
        conn,
        told.iter().map(|&(p, game_id, seat)| {
            (
                p,
                PlayerNotice::TournamentRound(TournamentRoundNotice {
                    seq: 0,
                    tournament_id: t.id,
                    round,
                    game_id,
                    seat,
                }),
            )
        }),
    )?);
    tracing::info!(tournament_id = %t.id, round, tables = seating.len(), byes = sitting_out.len(), "tournament round started");
    Ok(notices)
}

/// Records `notices` for their players (their rows locked in id order first).
fn tell(
    conn: &mut PgConnection,
    notices: impl Iterator<Item = (Uuid, PlayerNotice)>,
) -> Result<Vec<NoticeRow>, ApiError> {
    let notices: Vec<NewNotice> = notices
        .map(|(player_id, body)| NewNotice {
            player_id,
            kind: body.kind().to_string(),
            body: serde_json::to_value(&body).expect("notices serialize"),
            due: NoticeDue::None,
        })
        .collect();
    let mut ids: Vec<Uuid> = notices.iter().map(|n| n.player_id).collect();
    ids.sort();
    ids.dedup();
    store::lock_players(conn, &ids)?;
    Ok(store::record_now(conn, None, notices)?)
}

/// The results of the current round, once every one of its games is over; `None` before.
fn round_results(
    conn: &mut PgConnection,
    t: &TournamentRow,
) -> Result<Option<Vec<TournamentResult>>, ApiError> {
    let mut results = Vec::new();
    for table in store::tournament_tables(conn, t.id, Some(t.round))? {
        let Some(game_id) = table.game_id else {
            continue;
        };
        let game = store::get_game(conn, game_id)?;
        if !game.status.is_over() {
            return Ok(None);
        }
        let seats = store::seats(conn, game_id)?;
        let kind = kind_of(t)?;
        let state = game
            .snapshot
            .as_ref()
            .map(|s| kind.load(s.as_str()))
            .transpose()?;
        let (_, life) = lifecycle_of(&game, &seats)?;
        let result = outcome(state.and_then(|s| s.outcome()), &life);
        for (seat, player) in table.players.iter().enumerate() {
            let Some(player) = player else { continue };
            let place = result.as_ref().and_then(|o| o.places.get(seat).copied());
            results.push(TournamentResult {
                tournament_id: t.id,
                round: t.round,
                player_id: *player,
                place: place.map(|p| i32::try_from(p).unwrap_or(i32::MAX)),
                points: place.map_or(0, |p| pairing::points(p, table.players.len())),
                score: result
                    .as_ref()
                    .and_then(|o| o.scores.get(seat).copied())
                    .unwrap_or(0),
                bye: false,
            });
        }
    }
    Ok(Some(results))
}

/// The current round is over with `results`: records them, then starts the next round or
/// ends the tournament.
fn end_round(
    conn: &mut PgConnection,
    cx: &Context,
    t: &TournamentRow,
    results: &[TournamentResult],
) -> Result<Vec<NoticeRow>, ApiError> {
    store::insert_results(conn, results)?;
    let tables = store::tournament_tables(conn, t.id, None)?;
    let games_this_round = tables
        .iter()
        .filter(|x| x.round == t.round && x.game_id.is_some())
        .count();
    let last = match format_of(t) {
        TournamentFormat::Swiss => t.round >= t.rounds.unwrap_or(1),
        TournamentFormat::Knockout => {
            knock_out(conn, t, &tables, results)?;
            games_this_round <= 1 || t.round >= MAX_ROUNDS
        }
    };
    let entries = store::tournament_entries(conn, t.id)?;
    let all_results = store::tournament_results(conn, t.id)?;
    let still_in = entries
        .iter()
        .filter(|e| e.withdrawn_at.is_none() && e.out_in_round.is_none())
        .count();
    if last || still_in < 2 {
        return finish(conn, t, &entries, &tables, &all_results);
    }
    start_round(conn, cx, t, t.round + 1, &entries, &tables, &all_results)
}

/// Knockout: the worse half of each table of the round (by place, bots aside) is out; a tie
/// at the line keeps everyone tied; a bye goes on.
fn knock_out(
    conn: &mut PgConnection,
    t: &TournamentRow,
    tables: &[TournamentTable],
    results: &[TournamentResult],
) -> Result<(), ApiError> {
    let mut out = Vec::new();
    for table in tables
        .iter()
        .filter(|x| x.round == t.round && x.game_id.is_some())
    {
        let mut at: Vec<(i32, Uuid)> = table
            .players
            .iter()
            .flatten()
            .map(|p| {
                let place = results
                    .iter()
                    .find(|r| r.player_id == *p)
                    .and_then(|r| r.place)
                    .unwrap_or(i32::MAX);
                (place, *p)
            })
            .collect();
        if at.iter().all(|(place, _)| *place == i32::MAX) {
            continue;
        }
        at.sort();
        let keep = at.len().div_ceil(2);
        let line = at[keep - 1].0;
        out.extend(
            at.iter()
                .filter(|(place, _)| *place > line)
                .map(|(_, p)| *p),
        );
    }
    store::knock_out(conn, t.id, &out, t.round)?;
    Ok(())
}

/// Ends the tournament: the final standings, and a notice to each player with its rank.
fn finish(
    conn: &mut PgConnection,
    t: &TournamentRow,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
    results: &[TournamentResult],
) -> Result<Vec<NoticeRow>, ApiError> {
    store::update_tournament(conn, t.id, "finished", t.round, Duration::ZERO)?;
    let names = names_of(conn, entries)?;
    let ranked = standings(format_of(t), entries, &names, tables, results);
    tracing::info!(tournament_id = %t.id, rounds = t.round, "tournament finished");
    tell(
        conn,
        ranked.iter().map(|s| {
            (
                s.player_id,
                PlayerNotice::TournamentFinished(TournamentFinishedNotice {
                    seq: 0,
                    tournament_id: t.id,
                    rank: s.rank,
                    points: s.points,
                }),
            )
        }),
    )
}
