//! The offline verifier (`verify-record`) on records made here with the documented chance:
//! a true record verifies; a changed event, action or reveal fails at the right place with a
//! non-zero exit.

use std::path::PathBuf;
use std::process::Command;

use engine::chance::{chance_key, commitment, GameChance};
use engine::record::{self as records, Move, Record, RecordChance, Reveal, FORMAT};
use engine::{registry, Seat};
use serde_json::{json, Value};

/// A record of `moves` first-listed actions of a game of `game_type` with its fewest seats.
fn record(game_type: &str, moves: usize) -> Record {
    let server_seed = [7u8; 32];
    let game_id = [3u8; 16];
    let seats: u8 = if game_type == "tyros" { 3 } else { 2 };
    let mut entropies = vec![None; usize::from(seats)];
    entropies[0] = Some("ann's entropy".to_string());
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
            usize::from(seats),
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
            chance: Vec::new(),
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
        seat_count: seats,
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
        setup_chance: Vec::new(),
        moves: recorded,
        table: Value::Null,
    }
}

/// Why `record` does not verify.
fn refusal(record: &Record) -> records::RecordError {
    match records::verify(record) {
        Ok(_) => panic!("the record verified"),
        Err(e) => e,
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

/// A record of a game played at a table names its chance outcomes (chance version 0): the
/// record a table would have kept of a drawn game verifies, with or without its events and
/// with the unseen part of a pile left unnamed; a changed outcome fails at its move.
#[test]
fn a_tables_record_verifies_from_its_named_outcomes() {
    for game_type in ["tycoon", "acquire", "monopoly", "tyros"] {
        let drawn = record(game_type, 40);
        let table = records::at_the_table(&drawn).unwrap();
        assert_eq!(table.chance.version, 0);
        assert!(table.chance.reveal.is_none() && table.chance.commitment.is_none());
        assert!(
            !table.setup_chance.is_empty(),
            "{game_type}: the setup shuffles"
        );
        let (code, out) = verify(&format!("{game_type}-table"), &table);
        assert_eq!(code, 0, "{game_type}: {out}");
        let expected = records::verify(&drawn).unwrap();

        // The events left out: the rules give them from the outcomes.
        let mut bare = table.clone();
        bare.setup.clear();
        for step in &mut bare.moves {
            step.events.clear();
        }
        let given = records::verify(&bare).unwrap();
        assert_eq!(given.setup, drawn.setup, "{game_type}");
        let recorded: Vec<_> = drawn.moves.iter().map(|m| m.events.clone()).collect();
        assert_eq!(given.events, recorded, "{game_type}");
        assert_eq!(given.version, expected.version, "{game_type}");

        // Early in a game, the first pile's bottom quarter was never seen: left unnamed.
        // Monopoly deals from the front of its list, the others from the back.
        let short = records::at_the_table(&record(game_type, 8)).unwrap();
        let mut unseen = short.clone();
        unseen.setup.clear();
        let pile = unseen.setup_chance[0].as_array_mut().unwrap();
        let quarter = pile.len() / 4;
        let bottom = if game_type == "monopoly" {
            pile.len() - quarter..pile.len()
        } else {
            0..quarter
        };
        pile[bottom].iter_mut().for_each(|item| *item = Value::Null);
        let partly = records::verify(&unseen).unwrap_or_else(|e| panic!("{game_type}: {e}"));
        let moves: Vec<_> = short.moves.iter().map(|m| m.events.clone()).collect();
        assert_eq!(partly.events, moves, "{game_type}");

        // A named item that is not in the pile is refused where it is named: the setup.
        let mut wrong = table.clone();
        wrong.setup_chance[0][0] = json!("no such item");
        let error = refusal(&wrong);
        assert_eq!((error.index, error.code), (None, "chance_outcome_invalid"));
    }
}

/// Monopoly's dice at a table: a changed face fails at its move (its events no longer
/// follow), an impossible face as an invalid outcome, and a missing one as missing.
#[test]
fn a_tables_dice_are_checked_where_they_are_rolled() {
    let table = records::at_the_table(&record("monopoly", 40)).unwrap();
    let at = table
        .moves
        .iter()
        .position(|m| !m.chance.is_empty())
        .expect("someone rolled");
    let face = table.moves[at].chance[0].as_u64().unwrap();

    let mut changed = table.clone();
    changed.moves[at].chance[0] = json!(face % 6 + 1);
    let (code, out) = verify("monopoly-face", &changed);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with(&format!("move {at}: ")), "{out}");
    assert!(out.contains("events_mismatch"), "{out}");

    let mut impossible = table.clone();
    impossible.moves[at].chance[0] = json!(7);
    let error = refusal(&impossible);
    assert_eq!(
        (error.index, error.code),
        (Some(at), "chance_outcome_invalid")
    );
    assert!(
        error.message.contains("a die's face from 1 to 6"),
        "{}",
        error.message
    );

    let mut missing = table.clone();
    missing.moves[at].chance.clear();
    let error = refusal(&missing);
    assert_eq!(
        (error.index, error.code),
        (Some(at), "chance_outcome_invalid")
    );
    assert!(error.message.contains("missing"), "{}", error.message);

    // A drawn record names no outcomes.
    let mut mixed = record("monopoly", 10);
    mixed.moves[0].chance = vec![json!(3)];
    let error = refusal(&mixed);
    assert_eq!(
        (error.index, error.code),
        (Some(0), "chance_outcome_invalid")
    );
}
