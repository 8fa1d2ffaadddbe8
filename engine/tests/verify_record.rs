//! The offline verifier (`verify-record`) on records made here with the documented chance:
//! a true record verifies; a changed event, action or reveal fails at the right place with a
//! non-zero exit.

use std::path::PathBuf;
use std::process::Command;

use engine::chance::{chance_key, commitment, GameChance};
use engine::record::{Move, Record, RecordChance, Reveal, FORMAT};
use engine::{registry, Seat};
use serde_json::{json, Value};

/// A record of `moves` first-listed actions of a two-seat game of `game_type`.
fn record(game_type: &str, moves: usize) -> Record {
    let server_seed = [7u8; 32];
    let game_id = [3u8; 16];
    let entropies = vec![Some("ann's entropy".to_string()), None];
    let key = chance_key(
        &server_seed,
        &game_id,
        entropies.iter().map(Option::as_deref),
    );
    let kind = registry::find(game_type).unwrap();
    let rules_version = kind.info().rules_version;
    let config = kind.full_config(rules_version, &json!({})).unwrap();
    let (mut state, setup) = kind
        .setup_as(
            rules_version,
            &config,
            2,
            GameChance::new(2, &key, 0).as_dyn(),
        )
        .unwrap();
    let mut version = setup.len() as i64;
    let mut recorded = Vec::new();
    for _ in 0..moves {
        let Some(&seat) = state.active_seats().first() else {
            break;
        };
        let Some(action) = state.legal_actions(seat).into_iter().next() else {
            break;
        };
        let events = state
            .apply(seat, &action, GameChance::new(2, &key, version).as_dyn())
            .unwrap();
        version += events.len() as i64;
        recorded.push(Move {
            seat: Some(seat.0),
            action: Some(action),
            events,
            lifecycle: Vec::new(),
            at: None,
        });
    }
    assert!(recorded.len() > 3, "{game_type}: the game moved");
    Record {
        format: FORMAT,
        game_type: game_type.to_string(),
        rules_version,
        game_id: "03030303-0303-0303-0303-030303030303".to_string(),
        config,
        seat_count: 2,
        chance: RecordChance {
            version: 2,
            seeded: false,
            commitment: Some(hex::encode(commitment(&server_seed))),
            reveal: Some(Reveal {
                server_seed: hex::encode(server_seed),
                entropies,
                key: hex::encode(key),
            }),
        },
        setup,
        moves: recorded,
        table: Value::Null,
    }
}

/// Runs `verify-record` on `record`: its exit code and what it printed.
fn verify(name: &str, record: &Record) -> (i32, String) {
    let path: PathBuf =
        std::env::temp_dir().join(format!("verify-record-{}-{name}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_vec(record).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_verify-record"))
        .arg(&path)
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_true_record_verifies_and_a_changed_one_fails_where_it_was_changed() {
    for game_type in ["tycoon", "acquire"] {
        let good = record(game_type, 30);
        let (code, out) = verify(&format!("{game_type}-good"), &good);
        assert_eq!(code, 0, "{out}");
        assert!(out.ends_with("verified\n"), "{out}");

        let mut events = good.clone();
        let at = events.moves.len() - 1;
        events.moves[at].events.pop();
        let (code, out) = verify(&format!("{game_type}-events"), &events);
        assert_eq!(code, 1, "{out}");
        assert!(out.starts_with(&format!("move {at}: ")), "{out}");
        assert!(out.contains("events_mismatch"), "{out}");

        let mut seat = good.clone();
        let other = Seat(1 - seat.moves[0].seat.unwrap());
        seat.moves[0].seat = Some(other.0);
        let (code, out) = verify(&format!("{game_type}-seat"), &seat);
        assert_eq!(code, 1, "{out}");
        assert!(out.starts_with("move 0: "), "{out}");
        assert!(out.contains("not_your_turn"), "{out}");

        let mut reveal = good.clone();
        reveal.chance.reveal.as_mut().unwrap().entropies[1] = Some("late".into());
        let (code, out) = verify(&format!("{game_type}-reveal"), &reveal);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("reveal_mismatch"), "{out}");
    }
}

#[test]
fn a_file_that_is_no_record_is_refused_with_exit_code_2() {
    let path = std::env::temp_dir().join(format!("verify-record-{}-junk.json", std::process::id()));
    std::fs::write(&path, b"{\"format\": 1}").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_verify-record"))
        .arg(&path)
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(2));
}
