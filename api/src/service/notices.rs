//! What a commit tells the players whose seats it concerns ([`for_commit`]), recorded with
//! the commit ([`db::store::Decision::notices`]) and pushed to their streams. Decided from
//! what the committing request holds (the seats' players, the seats awaited after the
//! commit, its events, its outcome), so no process reads anything to send them.

use db::store::{NewNotice, NoticeDue};
use db::{GameRow, GameStatus, NewEvent, SeatRow};
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

/// The notices of open game `game` ending as `status` without starting (called off, or
/// expired): each player seated in it (`seats`, read with its row locked) is told
/// `game_finished` with that status and no outcome.
pub fn for_open_end(game: &GameRow, status: GameStatus, seats: &[SeatRow]) -> Vec<NewNotice> {
    seats
        .iter()
        .filter_map(|seat| {
            let body = PlayerNotice::GameFinished(GameFinishedNotice {
                seq: 0,
                game_id: game.id,
                type_: game.game_type.clone(),
                version: game.version,
                seat: u8::try_from(seat.seat).unwrap_or(u8::MAX),
                status: status.into(),
                outcome: None,
                rated: game.rated,
            });
            Some(notice(seat.player_id?, &body, NoticeDue::None))
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn commit<'a>(
        kind: &'static dyn DynGame,
        players: &'a [Option<Uuid>],
        events: &'a [NewEvent],
        awaited: Vec<(Seat, Option<Due>)>,
        actor: Option<Seat>,
    ) -> Commit<'a> {
        Commit {
            game_id: Uuid::nil(),
            kind,
            version: 9,
            rated: false,
            players,
            starts: false,
            status: GameStatus::Active,
            awaited,
            bot_plays: &|_| false,
            actor,
            events,
            outcome: None,
        }
    }

    #[test]
    fn a_trade_offer_is_told_to_the_player_of_the_seat_it_is_addressed_to() {
        let monopoly = engine::registry::find("monopoly").unwrap();
        let (ann, bob) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let players = [Some(ann), Some(bob)];
        let bundle = json!({"cash": 0, "properties": [], "cards": []});
        let offer = json!({"type": "trade_offered", "offer": {
            "offer": 0, "from": 0, "to": 1,
            "give": {"cash": 100, "properties": [], "cards": []}, "get": bundle, "lift": []}});
        let events = [NewEvent::by_seat(0, json!({}), offer.clone())];
        let notices = for_commit(&commit(monopoly, &players, &events, vec![], Some(Seat(0))));
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(
            (notices[0].player_id, notices[0].kind.as_str()),
            (bob, "offer")
        );
        assert_eq!(notices[0].body["from"], 0);
        assert_eq!(notices[0].body["event"], offer);
    }

    #[test]
    fn a_turn_goes_to_every_awaited_player_seat_but_the_one_that_acted() {
        let tycoon = engine::registry::find("tycoon").unwrap();
        let (ann, bob) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let players = [Some(ann), Some(bob), None];
        let awaited = vec![
            (Seat(0), None),
            (
                Seat(1),
                Some(Due::AfterCommit(chrono::TimeDelta::seconds(60))),
            ),
            (Seat(2), None),
        ];
        let notices = for_commit(&commit(tycoon, &players, &[], awaited, Some(Seat(0))));
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(
            (notices[0].player_id, notices[0].kind.as_str()),
            (bob, "turn")
        );
        assert_eq!(notices[0].body["version"], 9);
        assert_eq!(
            notices[0].due,
            NoticeDue::AfterCommit(std::time::Duration::from_secs(60))
        );
    }
}
