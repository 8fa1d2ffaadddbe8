//! What a commit tells the players whose seats it concerns ([`for_commit`]), recorded with
//! the commit ([`db::store::Decision::notices`]) and pushed to their streams. Decided from
//! what the committing request holds (the seats' players, the seats awaited after the
//! commit, its events, its outcome), so no process reads anything to send them.

use db::store::{NewNotice, NoticeDue};
use db::{GameStatus, NewEvent};
use engine::{DynGame, Seat, Viewer};
use uuid::Uuid;

use crate::dto::{
    GameFinishedNotice, GameStartedNotice, OfferNotice, Outcome, PlayerNotice, TurnNotice,
};
use crate::lifecycle::Due;

/// What a commit is, as far as the players are concerned.
pub struct Commit<'a> {
    pub game_id: Uuid,
    pub kind: &'static dyn DynGame,
    /// The game's version after the commit.
    pub version: i64,
    pub rated: bool,
    /// Per seat, the player it belongs to.
    pub players: &'a [Option<Uuid>],
    /// The commit starts the game.
    pub starts: bool,
    /// The game's status after it.
    pub status: GameStatus,
    /// The seats the game waits for after it, with their clocks' deadlines.
    pub awaited: Vec<(Seat, Option<Due>)>,
    /// Whether the server's bot plays a seat (its player is not asked to act).
    pub bot_plays: &'a dyn Fn(Seat) -> bool,
    /// The seat whose request made the commit, if any: its answer tells it already.
    pub actor: Option<Seat>,
    /// The commit's events.
    pub events: &'a [NewEvent],
    /// The game's outcome after it, once finished.
    pub outcome: Option<Outcome>,
}

fn notice(player: Uuid, body: &PlayerNotice, due: NoticeDue) -> NewNotice {
    NewNotice {
        player_id: player,
        kind: body.kind().to_string(),
        body: serde_json::to_value(body).expect("notices serialize"),
        due,
    }
}

/// The notices of `commit`, per player seat: `game_started` when it starts the game, `offer`
/// for each trade offer addressed to the seat, `turn` when the game then waits for the seat
/// (unless the seat's own request made the commit, or the server's bot plays the seat), and
/// `game_finished` when it ends the game.
pub fn for_commit(commit: &Commit<'_>) -> Vec<NewNotice> {
    let mut out = Vec::new();
    let type_ = commit.kind.name().to_string();
    for (index, player) in commit.players.iter().enumerate() {
        let Some(player) = *player else { continue };
        let seat = Seat(u8::try_from(index).unwrap_or(u8::MAX));
        if commit.starts {
            let body = PlayerNotice::GameStarted(GameStartedNotice {
                seq: 0,
                game_id: commit.game_id,
                type_: type_.clone(),
                version: commit.version,
                seat: seat.0,
                rated: commit.rated,
            });
            out.push(notice(player, &body, NoticeDue::None));
        }
        for event in commit.events {
            if commit.kind.offer_to(&event.event) != Some(seat) {
                continue;
            }
            let Ok(Some(seen)) = commit.kind.redact(&event.event, Viewer::Seat(seat), false) else {
                continue;
            };
            let body = PlayerNotice::Offer(OfferNotice {
                seq: 0,
                game_id: commit.game_id,
                type_: type_.clone(),
                version: commit.version,
                seat: seat.0,
                from: event.seat.and_then(|s| u8::try_from(s).ok()),
                event: seen,
            });
            out.push(notice(player, &body, NoticeDue::None));
        }
        if let Some((_, due)) = commit.awaited.iter().find(|(s, _)| *s == seat) {
            if commit.actor != Some(seat) && !(commit.bot_plays)(seat) {
                let due = match due {
                    Some(Due::At(t)) => NoticeDue::At(*t),
                    Some(Due::AfterCommit(d)) => {
                        NoticeDue::AfterCommit(d.to_std().unwrap_or_default())
                    }
                    None => NoticeDue::None,
                };
                let body = PlayerNotice::Turn(TurnNotice {
                    seq: 0,
                    game_id: commit.game_id,
                    type_: type_.clone(),
                    version: commit.version,
                    seat: seat.0,
                    deadline: None,
                });
                out.push(notice(player, &body, due));
            }
        }
        if commit.status.is_over() {
            let body = PlayerNotice::GameFinished(GameFinishedNotice {
                seq: 0,
                game_id: commit.game_id,
                type_: type_.clone(),
                version: commit.version,
                seat: seat.0,
                status: commit.status.into(),
                outcome: commit.outcome.clone(),
                rated: commit.rated,
            });
            out.push(notice(player, &body, NoticeDue::None));
        }
    }
    out
}

/// A stored notice as the stream sends it: its body with its seq and, for a turn, its
/// deadline.
pub fn wire(row: &db::store::NoticeRow) -> serde_json::Value {
    let mut body = row.body.clone();
    if let Some(map) = body.as_object_mut() {
        map.insert("seq".into(), row.seq.into());
        if row.kind == "turn" {
            map.insert(
                "deadline".into(),
                serde_json::to_value(row.deadline).unwrap_or_default(),
            );
        }
    }
    body
}
